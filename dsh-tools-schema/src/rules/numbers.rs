//! `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf`: a number's
//! bounds and step, compared by value on the numbers JSON wrote. This file is the one place the
//! five keywords are written: their JSON names, the typed model's [`NumberRules`] (the common
//! bounds inline, the rest boxed), reading them from an imported schema and writing them back,
//! the check of each (the yes/no form and the violation) and of a whole [`NumberRules`] (which
//! rule a number breaks first, alike for the interpreter and the compiled check), the value of
//! `multipleOf` JSON Schema allows, the checks `#[derive(ToolArgs)]`'s validators run, and, as
//! text `builder.rs` and `derive.rs` expand (`number_methods!`, `number_steps!`), the builder's
//! methods and the macros' steps. Every engine holds the family's [`NumberRules`]: the keyword
//! engine reads it (`parse`) and reports every rule a number breaks (`each_violation`), and the
//! compiled tree holds its compiled form, `NumberRange`: the `u64` values within the bounds,
//! worked out once and exactly, beside the rules as written for every other number and for the
//! rules beyond the bounds (`multipleOf`).
//!
//! It must not know any engine's tree or walk, nor the typed model's tree: engines hand it the
//! rules and the number.

use std::cmp::Ordering;

use serde_json::{Map, Number, Value};

use super::read::KeywordSource;
use crate::multiple_of::is_multiple_of;
use crate::semantics::{compare_numbers, is_less, is_positive_multiple};
use crate::violation::ViolationKind;

/// `minimum`'s JSON name.
pub const MINIMUM: &str = "minimum";
/// `maximum`'s JSON name.
pub const MAXIMUM: &str = "maximum";
/// `exclusiveMinimum`'s JSON name.
pub const EXCLUSIVE_MINIMUM: &str = "exclusiveMinimum";
/// `exclusiveMaximum`'s JSON name.
pub const EXCLUSIVE_MAXIMUM: &str = "exclusiveMaximum";
/// `multipleOf`'s JSON name.
pub const MULTIPLE_OF: &str = "multipleOf";

/// The family's keywords, in the order the importer's list of its vocabulary names them.
pub(crate) const KEYWORDS: &[&str] = &[
    MINIMUM,
    MAXIMUM,
    EXCLUSIVE_MINIMUM,
    EXCLUSIVE_MAXIMUM,
    MULTIPLE_OF,
];

/// Constraints on a number or an integer, kept as exact JSON numbers so that `u64::MAX` and
/// `i64::MIN` bounds compare exactly.
///
/// `#[non_exhaustive]`: a new keyword of the family is a new field or a new rule kept boxed, so
/// build one from [`Default`] and set the fields (or use the
/// [`Schema::number`](crate::Schema::number) builder).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct NumberRules {
    /// `minimum` (inclusive).
    pub minimum: Option<Number>,
    /// `maximum` (inclusive).
    pub maximum: Option<Number>,
    /// The inclusive bounds are a Rust type's own range (`u64`, `i64`, `f32`, …, or a schemars
    /// integer `format`): always enforced, but published only within ±(2^53 − 1), since most
    /// clients read a JSON number as a double and would round a larger bound.
    pub implied_by_type: bool,
    /// `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf`, when any is set
    /// ([`extra_mut`](Self::extra_mut) sets one; [`exclusive_minimum`](Self::exclusive_minimum)
    /// and its siblings read them). Boxed: few schemas set them, and a number is checked against
    /// none of them with one test. How they are kept is the engine's own business.
    pub(crate) extra: Option<Box<ExtraNumberRules>>,
}

/// The rules of a number few schemas set; see [`NumberRules::extra_mut`]. One with none of them
/// set means the same as none.
///
/// `#[non_exhaustive]`: set its fields through [`NumberRules::extra_mut`].
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ExtraNumberRules {
    /// `exclusiveMinimum`: the number must be above it.
    pub exclusive_minimum: Option<Number>,
    /// `exclusiveMaximum`: the number must be below it.
    pub exclusive_maximum: Option<Number>,
    /// `multipleOf`: the number must be an integral multiple of it, decided exactly on the
    /// decimals JSON wrote (`0.0075` is a multiple of `0.0001`). JSON Schema requires it to be
    /// above 0; the builder and import refuse any other, and a rule holding one matches no
    /// number.
    pub multiple_of: Option<Number>,
}

/// The largest integer every JSON reader holds exactly (2^53 − 1, JavaScript's
/// `Number.MAX_SAFE_INTEGER`): implied bounds beyond it are not published.
pub(crate) const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

