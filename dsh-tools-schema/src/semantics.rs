//! JSON semantics the validator follows where Rust's would differ: numbers compare by value
//! (`1 == 1.0`, `-0 == 0`, exact beyond 2^53), `1.0` and `1e3` are integers, string lengths
//! count Unicode code points, and `uniqueItems` finds equal items by JSON equality.
//!
//! This file owns only these comparisons; it knows nothing about schemas. The public ones are
//! what the runtime's generated checks and readers share with the validator, so a number, a
//! length or a repeat means the same everywhere.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hash, Hasher};

use serde_json::{Map, Number, Value};

use crate::multiple_of::is_multiple_of;

/// Whether a JSON number has no fractional part (`1`, `1.0`, `1e3`, `-0`).
#[inline(always)]
pub fn is_integral(number: &Number) -> bool {
    number.is_i64() || number.is_u64() || number.as_f64().is_some_and(is_integral_float)
}

/// A double holding a whole number below 2^53 in magnitude (where doubles still hold every
/// integer), as that integer: how a JSON writer writes it (`1e3` is `1000`, `50.0` is `50`).
/// `None` for any other double.
pub fn whole_number(float: f64) -> Option<i64> {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    #[expect(clippy::cast_possible_truncation, reason = "integral and in range")]
    (float.fract() == 0.0 && float.abs() < EXACT).then_some(float as i64)
}

/// `f.fract() == 0.0`, read from the bits: `fract` is a call to `trunc` on targets without
/// SSE4.1, and one LLVM hoists onto every value of a walk that may ask.
#[inline(always)]
fn is_integral_float(f: f64) -> bool {
    const MANTISSA_BITS: i32 = 52;
    let bits = f.to_bits();
    let exponent = ((bits >> MANTISSA_BITS) & 0x7ff) as i32 - 1023;
    if exponent < 0 {
        // Below 1 in magnitude only zero is integral.
        return f == 0.0;
    }
    if exponent >= MANTISSA_BITS {
        // No bit below the point; infinity and NaN (which JSON has not) have no integer part.
        return f.is_finite();
    }
    bits & ((1u64 << (MANTISSA_BITS - exponent)) - 1) == 0
}

/// Exact numeric order of two JSON numbers (integers beyond 2^53 included).
#[inline(always)]
pub fn compare_numbers(a: &Number, b: &Number) -> Ordering {
    // The common case, two non-negative integers, without widening.
    if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
        return x.cmp(&y);
    }
    compare_numbers_slow(a, b)
}

/// Whether `number` is a multiple of `factor`; a factor that is not above 0 (which JSON Schema
/// does not allow, and the builder and import refuse) has no multiples.
pub fn is_positive_multiple(number: &Number, factor: &Number) -> bool {
    compare_numbers(factor, &Number::from(0)) == Ordering::Greater && is_multiple_of(number, factor)
}

/// Whether `a < b`, exactly: [`compare_numbers`] without the three-way result, so the common
/// case of two non-negative integers is one comparison.
#[inline(always)]
pub(crate) fn is_less(a: &Number, b: &Number) -> bool {
    if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
        return x < y;
    }
    compare_numbers_slow(a, b) == Ordering::Less
}

#[inline(never)]
fn compare_numbers_slow(a: &Number, b: &Number) -> Ordering {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        return x.cmp(&y);
    }
    // Floats, and integers a float holds exactly, compare as floats.
    if let (Some(x), Some(y)) = (exact_float(a), exact_float(b)) {
        return x.partial_cmp(&y).unwrap_or(Ordering::Equal);
    }
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

