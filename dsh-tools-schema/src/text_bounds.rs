//! Quoting untrusted text in model-facing messages: a key or value a violation quotes is cut to a
//! short prefix, with a marker saying how much was cut (`<first 64 characters>…[+936
//! characters]`), so the model is never misled into thinking it saw everything.
//!
//! Text of ordinary size passes through unchanged, byte for byte, and is checked without
//! counting characters (a text of at most N bytes has at most N characters). The runtime bounds
//! its error texts and result contents with markers of the same style, built with
//! [`push_grouped`].

use std::borrow::Cow;
use std::fmt::Write as _;

/// The most characters of one key or value a violation or an error message quotes; longer ones are
/// cut to this many and marked with how many characters were cut.
pub const MAX_QUOTED_CHARS: usize = 64;

/// Appends `text`, or its first [`MAX_QUOTED_CHARS`] characters and `…[+N characters]`.
pub(crate) fn push_quoted(out: &mut String, text: &str) {
    match quote_cut(text) {
        None => out.push_str(text),
        Some((kept, cut)) => {
            out.push_str(kept);
            push_cut_marker(out, cut);
        }
    }
}

/// `text`, or its first [`MAX_QUOTED_CHARS`] characters and `…[+N characters]`, borrowed when
/// nothing is cut.
pub fn quoted(text: &str) -> Cow<'_, str> {
    match quote_cut(text) {
        None => Cow::Borrowed(text),
        Some(_) => {
            let mut out = String::with_capacity(MAX_QUOTED_CHARS * 4 + 24);
            push_quoted(&mut out, text);
            Cow::Owned(out)
        }
    }
}

/// The kept prefix and the number of characters cut, when `text` is too long to quote whole.
#[inline]
fn quote_cut(text: &str) -> Option<(&str, usize)> {
    // At most MAX_QUOTED_CHARS bytes is at most that many characters: no need to count.
    if text.len() <= MAX_QUOTED_CHARS {
        return None;
    }
    let (end, _) = text.char_indices().nth(MAX_QUOTED_CHARS)?;
    let cut = text[end..].chars().count();
    Some((&text[..end], cut))
}

/// Appends the marker of a quote cut by `cut` characters: `…[+N characters]`.
pub fn push_cut_marker(out: &mut String, cut: usize) {
    out.push_str("…[+");
    push_grouped(out, cut);
    out.push_str(if cut == 1 {
        " character]"
    } else {
        " characters]"
    });
}

/// Appends `n` with thousands separators, as every marker writes its counts: `1,048,576`.
pub fn push_grouped(out: &mut String, n: usize) {
    let mut digits = String::with_capacity(20);
    // Writing into a `String` cannot fail.
    let _ = write!(digits, "{n}");
    let first = digits.len() % 3;
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && index % 3 == first {
            out.push(',');
        }
        out.push(digit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grouped(n: usize) -> String {
        let mut out = String::new();
        push_grouped(&mut out, n);
        out
    }

    #[test]
    fn groups_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(12_345), "12,345");
        assert_eq!(grouped(1_048_576), "1,048,576");
    }

    #[test]
    fn short_quotes_pass_unchanged() {
        let text = "é".repeat(MAX_QUOTED_CHARS);
        assert_eq!(quoted(&text), text);
        assert!(matches!(quoted("key"), Cow::Borrowed("key")));
    }

    #[test]
    fn long_quotes_keep_a_prefix_and_say_how_much_was_cut() {
        let text = format!("{}{}", "a".repeat(64), "é".repeat(1_000));
        assert_eq!(
            quoted(&text),
            format!("{}…[+1,000 characters]", "a".repeat(64))
        );
        let one_over = "b".repeat(65);
        assert_eq!(
            quoted(&one_over),
            format!("{}…[+1 character]", "b".repeat(64))
        );
    }
}