impl NumberRules {
    /// `exclusiveMinimum`.
    pub fn exclusive_minimum(&self) -> Option<&Number> {
        self.extra.as_deref()?.exclusive_minimum.as_ref()
    }

    /// `exclusiveMaximum`.
    pub fn exclusive_maximum(&self) -> Option<&Number> {
        self.extra.as_deref()?.exclusive_maximum.as_ref()
    }

    /// `multipleOf`.
    pub fn multiple_of(&self) -> Option<&Number> {
        self.extra.as_deref()?.multiple_of.as_ref()
    }

    /// The rules few schemas set, created empty when there are none, to set one:
    /// `rules.extra_mut().multiple_of = Some(5.into())`.
    pub fn extra_mut(&mut self) -> &mut ExtraNumberRules {
        self.extra.get_or_insert_with(Box::default)
    }

    /// Drops an `extra` with nothing set, which means the same as none.
    pub(crate) fn drop_empty_extra(&mut self) {
        if self
            .extra
            .as_deref()
            .is_some_and(|extra| *extra == ExtraNumberRules::default())
        {
            self.extra = None;
        }
    }

    /// Whether the inclusive `bound` is published: always, unless it is implied by the type and
    /// lies beyond ±(2^53 − 1), the largest integer every JSON reader holds exactly
    /// (JavaScript's `Number.MAX_SAFE_INTEGER`).
    pub(crate) fn publishes(&self, bound: &Number) -> bool {
        // Every integer up to 2^53 converts to a double exactly, and every larger one to a
        // double beyond 2^53 - 1, so the comparison in doubles is exact.
        !self.implied_by_type
            || bound
                .as_f64()
                .is_some_and(|value| value.abs() <= MAX_SAFE_INTEGER as f64)
    }

    /// The five keywords as an imported schema writes them, each reported through `source`
    /// when it is not a number (`multipleOf`: not one above 0).
    pub(crate) fn read(source: &mut impl KeywordSource) -> Self {
        let mut rules = Self {
            minimum: source.number(MINIMUM),
            maximum: source.number(MAXIMUM),
            implied_by_type: false,
            extra: Some(Box::new(ExtraNumberRules {
                exclusive_minimum: source.number(EXCLUSIVE_MINIMUM),
                exclusive_maximum: source.number(EXCLUSIVE_MAXIMUM),
                multiple_of: read_factor(source),
            })),
        };
        rules.drop_empty_extra();
        rules
    }

    /// The five keywords as the keyword engine reads them: each one that is not a number is
    /// reported as such, and a `multipleOf` not above 0 is reported too. `None` when none is
    /// present.
    pub(crate) fn parse(source: &mut impl KeywordSource) -> Option<Self> {
        let mut rules = Self {
            minimum: source.number(MINIMUM),
            maximum: source.number(MAXIMUM),
            implied_by_type: false,
            extra: Some(Box::new(ExtraNumberRules {
                exclusive_minimum: source.number(EXCLUSIVE_MINIMUM),
                exclusive_maximum: source.number(EXCLUSIVE_MAXIMUM),
                multiple_of: source.number(MULTIPLE_OF),
            })),
        };
        if rules
            .multiple_of()
            .is_some_and(|factor| !is_allowed_factor(factor))
        {
            source.refuse(MULTIPLE_OF, "must be greater than 0");
        }
        rules.drop_empty_extra();
        rules.is_set().then_some(rules)
    }

    /// Whether `number` breaks no rule, for rules [`parse`](Self::parse) read: every rule
    /// inlined (the keyword engine's leaves measured fewer instructions so than with
    /// [`holds`](Self::holds)' out-of-line rare rules), and `multipleOf` decided without testing
    /// the factor's sign, which `parse` has reported unless above 0 (a document with a problem
    /// is refused).
    #[inline(always)]
    pub(crate) fn parsed_hold(&self, number: &Number) -> bool {
        self.minimum
            .as_ref()
            .is_none_or(|bound| meets_minimum(number, bound))
            && self
                .maximum
                .as_ref()
                .is_none_or(|bound| meets_maximum(number, bound))
            && self
                .extra
                .as_deref()
                .is_none_or(|extra| extra.hold_with(number, is_multiple_of))
    }

    /// Whether any rule is present.
    pub(crate) fn is_set(&self) -> bool {
        self.minimum.is_some() || self.maximum.is_some() || self.extra.is_some()
    }

