//! Idempotency keys: one string per tool call, the same for every attempt of that call (a retry
//! layer's second try, a re-sent request), different for any other call.
//!
//! The key is a digest of the call id, the tool name, the agent and the arguments, so it does not
//! depend on key order, on the process or on the platform, and it survives a restart. It names
//! nothing secret about the arguments (it is a one-way digest).
//!
//! The digest (stable: servers keep keys across restarts, and a change of it is a change of
//! every key) reads a canonical encoding of the call as 64-bit words:
//!
//! - a mark is one word, `(n << 8) | tag`, with `n` a length or a count (0 when there is none);
//! - a text is its mark, then its UTF-8 bytes eight at a time as little-endian words, the last
//!   padded with zero bytes (the length in the mark tells the padding from the text);
//! - the call is the text `i` of its id, the text `t` of its tool, the text `a` of its agent or
//!   the mark `-`, then its arguments;
//! - a value is the mark `n` (null), `T` or `F` (a boolean), the text `#` of a number as
//!   written, the text `s` of a string, the mark `[` with the count of an array's items and
//!   then the items, or the mark `{` with the count of an object's members and then two words:
//!   the sums (modulo 2^64) over its members of each member's own two lanes (the text `k` of
//!   its key and its value, read into fresh lanes), so that the members' order does not count.
//!
//! Each word goes into two 64-bit lanes, each `lane = fold(lane ^ word, multiplier)` with their
//! own seeds and odd multipliers, where `fold(x, m)` is the exclusive-or of the low and high
//! halves of the 128-bit product `x * m` (one widening multiplication: the high half carries
//! every bit of the input into the next word's low bits). A member's two lanes are summed as
//! they stand after its value. The key's 128 bits are the first lane and the second lane mixed
//! with the first (`second ^ first`), each through the 64-bit finalizer of MurmurHash3
//! (`fmix64`): a one-to-one map of the lanes, so two calls' keys are the same only when their
//! lanes are. The words are read, not the bytes one at a time (0.1.0's digest, FNV-1a over the
//! bytes one at a time, cost ten to twelve instructions a byte, and an 8-byte length before
//! every text).

use serde_json::Value;

use crate::decimal::Decimal;

/// The lanes' seeds and multipliers (odd, their bits spread over the whole word, so that both
/// halves of a product depend on every bit of the input).
const SEEDS: [u64; 2] = [0x6c62_272e_07bb_0142, 0x62b8_2175_6295_c58d];
const MULTIPLIERS: [u64; 2] = [0x9e37_79b9_7f4a_7c15, 0xc2b2_ae3d_27d4_eb4f];

/// The digest's two lanes (see the module docs).
struct Digest([u64; 2]);

impl Digest {
    fn new() -> Self {
        Self(SEEDS)
    }

    /// One word into both lanes: each lane is the folded product of itself and the word (one
    /// widening multiplication a lane, whose high half carries every bit of the input into the
    /// low bits of the next).
    #[inline]
    fn word(&mut self, word: u64) {
        let [first, second] = &mut self.0;
        *first = fold(*first ^ word, MULTIPLIERS[0]);
        *second = fold(*second ^ word, MULTIPLIERS[1]);
    }

    /// A mark: `tag` with the length or count `n`.
    #[inline]
    fn mark(&mut self, tag: u8, n: usize) {
        self.word(((n as u64) << 8) | u64::from(tag));
    }

    /// A text: its mark, then its bytes as words, the last padded with zeros.
    #[inline]
    fn text(&mut self, tag: u8, bytes: &[u8]) {
        self.mark(tag, bytes.len());
        let mut rest = bytes;
        while let Some((word, after)) = rest.split_first_chunk::<8>() {
            self.word(u64::from_le_bytes(*word));
            rest = after;
        }
        if !rest.is_empty() {
            self.word(last_word(rest));
        }
    }

