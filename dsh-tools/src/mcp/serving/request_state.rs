//! The `requestState` of a served call's multi-round-trip approval (`round_trip_approval.rs`):
//! what makes a client's retry trustworthy enough to carry its user's answer.
//!
//! The client echoes the state back, so it is untrusted input: anything a client sends may be
//! forged. The state is therefore a keyed digest (HMAC-SHA256) of what the approval is about —
//! the tool's name, the agent of the served scope, the arguments as canonical JSON (keys
//! sorted) and when the state expires ([`LIFETIME_SECS`] after it was made; the expiry is
//! written in the state and covered by the digest, so a replayed old state answers nothing) —
//! under a secret only the server knows: [`RequestStateKey`], random per
//! [`McpServer`](crate::mcp::McpServer) unless the server is given one to share with its
//! replicas. A retry whose state is not the digest of *its own* call (another tool, other
//! arguments, another scope, another server's key, or made up) carries no answer. The state
//! holds nothing else: no secret, nothing the client could read anything from.

use sha2::{Digest, Sha256};

use crate::canonical::write_canonical;

/// Tells this state format and purpose apart from any other digest made with the same key.
const DOMAIN: &[u8] = b"dsh-tools/mcp/approval-request-state/v2";

/// The prefix of every state, naming its format: `v2.<expiry, Unix seconds>.<digest>`.
const VERSION: &str = "v2.";

/// How long a state carries an answer: long enough for a person to read the question.
pub(crate) const LIFETIME_SECS: u64 = 15 * 60;

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}

/// The secret a server's approval states are made with.
#[derive(Clone)]
pub(crate) struct RequestStateKey([u8; 32]);

impl std::fmt::Debug for RequestStateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RequestStateKey(<redacted>)")
    }
}

impl RequestStateKey {
    pub(crate) fn new(secret: [u8; 32]) -> Self {
        Self(secret)
    }

    /// A key from the operating system's random source; `None` when it cannot give one (the
    /// server then asks no client through multi-round-trip requests).
    pub(crate) fn random() -> Option<Self> {
        let mut secret = [0; 32];
        match getrandom::fill(&mut secret) {
            Ok(()) => Some(Self(secret)),
            Err(error) => {
                tracing::warn!(
                    "no random source for the MCP approval state ({error}); clients on \
                     multi-round-trip requests are not asked to approve calls"
                );
                None
            }
        }
    }

    /// The state of an approval of calling `tool` with `arguments` on behalf of `agent`,
    /// expiring [`LIFETIME_SECS`] from now.
    pub(crate) fn seal(
        &self,
        tool: &str,
        agent: Option<&str>,
        arguments: &serde_json::Value,
    ) -> String {
        self.seal_until(now_secs() + LIFETIME_SECS, tool, agent, arguments)
    }

    fn seal_until(
        &self,
        expires: u64,
        tool: &str,
        agent: Option<&str>,
        arguments: &serde_json::Value,
    ) -> String {
        let tag = self.tag(expires, tool, agent, arguments);
        let mut state = String::with_capacity(VERSION.len() + 21 + 64);
        state.push_str(VERSION);
        state.push_str(&expires.to_string());
        state.push('.');
        for byte in tag {
            state.push(char::from(HEX[usize::from(byte >> 4)]));
            state.push(char::from(HEX[usize::from(byte & 0x0f)]));
        }
        state
    }

    /// Whether `state` is the state of exactly this call, not yet expired: made with this key
    /// for this tool, agent and arguments. Compared in constant time.
    pub(crate) fn opens(
        &self,
        state: &str,
        tool: &str,
        agent: Option<&str>,
        arguments: &serde_json::Value,
    ) -> bool {
        self.opens_at(now_secs(), state, tool, agent, arguments)
    }

    fn opens_at(
        &self,
        now: u64,
        state: &str,
        tool: &str,
        agent: Option<&str>,
        arguments: &serde_json::Value,
    ) -> bool {
        let Some((expires, _)) = state
            .strip_prefix(VERSION)
            .and_then(|rest| rest.split_once('.'))
        else {
            return false;
        };
        let Ok(expires) = expires.parse::<u64>() else {
            return false;
        };
        if now > expires {
            return false;
        }
        let expected = self.seal_until(expires, tool, agent, arguments);
        state.len() == expected.len()
            && state
                .bytes()
                .zip(expected.bytes())
                .fold(0u8, |differ, (a, b)| differ | (a ^ b))
                == 0
    }