    /// Whether the inclusive and exclusive bounds are all the rules there are, so that the
    /// `u64` values they admit ([`NumberRange`]) decide every `u64` alone.
    fn bounds_only(&self) -> bool {
        self.multiple_of().is_none()
    }

    /// Whether `number` passes the rules beyond the bounds ([`bounds_only`](Self::bounds_only)
    /// says there are none).
    #[inline(always)]
    fn beyond_bounds_hold(&self, number: &Number) -> bool {
        self.multiple_of()
            .is_none_or(|factor| meets_multiple_of(number, factor))
    }

    /// Every rule `number` breaks, each handed to `broken`, in the order of
    /// [`violation`](Self::violation): the keyword engine's report.
    pub(crate) fn each_violation<'s>(
        &'s self,
        number: &Number,
        mut broken: impl FnMut(ViolationKind<'s>),
    ) {
        let checks = [
            self.minimum
                .as_ref()
                .and_then(|bound| minimum_violation(number, bound)),
            self.maximum
                .as_ref()
                .and_then(|bound| maximum_violation(number, bound)),
            self.exclusive_minimum()
                .and_then(|bound| exclusive_minimum_violation(number, bound)),
            self.exclusive_maximum()
                .and_then(|bound| exclusive_maximum_violation(number, bound)),
            self.multiple_of()
                .and_then(|factor| multiple_of_violation(number, factor)),
        ];
        for kind in checks.into_iter().flatten() {
            broken(kind);
        }
    }

    /// The rules compiled ahead, for the compiled tree.
    pub(crate) fn compiled(&self) -> NumberRange {
        NumberRange::of(self)
    }

    /// Writes the keywords that are present into a rendered schema object: the inclusive
    /// bounds only where [`publishes`](Self::publishes) says so, the others always (they are
    /// never implied by a type).
    pub(crate) fn render(&self, out: &mut Map<String, Value>) {
        let published = |bound: &&Number| self.publishes(bound);
        render(out, MINIMUM, self.minimum.as_ref().filter(published));
        render(out, MAXIMUM, self.maximum.as_ref().filter(published));
        render(out, EXCLUSIVE_MINIMUM, self.exclusive_minimum());
        render(out, EXCLUSIVE_MAXIMUM, self.exclusive_maximum());
        render(out, MULTIPLE_OF, self.multiple_of());
    }

    /// The first rule `number` breaks, in the keyword engine's order: `minimum`, `maximum`,
    /// `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf` (one violation per number).
    #[inline(always)]
    pub(crate) fn violation<'s>(&'s self, number: &Number) -> Option<ViolationKind<'s>> {
        if let Some(kind) = self
            .minimum
            .as_ref()
            .and_then(|min| minimum_violation(number, min))
        {
            return Some(kind);
        }
        if let Some(kind) = self
            .maximum
            .as_ref()
            .and_then(|max| maximum_violation(number, max))
        {
            return Some(kind);
        }
        match &self.extra {
            Some(extra) => extra.violation(number),
            None => None,
        }
    }

    /// Whether `number` breaks no rule: [`violation`](Self::violation) for the yes/no walks.
    #[inline(always)]
    pub(crate) fn holds(&self, number: &Number) -> bool {
        if let Some(min) = &self.minimum
            && !meets_minimum(number, min)
        {
            return false;
        }
        if let Some(max) = &self.maximum
            && !meets_maximum(number, max)
        {
            return false;
        }
        match &self.extra {
            Some(extra) => extra.holds(number),
            None => true,
        }
    }
}

impl ExtraNumberRules {
    /// Whether `number` breaks none of these rules; out of line, as
    /// [`violation`](Self::violation).
    #[inline(never)]
    fn holds(&self, number: &Number) -> bool {
        self.hold_with(number, meets_multiple_of)
    }

    /// Whether `number` breaks none of these rules, `multipleOf` decided by `multiple_of`:
    /// written once for [`holds`](Self::holds) (out of line, the factor's sign tested) and
    /// [`NumberRules::parsed_hold`] (inlined into the keyword engine's leaf, the sign left to
    /// `parse`). Always inlined, so each caller compiles its own copy with its test in place.
    #[inline(always)]
    fn hold_with(&self, number: &Number, multiple_of: impl Fn(&Number, &Number) -> bool) -> bool {
        self.exclusive_minimum
            .as_ref()
            .is_none_or(|min| meets_exclusive_minimum(number, min))
            && self
                .exclusive_maximum
                .as_ref()
                .is_none_or(|max| meets_exclusive_maximum(number, max))
            && self
                .multiple_of
                .as_ref()
                .is_none_or(|factor| multiple_of(number, factor))
    }

