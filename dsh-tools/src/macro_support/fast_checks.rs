//! The pieces of generated `is_valid_json` bodies that are not a keyword's own rule: `enum`
//! and `const` members compared as literals, without building a `Value`, and integers within a
//! Rust type's range. The keywords' checks the generated code calls (`has_length`, `is_within`,
//! `matches_pattern`, …) are the schema engine's own, written once in `dsh_tools_schema::rules`
//! and re-exported in `mod.rs`. The semantics are the interpreter's (numbers by value); the
//! property tests hold the generated validators equal to the interpreter on the same schema.

use serde_json::{Number, Value};

use dsh_tools_schema::semantics::{compare_numbers, is_integral};

/// A literal `enum`/`const` member, compared without building a `Value`.
#[derive(Clone, Copy, Debug)]
pub enum Lit {
    /// A string.
    Str(&'static str),
    /// A signed integer.
    Int(i64),
    /// An unsigned integer beyond `i64`.
    Uint(u64),
    /// A float.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// `null`.
    Null,
}

impl Lit {
    fn matches(self, value: &Value) -> bool {
        match (self, value) {
            (Self::Str(text), Value::String(other)) => text == other,
            (Self::Bool(flag), Value::Bool(other)) => flag == *other,
            (Self::Null, Value::Null) => true,
            (Self::Int(int), Value::Number(number)) => same_number(&Number::from(int), number),
            (Self::Uint(int), Value::Number(number)) => same_number(&Number::from(int), number),
            (Self::Float(float), Value::Number(number)) => {
                Number::from_f64(float).is_some_and(|float| same_number(&float, number))
            }
            _ => false,
        }
    }
}

fn same_number(a: &Number, b: &Number) -> bool {
    compare_numbers(a, b) == std::cmp::Ordering::Equal
}

/// `value` is one of `members` (numbers by value).
#[inline]
pub fn is_one_of(value: &Value, members: &[Lit]) -> bool {
    members.iter().any(|member| member.matches(value))
}

/// An integral number within `[min, max]`.
#[inline]
pub fn is_integer_in(value: &Value, min: i128, max: i128) -> bool {
    let Value::Number(number) = value else {
        return false;
    };
    let wide = if let Some(unsigned) = number.as_u64() {
        i128::from(unsigned)
    } else if let Some(signed) = number.as_i64() {
        i128::from(signed)
    } else {
        match number.as_f64() {
            // Integral floats beyond 2^64 are outside every Rust integer's range here.
            Some(float) if float.fract() == 0.0 && float.abs() < 18_446_744_073_709_551_616.0 => {
                float as i128
            }
            _ => return false,
        }
    };
    (min..=max).contains(&wide)
}

/// An integral number (any magnitude).
#[inline]
pub fn is_integral_number(value: &Value) -> bool {
    value.as_number().is_some_and(is_integral)
}
