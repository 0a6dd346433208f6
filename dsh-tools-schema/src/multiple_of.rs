//! `multipleOf` decided exactly: numbers are read as the decimals JSON wrote (`0.0075` is
//! `75 × 10⁻⁴`), so `0.0075` is a multiple of `0.0001` and `1e308` is not one of
//! `0.123456789`, where a division in doubles would round either way.

use serde_json::Number;

/// Whether `value` is an integral multiple of `factor` (which is positive).
pub(crate) fn is_multiple_of(value: &Number, factor: &Number) -> bool {
    if let (Some(value), Some(factor)) = (value.as_u64(), factor.as_u64()) {
        return factor != 0 && value.is_multiple_of(factor);
    }
    if let (Some(value), Some(factor)) = (integer(value), integer(factor)) {
        return factor != 0 && value % factor == 0;
    }
    match (decimal(value), decimal(factor)) {
        (Some((a, p)), Some((b, q))) => divides(b, a, p - q),
        _ => match (value.as_f64(), factor.as_f64()) {
            (Some(value), Some(factor)) => {
                let quotient = value / factor;
                quotient.is_finite() && quotient.fract() == 0.0
            }
            _ => false,
        },
    }
}

fn integer(number: &Number) -> Option<i128> {
    number
        .as_i64()
        .map(i128::from)
        .or_else(|| number.as_u64().map(i128::from))
}

/// `|number|` as `mantissa × 10^exponent`, from the shortest decimal that reads back as it.
fn decimal(number: &Number) -> Option<(u128, i32)> {
    let text = number.to_string();
    let text = text.strip_prefix('-').unwrap_or(&text);
    let (digits, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], text[at + 1..].parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let mut mantissa: u128 = 0;
    for digit in whole.bytes().chain(fraction.bytes()) {
        if !digit.is_ascii_digit() {
            return None;
        }
        mantissa = mantissa
            .checked_mul(10)?
            .checked_add(u128::from(digit - b'0'))?;
    }
    let mut exponent = exponent.checked_sub(i32::try_from(fraction.len()).ok()?)?;
    while mantissa != 0 && mantissa.is_multiple_of(10) {
        mantissa /= 10;
        exponent += 1;
    }
    Some((mantissa, exponent))
}

/// Whether `b` divides `a × 10^k` (`b` > 0).
fn divides(mut b: u128, a: u128, k: i32) -> bool {
    if a == 0 {
        return true;
    }
    if b == 0 {
        return false;
    }
    if k >= 0 {
        // The factors 2 and 5 of `b` that 10^k supplies are cancelled; what is left of 10^k is
        // then coprime to what is left of `b`, which must divide `a` alone.
        let (mut twos, mut fives) = (k, k);
        while twos > 0 && b.is_multiple_of(2) {
            b /= 2;
            twos -= 1;
        }
        while fives > 0 && b.is_multiple_of(5) {
            b /= 5;
            fives -= 1;
        }
        a.is_multiple_of(b)
    } else {
        let scale = 10u128.checked_pow(k.unsigned_abs());
        match scale.and_then(|scale| b.checked_mul(scale)) {
            Some(divisor) => a.is_multiple_of(divisor),
            // `a` holds at most 39 digits, so it is no multiple of a larger divisor.
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn multiple(value: serde_json::Value, factor: serde_json::Value) -> bool {
        let (serde_json::Value::Number(value), serde_json::Value::Number(factor)) = (value, factor)
        else {
            panic!("numbers");
        };
        is_multiple_of(&value, &factor)
    }

    #[test]
    fn decides_decimal_multiples_exactly() {
        assert!(multiple(json!(10), json!(2)));
        assert!(!multiple(json!(7), json!(2)));
        assert!(multiple(json!(4.5), json!(1.5)));
        assert!(!multiple(json!(35), json!(1.5)));
        assert!(multiple(json!(0.0075), json!(0.0001)));
        assert!(!multiple(json!(0.00751), json!(0.0001)));
        assert!(!multiple(json!(1e308), json!(0.123456789)));
        assert!(multiple(json!(1e308), json!(2)));
        assert!(multiple(json!(-6), json!(3)));
        assert!(multiple(json!(0), json!(0.3)));
        assert!(multiple(json!(u64::MAX), json!(5)));
    }
}