    /// The first of these rules `number` breaks; out of line, so the common check stays small.
    #[inline(never)]
    fn violation<'s>(&'s self, number: &Number) -> Option<ViolationKind<'s>> {
        let exclusive_minimum = || {
            self.exclusive_minimum
                .as_ref()
                .and_then(|min| exclusive_minimum_violation(number, min))
        };
        let exclusive_maximum = || {
            self.exclusive_maximum
                .as_ref()
                .and_then(|max| exclusive_maximum_violation(number, max))
        };
        let multiple_of = || {
            self.multiple_of
                .as_ref()
                .and_then(|factor| multiple_of_violation(number, factor))
        };
        exclusive_minimum()
            .or_else(exclusive_maximum)
            .or_else(multiple_of)
    }
}

/// `multipleOf` as an imported schema writes it: a number above 0, else reported.
fn read_factor(source: &mut impl KeywordSource) -> Option<Number> {
    let factor = match source.get(MULTIPLE_OF)? {
        Value::Number(factor) if is_allowed_factor(factor) => Some(factor.clone()),
        _ => None,
    };
    if factor.is_none() {
        source.refuse(MULTIPLE_OF, "must be greater than 0");
    }
    factor
}

/// Whether `factor` is a `multipleOf` JSON Schema allows: a number above 0.
pub(crate) fn is_allowed_factor(factor: &Number) -> bool {
    factor.as_f64().is_some_and(|factor| factor > 0.0)
}

/// `minimum`: `number` is at or above `bound`.
#[inline(always)]
pub(crate) fn meets_minimum(number: &Number, bound: &Number) -> bool {
    !is_less(number, bound)
}

/// `maximum`: `number` is at or below `bound`.
#[inline(always)]
pub(crate) fn meets_maximum(number: &Number, bound: &Number) -> bool {
    !is_less(bound, number)
}

/// `exclusiveMinimum`: `number` is above `bound`.
#[inline(always)]
pub(crate) fn meets_exclusive_minimum(number: &Number, bound: &Number) -> bool {
    compare_numbers(number, bound) == Ordering::Greater
}

/// `exclusiveMaximum`: `number` is below `bound`.
#[inline(always)]
pub(crate) fn meets_exclusive_maximum(number: &Number, bound: &Number) -> bool {
    compare_numbers(number, bound) == Ordering::Less
}

/// `multipleOf`: `number` is an integral multiple of `factor`, decided exactly on the decimals
/// JSON wrote; a factor not above 0 (which import refuses but a hand-built rule may hold) has no
/// multiples.
#[inline(always)]
pub(crate) fn meets_multiple_of(number: &Number, factor: &Number) -> bool {
    is_positive_multiple(number, factor)
}

/// `minimum`'s violation, if `number` breaks it.
#[inline(always)]
pub(crate) fn minimum_violation<'b>(
    number: &Number,
    bound: &'b Number,
) -> Option<ViolationKind<'b>> {
    (!meets_minimum(number, bound)).then_some(ViolationKind::Minimum(bound))
}

/// `maximum`'s violation, if `number` breaks it.
#[inline(always)]
pub(crate) fn maximum_violation<'b>(
    number: &Number,
    bound: &'b Number,
) -> Option<ViolationKind<'b>> {
    (!meets_maximum(number, bound)).then_some(ViolationKind::Maximum(bound))
}

/// `exclusiveMinimum`'s violation, if `number` breaks it.
#[inline(always)]
pub(crate) fn exclusive_minimum_violation<'b>(
    number: &Number,
    bound: &'b Number,
) -> Option<ViolationKind<'b>> {
    (!meets_exclusive_minimum(number, bound)).then_some(ViolationKind::ExclusiveMinimum(bound))
}

/// `exclusiveMaximum`'s violation, if `number` breaks it.
#[inline(always)]
pub(crate) fn exclusive_maximum_violation<'b>(
    number: &Number,
    bound: &'b Number,
) -> Option<ViolationKind<'b>> {
    (!meets_exclusive_maximum(number, bound)).then_some(ViolationKind::ExclusiveMaximum(bound))
}

/// `multipleOf`'s violation, if `number` breaks it.
#[inline(always)]
pub(crate) fn multiple_of_violation<'b>(
    number: &Number,
    factor: &'b Number,
) -> Option<ViolationKind<'b>> {
    (!meets_multiple_of(number, factor)).then_some(ViolationKind::MultipleOf(factor))
}