    fn tag(
        &self,
        expires: u64,
        tool: &str,
        agent: Option<&str>,
        arguments: &serde_json::Value,
    ) -> [u8; 32] {
        let mut message = Vec::with_capacity(128);
        message.extend_from_slice(DOMAIN);
        message.extend_from_slice(&expires.to_be_bytes());
        push_field(&mut message, tool.as_bytes());
        match agent {
            Some(agent) => {
                message.push(b'a');
                push_field(&mut message, agent.as_bytes());
            }
            None => message.push(b'-'),
        }
        let mut canonical = String::new();
        write_canonical(arguments, &mut canonical);
        push_field(&mut message, canonical.as_bytes());
        hmac_sha256(&self.0, &message)
    }
}

/// Appends `bytes` with their length first, so that no two different field lists make the
/// same message.
fn push_field(message: &mut Vec<u8>, bytes: &[u8]) {
    message.extend_from_slice(&(bytes.len() as u64).to_be_bytes());
    message.extend_from_slice(bytes);
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// HMAC-SHA256 (RFC 2104) of `message` under a 32-byte `key` (shorter than SHA-256's 64-byte
/// block, so it is zero-padded, never hashed first).
fn hmac_sha256(key: &[u8; 32], message: &[u8]) -> [u8; 32] {
    const BLOCK: usize = 64;
    let mut inner_pad = [0x36u8; BLOCK];
    let mut outer_pad = [0x5cu8; BLOCK];
    for (index, byte) in key.iter().enumerate() {
        inner_pad[index] ^= byte;
        outer_pad[index] ^= byte;
    }
    let inner = Sha256::new()
        .chain_update(inner_pad)
        .chain_update(message)
        .finalize();
    let outer = Sha256::new()
        .chain_update(outer_pad)
        .chain_update(inner)
        .finalize();
    outer.into()
}

#[cfg(test)]
mod tests {
    use super::{RequestStateKey, hmac_sha256};
    use serde_json::json;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|byte| format!("{byte:02x}")).collect()
    }

    #[test]
    fn the_digest_is_hmac_sha256() {
        // RFC 4231, test case 2 ("Jefe"), with the key zero-padded to 32 bytes, which HMAC's
        // own padding to the block size makes the same key.
        let mut key = [0u8; 32];
        key[..4].copy_from_slice(b"Jefe");
        assert_eq!(
            hex(&hmac_sha256(&key, b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn a_state_opens_only_for_its_own_call_and_key() {
        let key = RequestStateKey::new([7; 32]);
        let arguments = json!({"path": "notes.md", "mode": {"b": 1, "a": 2}});
        let state = key.seal("write", None, &arguments);
        assert!(state.starts_with("v2.") && state.len() > 3 + 64, "{state}");
        // The same arguments written in another key order are the same call.
        let reordered = json!({"mode": {"a": 2, "b": 1}, "path": "notes.md"});
        assert!(key.opens(&state, "write", None, &reordered));
        assert!(!key.opens(&state, "delete", None, &arguments));
        assert!(!key.opens(&state, "write", Some("agent-1"), &arguments));
        assert!(!key.opens(&state, "write", None, &json!({"path": "other.md"})));
        assert!(!RequestStateKey::new([8; 32]).opens(&state, "write", None, &arguments));
        assert!(!key.opens("v2.forged", "write", None, &arguments));
        assert!(!key.opens("v2.99999999999.forged", "write", None, &arguments));
        assert!(!key.opens("", "write", None, &arguments));
        let mut flipped = state.clone().into_bytes();
        let last = flipped.len() - 1;
        flipped[last] = if flipped[last] == b'0' { b'1' } else { b'0' };
        let flipped = String::from_utf8(flipped).expect("hex");
        assert!(!key.opens(&flipped, "write", None, &arguments));
    }

    #[test]
    fn a_state_expires() {
        let key = RequestStateKey::new([7; 32]);
        let arguments = json!({"path": "notes.md"});
        let state = key.seal_until(1_000, "write", None, &arguments);
        assert!(key.opens_at(1_000, &state, "write", None, &arguments));
        assert!(!key.opens_at(1_001, &state, "write", None, &arguments));
        // A later expiry written over the old one breaks the digest.
        let extended = state.replacen("v2.1000.", "v2.9000.", 1);
        assert!(!key.opens_at(1_001, &extended, "write", None, &arguments));
    }

    #[test]
    fn the_key_is_never_printed() {
        assert_eq!(
            format!("{:?}", RequestStateKey::new([7; 32])),
            "RequestStateKey(<redacted>)"
        );
    }
}
