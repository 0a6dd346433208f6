//! `minItems`, `maxItems` and `uniqueItems`: what an array keyword reads of the array itself,
//! its length and whether two items are equal. This file owns the three keywords: their JSON
//! names, reading them from JSON and writing them back, and the checks the engines run (the
//! compiled tree, the keyword engine, the checks of an array still being written, and the
//! validators `#[derive(ToolArgs)]` generates; the interpreter runs the count leaf here and
//! writes its `uniqueItems` check out).
//!
//! The typed model carries the family as [`ArrayConstraints`] (`ArrayRules::constraints`):
//! import and rendering call `ArrayConstraints::read` and `ArrayConstraints::render`, and the
//! builder's methods and the macros' steps are written here as text `builder.rs` and `derive.rs`
//! expand (`array_methods!`, `array_steps!`), as `lengths.rs` explains.
//!
//! Every engine holds the family's [`ArrayConstraints`]: the interpreter runs its leaves
//! (`size_violation`, and after the items `relations_hold` or `each_relation_violation`), the keyword engine reads it
//! (`read`, as import does) and reports every keyword an array breaks (`each_violation`), and
//! the compiled tree holds its compiled forms: the counts' range and, when a keyword compares
//! the items (`uniqueItems`), an `ItemRelations`.
//!
//! It must not know any engine's tree or walk: engines hand it the bounds and the items.

use serde_json::{Map, Value};

use super::counts::{self, Counts};
use super::read::KeywordSource;
use crate::semantics::first_repeat;
use crate::violation::ViolationKind;

/// `minItems`'s JSON name.
pub const MIN_ITEMS: &str = "minItems";
/// `maxItems`'s JSON name.
pub const MAX_ITEMS: &str = "maxItems";
/// `uniqueItems`'s JSON name.
pub const UNIQUE_ITEMS: &str = "uniqueItems";

/// The family's keywords, in the order the importer's list of its vocabulary names them.
pub(crate) const KEYWORDS: &[&str] = &[MIN_ITEMS, MAX_ITEMS, UNIQUE_ITEMS];

/// What an array's keywords ask of the array itself, its length and whether two items are
/// equal: [`ArrayRules::constraints`](crate::ArrayRules::constraints).
///
/// `#[non_exhaustive]`: a new keyword of the family is a new field, so build one from
/// [`Default`] and set the fields (or use the [`Schema::array`](crate::Schema::array) builder).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ArrayConstraints {
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `uniqueItems`: no two items are equal as JSON values (numbers by value, objects whatever
    /// their key order). What a Rust set (`HashSet`, `BTreeSet`) asks of its array: a duplicate
    /// would be dropped silently on conversion.
    pub unique_items: bool,
}

impl ArrayConstraints {
    /// `minItems` and `maxItems`, for their rules.
    #[inline(always)]
    pub(crate) fn counts(self) -> Counts {
        Counts {
            min: self.min_items,
            max: self.max_items,
        }
    }

    /// The count bound an array of `len` items breaks (`minItems` first): the interpreter's
    /// leaf.
    #[inline]
    pub(crate) fn size_violation(&self, len: usize) -> Option<ViolationKind<'static>> {
        let len = len as u64;
        if let Some(min) = self.min_items.filter(|min| len < *min) {
            return Some(ViolationKind::MinItems(min));
        }
        self.max_items
            .filter(|max| len > *max)
            .map(ViolationKind::MaxItems)
    }

    /// Whether any keyword is present.
    #[inline(always)]
    pub(crate) fn is_set(self) -> bool {
        self.counts().is_set() || self.relations().is_some()
    }

    /// The keywords that compare the items with each other, compiled ahead; `None` when there
    /// are none, so an array is checked for nothing more.
    pub(crate) fn relations(self) -> Option<ItemRelations> {
        self.unique_items.then_some(ItemRelations {
            unique_items: self.unique_items,
        })
    }

    /// Whether the items pass the keywords that compare them with each other (`uniqueItems`):
    /// the interpreter's yes/no check, run after the items are checked against their schema.
    #[inline(always)]
    pub(crate) fn relations_hold(self, items: &[Value]) -> bool {
        unique_holds(self.unique_items, items)
    }

    /// Every keyword comparing the items that `items` breaks, each handed to `broken`.
    #[inline]
    pub(crate) fn each_relation_violation(
        self,
        items: &[Value],
        mut broken: impl FnMut(ViolationKind<'static>),
    ) {
        if self.unique_items
            && let Some(kind) = unique_violation(items)
        {
            broken(kind);
        }
    }

    /// Whether `items` pass every keyword: the keyword engine's yes/no check.
    #[inline(always)]
    pub(crate) fn holds(self, items: &[Value]) -> bool {
        self.counts().holds(items.len() as u64) && self.relations_hold(items)
    }

    /// Every keyword `items` break, each handed to `broken` (the counts first): the keyword
    /// engine's report.
    #[inline]
    pub(crate) fn each_violation(
        self,
        items: &[Value],
        mut broken: impl FnMut(ViolationKind<'static>),
    ) {
        each_count_violation(self.counts(), items.len(), &mut broken);
        self.each_relation_violation(items, broken);
    }

    /// The three keywords as a schema object writes them, each reported through `source` when
    /// malformed (the counts not non-negative integers, `uniqueItems` not a boolean): import and
    /// the keyword engine read them alike.
    pub(crate) fn read(source: &mut impl KeywordSource) -> Self {
        let counts = parse_counts(|keyword| source.count(keyword));
        let unique_items = match source.get(UNIQUE_ITEMS) {
            None => Some(false),
            Some(Value::Bool(unique)) => Some(*unique),
            Some(_) => None,
        };
        let unique_items = unique_items.unwrap_or_else(|| {
            source.refuse(UNIQUE_ITEMS, "must be a boolean");
            false
        });
        Self {
            min_items: counts.min,
            max_items: counts.max,
            unique_items,
        }
    }

    /// Writes the keywords that are present into a rendered schema object (`uniqueItems` only
    /// when `true`, its default being `false`).
    pub(crate) fn render(self, out: &mut Map<String, Value>) {
        counts::render(out, [MIN_ITEMS, MAX_ITEMS], self.min_items, self.max_items);
        if self.unique_items {
            out.insert(UNIQUE_ITEMS.to_owned(), Value::Bool(true));
        }
    }
}

/// The keywords that compare an array's items with each other, compiled ahead for the compiled
/// tree ([`ArrayConstraints::relations`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ItemRelations {
    /// `uniqueItems`.
    unique_items: bool,
}

