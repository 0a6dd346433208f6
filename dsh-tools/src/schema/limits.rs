//! What both validators (the interpreter in `validate.rs` and the compiled check) bound alike:
//! how deep they follow a value, and which bound of a number rule a number breaks.

use std::cmp::Ordering;

use serde_json::Number;

use super::model::NumberRules;
use super::semantics::compare_numbers;
use super::violation::ViolationKind;

/// Deepest nesting the interpreter follows; a value nested deeper under a schema that nests as
/// deep is reported as too deep rather than risking the stack.
pub const MAX_VALIDATION_DEPTH: usize = 256;

/// The first bound `number` breaks.
#[inline(always)]
pub(super) fn bound_violation<'s>(
    rules: &'s NumberRules,
    number: &Number,
) -> Option<ViolationKind<'s>> {
    if let Some(min) = &rules.minimum
        && compare_numbers(number, min) == Ordering::Less
    {
        return Some(ViolationKind::Minimum(min));
    }
    if let Some(max) = &rules.maximum
        && compare_numbers(number, max) == Ordering::Greater
    {
        return Some(ViolationKind::Maximum(max));
    }
    None
}