/// The number as a float without rounding: a float, or an integer of at most 53 bits.
#[inline(always)]
fn exact_float(number: &Number) -> Option<f64> {
    const EXACT: u64 = 1 << 53;
    if number.is_f64() {
        number.as_f64()
    } else if let Some(i) = number.as_i64() {
        // `as` is exact: the magnitude is within the mantissa.
        #[allow(clippy::cast_precision_loss)]
        (i.unsigned_abs() <= EXACT).then_some(i as f64)
    } else {
        #[allow(clippy::cast_precision_loss)]
        number.as_u64().filter(|&u| u <= EXACT).map(|u| u as f64)
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
///
/// Scalars are compared in place (this is inlined into `enum`, `const` and `uniqueItems`
/// loops); arrays and objects out of line.
#[inline]
pub(crate) fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare_numbers(x, y) == Ordering::Equal,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Null, Value::Null) => true,
        (Value::Array(_), Value::Array(_)) | (Value::Object(_), Value::Object(_)) => {
            containers_equal(a, b)
        }
        _ => false,
    }
}

#[inline(never)]
fn containers_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Array(xs), Value::Array(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| json_equal(x, y))
        }
        (Value::Object(xs), Value::Object(ys)) => objects_equal(xs, ys, json_equal),
        _ => false,
    }
}

/// Whether two objects have the same keys with `equal` values, whatever their order. A key is
/// looked for at the same position first (objects written alike list keys alike), and by a
/// scan in a small object, where hashing the key costs more.
fn objects_equal(
    xs: &Map<String, Value>,
    ys: &Map<String, Value>,
    equal: impl Fn(&Value, &Value) -> bool,
) -> bool {
    xs.len() == ys.len()
        && xs.iter().zip(ys).all(|((key, x), (other_key, y))| {
            if key == other_key {
                return equal(x, y);
            }
            let found = if ys.len() <= 8 {
                ys.iter()
                    .find_map(|(other_key, y)| (other_key == key).then_some(y))
            } else {
                ys.get(key)
            };
            found.is_some_and(|y| equal(x, y))
        })
}

/// Arrays up to this long are searched for equal items pair by pair; longer ones by hash.
const PAIRWISE_ITEMS: usize = 16;

/// How deep [`first_repeat`] hashes and compares two items: both sides come from the payload,
/// so a value built in code rather than parsed could nest without limit. Items that only differ
/// below this depth count as different.
const EQUALITY_DEPTH: usize = 256;

/// The first two equal items of `items` (JSON equality: numbers by value, objects whatever their
/// key order), by index: the
/// earliest item equal to one before it, and the first of those before it — what `uniqueItems`
/// reports. Short arrays compare pair by pair; longer ones look each item up by a hash that
/// equal items share (numbers hashed by value, objects whatever their key order), so a long
/// array of distinct items costs one pass, not a comparison per pair.
pub fn first_repeat(items: &[Value]) -> Option<(usize, usize)> {
    if items.len() <= PAIRWISE_ITEMS {
        return (1..items.len()).find_map(|second| {
            (0..second)
                .find(|&first| equal_within(&items[first], &items[second], EQUALITY_DEPTH))
                .map(|first| (first, second))
        });
    }
    first_repeat_hashed(items)
}

#[inline(never)]
fn first_repeat_hashed(items: &[Value]) -> Option<(usize, usize)> {
    // Keys seeded per process: a payload cannot be built to collide.
    let state = RandomState::new();
    // The first item seen with each hash.
    let mut firsts: HashMap<u64, usize> = HashMap::with_capacity(items.len());
    for (second, item) in items.iter().enumerate() {
        let hash = {
            let mut hasher = state.build_hasher();
            hash_json(item, &state, &mut hasher, EQUALITY_DEPTH);
            hasher.finish()
        };
        match firsts.get(&hash) {
            None => {
                firsts.insert(hash, second);
            }
            // Equal items hash alike, so the first item of a hash, when equal, is the first
            // equal item.
            Some(&first) if equal_within(&items[first], item, EQUALITY_DEPTH) => {
                return Some((first, second));
            }
            // Another value of the same hash: look at every earlier item.
            Some(_) => {
                if let Some(first) =
                    (0..second).find(|&first| equal_within(&items[first], item, EQUALITY_DEPTH))
                {
                    return Some((first, second));
                }
            }
        }
    }
    None
}

