//! `enum` and `const`: a value that must equal one of listed values, or one value, as JSON
//! values (numbers by value, objects without regard to key order). This file owns the two
//! keywords: their JSON names, whether a value is listed (the yes/no form) and the violation
//! reported when it is not, for the keyword engine (the interpreter compares in place, over the
//! same `json_equal`).
//!
//! It must not know any engine's tree or walk: engines hand it the listed values and the value.

use serde_json::Value;

use crate::semantics::json_equal;
use crate::violation::ViolationKind;

/// `enum`'s JSON name.
pub const ENUM: &str = "enum";
/// `const`'s JSON name.
pub const CONST: &str = "const";

/// `enum`: whether `value` is JSON-equal to one of `members`.
#[inline(always)]
pub(crate) fn is_listed(members: &[Value], value: &Value) -> bool {
    members.iter().any(|member| json_equal(member, value))
}

/// `const`: whether `value` is JSON-equal to `constant`.
#[inline(always)]
pub(crate) fn is_constant(constant: &Value, value: &Value) -> bool {
    json_equal(constant, value)
}

/// `enum`'s violation, if `value` is not one of `members`.
#[inline]
pub(crate) fn enum_violation<'s>(members: &'s [Value], value: &Value) -> Option<ViolationKind<'s>> {
    (!is_listed(members, value)).then_some(ViolationKind::NotInEnum(members))
}

/// `const`'s violation, if `value` is not `constant`.
#[inline]
pub(crate) fn const_violation<'s>(constant: &'s Value, value: &Value) -> Option<ViolationKind<'s>> {
    (!is_constant(constant, value)).then_some(ViolationKind::NotConst(constant))
}
