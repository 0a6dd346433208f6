//! [`ApprovalKey`]: the secret approvals are signed with (HMAC-SHA-256), and how long one waits
//! before it expires. A record whose signatures do not check under the key never approves.

use std::time::Duration;

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::durable::record::ApprovalRecord;

/// Tells approval signatures apart from anything else made with the same key.
const DOMAIN: &[u8] = b"dsh-tools/durable/approval/v1";

/// The secret approvals are signed with, and how long one waits before it expires.
#[derive(Clone)]
pub struct ApprovalKey {
    secret: Vec<u8>,
    pub(crate) expires_after: Duration,
}

impl std::fmt::Debug for ApprovalKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApprovalKey")
            .field("secret", &"<redacted>")
            .field("expires_after", &self.expires_after)
            .finish()
    }
}

impl ApprovalKey {
    /// Signs with `secret` (every process that decides approvals needs the same one; at least
    /// 32 random bytes); an approval expires `expires_after` it was asked.
    pub fn new(secret: impl Into<Vec<u8>>, expires_after: Duration) -> Self {
        Self {
            secret: secret.into(),
            expires_after,
        }
    }

    fn mac(&self) -> Hmac<Sha256> {
        // HMAC takes a key of any length.
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.secret)
            .unwrap_or_else(|_| unreachable!("HMAC takes keys of any length"));
        mac.update(DOMAIN);
        mac
    }

    /// The signature of what `approval` asks (everything but its state and decision).
    pub(crate) fn sign_request(&self, approval: &ApprovalRecord) -> String {
        let mut mac = self.mac();
        for field in [
            approval.id.as_bytes(),
            approval.tool.as_bytes(),
            approval.agent.as_deref().unwrap_or("\u{0}").as_bytes(),
            approval.arguments_digest.as_bytes(),
            approval.reason.as_deref().unwrap_or("\u{0}").as_bytes(),
            &approval.created_at_ms.to_be_bytes(),
            &approval.expires_at_ms.to_be_bytes(),
        ] {
            mac.update(&(field.len() as u64).to_be_bytes());
            mac.update(field);
        }
        hex(&mac.finalize().into_bytes())
    }

    /// The signature of `approval`'s decision, bound to its request signature.
    pub(crate) fn sign_decision(&self, approval: &ApprovalRecord) -> String {
        let mut mac = self.mac();
        for field in [
            b"decision".as_slice(),
            approval.request_signature.as_bytes(),
            approval.state.as_str().as_bytes(),
            approval.decided_by.as_deref().unwrap_or("").as_bytes(),
        ] {
            mac.update(&(field.len() as u64).to_be_bytes());
            mac.update(field);
        }
        hex(&mac.finalize().into_bytes())
    }

    /// Whether `approval`'s request is signed with this key.
    pub(crate) fn request_is_signed(&self, approval: &ApprovalRecord) -> bool {
        same(&self.sign_request(approval), &approval.request_signature)
    }

    /// Whether `approval`'s decision is signed with this key.
    pub(crate) fn decision_is_signed(&self, approval: &ApprovalRecord) -> bool {
        approval
            .decision_signature
            .as_deref()
            .is_some_and(|signature| same(&self.sign_decision(approval), signature))
    }
}

/// Compares two texts in constant time.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |differ, (x, y)| differ | (x ^ y))
            == 0
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}