/// Writes one of the five keywords into a rendered schema object, when present.
fn render(out: &mut Map<String, Value>, keyword: &'static str, value: Option<&Number>) {
    if let Some(value) = value {
        out.insert(keyword.to_owned(), Value::Number(value.clone()));
    }
}

/// A number's rules compiled ahead, for the compiled tree: the range of `u64` values within
/// the bounds (inclusive and exclusive), so that the common number is checked with two
/// comparisons, and the rules as written for every other number and for the rules beyond the
/// bounds.
#[derive(Clone, Debug)]
pub(crate) struct NumberRange {
    /// The smallest `u64` value within the bounds.
    lowest: u64,
    /// The largest `u64` value within the bounds; below `lowest` when there is none.
    highest: u64,
    /// The rules as written.
    rules: Box<NumberRules>,
}

impl NumberRange {
    /// The `u64` values within `rules`' bounds, inclusive and exclusive, resolved exactly (float
    /// bounds included), and the rules as written.
    fn of(rules: &NumberRules) -> Self {
        let lowest = [
            rules.minimum.as_ref().map_or(Some(0), lowest_at_or_above),
            rules.exclusive_minimum().map_or(Some(0), lowest_above),
        ]
        .into_iter()
        .try_fold(0, |lowest, bound| bound.map(|bound| lowest.max(bound)));
        let highest = [
            rules
                .maximum
                .as_ref()
                .map_or(Some(u64::MAX), highest_at_or_below),
            rules
                .exclusive_maximum()
                .map_or(Some(u64::MAX), highest_below),
        ]
        .into_iter()
        .try_fold(u64::MAX, |highest, bound| {
            bound.map(|bound| highest.min(bound))
        });
        let (lowest, highest) = match (lowest, highest) {
            (Some(lowest), Some(highest)) => (lowest, highest),
            _ => NO_U64,
        };
        Self {
            lowest,
            highest,
            rules: Box::new(rules.clone()),
        }
    }

    /// Whether no rule is present: every number passes.
    pub(crate) fn is_unbounded(&self) -> bool {
        !self.rules.is_set()
    }

    /// Whether the bounds are all the rules there are, so that [`holds`](Self::holds) decides
    /// a number alone; else [`holds_all`](Self::holds_all) does.
    pub(crate) fn is_bounds_only(&self) -> bool {
        self.rules.bounds_only()
    }

    /// Whether the `u64` `value` is within the bounds.
    #[inline(always)]
    pub(crate) fn holds_u64(&self, value: u64) -> bool {
        self.lowest <= value && value <= self.highest
    }

    /// Whether `number` is within the bounds: a `u64` against the precomputed range, anything
    /// else exactly against the rules as written. The whole check when
    /// [`is_bounds_only`](Self::is_bounds_only).
    #[inline(always)]
    pub(crate) fn holds(&self, number: &Number) -> bool {
        match number.as_u64() {
            Some(value) => self.holds_u64(value),
            None => self.holds_exactly(number),
        }
    }

    /// Whether `number`, not a `u64`, passes the rules as written; out of line, as few numbers
    /// come this way.
    #[inline(never)]
    pub(crate) fn holds_exactly(&self, number: &Number) -> bool {
        self.rules.holds(number)
    }

    /// Whether `number` passes every rule, the bounds and those beyond them.
    #[inline(always)]
    pub(crate) fn holds_all(&self, number: &Number) -> bool {
        self.holds(number) && self.rules.beyond_bounds_hold(number)
    }
}

/// No `u64` is inside: `lowest > highest`.
const NO_U64: (u64, u64) = (1, 0);

/// The smallest `u64` that is `>= bound`, if any. Exact: for an integer `u`, `u >= b` exactly
/// when `u >= ceil(b)`.
fn lowest_at_or_above(bound: &Number) -> Option<u64> {
    if let Some(u) = bound.as_u64() {
        return Some(u);
    }
    if bound.as_i64().is_some() {
        // Only negative integers are `i64` but not `u64`.
        return Some(0);
    }
    let f = bound.as_f64()?.ceil();
    if f <= 0.0 {
        Some(0)
    } else if f >= U64_LIMIT {
        None
    } else {
        // `f` is integral and inside the `u64` range, so `as` is exact.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Some(f as u64)
    }
}

/// The largest `u64` that is `<= bound`, if any. Exact: `u <= b` exactly when `u <= floor(b)`.
fn highest_at_or_below(bound: &Number) -> Option<u64> {
    if let Some(u) = bound.as_u64() {
        return Some(u);
    }
    if bound.as_i64().is_some() {
        return None;
    }
    let f = bound.as_f64()?.floor();
    if f < 0.0 {
        None
    } else if f >= U64_LIMIT {
        Some(u64::MAX)
    } else {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Some(f as u64)
    }
}

