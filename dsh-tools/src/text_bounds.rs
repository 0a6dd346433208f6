//! Bounds on model-facing text built from untrusted input: an error text has a size cap, and a
//! result's content a character budget. Each cut leaves a marker saying how much was cut, so the
//! model is never misled into thinking it saw everything.
//!
//! The markers, in the style of the schema engine's quoted keys and values
//! (`<first 64 characters>…[+936 characters]`, [`dsh_tools_schema::text_bounds`]):
//! - an error text: `<first bytes>…[truncated: 1,040,000 of 1,048,590 bytes omitted]`;
//! - a result's content: `<kept text>…[truncated: 12,345 of 60,000 characters omitted; call the
//!   tool again with a narrower request to see the rest]`.
//!
//! Text of ordinary size passes through unchanged, byte for byte, and is checked without
//! counting characters (a text of at most N bytes has at most N characters).

use std::borrow::Cow;

use dsh_tools_schema::text_bounds::push_grouped;

use crate::content::ContentBlock;

/// The most bytes of a model-facing error text (`Error: <message>`) the registry builds from
/// untrusted input (argument violations, unparsable JSON, unknown tool names, panic messages);
/// longer texts are cut with a marker.
pub(crate) const MAX_ERROR_TEXT_BYTES: usize = 8 * 1024;

/// The envelope the model sees before an error message.
const ERROR_ENVELOPE: &str = "Error: ";

/// `message` cut so that `Error: <message>` fits [`MAX_ERROR_TEXT_BYTES`], with a marker saying
/// how many bytes were cut; unchanged (not reallocated) when it already fits.
pub(crate) fn bound_error_message(message: String) -> String {
    let limit = MAX_ERROR_TEXT_BYTES - ERROR_ENVELOPE.len();
    if message.len() <= limit {
        return message;
    }
    let total = message.len();
    // The marker carries the cut, which has at most as many digits as `total`: sized for that,
    // the real marker can only be shorter.
    let mut marker = String::new();
    push_error_marker(&mut marker, total, total);
    let keep = floor_char_boundary(&message, limit - marker.len());
    marker.clear();
    push_error_marker(&mut marker, total - keep, total);
    let mut bounded = String::with_capacity(keep + marker.len());
    bounded.push_str(&message[..keep]);
    bounded.push_str(&marker);
    bounded
}

/// `…[truncated: N of M bytes omitted]`.
fn push_error_marker(out: &mut String, cut: usize, total: usize) {
    out.push_str("…[truncated: ");
    push_grouped(out, cut);
    out.push_str(" of ");
    push_grouped(out, total);
    out.push_str(" bytes omitted]");
}

/// The largest index at most `index` that is a char boundary of `text`.
fn floor_char_boundary(text: &str, index: usize) -> usize {
    if index >= text.len() {
        return text.len();
    }
    let mut index = index;
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

/// What [`truncate_content`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Truncation {
    /// Characters of text left out.
    pub(crate) omitted: usize,
    /// Characters of text the content had.
    pub(crate) total: usize,
}

/// Cuts the text blocks of `content` so that their characters, marker included, fit
/// `max_chars`: text is kept in block order, the block where the budget runs out is cut at a
/// character boundary and carries the marker, later text blocks are dropped. Non-text blocks
/// (images, audio, links) are left where they are: they are not text a model reads character by
/// character, and cutting their data would corrupt them. `None` when everything fits; content
/// shared with other results (`Cow::Borrowed`) is copied only when it is cut.
#[inline]
pub(crate) fn truncate_content(
    content: &mut Cow<'static, [ContentBlock]>,
    max_chars: usize,
) -> Option<Truncation> {
    // At most `max_chars` bytes of text is at most that many characters: the common case is
    // decided without counting characters or leaving this (inlined) function.
    if let [ContentBlock::Text { text }] = &**content
        && text.len() <= max_chars
    {
        return None;
    }
    let mut bytes = 0_usize;
    for block in content.iter() {
        if let ContentBlock::Text { text } = block {
            bytes += text.len();
        }
    }
    if bytes <= max_chars {
        return None;
    }
    truncate_long_content(content, max_chars)
}

/// [`truncate_content`] for content with more bytes of text than the budget.
#[cold]
fn truncate_long_content(
    content: &mut Cow<'static, [ContentBlock]>,
    max_chars: usize,
) -> Option<Truncation> {
    let total: usize = content
        .iter()
        .filter_map(ContentBlock::as_text)
        .map(|text| text.chars().count())
        .sum();
    if total <= max_chars {
        return None;
    }
    // The marker counts against the budget. Its length depends on the number it carries, which
    // has at most as many digits as `total`: start from that, then keep what the shorter number
    // leaves room for (a step or two).
    let marker_chars = |omitted: usize| {
        let mut marker = String::new();
        push_result_marker(&mut marker, omitted, total);
        marker.chars().count()
    };
    let mut keep = max_chars.saturating_sub(marker_chars(total));
    while keep < total && keep + 1 + marker_chars(total - keep - 1) <= max_chars {
        keep += 1;
    }
    let mut marker = String::new();
    if keep > 0 {
        push_result_marker(&mut marker, total - keep, total);
    } else {
        // A budget too small for the whole marker and some text: a shorter marker, so the
        // result still fits and still shows the start of the text.
        // (A budget of one character shows the ellipsis alone: that the text was cut matters
        // more than its first character.)
        let short = [SHORT_RESULT_MARKER, "…"]
            .into_iter()
            .find(|short| short.chars().count() < max_chars)
            .unwrap_or(if max_chars > 0 { "…" } else { "" });
        marker.push_str(short);
        keep = max_chars - short.chars().count().min(max_chars);
    }
    let omitted = total - keep;

    let content = content.to_mut();
    let mut left = keep;
    let mut marked = false;
    content.retain_mut(|block| {
        let ContentBlock::Text { text } = block else {
            return true;
        };
        if marked {
            return false;
        }
        let chars = text.chars().count();
        if chars <= left {
            left -= chars;
            return true;
        }
        let end = text
            .char_indices()
            .nth(left)
            .map_or(text.len(), |(at, _)| at);
        text.truncate(end);
        text.push_str(&marker);
        marked = true;
        true
    });
    if !marked {
        // Unreachable when the counts above are right; the marker must never be lost.
        content.push(ContentBlock::text(marker));
    }
    Some(Truncation { omitted, total })
}

