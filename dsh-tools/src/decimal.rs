//! [`Decimal`]: a `u64`'s decimal digits written on the stack, for the per-call paths where
//! `format!` and `Display` go through the formatting machinery at several times the cost (a
//! nested Code Mode call's id, an integer in an idempotency key's digest).

/// The decimal digits of a `u64`, most significant first, without a sign.
pub(crate) struct Decimal {
    digits: [u8; 20],
    start: usize,
}

impl Decimal {
    /// The digits of `value` (`u64::MAX` has 20).
    pub(crate) fn new(value: u64) -> Self {
        let mut digits = [0_u8; 20];
        let mut start = digits.len();
        let mut rest = value;
        loop {
            start -= 1;
            // `rest % 10` is a single digit: the cast loses nothing.
            digits[start] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        Self { digits, start }
    }

    /// The digits as ASCII bytes.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.digits[self.start..]
    }
}

#[cfg(test)]
mod tests {
    use super::Decimal;

    #[test]
    fn writes_what_display_writes() {
        for value in [0, 7, 10, 99, 100, 12_345, u64::from(u32::MAX), u64::MAX] {
            assert_eq!(Decimal::new(value).as_bytes(), value.to_string().as_bytes());
        }
    }
}
