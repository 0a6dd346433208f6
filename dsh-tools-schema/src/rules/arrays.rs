//! `minItems`, `maxItems` and `uniqueItems`: what an array keyword reads of the array itself,
//! its length and whether two items are equal. This file owns the three keywords: their JSON
//! names, reading them from JSON and writing them back, and the checks the engines run (the
//! compiled tree, the keyword engine, the checks of an array still being written, and the
//! validators `#[derive(ToolArgs)]` generates; the interpreter writes its count check out).
//!
//! It must not know any engine's tree or walk: engines hand it the bounds and the items.

use serde_json::{Map, Value};

use super::counts::{self, Counts};
use crate::semantics::first_repeat;
use crate::violation::ViolationKind;

/// `minItems`'s JSON name.
pub const MIN_ITEMS: &str = "minItems";
/// `maxItems`'s JSON name.
pub const MAX_ITEMS: &str = "maxItems";
/// `uniqueItems`'s JSON name.
pub const UNIQUE_ITEMS: &str = "uniqueItems";

/// `minItems` and `maxItems`, each read by the engine's reader of non-negative integers (the
/// importer and the keyword engine's compiler each report a bad count in their own words).
pub(crate) fn parse_counts(count: impl FnMut(&'static str) -> Option<u64>) -> Counts {
    Counts::parse([MIN_ITEMS, MAX_ITEMS], count)
}

/// `uniqueItems` as written (absent: `false`), or `None` when it is not a boolean, which the
/// caller reports.
pub(crate) fn parse_unique(map: &Map<String, Value>) -> Option<bool> {
    match map.get(UNIQUE_ITEMS) {
        None => Some(false),
        Some(Value::Bool(unique)) => Some(*unique),
        Some(_) => None,
    }
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

/// Writes the keywords that are present into a rendered schema object (`uniqueItems` only
/// when `true`, its default being `false`).
pub(crate) fn render(
    out: &mut Map<String, Value>,
    min: Option<u64>,
    max: Option<u64>,
    unique: bool,
) {
    counts::render(out, [MIN_ITEMS, MAX_ITEMS], min, max);
    if unique {
        out.insert(UNIQUE_ITEMS.to_owned(), Value::Bool(true));
    }
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
