//! Which rule of a typed number node a number breaks, decided alike by both validators (the
//! interpreter in `validate.rs` and the compiled check): the typed model's layout of the number
//! keywords (the common bounds inline, the rest boxed) over their one check each, in
//! `rules/numbers.rs`.

use serde_json::Number;

use super::model::{ExtraNumberRules, NumberRules};
use super::rules::numbers::{
    exclusive_maximum_violation, exclusive_minimum_violation, maximum_violation, meets_maximum,
    meets_minimum, minimum_violation, multiple_of_violation,
};
use super::violation::ViolationKind;

/// The first rule `number` breaks, in the keyword engine's order: `minimum`, `maximum`,
/// `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf` (one violation per number).
#[inline(always)]
pub(super) fn bound_violation<'s>(
    rules: &'s NumberRules,
    number: &Number,
) -> Option<ViolationKind<'s>> {
    if let Some(kind) = rules
        .minimum
        .as_ref()
        .and_then(|min| minimum_violation(number, min))
    {
        return Some(kind);
    }
    if let Some(kind) = rules
        .maximum
        .as_ref()
        .and_then(|max| maximum_violation(number, max))
    {
        return Some(kind);
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
        && !meets_minimum(number, min)
    {
        return false;
    }
    if let Some(max) = &rules.maximum
        && !meets_maximum(number, max)
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
    let exclusive_minimum = || {
        extra
            .exclusive_minimum
            .as_ref()
            .and_then(|min| exclusive_minimum_violation(number, min))
    };
    let exclusive_maximum = || {
        extra
            .exclusive_maximum
            .as_ref()
            .and_then(|max| exclusive_maximum_violation(number, max))
    };
    let multiple_of = || {
        extra
            .multiple_of
            .as_ref()
            .and_then(|factor| multiple_of_violation(number, factor))
    };
    exclusive_minimum()
        .or_else(exclusive_maximum)
        .or_else(multiple_of)
}
