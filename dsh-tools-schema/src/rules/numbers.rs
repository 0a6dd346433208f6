//! `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf`: a number's
//! bounds and step, compared by value on the numbers JSON wrote. This file is the one place the
//! five keywords are written: their JSON names, the check of each (the yes/no form and the
//! violation), the value of `multipleOf` JSON Schema allows, writing them back, and the checks
//! `#[derive(ToolArgs)]`'s validators run. The interpreter and the compiled tree reach them
//! through `number_rules.rs` (the typed model's layout of the five), the keyword engine
//! directly.
//!
//! It must not know any engine's tree or walk, nor the typed model: engines hand it the bound
//! and the number.

use std::cmp::Ordering;

use serde_json::{Map, Number, Value};

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

/// [`meets_multiple_of`] for a factor known to be allowed ([`is_allowed_factor`]), as the keyword
/// engine's compiler ensures: the same answer without testing the factor's sign again.
#[inline(always)]
pub(crate) fn meets_allowed_multiple_of(number: &Number, factor: &Number) -> bool {
    is_multiple_of(number, factor)
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
pub(crate) fn render(out: &mut Map<String, Value>, keyword: &'static str, value: Option<&Number>) {
    if let Some(value) = value {
        out.insert(keyword.to_owned(), Value::Number(value.clone()));
    }
}

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
