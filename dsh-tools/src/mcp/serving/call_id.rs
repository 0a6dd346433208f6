//! The call id of a served `tools/call`: its JSON-RPC id as text, a number in decimal (as rmcp
//! displays it). A client numbers its requests from 0 or 1 up, so most ids are small: the text of
//! a number below 1,000 is a slice of one static string, and such a call's id costs it no
//! allocation (nor the free after the call).

use std::borrow::Cow;

use rmcp::model as mcp;

/// How many numbers have their text in [`SMALL_IDS`]: 0 to 999.
const SMALL: usize = 1000;
/// Where the two-digit numbers' texts start in [`SMALL_IDS`] (after the ten one-digit ones).
const TWO_DIGITS_AT: usize = 10;
/// Where the three-digit numbers' texts start (after the ninety two-digit ones).
const THREE_DIGITS_AT: usize = TWO_DIGITS_AT + 90 * 2;
const SMALL_IDS_LEN: usize = THREE_DIGITS_AT + 900 * 3;

const SMALL_ID_BYTES: [u8; SMALL_IDS_LEN] = small_id_bytes();

/// The decimal texts of 0 to 999, one after another: `0123456789101112…998999`.
const SMALL_IDS: &str = match std::str::from_utf8(&SMALL_ID_BYTES) {
    Ok(text) => text,
    // Evaluated at compile time: digits are always ASCII.
    Err(_) => panic!("decimal digits are ASCII"),
};

const fn small_id_bytes() -> [u8; SMALL_IDS_LEN] {
    let mut bytes = [0u8; SMALL_IDS_LEN];
    let mut at = 0;
    let mut number = 0;
    while number < SMALL {
        if number >= 100 {
            bytes[at] = b'0' + (number / 100) as u8;
            at += 1;
        }
        if number >= 10 {
            bytes[at] = b'0' + (number / 10 % 10) as u8;
            at += 1;
        }
        bytes[at] = b'0' + (number % 10) as u8;
        at += 1;
        number += 1;
    }
    bytes
}

/// The call id of a request with JSON-RPC id `id`.
pub(crate) fn call_id(id: &mcp::RequestId) -> Cow<'static, str> {
    match id {
        mcp::NumberOrString::Number(number) => usize::try_from(*number)
            .ok()
            .and_then(small_id)
            .map_or_else(|| Cow::Owned(number.to_string()), Cow::Borrowed),
        mcp::NumberOrString::String(text) => Cow::Owned(text.to_string()),
    }
}

/// The text of `number` from [`SMALL_IDS`]; `None` from 1,000 on.
fn small_id(number: usize) -> Option<&'static str> {
    let (start, len) = match number {
        0..10 => (number, 1),
        10..100 => (TWO_DIGITS_AT + (number - 10) * 2, 2),
        100..SMALL => (THREE_DIGITS_AT + (number - 100) * 3, 3),
        _ => return None,
    };
    SMALL_IDS.get(start..start + len)
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;
    use std::sync::Arc;

    use rmcp::model::NumberOrString;

    use super::call_id;

    #[test]
    fn a_numeric_id_is_its_decimal_text() {
        for number in (0..1200).chain([-1, -1000, i64::MAX, i64::MIN, 123_456_789]) {
            let id = call_id(&NumberOrString::Number(number));
            assert_eq!(id, number.to_string(), "{number}");
            assert_eq!(
                matches!(id, Cow::Borrowed(_)),
                (0..1000).contains(&number),
                "{number}"
            );
        }
    }

    #[test]
    fn a_text_id_is_itself() {
        let id = call_id(&NumberOrString::String(Arc::from("req-7")));
        assert_eq!(id, "req-7");
    }
}
