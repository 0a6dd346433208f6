//! A count bounded below and above, each bound optional: what `minItems`/`maxItems` and
//! `minProperties`/`maxProperties` share. The keyword names and the violations they report
//! belong to their families (`arrays.rs`, `objects.rs`), which hand them in; this file compares
//! counts, reads the bounds from the builders' Rust ranges and writes them.

use std::ops::{Bound, RangeBounds};

use serde_json::{Map, Value};

use crate::violation::ViolationKind;

/// The bounds of a count as a schema states them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    /// The fewest allowed.
    pub(crate) min: Option<u64>,
    /// The most allowed.
    pub(crate) max: Option<u64>,
}

impl Counts {
    /// Both bounds, read under the family's keyword names (`names`: the lower bound's, then the
    /// upper's) by the engine's reader of non-negative integers (the importer and the keyword
    /// engine's compiler each report a bad count in their own words).
    pub(crate) fn parse(
        names: [&'static str; 2],
        mut count: impl FnMut(&'static str) -> Option<u64>,
    ) -> Self {
        Self {
            min: count(names[0]),
            max: count(names[1]),
        }
    }

    /// Whether either bound is present.
    #[inline(always)]
    pub(crate) fn is_set(self) -> bool {
        self.min.is_some() || self.max.is_some()
    }

    /// Whether `count` is within both bounds.
    #[inline(always)]
    pub(crate) fn holds(self, count: u64) -> bool {
        self.min.is_none_or(|min| count >= min) && self.max.is_none_or(|max| count <= max)
    }

    /// The lower bound `count` is below, if any.
    #[inline(always)]
    pub(crate) fn too_few(self, count: u64) -> Option<u64> {
        self.min.filter(|min| count < *min)
    }

    /// The upper bound `count` is above, if any.
    #[inline(always)]
    pub(crate) fn too_many(self, count: u64) -> Option<u64> {
        self.max.filter(|max| count > *max)
    }

    /// The upper bound a container still being written is above for good: its count only grows,
    /// and once it has reached the lower bound the final check no longer reports too few first.
    #[inline]
    pub(crate) fn too_many_for_good(self, count: u64) -> Option<u64> {
        let max = self.max?;
        (count > max && self.min.is_none_or(|min| count >= min)).then_some(max)
    }

    /// Every bound `count` breaks, each handed to `broken` as the family's violation: `fewer`
    /// for the lower bound, `more` for the upper.
    #[inline]
    pub(crate) fn each_violation<'k>(
        self,
        count: u64,
        fewer: fn(u64) -> ViolationKind<'k>,
        more: fn(u64) -> ViolationKind<'k>,
        mut broken: impl FnMut(ViolationKind<'k>),
    ) {
        if let Some(min) = self.too_few(count) {
            broken(fewer(min));
        }
        if let Some(max) = self.too_many(count) {
            broken(more(max));
        }
    }

    /// The bounds resolved once for a compiled tree.
    pub(crate) fn compiled(self) -> CountRange {
        CountRange {
            min: self.min.unwrap_or(0),
            max: self.max.unwrap_or(u64::MAX),
        }
    }
}

/// Inclusive bounds of a count resolved for a compiled tree: `0` and `u64::MAX` when absent, so
/// the check is two comparisons with no `Option` to test.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CountRange {
    min: u64,
    max: u64,
}

impl CountRange {
    /// Whether `count` is within the range.
    #[inline(always)]
    pub(crate) fn holds(self, count: u64) -> bool {
        self.min <= count && count <= self.max
    }
}

/// The inclusive bounds a Rust range of counts states, as the builders take them
/// (`length(1..=64)`, `item_count(..10)`): an exclusive end is one below it, an exclusive start
/// one above it. A range no count is in (`..0`) becomes `min: 1, max: 0`, which no count meets.
pub(crate) fn count_bounds(range: &impl RangeBounds<u64>) -> (Option<u64>, Option<u64>) {
    let min = match range.start_bound() {
        Bound::Included(&min) => Some(min),
        Bound::Excluded(&min) => Some(min.saturating_add(1)),
        Bound::Unbounded => None,
    };
    match range.end_bound() {
        Bound::Included(&max) => (min, Some(max)),
        Bound::Excluded(&0) => (Some(min.unwrap_or(0).max(1)), Some(0)),
        Bound::Excluded(&end) => (min, Some(end - 1)),
        Bound::Unbounded => (min, None),
    }
}

/// Writes the bounds that are present into a rendered schema object, under the family's
/// keyword names (`names`: the lower bound's, then the upper's).
pub(crate) fn render(
    out: &mut Map<String, Value>,
    names: [&str; 2],
    min: Option<u64>,
    max: Option<u64>,
) {
    if let Some(min) = min {
        out.insert(names[0].to_owned(), Value::from(min));
    }
    if let Some(max) = max {
        out.insert(names[1].to_owned(), Value::from(max));
    }
}
