//! `minProperties` and `maxProperties`: an object's number of keys, bounded below and above.
//! This file owns the two keywords: their JSON names, reading them from JSON and writing them
//! back, and the checks the engines run (the compiled tree, the keyword engine, the checks of an
//! object still being written, the interpreter's leaf, and the validators `#[derive(ToolArgs)]`
//! generates).
//!
//! The typed model carries the family as [`ObjectConstraints`] (`ObjectRules::constraints`):
//! import and rendering call `ObjectConstraints::read` and `ObjectConstraints::render`, and the
//! builder's methods and the macros' steps are written here as text `builder.rs` and `derive.rs`
//! expand (`object_methods!`, `object_steps!`), as `lengths.rs` explains.
//!
//! It must not know any engine's tree or walk: engines hand it the bounds and the key count.

use serde_json::{Map, Value};

use super::counts::{self, Counts};
use super::read::KeywordSource;
use crate::violation::ViolationKind;

/// `minProperties`' JSON name.
pub const MIN_PROPERTIES: &str = "minProperties";
/// `maxProperties`' JSON name.
pub const MAX_PROPERTIES: &str = "maxProperties";

/// The family's keywords, in the order the importer's list of its vocabulary names them.
pub(crate) const KEYWORDS: &[&str] = &[MIN_PROPERTIES, MAX_PROPERTIES];

/// How many keys an object may have, declared or not:
/// [`ObjectRules::constraints`](crate::ObjectRules::constraints).
///
/// `#[non_exhaustive]`: a new keyword of the family is a new field, so build one from
/// [`Default`] and set the fields (or use the [`Schema::object`](crate::Schema::object) builder).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ObjectConstraints {
    /// `minProperties`: the fewest keys the object may have.
    pub min_properties: Option<u64>,
    /// `maxProperties`: the most keys the object may have.
    pub max_properties: Option<u64>,
}

impl ObjectConstraints {
    /// `minProperties` and `maxProperties`, for their rules.
    #[inline(always)]
    pub(crate) fn counts(self) -> Counts {
        Counts {
            min: self.min_properties,
            max: self.max_properties,
        }
    }

    /// The bound an object of `len` keys breaks (`minProperties` first): the interpreter's
    /// leaf, which tests for no bound at all first, as most objects have none.
    #[inline(always)]
    pub(crate) fn size_violation(&self, len: usize) -> Option<ViolationKind<'static>> {
        if self.min_properties.is_none() && self.max_properties.is_none() {
            return None;
        }
        let len = len as u64;
        if let Some(min) = self.min_properties.filter(|min| len < *min) {
            return Some(ViolationKind::MinProperties(min));
        }
        self.max_properties
            .filter(|max| len > *max)
            .map(ViolationKind::MaxProperties)
    }

    /// Both keywords as an imported schema writes them, each reported through `source` when it
    /// is not a non-negative integer.
    pub(crate) fn read(source: &mut impl KeywordSource) -> Self {
        let counts = parse_counts(|keyword| source.count(keyword));
        Self {
            min_properties: counts.min,
            max_properties: counts.max,
        }
    }

    /// Writes the keywords that are present into a rendered schema object.
    pub(crate) fn render(self, out: &mut Map<String, Value>) {
        counts::render(
            out,
            [MIN_PROPERTIES, MAX_PROPERTIES],
            self.min_properties,
            self.max_properties,
        );
    }
}

/// Both keywords, each read by the engine's reader of non-negative integers (the importer and
/// the keyword engine's compiler each report a bad count in their own words).
pub(crate) fn parse_counts(count: impl FnMut(&'static str) -> Option<u64>) -> Counts {
    Counts::parse([MIN_PROPERTIES, MAX_PROPERTIES], count)
}

/// Every bound an object of `len` keys breaks, each handed to `broken`.
#[inline]
pub(crate) fn each_count_violation<'k>(
    counts: Counts,
    len: usize,
    broken: impl FnMut(ViolationKind<'k>),
) {
    counts.each_violation(
        len as u64,
        ViolationKind::MinProperties,
        ViolationKind::MaxProperties,
        broken,
    );
}

/// The violation an object still being written, of `len` keys so far, already has for good:
/// keys only ever come, so only more than `maxProperties` is final.
#[inline]
pub(crate) fn open_count_violation(counts: Counts, len: usize) -> Option<ViolationKind<'static>> {
    counts
        .too_many_for_good(len as u64)
        .map(ViolationKind::MaxProperties)
}

/// An object whose key count is within the optional bounds: the check generated validators
/// run (through the runtime's `__private`).
#[inline]
pub fn has_properties(value: &Value, min: Option<u64>, max: Option<u64>) -> bool {
    let Value::Object(map) = value else {
        return false;
    };
    Counts { min, max }.holds(map.len() as u64)
}

/// The object builder's methods for the family, expanded inside `impl SchemaBuilder<ObjectRules>` in
/// `builder.rs`, where the builder's `rules` (an `ObjectRules`) is in scope.
macro_rules! object_methods {
    () => {
        /// `minProperties` and `maxProperties`, as a range of counts of keys, declared or not:
        /// `property_count(1..)` at least one key, `property_count(..=8)` at most eight.
        /// Replaces the bounds set before.
        #[must_use]
        pub fn property_count(mut self, range: impl std::ops::RangeBounds<u64>) -> Self {
            let (min, max) = crate::rules::counts::count_bounds(&range);
            self.rules.constraints.min_properties = min;
            self.rules.constraints.max_properties = max;
            self
        }
    };
}
pub(crate) use object_methods;

/// The steps `#[arg(min_properties, max_properties)]` lower to, expanded in `derive.rs`, where
/// `Schema`, `SchemaError` and its `object_rules` (the schema's `ObjectRules`, or the error that
/// the key does not apply) are in scope.
macro_rules! object_steps {
    () => {
        /// `minProperties`.
        pub fn with_min_properties(mut schema: Schema, count: u64) -> Result<Schema, SchemaError> {
            object_rules(&mut schema, "min_properties")?
                .constraints
                .min_properties = Some(count);
            Ok(schema)
        }

        /// `maxProperties`.
        pub fn with_max_properties(mut schema: Schema, count: u64) -> Result<Schema, SchemaError> {
            object_rules(&mut schema, "max_properties")?
                .constraints
                .max_properties = Some(count);
            Ok(schema)
        }
    };
}
pub(crate) use object_steps;
