//! `minProperties` and `maxProperties`: an object's number of keys, bounded below and above.
//! This file owns the two keywords: their JSON names, reading them from JSON and writing them
//! back, and the checks the engines run (the compiled tree, the keyword engine, the checks of an
//! object still being written, and the validators `#[derive(ToolArgs)]` generates; the
//! interpreter writes its count check out).
//!
//! It must not know any engine's tree or walk: engines hand it the bounds and the key count.

use serde_json::{Map, Value};

use super::counts::{self, Counts};
use crate::violation::ViolationKind;

/// `minProperties`' JSON name.
pub const MIN_PROPERTIES: &str = "minProperties";
/// `maxProperties`' JSON name.
pub const MAX_PROPERTIES: &str = "maxProperties";

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

/// Writes the keywords that are present into a rendered schema object.
pub(crate) fn render(out: &mut Map<String, Value>, min: Option<u64>, max: Option<u64>) {
    counts::render(out, [MIN_PROPERTIES, MAX_PROPERTIES], min, max);
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
