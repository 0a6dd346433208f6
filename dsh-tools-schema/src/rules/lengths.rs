//! `minLength` and `maxLength`: a string's length in Unicode code points, bounded below and
//! above. This file is the one place the two keywords are written: their JSON names, how they
//! are read from JSON and written back, the check every engine runs (the interpreter, the
//! compiled tree, the keyword engine, the checks of a value still being written, and the
//! validators `#[derive(ToolArgs)]` generates), and the check's compiled form.
//!
//! The typed model carries the family as [`Lengths`] (`StringRules::lengths`), so import and
//! rendering call `Lengths::read` and `Lengths::render`, and the builder's methods and the
//! macros' steps are written here as text that `builder.rs` and `derive.rs` expand
//! (`length_methods!`, `length_steps!`): those two name the typed model, which this file must
//! not (the model names this file's struct).
//!
//! It must not know any engine's tree or walk: engines hand it the bounds and the text.

use serde_json::{Map, Value};

use super::read::KeywordSource;
use crate::semantics::{has_at_least_code_points, has_at_most_code_points, has_code_points_within};
use crate::violation::ViolationKind;

/// `minLength`'s JSON name.
pub const MIN_LENGTH: &str = "minLength";
/// `maxLength`'s JSON name.
pub const MAX_LENGTH: &str = "maxLength";

/// The family's keywords, in the order the importer's list of its vocabulary names them.
pub(crate) const KEYWORDS: &[&str] = &[MIN_LENGTH, MAX_LENGTH];

/// `minLength`: whether `text` has at least `min` code points.
#[inline(always)]
pub(crate) fn meets_min_length(text: &str, min: u64) -> bool {
    has_at_least_code_points(text, min)
}

/// `maxLength`: whether `text` has at most `max` code points.
#[inline(always)]
pub(crate) fn meets_max_length(text: &str, max: u64) -> bool {
    has_at_most_code_points(text, max)
}

/// A string's length bounds, in Unicode code points, as a schema states them (either may be
/// absent): [`StringRules::lengths`](crate::StringRules::lengths).
///
/// `#[non_exhaustive]`: a new keyword of the family is a new field, so build one from
/// [`Default`] and set the fields (or use the [`Schema::string`](crate::Schema::string) builder).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Lengths {
    /// `minLength`: the fewest code points.
    pub min: Option<u64>,
    /// `maxLength`: the most code points.
    pub max: Option<u64>,
}

impl Lengths {
    /// Both keywords as an imported schema writes them, each reported through `source` when it
    /// is not a non-negative integer.
    pub(crate) fn read(source: &mut impl KeywordSource) -> Self {
        Self::parse(|keyword| source.count(keyword))
    }

    /// Writes the keywords that are present into a rendered schema object.
    pub(crate) fn render(self, out: &mut Map<String, Value>) {
        if let Some(min) = self.min {
            out.insert(MIN_LENGTH.to_owned(), Value::from(min));
        }
        if let Some(max) = self.max {
            out.insert(MAX_LENGTH.to_owned(), Value::from(max));
        }
    }