    /// A value. Inlined where a value is read (the call's arguments, an array's items, an
    /// object's members): a scalar is read there, and only an array or an object is a call of
    /// its own (a call per member cost more than the member's few words).
    #[inline(always)]
    fn value(&mut self, value: &Value) {
        match value {
            Value::Null => self.mark(b'n', 0),
            Value::Bool(flag) => self.mark(if *flag { b'T' } else { b'F' }, 0),
            Value::Number(number) => match number.as_u64() {
                Some(small) if small < SMALL => {
                    // Up to eight digits: the text is one word, written from the digits without
                    // a buffer (most integers a model sends are small).
                    let (len, word) = small_integer_word(small);
                    self.mark(b'#', len);
                    self.word(word);
                }
                _ => self.number(number),
            },
            Value::String(text) => self.text(b's', text.as_bytes()),
            Value::Array(items) => self.array(items),
            Value::Object(members) => self.object(members),
        }
    }

    #[inline(never)]
    fn array(&mut self, items: &[Value]) {
        self.mark(b'[', items.len());
        for item in items {
            self.value(item);
        }
    }

    #[inline(never)]
    fn object(&mut self, members: &serde_json::Map<String, Value>) {
        self.mark(b'{', members.len());
        // Each member's digest on its own, summed: the sum does not depend on the members'
        // order, so nothing is sorted (sorting took most of a key's cost).
        let mut sum = [0_u64; 2];
        for (key, member) in members {
            let mut digest = Digest::new();
            digest.text(b'k', key.as_bytes());
            digest.value(member);
            // A member's lanes are summed as they are: each is already a folded product, and
            // the key's one finish (below) mixes the sums.
            let [first, second] = digest.0;
            sum[0] = sum[0].wrapping_add(first);
            sum[1] = sum[1].wrapping_add(second);
        }
        self.word(sum[0]);
        self.word(sum[1]);
    }

    /// A number but a small unsigned integer: the text `#` of it as serde_json writes it.
    #[inline(never)]
    fn number(&mut self, number: &serde_json::Number) {
        let mut written = NumberText::default();
        match (number.as_u64(), number.as_i64()) {
            (Some(unsigned), _) => written.integer(false, unsigned),
            (None, Some(signed)) => written.integer(signed < 0, signed.unsigned_abs()),
            (None, None) => {
                if std::fmt::Write::write_fmt(&mut written, format_args!("{number}")).is_err() {
                    // Longer than any number serde_json writes: written in full on the heap.
                    self.text(b'#', number.to_string().as_bytes());
                    return;
                }
            }
        }
        self.text(b'#', written.as_bytes());
    }

    /// The 128 bits: the lanes, mixed (see the module docs).
    fn finish(&self) -> [u64; 2] {
        let [first, second] = self.0;
        [fmix64(first), fmix64(second ^ first)]
    }
}

/// The folded product of `value` and `multiplier`: the low and high halves of their 128-bit
/// product, exclusive-or'ed.
#[inline(always)]
fn fold(value: u64, multiplier: u64) -> u64 {
    let product = u128::from(value) * u128::from(multiplier);
    (product as u64) ^ ((product >> 64) as u64)
}

/// MurmurHash3's 64-bit finalizer: one-to-one, and every bit of the result depends on every bit
/// of `x`.
fn fmix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^= x >> 33;
    x
}

/// The 1 to 7 bytes of `rest` as a little-endian word padded with zero bytes, without a loop:
/// both ends of it are read (they overlap when it is short), and every byte lands where a
/// byte-by-byte read would put it (an overlapped byte is written twice, the same both times).
#[inline]
fn last_word(rest: &[u8]) -> u64 {
    let len = rest.len();
    if len >= 4 {
        let low = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
        let end = &rest[len - 4..];
        let high = u32::from_le_bytes([end[0], end[1], end[2], end[3]]);
        u64::from(low) | (u64::from(high) << ((len - 4) * 8))
    } else {
        let middle = len / 2;
        u64::from(rest[0])
            | (u64::from(rest[middle]) << (middle * 8))
            | (u64::from(rest[len - 1]) << ((len - 1) * 8))
    }
}

