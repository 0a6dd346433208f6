//! Idempotency keys: one string per tool call, the same for every attempt of that call (a retry
//! layer's second try, a re-sent request), different for any other call.
//!
//! The key is a digest of the call id, the tool name, the agent and the arguments: 128 bits of
//! FNV-1a over a canonical encoding (object keys sorted, numbers as written), so it does not
//! depend on key order, on the process or on the platform, and it survives a restart. It names
//! nothing secret about the arguments (it is a one-way digest).

use serde_json::Value;

const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
/// FNV's 128-bit prime (what [`Digest::bytes`] multiplies by, written as a shift and an add).
#[cfg(test)]
const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;

/// FNV-1a, 128 bits.
struct Digest(u128);

impl Digest {
    fn new() -> Self {
        Self(OFFSET)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u128::from(*byte);
            // `PRIME` is 2^88 + 0x13b: a shift and a small multiplication instead of a full
            // 128-bit one (the same product, modulo 2^128).
            self.0 = (self.0 << 88).wrapping_add(self.0.wrapping_mul(0x13b));
        }
    }

    /// A length-prefixed field, so that `("ab", "c")` and `("a", "bc")` differ.
    fn field(&mut self, bytes: &[u8]) {
        self.bytes(&(bytes.len() as u64).to_le_bytes());
        self.bytes(bytes);
    }

    fn value(&mut self, value: &Value) {
        match value {
            Value::Null => self.bytes(b"n"),
            Value::Bool(flag) => self.bytes(if *flag { b"t" } else { b"f" }),
            Value::Number(number) => {
                self.bytes(b"#");
                self.field(number.to_string().as_bytes());
            }
            Value::String(text) => {
                self.bytes(b"s");
                self.field(text.as_bytes());
            }
            Value::Array(items) => {
                self.bytes(b"[");
                self.bytes(&(items.len() as u64).to_le_bytes());
                for item in items {
                    self.value(item);
                }
            }
            Value::Object(members) => {
                self.bytes(b"{");
                self.bytes(&(members.len() as u64).to_le_bytes());
                let mut sorted: Vec<(&String, &Value)> = members.iter().collect();
                sorted.sort_unstable_by(|a, b| a.0.cmp(b.0));
                for (key, member) in sorted {
                    self.field(key.as_bytes());
                    self.value(member);
                }
            }
        }
    }
}

/// The key of a call: `idem-` and 32 hex digits.
pub(crate) fn idempotency_key(
    call_id: &str,
    tool: &str,
    agent: Option<&str>,
    arguments: &Value,
) -> String {
    let mut digest = Digest::new();
    digest.field(call_id.as_bytes());
    digest.field(tool.as_bytes());
    match agent {
        Some(agent) => {
            digest.bytes(b"a");
            digest.field(agent.as_bytes());
        }
        None => digest.bytes(b"-"),
    }
    digest.value(arguments);
    // By hand rather than `format!`, and into bytes rather than `String::push` (a capacity check
    // and a UTF-8 encoding per digit): every journaled call without a key of its own makes one.
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut key = [0_u8; KEY_LEN];
    let (prefix, digits) = key.split_at_mut(PREFIX.len());
    prefix.copy_from_slice(PREFIX.as_bytes());
    for (place, slot) in digits.iter_mut().rev().enumerate() {
        *slot = HEX[(digest.0 >> (place * 4)) as usize & 0xf];
    }
    // Every byte is ASCII: the check passes, and the empty fallback is never taken.
    String::from_utf8(key.to_vec()).unwrap_or_default()
}

/// What every key made here starts with.
const PREFIX: &str = "idem-";

/// The length of a key made here: `idem-` and 32 hex digits.
const KEY_LEN: usize = PREFIX.len() + 32;

#[cfg(test)]
mod tests {
    use super::idempotency_key;
    use serde_json::json;

    #[test]
    fn the_shifted_multiplication_is_fnvs() {
        assert_eq!(super::PRIME, (1_u128 << 88) + 0x13b);
        for seed in [
            0_u128,
            1,
            u128::MAX,
            super::OFFSET,
            0x1234_5678_9abc_def0_u128 << 60,
        ] {
            assert_eq!(
                seed.wrapping_mul(super::PRIME),
                (seed << 88).wrapping_add(seed.wrapping_mul(0x13b))
            );
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
            idempotency_key("call_1", "send", Some("a"), &json!({"x": 2, "y": [true]})),
            idempotency_key("call_1", "send", Some("a"), &json!({"x": "1", "y": [true]})),
        ];
        for other in &others {
            assert_ne!(&key, other);
        }
    }

    #[test]
    fn the_key_of_a_known_call_never_changes() {
        // Servers keep keys across restarts: the encoding is part of the contract.
        assert_eq!(
            idempotency_key("call_1", "send", Some("a"), &json!({"x": 1})),
            "idem-fafa8b80ab7f93d792082d6f2ccf63d4"
        );
    }
}
