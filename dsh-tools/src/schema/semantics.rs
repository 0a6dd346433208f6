//! JSON semantics the validator follows where Rust's would differ: numbers compare by value
//! (`1 == 1.0`, `-0 == 0`, exact beyond 2^53), `1.0` and `1e3` are integers, and string lengths
//! count Unicode code points.
//!
//! This file owns only these comparisons; it knows nothing about schemas.

use std::cmp::Ordering;

use serde_json::{Number, Value};

/// Whether a JSON number has no fractional part (`1`, `1.0`, `1e3`, `-0`).
#[inline(always)]
pub(crate) fn is_integral(number: &Number) -> bool {
    number.is_i64() || number.is_u64() || number.as_f64().is_some_and(|f| f.fract() == 0.0)
}

/// Exact numeric order of two JSON numbers (integers beyond 2^53 included).
#[inline(always)]
pub(crate) fn compare_numbers(a: &Number, b: &Number) -> Ordering {
    // The common case, two non-negative integers, without widening.
    if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
        return x.cmp(&y);
    }
    compare_numbers_slow(a, b)
}

#[inline(never)]
fn compare_numbers_slow(a: &Number, b: &Number) -> Ordering {
    match (exact_integer(a), exact_integer(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => {
            let x = a.as_f64().unwrap_or(f64::NAN);
            let y = b.as_f64().unwrap_or(f64::NAN);
            // A non-integral float is below 2^52 in magnitude, so rounding the other side to f64
            // cannot move it across: the f64 order is exact here.
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
    }
}

/// The number as an exact integer, when it is one (floats included while in `i128` range).
#[inline]
fn exact_integer(number: &Number) -> Option<i128> {
    if let Some(i) = number.as_i64() {
        return Some(i128::from(i));
    }
    if let Some(u) = number.as_u64() {
        return Some(i128::from(u));
    }
    let f = number.as_f64()?;
    // 2^127 bounds i128; every float of that magnitude or more is out of range.
    const LIMIT: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
    // `as` is exact here: `f` is integral and inside the i128 range.
    #[allow(clippy::cast_possible_truncation)]
    (f.fract() == 0.0 && f.abs() < LIMIT).then_some(f as i128)
}

/// JSON equality: numbers by value (`1 == 1.0`), arrays element-wise, objects regardless of key
/// order.
///
/// Recursion is bounded by the shallower of the two values, and callers always pass a schema
/// constant as one side, so a hostile value cannot make this recurse deeper than the schema.
pub(crate) fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare_numbers(x, y) == Ordering::Equal,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Null, Value::Null) => true,
        (Value::Array(xs), Value::Array(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| json_equal(x, y))
        }
        (Value::Object(xs), Value::Object(ys)) => {
            xs.len() == ys.len()
                && xs
                    .iter()
                    .all(|(key, x)| ys.get(key).is_some_and(|y| json_equal(x, y)))
        }
        _ => false,
    }
}

/// Whether two keys are equal. Keys are short, so comparing them in place beats a call to
/// `memcmp` (this sits on the hot path of every object).
#[inline]
pub(crate) fn same_key(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let len = a.len();
    if len != b.len() {
        return false;
    }
    if len >= 8 {
        if len > 16 {
            return a == b;
        }
        // Two overlapping 8-byte windows cover 8..=16 bytes.
        return word(a, 0) == word(b, 0) && word(a, len - 8) == word(b, len - 8);
    }
    if len >= 4 {
        // Two overlapping 4-byte windows cover 4..=7 bytes.
        return half(a, 0) == half(b, 0) && half(a, len - 4) == half(b, len - 4);
    }
    a.iter().zip(b).all(|(x, y)| x == y)
}

#[inline(always)]
pub(super) fn word(bytes: &[u8], at: usize) -> u64 {
    let mut chunk = [0u8; 8];
    chunk.copy_from_slice(&bytes[at..at + 8]);
    u64::from_ne_bytes(chunk)
}

#[inline(always)]
pub(super) fn half(bytes: &[u8], at: usize) -> u32 {
    let mut chunk = [0u8; 4];
    chunk.copy_from_slice(&bytes[at..at + 4]);
    u32::from_ne_bytes(chunk)
}