/// The smallest `u64` that is `> bound`, if any. Exact: for an integer `u`, `u > b` exactly when
/// `u >= floor(b) + 1`, the addition done in integers (in doubles it would round beyond 2^53).
fn lowest_above(bound: &Number) -> Option<u64> {
    if let Some(u) = bound.as_u64() {
        return u.checked_add(1);
    }
    if bound.as_i64().is_some() {
        return Some(0);
    }
    let f = bound.as_f64()?.floor();
    if f < 0.0 {
        Some(0)
    } else if f >= U64_LIMIT {
        None
    } else {
        // `f` is integral and inside the `u64` range, so `as` is exact.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        (f as u64).checked_add(1)
    }
}

/// The largest `u64` that is `< bound`, if any. Exact: `u < b` exactly when `u <= ceil(b) - 1`.
fn highest_below(bound: &Number) -> Option<u64> {
    if let Some(u) = bound.as_u64() {
        return u.checked_sub(1);
    }
    if bound.as_i64().is_some() {
        return None;
    }
    let f = bound.as_f64()?.ceil();
    if f <= 0.0 {
        None
    } else if f >= U64_LIMIT {
        Some(u64::MAX)
    } else {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Some(f as u64 - 1)
    }
}

/// 2^64: every float at or above it is beyond `u64`.
const U64_LIMIT: f64 = 18_446_744_073_709_551_616.0;

/// A number within the optional inclusive bounds (`minimum`, `maximum`): the check generated
/// validators run (through the runtime's `__private`).
#[inline]
pub fn is_within(value: &Value, minimum: Option<Number>, maximum: Option<Number>) -> bool {
    let Value::Number(number) = value else {
        return false;
    };
    minimum
        .as_ref()
        .is_none_or(|bound| meets_minimum(number, bound))
        && maximum
            .as_ref()
            .is_none_or(|bound| meets_maximum(number, bound))
}

/// A number strictly within the optional exclusive bounds (`exclusiveMinimum`,
/// `exclusiveMaximum`), for generated validators.
#[inline]
pub fn is_strictly_within(
    value: &Value,
    exclusive_minimum: Option<Number>,
    exclusive_maximum: Option<Number>,
) -> bool {
    let Value::Number(number) = value else {
        return false;
    };
    exclusive_minimum
        .as_ref()
        .is_none_or(|bound| meets_exclusive_minimum(number, bound))
        && exclusive_maximum
            .as_ref()
            .is_none_or(|bound| meets_exclusive_maximum(number, bound))
}

/// A number that is an integral multiple of `factor` (`multipleOf`), for generated validators
/// (`None`: a factor that is not a finite number, which the schema build reports).
#[inline]
pub fn is_multiple(value: &Value, factor: Option<Number>) -> bool {
    match (value, factor) {
        (Value::Number(number), Some(factor)) => meets_multiple_of(number, &factor),
        _ => false,
    }
}