impl ItemRelations {
    /// Whether the items pass every keyword comparing them.
    #[inline(always)]
    pub(crate) fn hold(self, items: &[Value]) -> bool {
        unique_holds(self.unique_items, items)
    }
}

/// `minItems` and `maxItems`, each read by the engine's reader of non-negative integers.
fn parse_counts(count: impl FnMut(&'static str) -> Option<u64>) -> Counts {
    Counts::parse([MIN_ITEMS, MAX_ITEMS], count)
}

/// Every bound an array of `len` items breaks, each handed to `broken`.
#[inline]
pub(crate) fn each_count_violation<'k>(
    counts: Counts,
    len: usize,
    broken: impl FnMut(ViolationKind<'k>),
) {
    counts.each_violation(
        len as u64,
        ViolationKind::MinItems,
        ViolationKind::MaxItems,
        broken,
    );
}

/// The violation an array still being written, of `len` items so far, already has for good:
/// items only ever come, so only more than `maxItems` is final.
#[inline]
pub(crate) fn open_count_violation(counts: Counts, len: usize) -> Option<ViolationKind<'static>> {
    counts
        .too_many_for_good(len as u64)
        .map(ViolationKind::MaxItems)
}

/// `uniqueItems`' violation: the first two equal items, if any.
#[inline]
pub(crate) fn unique_violation(items: &[Value]) -> Option<ViolationKind<'static>> {
    first_repeat(items).map(|(first, second)| ViolationKind::UniqueItems { first, second })
}

/// Whether `uniqueItems` holds (no two items equal), when `unique` asks for it.
#[inline(always)]
pub(crate) fn unique_holds(unique: bool, items: &[Value]) -> bool {
    !(unique && first_repeat(items).is_some())
}

/// An array whose item count is within the optional bounds: the check generated validators
/// run (through the runtime's `__private`).
#[inline]
pub fn has_items(value: &Value, min: Option<u64>, max: Option<u64>) -> bool {
    let Value::Array(items) = value else {
        return false;
    };
    Counts { min, max }.holds(items.len() as u64)
}

/// An array no two of whose items are equal as JSON values: `uniqueItems` in generated
/// validators.
#[inline]
pub fn has_unique_items(value: &Value) -> bool {
    value
        .as_array()
        .is_some_and(|items| unique_holds(true, items))
}

/// The array builder's methods for the family, expanded inside `impl SchemaBuilder<ArrayRules>` in
/// `builder.rs`, where the builder's `rules` (an `ArrayRules`) is in scope.
macro_rules! array_methods {
    () => {
        /// `minItems` and `maxItems`, as a range of counts: `item_count(1..)` at least one item,
        /// `item_count(..=10)` at most ten, `item_count(2..=4)` both. Replaces the bounds set
        /// before.
        #[must_use]
        pub fn item_count(mut self, range: impl std::ops::RangeBounds<u64>) -> Self {
            let (min, max) = crate::rules::counts::count_bounds(&range);
            self.rules.constraints.min_items = min;
            self.rules.constraints.max_items = max;
            self
        }

        /// `uniqueItems: true`: no two items may be equal as JSON values (what a Rust set is).
        #[must_use]
        pub fn unique_items(mut self) -> Self {
            self.rules.constraints.unique_items = true;
            self
        }
    };
}
pub(crate) use array_methods;

/// The steps `#[arg(min_items, max_items, unique_items)]` lower to, expanded in `derive.rs`,
/// where `Schema`, `SchemaError` and its `array_rules` (the schema's `ArrayRules`, or the error
/// that the key does not apply) are in scope.
macro_rules! array_steps {
    () => {
        /// `minItems`.
        pub fn with_min_items(mut schema: Schema, count: u64) -> Result<Schema, SchemaError> {
            array_rules(&mut schema, "min_items")?.constraints.min_items = Some(count);
            Ok(schema)
        }

        /// `maxItems`.
        pub fn with_max_items(mut schema: Schema, count: u64) -> Result<Schema, SchemaError> {
            array_rules(&mut schema, "max_items")?.constraints.max_items = Some(count);
            Ok(schema)
        }

        /// `uniqueItems: true`.
        pub fn with_unique_items(mut schema: Schema) -> Result<Schema, SchemaError> {
            array_rules(&mut schema, "unique_items")?
                .constraints
                .unique_items = true;
            Ok(schema)
        }
    };
}
pub(crate) use array_steps;
