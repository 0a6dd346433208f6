//! Which rule of a number node a number breaks, decided alike by both validators (the
//! interpreter in `validate.rs` and the compiled check).

use std::cmp::Ordering;

use serde_json::Number;

use super::model::{ExtraNumberRules, NumberRules};
use super::semantics::{compare_numbers, is_less, is_positive_multiple};
use super::violation::ViolationKind;

/// The first rule `number` breaks, in the keyword engine's order: `minimum`, `maximum`,
/// `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf` (one violation per number).
#[inline(always)]
pub(super) fn bound_violation<'s>(
    rules: &'s NumberRules,
    number: &Number,
) -> Option<ViolationKind<'s>> {
    if let Some(min) = &rules.minimum
        && is_less(number, min)
    {
        return Some(ViolationKind::Minimum(min));
    }
    if let Some(max) = &rules.maximum
        && is_less(max, number)
    {
        return Some(ViolationKind::Maximum(max));
    }
    match &rules.extra {
        Some(extra) => extra_violation(extra, number),
        None => None,
    }
}

/// Whether `number` breaks no rule of `rules`: [`bound_violation`] for the yes/no walks.
#[inline(always)]
pub(super) fn within_rules(rules: &NumberRules, number: &Number) -> bool {
    if let Some(min) = &rules.minimum
        && is_less(number, min)
    {
        return false;
    }
    if let Some(max) = &rules.maximum
        && is_less(max, number)
    {
        return false;
    }
    match &rules.extra {
        Some(extra) => extra_violation(extra, number).is_none(),
        None => true,
    }
}

/// The rules few schemas set, out of line, so the common check stays small.
#[inline(never)]
fn extra_violation<'s>(extra: &'s ExtraNumberRules, number: &Number) -> Option<ViolationKind<'s>> {
    if let Some(min) = &extra.exclusive_minimum
        && compare_numbers(number, min) != Ordering::Greater
    {
        return Some(ViolationKind::ExclusiveMinimum(min));
    }
    if let Some(max) = &extra.exclusive_maximum
        && compare_numbers(number, max) != Ordering::Less
    {
        return Some(ViolationKind::ExclusiveMaximum(max));
    }
    match &extra.multiple_of {
        Some(factor) if !is_positive_multiple(number, factor) => {
            Some(ViolationKind::MultipleOf(factor))
        }
        _ => None,
    }
}
