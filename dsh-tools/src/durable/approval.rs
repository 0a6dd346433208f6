//! Approvals that wait: an `ask` nobody answers now becomes an [`ApprovalRecord`] in the call
//! store — a stable id (from the call's idempotency key), the tool, the agent, the SHA-256 of the
//! canonical arguments, the reason and an expiry — signed with HMAC-SHA-256 under the registry's
//! [`ApprovalKey`]. Any process with the key lists and decides it; the retried call with the same
//! key and arguments uses an approval once; other arguments, a forged or altered record, an
//! expired approval never allow anything.

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::canonical::write_canonical;
use crate::durable::approval_key::{ApprovalKey, hex};
use crate::durable::clock::{format_time, now_ms};
use crate::durable::journal::Durability;
use crate::durable::record::{ApprovalRecord, ApprovalState};
use crate::durable::store::StoreError;

/// The SHA-256 of `arguments` as canonical JSON, in hex: what a decision binds to.
pub fn arguments_digest(arguments: &Value) -> String {
    let mut canonical = String::new();
    write_canonical(arguments, &mut canonical);
    hex(&Sha256::digest(canonical.as_bytes()))
}

/// The id of the approval of the call whose idempotency key is `key`: `appr-` and its digits.
pub(crate) fn approval_id(key: &str) -> String {
    format!("appr-{}", key.strip_prefix("idem-").unwrap_or(key))
}

/// What a call's `ask` comes to when nobody answers it now.
#[derive(Debug)]
pub(crate) enum Waiting {
    /// Recorded (now or earlier) and not yet decided.
    Pending(ApprovalRecord),
    /// Approved, and this attempt used it.
    Allowed,
    /// Approved and used by an earlier attempt: only the journal may answer this one (by
    /// replaying the earlier attempt's outcome, or finding it in doubt), never the body; where
    /// the journal would run the body again, the call asks anew ([`Durability::ask_again`]).
    Used,
    /// Refused, with the reason the model reads.
    Denied(String),
}

/// A call asking for approval.
pub(crate) struct Asking<'a> {
    pub(crate) key: &'a str,
    pub(crate) tool: &'a str,
    pub(crate) agent: Option<&'a str>,
    pub(crate) arguments: &'a Value,
    pub(crate) reason: Option<&'a str>,
}

impl Durability {
    /// Approvals that nobody answers now wait in the store, signed with `key` (see
    /// [`ApprovalKey`]); without one, such an `ask` is a denial as before.
    #[must_use]
    pub fn with_approvals(mut self, key: ApprovalKey) -> Self {
        self.approvals = Some(key);
        self
    }

    /// Whether approvals wait in the store.
    pub(crate) fn keeps_approvals(&self) -> bool {
        self.approvals.is_some()
    }

    fn approval_key(&self) -> Result<&ApprovalKey, StoreError> {
        self.approvals
            .as_ref()
            .ok_or_else(|| StoreError::new("no approval key is configured"))
    }

    /// What the call `asking` gets from its waiting approval: records one the first time.
    pub(crate) async fn wait_for_approval(
        &self,
        asking: &Asking<'_>,
    ) -> Result<Waiting, StoreError> {
        let key = self.approval_key()?;
        let id = approval_id(asking.key);
        let digest = arguments_digest(asking.arguments);
        let now = now_ms();
        let fresh = fresh_record(key, asking, id.clone(), digest.clone(), now);
        let Some(existing) = self.store.insert_approval(&fresh).await? else {
            return Ok(Waiting::Pending(fresh));
        };
        let matches = key.request_is_signed(&existing)
            && existing.arguments_digest == digest
            && existing.tool == asking.tool
            && existing.agent.as_deref() == asking.agent;
        if !matches {
            return Ok(Waiting::Denied(format!(
                "approval {id} does not match this call (altered, forged, or for other arguments)"
            )));
        }
        if now > existing.expires_at_ms && existing.state != ApprovalState::Used {
            return Ok(Waiting::Denied(format!(
                "approval {id} expired at {}",
                format_time(existing.expires_at_ms)
            )));
        }
        let decided_by = existing.decided_by.as_deref().unwrap_or("someone");
        match existing.state {
            ApprovalState::Pending => Ok(Waiting::Pending(existing)),
            _ if !key.decision_is_signed(&existing) => Ok(Waiting::Denied(format!(
                "approval {id} carries a decision that is not signed with this registry's key"
            ))),
            ApprovalState::Rejected => Ok(Waiting::Denied(format!(
                "approval {id} was rejected by {decided_by}"
            ))),
            ApprovalState::Used => Ok(Waiting::Used),
            ApprovalState::Approved => {
                let mut used = existing.clone();
                used.state = ApprovalState::Used;
                used.decision_signature = Some(key.sign_decision(&used));
                if self
                    .store
                    .replace_approval(ApprovalState::Approved, &used)
                    .await?
                {
                    Ok(Waiting::Allowed)
                } else {
                    Ok(Waiting::Denied(format!(
                        "approval {id} was already used by another attempt of this call"
                    )))
                }
            }
        }
    }