/// How many of `branches` `matches`, counted up to two: `oneOf` only asks whether exactly one
/// does, and only the reporting walk prints a larger count (it counts on its own).
#[inline]
pub(crate) fn count_up_to_two<T>(branches: &[T], matches: impl Fn(&T) -> bool) -> usize {
    let mut matched = 0;
    for branch in branches {
        if matches(branch) {
            matched += 1;
            if matched == 2 {
                break;
            }
        }
    }
    matched
}

/// Whether `text` has at least `min` code points, counting only when bytes cannot decide.
#[inline(always)]
pub(crate) fn has_at_least_code_points(text: &str, min: u64) -> bool {
    let bytes = text.len() as u64;
    // A code point takes one to four bytes.
    if bytes < min {
        return false;
    }
    if bytes / 4 >= min {
        return true;
    }
    code_points(text) >= min
}

/// Whether `text` has at most `max` code points, counting only when bytes cannot decide.
#[inline(always)]
pub(crate) fn has_at_most_code_points(text: &str, max: u64) -> bool {
    let bytes = text.len() as u64;
    if bytes <= max {
        return true;
    }
    if bytes / 4 > max {
        return false;
    }
    code_points(text) <= max
}

/// Whether `text` has between `min` and `max` code points (inclusive).
#[inline(never)]
pub(crate) fn has_code_points_within(text: &str, min: u64, max: u64) -> bool {
    (min..=max).contains(&code_points(text))
}

/// The string's length in Unicode code points (JSON Schema's notion of length).
#[inline(never)]
pub(crate) fn code_points(text: &str) -> u64 {
    text.chars().count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn number(value: Value) -> Number {
        match value {
            Value::Number(n) => n,
            other => panic!("not a number: {other}"),
        }
    }

    #[test]
    fn integers_include_integral_floats_and_negative_zero() {
        assert!(is_integral(&number(json!(1.0))));
        assert!(is_integral(&number(json!(1e3))));
        assert!(is_integral(&number(json!(-0.0))));
        assert!(!is_integral(&number(json!(1.5))));
    }

    #[test]
    fn numbers_compare_exactly_beyond_f64_precision() {
        let big = number(json!(9_007_199_254_740_993_u64));
        let rounded = number(json!(9_007_199_254_740_992.0));
        assert_eq!(compare_numbers(&big, &rounded), Ordering::Greater);
        assert_eq!(
            compare_numbers(&number(json!(u64::MAX)), &number(json!(i64::MIN))),
            Ordering::Greater
        );
        assert_eq!(
            compare_numbers(&number(json!(0.5)), &number(json!(u64::MAX))),
            Ordering::Less
        );
        assert_eq!(
            compare_numbers(&number(json!(-0.0)), &number(json!(0))),
            Ordering::Equal
        );
    }

    #[test]
    fn equality_is_by_value() {
        assert!(json_equal(&json!(1), &json!(1.0)));
        assert!(json_equal(&json!([1, {"a": 2.0}]), &json!([1.0, {"a": 2}])));
        assert!(json_equal(
            &json!({"a": 1, "b": 2}),
            &json!({"b": 2, "a": 1})
        ));
        assert!(!json_equal(&json!("1"), &json!(1)));
        assert!(!json_equal(&json!([1]), &json!([1, 1])));
    }

    #[test]
    fn keys_compare_bytewise_at_every_length() {
        let long = "abcdefghijklmnopqrstuvwxyz";
        for len in 0..=long.len() {
            let key = &long[..len];
            assert!(same_key(key, key));
            assert!(same_key(key, String::from(key).as_str()));
            for flip in 0..len {
                let mut other = key.as_bytes().to_vec();
                other[flip] = b'_';
                let other = String::from_utf8(other).unwrap();
                assert!(!same_key(key, &other), "{key} vs {other}");
            }
            assert!(!same_key(key, &long[..len.saturating_sub(1)]) || len == 0);
        }
    }

    #[test]
    fn lengths_count_code_points() {
        assert!(has_at_least_code_points("é😀", 2));
        assert!(!has_at_least_code_points("é😀", 3));
        assert!(has_at_most_code_points("😀😀", 2));
        assert!(!has_at_most_code_points("😀😀😀", 2));
        assert!(has_at_least_code_points("abcdefgh", 2));
        assert!(!has_at_most_code_points("abcdefghijklm", 2));
    }
}