/// The marker of a result whose budget cannot hold the whole one and some text.
const SHORT_RESULT_MARKER: &str = "…[truncated]";

/// `…[truncated: N of M characters omitted; call the tool again with a narrower request to see
/// the rest]`.
fn push_result_marker(out: &mut String, omitted: usize, total: usize) {
    out.push_str("…[truncated: ");
    push_grouped(out, omitted);
    out.push_str(" of ");
    push_grouped(out, total);
    out.push_str(
        " characters omitted; call the tool again with a narrower request to see the rest]",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_messages_fit_the_cap_with_their_marker() {
        let ordinary = "x".repeat(MAX_ERROR_TEXT_BYTES - ERROR_ENVELOPE.len());
        assert_eq!(bound_error_message(ordinary.clone()), ordinary);
        let huge = "é".repeat(600_000);
        let bounded = bound_error_message(huge);
        assert!(ERROR_ENVELOPE.len() + bounded.len() <= MAX_ERROR_TEXT_BYTES);
        assert!(
            bounded.ends_with(" of 1,200,000 bytes omitted]"),
            "{}",
            &bounded[bounded.len() - 60..]
        );
        let kept = bounded.split('…').next().unwrap_or_default();
        let cut: usize = 1_200_000 - kept.len();
        let mut marker = String::new();
        push_error_marker(&mut marker, cut, 1_200_000);
        assert_eq!(&bounded[kept.len()..], marker);
    }

    #[test]
    fn content_within_the_budget_is_untouched() {
        let mut content = Cow::Owned(vec![ContentBlock::text("é".repeat(100))]);
        assert_eq!(truncate_content(&mut content, 100), None);
        assert_eq!(*content, [ContentBlock::text("é".repeat(100))]);
    }

    #[test]
    fn content_over_the_budget_is_cut_to_fit_with_its_marker() {
        let mut content = Cow::Owned(vec![
            ContentBlock::text("a".repeat(300)),
            ContentBlock::Image {
                data: "AAAA".to_owned(),
                mime_type: "image/png".to_owned(),
            },
            ContentBlock::text("b".repeat(300)),
            ContentBlock::text("c".repeat(300)),
        ]);
        let truncation = truncate_content(&mut content, 500).expect("cut");
        let mut marker = String::new();
        push_result_marker(&mut marker, 900, 900);
        let kept_b = 500 - 300 - marker.chars().count();
        assert_eq!(
            truncation,
            Truncation {
                omitted: 900 - 300 - kept_b,
                total: 900
            }
        );
        let expected_b = format!(
            "{}…[truncated: {} of 900 characters omitted; call the tool again with a narrower request to see the rest]",
            "b".repeat(kept_b),
            truncation.omitted
        );
        assert_eq!(
            *content,
            [
                ContentBlock::text("a".repeat(300)),
                ContentBlock::Image {
                    data: "AAAA".to_owned(),
                    mime_type: "image/png".to_owned()
                },
                ContentBlock::text(expected_b.clone()),
            ],
            "the third text block is dropped, the image stays"
        );
        assert_eq!(300 + expected_b.chars().count(), 500, "exactly the budget");
    }

    #[test]
    fn a_budget_smaller_than_the_marker_keeps_text_under_a_shorter_one() {
        for (budget, expected) in [
            (100, "z".repeat(88) + "…[truncated]"),
            (13, "z…[truncated]".to_owned()),
            (12, "z".repeat(11) + "…"),
            (1, "…".to_owned()),
            (0, String::new()),
        ] {
            let mut content = Cow::Owned(vec![ContentBlock::text("z".repeat(1_000))]);
            let truncation = truncate_content(&mut content, budget).expect("cut");
            let text = content[0].as_text().expect("text");
            assert_eq!(text, expected, "budget {budget}");
            assert!(text.chars().count() <= budget);
            assert_eq!(truncation.omitted, 1_000 - text.matches('z').count());
        }
        // Where the whole marker and one character fit, the whole marker.
        let mut content = Cow::Owned(vec![ContentBlock::text("z".repeat(1_000))]);
        truncate_content(&mut content, 110).expect("cut");
        let text = content[0].as_text().expect("text");
        assert!(text.starts_with("zzzz…[truncated: 996 of 1,000"), "{text}");
        assert_eq!(text.chars().count(), 110);
    }

    #[test]
    fn shared_content_is_copied_only_when_cut() {
        let mut content = crate::content::value_content(&serde_json::Value::Null);
        assert_eq!(truncate_content(&mut content, 4), None);
        assert!(
            matches!(content, Cow::Borrowed(_)),
            "kept shared within the budget"
        );
        truncate_content(&mut content, 2).expect("cut");
        assert_eq!(*content, [ContentBlock::text("n…")]);
        let shared = crate::content::value_content(&serde_json::Value::Null);
        assert_eq!(
            *shared,
            [ContentBlock::text("null")],
            "the shared block is untouched"
        );
    }
}