/// The integers whose decimal text fits one word: fewer than nine digits.
const SMALL: u64 = 100_000_000;

/// The decimal text of `value` (below [`SMALL`]) as a little-endian word and its length: the
/// most significant digit in the lowest byte, as the text's bytes read.
#[inline]
fn small_integer_word(mut value: u64) -> (usize, u64) {
    const ZERO: u64 = b'0' as u64;
    // One and two digits without the loop's per-digit bookkeeping: most integers a model sends
    // (counts, limits, depths) are that short.
    if value < 10 {
        return (1, ZERO + value);
    }
    if value < 100 {
        let (tens, ones) = (value / 10, value % 10);
        return (2, (ZERO + tens) | ((ZERO + ones) << 8));
    }
    let (mut len, mut word) = (0, 0_u64);
    loop {
        // Each digit read is more significant than the ones before: it goes below them.
        word = (word << 8) | (u64::from(b'0') + value % 10);
        len += 1;
        value /= 10;
        if value == 0 {
            return (len, word);
        }
    }
}

/// A number as serde_json writes it, on the stack: an integer takes at most 20 bytes and a float
/// at most 24.
#[derive(Default)]
struct NumberText {
    bytes: [u8; 32],
    len: usize,
}

impl NumberText {
    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// Writes an integer of `magnitude`, negative or not, in decimal as serde_json does (its
    /// `Display` goes through the formatting machinery, several times the cost); always fits.
    fn integer(&mut self, negative: bool, magnitude: u64) {
        let digits = Decimal::new(magnitude);
        let sign: &[u8] = if negative { b"-" } else { b"" };
        for part in [sign, digits.as_bytes()] {
            self.bytes[self.len..self.len + part.len()].copy_from_slice(part);
            self.len += part.len();
        }
    }
}