    /// Both keywords, each read by the engine's reader of non-negative integers: the importer
    /// and the keyword engine's compiler each report a bad count in their own words.
    pub(crate) fn parse(mut count: impl FnMut(&'static str) -> Option<u64>) -> Self {
        Self {
            min: count(MIN_LENGTH),
            max: count(MAX_LENGTH),
        }
    }

    /// Whether either keyword is present.
    pub(crate) fn is_set(self) -> bool {
        self.min.is_some() || self.max.is_some()
    }

    /// Whether `text` is within both bounds: the yes/no check, without a violation to build.
    #[inline(always)]
    pub(crate) fn holds(self, text: &str) -> bool {
        self.min.is_none_or(|min| meets_min_length(text, min))
            && self.max.is_none_or(|max| meets_max_length(text, max))
    }

    /// Every bound `text` breaks, each handed to `broken` (both, when `minLength` exceeds
    /// `maxLength`).
    #[inline(always)]
    pub(crate) fn each_violation<'k>(self, text: &str, mut broken: impl FnMut(ViolationKind<'k>)) {
        if let Some(min) = self.min
            && !meets_min_length(text, min)
        {
            broken(ViolationKind::MinLength(min));
        }
        if let Some(max) = self.max
            && !meets_max_length(text, max)
        {
            broken(ViolationKind::MaxLength(max));
        }
    }

    /// The first bound `text` breaks (`minLength` before `maxLength`): the interpreter's leaf,
    /// written over the per-keyword checks with early returns, which it measured cheapest.
    #[inline(always)]
    pub(crate) fn first_violation(&self, text: &str) -> Option<ViolationKind<'static>> {
        if let Some(min) = self.min
            && !meets_min_length(text, min)
        {
            return Some(ViolationKind::MinLength(min));
        }
        if let Some(max) = self.max
            && !meets_max_length(text, max)
        {
            return Some(ViolationKind::MaxLength(max));
        }
        None
    }

    /// The violation a string still being written already has for good: only a length past
    /// `maxLength`, and only once the string has reached `minLength` (the final check reports
    /// a string too short before one too long, and an open string that has reached the
    /// shortest stays there).
    pub(crate) fn open_violation(self, text: &str) -> Option<ViolationKind<'static>> {
        let max = self.max?;
        let long_enough = self.min.is_none_or(|min| meets_min_length(text, min));
        (long_enough && !meets_max_length(text, max)).then_some(ViolationKind::MaxLength(max))
    }

    /// The bounds resolved once for a compiled tree.
    pub(crate) fn compiled(self) -> LengthRange {
        LengthRange {
            min: self.min.unwrap_or(0),
            max: self.max.unwrap_or(u64::MAX),
        }
    }
}

/// Inclusive code-point bounds of a string resolved for a compiled tree: `0` and `u64::MAX`
/// when absent, so the check is two comparisons with no `Option` to test.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LengthRange {
    min: u64,
    max: u64,
}

impl LengthRange {
    /// Whether every string passes (neither keyword was present).
    pub(crate) fn is_unbounded(self) -> bool {
        self.min == 0 && self.max == u64::MAX
    }

    /// Whether `text`'s length in code points is within the range, counting only when the byte
    /// length cannot decide (a code point takes one to four bytes).
    #[inline(always)]
    pub(crate) fn holds(self, text: &str) -> bool {
        let bytes = text.len() as u64;
        (bytes.div_ceil(4) >= self.min && bytes <= self.max)
            || has_code_points_within(text, self.min, self.max)
    }
}

/// A string whose length in code points is within the optional bounds: the check generated
/// validators run (through the runtime's `__private`).
#[inline]
pub fn has_length(value: &Value, min: Option<u64>, max: Option<u64>) -> bool {
    let Value::String(text) = value else {
        return false;
    };
    Lengths { min, max }.holds(text)
}

/// The string builder's methods for the family, expanded inside `impl SchemaBuilder<StringRules>` in
/// `builder.rs`, where the builder's `rules` (a `StringRules`) is in scope.
macro_rules! length_methods {
    () => {
        /// `minLength` and `maxLength`, in Unicode code points, as a range: `length(1..)` not
        /// empty, `length(..=64)` at most 64, `length(1..=64)` both. Replaces the bounds set
        /// before.
        #[must_use]
        pub fn length(mut self, range: impl std::ops::RangeBounds<u64>) -> Self {
            let (min, max) = crate::rules::counts::count_bounds(&range);
            self.rules.lengths.min = min;
            self.rules.lengths.max = max;
            self
        }
    };
}
pub(crate) use length_methods;

/// The steps `#[arg(min_length, max_length)]` lower to, expanded in `derive.rs`, where `Schema`,
/// `SchemaError` and its `string_rules` (the schema's `StringRules`, or the error that the key
/// does not apply) are in scope.
macro_rules! length_steps {
    () => {
        /// `minLength` in code points.
        pub fn with_min_length(mut schema: Schema, length: u64) -> Result<Schema, SchemaError> {
            string_rules(&mut schema, "min_length")?.lengths.min = Some(length);
            Ok(schema)
        }

        /// `maxLength` in code points.
        pub fn with_max_length(mut schema: Schema, length: u64) -> Result<Schema, SchemaError> {
            string_rules(&mut schema, "max_length")?.lengths.max = Some(length);
            Ok(schema)
        }
    };
}
pub(crate) use length_steps;
