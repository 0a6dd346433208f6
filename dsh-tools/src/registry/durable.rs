//! The registry's call store (feature `durable`): setting it, and the decisions any process
//! sharing the store takes through it — about calls in doubt and approvals that wait.

use std::sync::Arc;

use crate::durable::journal::Durability;
use crate::durable::record::{ApprovalRecord, CallDecision, JournalEntry, JournalState};
use crate::durable::store::StoreError;
use crate::registry::tool_registry::ToolRegistry;

impl ToolRegistry {
    /// Runs every call from now on through `durability`'s call store: each journaled call
    /// records its intent before its body runs and its outcome after, a retry of a completed call
    /// is replayed, a retry of a call in doubt ends `CALL_IN_DOUBT` unless its tool is idempotent
    /// or read-only; with an [`ApprovalKey`](crate::durable::ApprovalKey), an `ask` no approver
    /// answers now waits in the store (`APPROVAL_PENDING`) until someone decides it.
    ///
    /// `None` stops using the call store: calls run as without one.
    pub fn set_durability(&self, durability: impl Into<Option<Durability>>) {
        self.core().set_durability(durability.into().map(Arc::new));
    }

    /// The call store and journal calls go through, if any (what `set_durability` set).
    pub(crate) fn durability(&self) -> Option<Arc<Durability>> {
        self.core().read().durability.clone()
    }

    /// Whether calls go through a call store, read without taking a handle on it (for a served
    /// call's key, `mcp/serving/call_key.rs`).
    #[cfg(feature = "mcp")]
    pub(crate) fn has_durability(&self) -> bool {
        self.core().read().durability.is_some()
    }

    fn durable(&self) -> Result<Arc<Durability>, StoreError> {
        self.durability()
            .ok_or_else(|| StoreError::new("the registry has no call store"))
    }

    /// The journaled calls whose latest attempt started and recorded no outcome: running now, or
    /// in doubt when the process that started them is gone.
    pub async fn calls_in_doubt(&self) -> Result<Vec<JournalEntry>, StoreError> {
        self.durable()?.entries(Some(JournalState::Started)).await
    }

    /// Takes `decision` about the call in doubt whose idempotency key is `key` (see
    /// [`CallDecision`]); answers whether it was taken.
    pub async fn decide_call(&self, key: &str, decision: CallDecision) -> Result<bool, StoreError> {
        self.durable()?.decide(key, decision).await
    }

    /// The approvals nobody has decided yet and that can still be decided: one past its expiry
    /// is not listed (it can no longer approve; its call's retry is `DENIED` as expired).
    pub async fn pending_approvals(&self) -> Result<Vec<ApprovalRecord>, StoreError> {
        self.durable()?.pending_approvals().await
    }

    /// Approves (or rejects) the pending approval `id` as `by` (a person's name, for the record
    /// and the model); answers whether it was decided: `false` when there is no such pending
    /// approval, it expired, its record is not signed with this registry's key, or another
    /// process decided first.
    pub async fn decide_approval(
        &self,
        id: &str,
        approve: bool,
        by: &str,
    ) -> Result<bool, StoreError> {
        self.durable()?.decide_approval(id, approve, by).await
    }
}