    /// Asks anew for the call `asking`, whose approval an earlier attempt used and whose body
    /// would now run again (that attempt failed, was let run again, or is in doubt for a tool
    /// that may run again): a decision allows one run of the body, so the used record becomes a
    /// fresh pending one under the same id, for someone to decide again. Compare and set from
    /// `used`, so one attempt asks; one that finds the record moved on answers from it.
    pub(crate) async fn ask_again(&self, asking: &Asking<'_>) -> Result<Waiting, StoreError> {
        let key = self.approval_key()?;
        let id = approval_id(asking.key);
        let fresh = fresh_record(
            key,
            asking,
            id,
            arguments_digest(asking.arguments),
            now_ms(),
        );
        if self
            .store
            .replace_approval(ApprovalState::Used, &fresh)
            .await?
        {
            return Ok(Waiting::Pending(fresh));
        }
        Ok(match self.wait_for_approval(asking).await? {
            Waiting::Used => Waiting::Denied(format!(
                "approval {} was already used by an earlier attempt of this call",
                fresh.id
            )),
            waiting => waiting,
        })
    }

    /// Decides the pending approval `id`: `approve` or reject it, as `by` (a person's name, for
    /// the record and the model). Answers whether it was decided: `false` when there is no such
    /// pending approval, it expired, its record is not signed with this key, or another
    /// process decided first.
    pub(crate) async fn decide_approval(
        &self,
        id: &str,
        approve: bool,
        by: &str,
    ) -> Result<bool, StoreError> {
        let key = self.approval_key()?;
        let Some(existing) = self.store.approval(id).await? else {
            return Ok(false);
        };
        if existing.state != ApprovalState::Pending
            || !key.request_is_signed(&existing)
            || now_ms() > existing.expires_at_ms
        {
            return Ok(false);
        }
        let mut decided = existing;
        decided.state = if approve {
            ApprovalState::Approved
        } else {
            ApprovalState::Rejected
        };
        decided.decided_by = Some(by.to_owned());
        decided.decision_signature = Some(key.sign_decision(&decided));
        self.store
            .replace_approval(ApprovalState::Pending, &decided)
            .await
    }

    /// The approvals waiting for a decision, ordered by id: pending and not yet expired. An
    /// expired one stays `pending` in the store (nothing rewrites it), but it can no longer be
    /// decided nor approve, so a person listing what to decide is not shown it.
    pub(crate) async fn pending_approvals(&self) -> Result<Vec<ApprovalRecord>, StoreError> {
        let mut pending = self.store.approvals(Some(ApprovalState::Pending)).await?;
        let now = now_ms();
        pending.retain(|approval| now <= approval.expires_at_ms);
        Ok(pending)
    }
}

/// A new pending approval `id` for the call `asking`, asked at `now`, signed with `key`.
fn fresh_record(
    key: &ApprovalKey,
    asking: &Asking<'_>,
    id: String,
    digest: String,
    now: u64,
) -> ApprovalRecord {
    let mut fresh = ApprovalRecord {
        id,
        tool: asking.tool.to_owned(),
        agent: asking.agent.map(str::to_owned),
        arguments_digest: digest,
        reason: asking.reason.map(str::to_owned),
        created_at_ms: now,
        expires_at_ms: now
            .saturating_add(u64::try_from(key.expires_after.as_millis()).unwrap_or(u64::MAX)),
        state: ApprovalState::Pending,
        decided_by: None,
        request_signature: String::new(),
        decision_signature: None,
    };
    fresh.request_signature = key.sign_request(&fresh);
    fresh
}