/// Feeds `value` to `hasher` so that JSON-equal values hash alike, reading `levels` deep.
fn hash_json(value: &Value, state: &RandomState, hasher: &mut impl Hasher, levels: usize) {
    match value {
        Value::Null => 0u8.hash(hasher),
        Value::Bool(flag) => {
            1u8.hash(hasher);
            flag.hash(hasher);
        }
        Value::Number(number) => {
            2u8.hash(hasher);
            // Equal numbers have the same nearest double (rounding depends on the value alone),
            // and `-0` is zero.
            let float = number.as_f64().unwrap_or(0.0);
            let float = if float == 0.0 { 0.0 } else { float };
            float.to_bits().hash(hasher);
        }
        Value::String(text) => {
            3u8.hash(hasher);
            text.hash(hasher);
        }
        Value::Array(items) => {
            4u8.hash(hasher);
            items.len().hash(hasher);
            if levels > 0 {
                for item in items {
                    hash_json(item, state, hasher, levels - 1);
                }
            }
        }
        Value::Object(map) => {
            5u8.hash(hasher);
            map.len().hash(hasher);
            if levels > 0 {
                // Key order does not matter: each entry hashed alone, the hashes summed.
                let mut sum = 0u64;
                for (key, item) in map {
                    let mut entry = state.build_hasher();
                    key.hash(&mut entry);
                    hash_json(item, state, &mut entry, levels - 1);
                    sum = sum.wrapping_add(entry.finish());
                }
                sum.hash(hasher);
            }
        }
    }
}

/// [`json_equal`], following both values at most `levels` deep (deeper, they differ).
fn equal_within(a: &Value, b: &Value, levels: usize) -> bool {
    match (a, b) {
        (Value::Array(xs), Value::Array(ys)) => {
            levels > 0
                && xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(ys)
                    .all(|(x, y)| equal_within(x, y, levels - 1))
        }
        (Value::Object(xs), Value::Object(ys)) => {
            levels > 0 && objects_equal(xs, ys, |x, y| equal_within(x, y, levels - 1))
        }
        _ => json_equal(a, b),
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
pub fn has_at_least_code_points(text: &str, min: u64) -> bool {
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
pub fn has_at_most_code_points(text: &str, max: u64) -> bool {
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
    fn integral_floats_read_from_the_bits_agree_with_fract() {
        let samples = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            1.5,
            2.0,
            3.25,
            1e-300,
            4503599627370495.5,
            4503599627370496.0,
            9007199254740993.0,
            1e300,
            -1e300,
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        for f in samples {
            assert_eq!(is_integral_float(f), f.fract() == 0.0, "{f}");
            assert_eq!(is_integral_float(-f), (-f).fract() == 0.0, "{}", -f);
        }
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
    fn repeats_are_found_by_value_in_short_and_long_arrays() {
        assert_eq!(first_repeat(&[]), None);
        assert_eq!(
            first_repeat(&[json!("a"), json!("b"), json!("a")]),
            Some((0, 2))
        );
        assert_eq!(
            first_repeat(&[json!(1), json!(2), json!(2.0), json!(1.0)]),
            Some((1, 2))
        );
        assert_eq!(first_repeat(&[json!(-0.0), json!(0)]), Some((0, 1)));
        assert_eq!(
            first_repeat(&[json!({"a": 1, "b": [1]}), json!({"b": [1.0], "a": 1})]),
            Some((0, 1))
        );
        assert_eq!(
            first_repeat(&[json!(u64::MAX), json!(1.8446744073709552e19)]),
            None
        );
        assert_eq!(first_repeat(&[json!([1]), json!([[1]]), json!(1)]), None);
        for len in [17, 100, 1_000] {
            let mut items: Vec<Value> = (0..len).map(|n| json!({"n": n, "s": [n]})).collect();
            assert_eq!(first_repeat(&items), None, "{len} distinct items");
            items.push(json!({"s": [len as f64 - 2.0], "n": len - 2}));
            items.push(json!({"n": 3, "s": [3]}));
            assert_eq!(first_repeat(&items), Some((len - 2, len)), "{len} items");
            let mut numbers: Vec<Value> = (0..len).map(|n| json!(n)).collect();
            numbers.push(json!(5.0));
            assert_eq!(first_repeat(&numbers), Some((5, len)));
        }
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