/// The number builder's methods for the family, expanded inside `impl SchemaBuilder<NumberRules>` in
/// `builder.rs`, where the builder's `rules` (a [`NumberRules`]), `NumberBound`, `BoundSide` and
/// `SchemaError` are in scope.
macro_rules! number_methods {
    () => {
        /// The bounds, as a Rust range of any integer or float type (see [`NumberBound`]):
        /// `range(1..=100)` is `minimum: 1, maximum: 100`, `range(0.0..1.0)` has an
        /// `exclusiveMaximum` of 1, `range(0..)` a minimum alone, and
        /// `range((Bound::Excluded(0.0), Bound::Unbounded))` an `exclusiveMinimum` of 0. Each
        /// bound is kept as an exact JSON number. Replaces the bounds set before.
        ///
        /// ```
        /// use dsh_tools_schema::{CompiledSchema, Schema};
        /// use serde_json::json;
        /// use std::ops::Bound;
        ///
        /// let percent = CompiledSchema::from(Schema::integer().range(0..=100).build());
        /// assert!(percent.is_valid(&json!(100)) && !percent.is_valid(&json!(101)));
        /// let fraction = CompiledSchema::from(Schema::number().range(0.0..1.0).build());
        /// assert!(fraction.is_valid(&json!(0.0)) && !fraction.is_valid(&json!(1.0)));
        /// let positive = Schema::number().range((Bound::Excluded(0.0), Bound::Unbounded));
        /// let positive = CompiledSchema::from(positive.build());
        /// assert!(!positive.is_valid(&json!(0)) && positive.is_valid(&json!(0.5)));
        /// ```
        #[must_use]
        pub fn range<T: NumberBound + Clone>(
            mut self,
            range: impl std::ops::RangeBounds<T>,
        ) -> Self {
            use std::ops::Bound;
            // One end as (inclusive, exclusive) keywords.
            let keywords = |end: Bound<&T>, side| match end.cloned() {
                Bound::Included(bound) => (bound.into_bound(side), None),
                Bound::Excluded(bound) => (None, bound.into_bound(side)),
                Bound::Unbounded => (None, None),
            };
            let (minimum, exclusive_minimum) = keywords(range.start_bound(), BoundSide::Minimum);
            let (maximum, exclusive_maximum) = keywords(range.end_bound(), BoundSide::Maximum);
            self.rules.minimum = minimum;
            self.rules.maximum = maximum;
            let extra = self.rules.extra_mut();
            extra.exclusive_minimum = exclusive_minimum;
            extra.exclusive_maximum = exclusive_maximum;
            self.rules.drop_empty_extra();
            self
        }

        /// `multipleOf`: the number must be an integral multiple of `factor`, decided exactly
        /// on the decimals JSON wrote (`0.3` is a multiple of `0.1`). Fails with a
        /// [`SchemaError`] unless `factor` is a finite number above 0, as JSON Schema requires.
        ///
        /// ```
        /// use dsh_tools_schema::{CompiledSchema, Schema};
        /// use serde_json::json;
        ///
        /// let minutes = CompiledSchema::from(Schema::integer().multiple_of(15)?.build());
        /// assert!(minutes.is_valid(&json!(45)));
        /// assert_eq!(
        ///     minutes.validate(&json!(50)).unwrap_err().to_string(),
        ///     r#""arguments" must be a multiple of 15"#,
        /// );
        /// assert!(Schema::number().multiple_of(0).is_err());
        /// # Ok::<(), dsh_tools_schema::SchemaError>(())
        /// ```
        pub fn multiple_of(mut self, factor: impl NumberBound) -> Result<Self, SchemaError> {
            // Read as a maximum, `+∞` and `NaN` are no number at all and `-∞` a negative one:
            // each is refused below, with every other factor that is not above 0.
            let factor = factor
                .into_bound(BoundSide::Maximum)
                .filter(|factor| factor.as_f64().is_some_and(|value| value > 0.0));
            match factor {
                Some(factor) => {
                    self.rules.extra_mut().multiple_of = Some(factor);
                    Ok(self)
                }
                None => Err(SchemaError::new(
                    "multipleOf must be a finite number greater than 0",
                )),
            }
        }
    };
}
pub(crate) use number_methods;