impl std::fmt::Write for NumberText {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        let end = self.len + text.len();
        let slot = self.bytes.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        slot.copy_from_slice(text.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// The key of a call: `idem-` and 32 hex digits.
pub(crate) fn idempotency_key(
    call_id: &str,
    tool: &str,
    agent: Option<&str>,
    arguments: &Value,
) -> String {
    KeyDigest::of(call_id, tool, agent, arguments).text()
}

/// The 128 bits a made key writes in hex. The journal in memory keys a call by them and writes
/// the key's text only when something reads it: the digest is the key, the text its spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KeyDigest([u64; 2]);

impl KeyDigest {
    /// The digest of a call (see the module docs).
    pub(crate) fn of(call_id: &str, tool: &str, agent: Option<&str>, arguments: &Value) -> Self {
        let mut digest = Digest::new();
        digest.text(b'i', call_id.as_bytes());
        digest.text(b't', tool.as_bytes());
        match agent {
            Some(agent) => digest.text(b'a', agent.as_bytes()),
            None => digest.mark(b'-', 0),
        }
        digest.value(arguments);
        Self(digest.finish())
    }

    /// The digest's two halves, the first written first.
    #[cfg(feature = "durable")]
    pub(crate) fn halves(self) -> [u64; 2] {
        self.0
    }

    /// The key's text: `idem-` and the 32 hex digits.
    pub(crate) fn text(self) -> String {
        // By hand rather than `format!`, and into bytes rather than `String::push` (a capacity
        // check and a UTF-8 encoding per digit).
        let mut key = [0_u8; KEY_LEN];
        let (prefix, digits) = key.split_at_mut(PREFIX.len());
        prefix.copy_from_slice(PREFIX.as_bytes());
        let (high, low) = digits.split_at_mut(16);
        for (half, word) in [(high, self.0[0]), (low, self.0[1])] {
            for (place, slot) in half.iter_mut().rev().enumerate() {
                *slot = HEX[(word >> (place * 4)) as usize & 0xf];
            }
        }
        // Every byte is ASCII: the check passes, and the empty fallback is never taken.
        std::str::from_utf8(&key).unwrap_or_default().to_owned()
    }

    /// The digest a key made here writes, if `text` is one (`idem-` and 32 lowercase hex
    /// digits): `KeyDigest::parse(&digest.text()) == Some(digest)`, and no other text parses.
    #[cfg(feature = "durable")]
    pub(crate) fn parse(text: &str) -> Option<Self> {
        let digits = text.strip_prefix(PREFIX)?.as_bytes();
        if digits.len() != 32 {
            return None;
        }
        let mut halves = [0_u64; 2];
        for (half, chunk) in halves.iter_mut().zip(digits.chunks_exact(16)) {
            for digit in chunk {
                let value = HEX.iter().position(|hex| hex == digit)?;
                *half = (*half << 4) | value as u64;
            }
        }
        Some(Self(halves))
    }
}

/// The key's digits, lowercase.
const HEX: &[u8; 16] = b"0123456789abcdef";

/// What every key made here starts with.
const PREFIX: &str = "idem-";

/// The length of a key made here: `idem-` and 32 hex digits.
const KEY_LEN: usize = PREFIX.len() + 32;

#[cfg(test)]
mod tests {
    use super::{SMALL, idempotency_key, last_word, small_integer_word};
    use serde_json::json;

    #[test]
    fn a_last_word_reads_as_its_bytes_padded() {
        let bytes = b"\x81bcdef\xff";
        for len in 1..8 {
            let mut padded = [0_u8; 8];
            padded[..len].copy_from_slice(&bytes[..len]);
            assert_eq!(
                last_word(&bytes[..len]),
                u64::from_le_bytes(padded),
                "{len} bytes"
            );
        }
    }

    #[test]
    fn a_small_integer_reads_as_its_digits() {
        for value in [0, 7, 10, 50, 99, 100, 12_345, 10_000_000, SMALL - 1] {
            let text = value.to_string();
            let mut padded = [0_u8; 8];
            padded[..text.len()].copy_from_slice(text.as_bytes());
            assert_eq!(
                small_integer_word(value),
                (text.len(), u64::from_le_bytes(padded)),
                "{value}"
            );
        }
    }

    #[cfg(feature = "durable")]
    #[test]
    fn a_made_key_is_read_back_from_its_text_alone() {
        use super::KeyDigest;
        let digest = KeyDigest::of("call_1", "send", None, &json!({"x": [1, "y"]}));
        let text = digest.text();
        assert_eq!(KeyDigest::parse(&text), Some(digest));
        assert_eq!(
            text,
            idempotency_key("call_1", "send", None, &json!({"x": [1, "y"]}))
        );
        let upper = format!("idem-{}", text["idem-".len()..].to_uppercase());
        for other in [
            "",
            "idem-",
            &text[..text.len() - 1],
            &format!("{text}0"),
            &text.replacen("idem-", "idem_", 1),
            &upper,
            "idem-0123456789abcdef0123456789abcdeg",
            "idem-run/1",
        ] {
            assert_eq!(KeyDigest::parse(other), None, "{other}");
        }
    }

    #[test]
    fn the_key_is_stable_and_tells_calls_apart() {
        let key = idempotency_key("call_1", "send", Some("a"), &json!({"x": 1, "y": [true]}));
        assert_eq!(key.len(), "idem-".len() + 32);
        assert_eq!(
            key,
            idempotency_key("call_1", "send", Some("a"), &json!({"y": [true], "x": 1}))
        );
        let others = [
            idempotency_key("call_2", "send", Some("a"), &json!({"x": 1, "y": [true]})),
            idempotency_key("call_1", "sen", Some("a"), &json!({"x": 1, "y": [true]})),
            idempotency_key("call_1", "send", None, &json!({"x": 1, "y": [true]})),
            idempotency_key("call_1", "send", Some(""), &json!({"x": 1, "y": [true]})),
            idempotency_key("call_1", "send", Some("a"), &json!({"x": 2, "y": [true]})),
            idempotency_key("call_1", "send", Some("a"), &json!({"x": "1", "y": [true]})),
            idempotency_key("call_1", "send", Some("a"), &json!({"x": 1, "y": [false]})),
            idempotency_key(
                "call_1",
                "send",
                Some("a"),
                &json!({"x": 1, "y": [true, null]}),
            ),
            idempotency_key(
                "call_1",
                "send",
                Some("a"),
                &json!({"x": 1, "y": {"0": true}}),
            ),
            idempotency_key("call_1", "send", Some("a"), &json!({"x": 1.0, "y": [true]})),
            idempotency_key("call_1", "send", Some("a"), &json!({"x": [true], "y": 1})),
            idempotency_key("call_1", "send", Some("a"), &json!({"x": -1, "y": [true]})),
        ];
        for (n, other) in others.iter().enumerate() {
            assert_ne!(&key, other, "call {n}");
        }
    }

    #[test]
    fn texts_are_told_apart_across_their_padding_and_fields() {
        // Lengths around a word, a zero byte that padding would also write, a high bit (which
        // multiplication alone carries only upwards) in two places at once, and a boundary
        // moved between two fields.
        let texts = [
            "",
            "\0",
            "a",
            "abcdefg",
            "abcdefg\0",
            "abcdefgh",
            "abcdefgh\0",
            "abcdefghi",
            "abcdefg\u{80}abcdefg\u{80}",
            "abcdefg\u{81}abcdefg\u{81}",
        ];
        let mut keys: Vec<String> = texts
            .iter()
            .map(|text| idempotency_key("c", "t", None, &json!(text)))
            .collect();
        keys.push(idempotency_key("ab", "c", None, &json!(null)));
        keys.push(idempotency_key("a", "bc", None, &json!(null)));
        keys.push(idempotency_key("c", "t", None, &json!({"ab": "c"})));
        keys.push(idempotency_key("c", "t", None, &json!({"a": "bc"})));
        let mut distinct = keys.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), keys.len(), "{keys:?}");
    }