/// The steps `#[arg(minimum, maximum, exclusive_minimum, exclusive_maximum, multiple_of)]` lower
/// to, expanded in `derive.rs`, where `Schema`, `SchemaError`, `Number`, `compare_numbers` and its
/// `bounds_of` (the schema's [`NumberRules`], or the error that the key does not apply) are in
/// scope.
macro_rules! number_steps {
    () => {
        /// `minimum`: kept only when tighter than the type's own bound (a `u8` stays `>= 0`).
        pub fn with_minimum(mut schema: Schema, bound: Number) -> Result<Schema, SchemaError> {
            let rules = bounds_of(&mut schema, "minimum")?;
            let tighter = rules.minimum.as_ref().is_none_or(|current| {
                compare_numbers(&bound, current) == std::cmp::Ordering::Greater
            });
            if tighter {
                rules.minimum = Some(bound);
            }
            Ok(schema)
        }

        /// `maximum`: kept only when tighter than the type's own bound.
        pub fn with_maximum(mut schema: Schema, bound: Number) -> Result<Schema, SchemaError> {
            let rules = bounds_of(&mut schema, "maximum")?;
            let tighter = rules
                .maximum
                .as_ref()
                .is_none_or(|current| compare_numbers(&bound, current) == std::cmp::Ordering::Less);
            if tighter {
                rules.maximum = Some(bound);
            }
            Ok(schema)
        }

        /// `exclusiveMinimum`.
        pub fn with_exclusive_minimum(
            mut schema: Schema,
            bound: Number,
        ) -> Result<Schema, SchemaError> {
            bounds_of(&mut schema, "exclusive_minimum")?
                .extra_mut()
                .exclusive_minimum = Some(bound);
            Ok(schema)
        }

        /// `exclusiveMaximum`.
        pub fn with_exclusive_maximum(
            mut schema: Schema,
            bound: Number,
        ) -> Result<Schema, SchemaError> {
            bounds_of(&mut schema, "exclusive_maximum")?
                .extra_mut()
                .exclusive_maximum = Some(bound);
            Ok(schema)
        }

        /// `multipleOf` (above 0, which the macros check at compile time too).
        pub fn with_multiple_of(mut schema: Schema, factor: Number) -> Result<Schema, SchemaError> {
            let rules = bounds_of(&mut schema, "multiple_of")?;
            if !factor.as_f64().is_some_and(|value| value > 0.0) {
                return Err(SchemaError::new(format!(
                    "`multiple_of` must be greater than 0, not {factor}"
                )));
            }
            rules.extra_mut().multiple_of = Some(factor);
            Ok(schema)
        }
    };
}
pub(crate) use number_steps;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn number(value: Value) -> Number {
        match value {
            Value::Number(n) => n,
            other => panic!("not a number: {other}"),
        }
    }

    fn range(min: Option<Value>, max: Option<Value>) -> (u64, u64) {
        let bounds = NumberRange::of(&NumberRules {
            minimum: min.map(number),
            maximum: max.map(number),
            ..NumberRules::default()
        });
        (bounds.lowest, bounds.highest)
    }

    fn exclusive_range(min: Option<Value>, max: Option<Value>) -> (u64, u64) {
        let bounds = NumberRange::of(&NumberRules {
            extra: Some(Box::new(ExtraNumberRules {
                exclusive_minimum: min.map(number),
                exclusive_maximum: max.map(number),
                multiple_of: None,
            })),
            ..NumberRules::default()
        });
        (bounds.lowest, bounds.highest)
    }

    #[test]
    fn exclusive_bounds_resolve_to_the_values_strictly_inside() {
        assert_eq!(exclusive_range(Some(json!(0)), Some(json!(10))), (1, 9));
        assert_eq!(exclusive_range(Some(json!(-1)), Some(json!(1))), (0, 0));
        assert_eq!(exclusive_range(Some(json!(2.5)), Some(json!(7.5))), (3, 7));
        assert_eq!(exclusive_range(Some(json!(-0.5)), Some(json!(0.5))), (0, 0));
        assert_eq!(exclusive_range(Some(json!(-0.0)), None), (1, u64::MAX));
        assert_eq!(exclusive_range(Some(json!(u64::MAX)), None), NO_U64);
        assert_eq!(exclusive_range(None, Some(json!(0))), NO_U64);
        assert_eq!(exclusive_range(None, Some(json!(-0.0))), NO_U64);
        assert_eq!(exclusive_range(None, Some(json!(1e300))), (0, u64::MAX));
        // Beyond 2^53 the neighbour is found in integers, not in doubles.
        assert_eq!(
            exclusive_range(Some(json!(1_152_921_504_606_846_976.0)), None).0,
            1_152_921_504_606_846_977
        );
        let both = NumberRange::of(&NumberRules {
            minimum: Some(number(json!(3))),
            maximum: Some(number(json!(8))),
            extra: Some(Box::new(ExtraNumberRules {
                exclusive_minimum: Some(number(json!(5))),
                exclusive_maximum: Some(number(json!(100))),
                multiple_of: None,
            })),
            ..NumberRules::default()
        });
        assert_eq!((both.lowest, both.highest), (6, 8));
    }

    #[test]
    fn integer_bounds_resolve_to_themselves() {
        assert_eq!(range(Some(json!(1)), Some(json!(10_000))), (1, 10_000));
        assert_eq!(range(None, None), (0, u64::MAX));
        assert_eq!(range(Some(json!(-5)), Some(json!(u64::MAX))), (0, u64::MAX));
    }

    #[test]
    fn float_bounds_round_inwards() {
        assert_eq!(range(Some(json!(2.5)), Some(json!(7.5))), (3, 7));
        assert_eq!(range(Some(json!(-0.0)), Some(json!(-0.0))), (0, 0));
        assert_eq!(range(Some(json!(-2.5)), Some(json!(1e300))), (0, u64::MAX));
    }

    #[test]
    fn bounds_without_u64_values_are_empty() {
        assert_eq!(range(None, Some(json!(-1))), NO_U64);
        assert_eq!(range(None, Some(json!(-0.5))), NO_U64);
        assert_eq!(range(Some(json!(1e20)), None), NO_U64);
        assert_eq!(range(Some(json!(5)), Some(json!(4))), (5, 4));
    }
}