    #[test]
    fn no_order_of_members_counts() {
        let members: Vec<(String, i32)> = (0..40).map(|n| (format!("m{n}"), n)).collect();
        let forwards: serde_json::Map<String, serde_json::Value> = members
            .iter()
            .map(|(key, n)| (key.clone(), json!(n)))
            .collect();
        let backwards: serde_json::Map<String, serde_json::Value> = members
            .iter()
            .rev()
            .map(|(key, n)| (key.clone(), json!(n)))
            .collect();
        assert_eq!(
            idempotency_key("c", "t", None, &forwards.into()),
            idempotency_key("c", "t", None, &backwards.into())
        );
    }

    #[test]
    fn the_key_of_a_known_call_never_changes() {
        // Servers keep keys across restarts: the encoding and the digest are part of the
        // contract, the same on every platform. (These were worked out apart from this code, by
        // the module docs' description alone.)
        assert_eq!(
            idempotency_key("call_1", "send", Some("a"), &json!({"x": 1})),
            "idem-8932b61a3aa5612462a0576cd98e8c22"
        );
        assert_eq!(
            idempotency_key(
                "call-7",
                "search_files",
                None,
                &json!({"pattern": "fn main", "max_results": 50, "ratio": 0.5, "on": false,
                        "include": ["*.rs"], "options": {"depth": 4, "none": null}})
            ),
            "idem-7acd96486a830a809350ac9170166fd3"
        );
        assert_eq!(
            idempotency_key(
                "call-7",
                "search_files",
                None,
                &json!({"neg": -12, "big": u64::MAX, "min": i64::MIN, "e": 0.0025})
            ),
            "idem-2bf02ccaa30577fc5f9412e61068b0c3"
        );
    }
}
