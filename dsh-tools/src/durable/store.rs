//! [`CallStore`]: the one trait every backend of the call store implements, and [`StoreError`].
//!
//! The trait is small on purpose: insert a record unless its key is taken, replace a record only
//! if it still stands where the caller last saw it (compare and set on the state and, for the
//! journal, the attempt; for a served task, its revision), read one, list them. Every rule of the journal and of approvals is
//! written once above it (`journal.rs`, `approval.rs`), so the backends cannot disagree about
//! them; the conformance suite (`dsh_tools_tests::durable_conformance`) runs on each.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use crate::durable::record::{
    ApprovalRecord, ApprovalState, JournalEntry, JournalState, TaskRecord, TaskState,
};
use crate::future::BoxFuture;

/// Why a call store could not answer (`STORE_FAILED` when a call needed it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreError {
    message: String,
}

impl StoreError {
    /// A failure described by `message`.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }

    /// What went wrong (what `Display` writes).
    pub(crate) fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StoreError {}

/// Where calls, their outcomes, approvals and served MCP tasks are kept: in memory
/// ([`MemoryStore`](crate::durable::MemoryStore)), in a SQLite file (`SqliteStore`, feature
/// `store-sqlite`) or in PostgreSQL (`PostgresStore`, feature `store-postgres`).
///
/// Each operation is atomic on its own; a `replace_*` that finds the record moved on (another
/// process got there first) changes nothing and answers `false`.
///
/// `Any` (which every `'static` type is) lets the journal tell the store in memory apart and
/// drive it by plain calls, without the futures below.
pub trait CallStore: Any + Send + Sync + 'static {
    /// Inserts `entry` unless its key is taken; answers the entry already there, if any.
    fn insert_entry<'a>(
        &'a self,
        entry: &'a JournalEntry,
    ) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>>;

    /// Replaces the entry of `entry.key` with `entry` if it still is at `attempt` in `state`.
    /// The store is given the entry to keep: one kept as it is (in memory) needs no copy.
    fn replace_entry(
        &self,
        attempt: u64,
        state: JournalState,
        entry: JournalEntry,
    ) -> BoxFuture<'_, Result<bool, StoreError>>;

    /// The entry of `key`.
    fn entry<'a>(&'a self, key: &'a str)
    -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>>;

    /// Every entry in `state`, or every entry, ordered by key.
    fn entries(
        &self,
        state: Option<JournalState>,
    ) -> BoxFuture<'_, Result<Vec<JournalEntry>, StoreError>>;

    /// The latest completed entry of a read-only call with this digest of tool, agent and
    /// arguments (see [`JournalEntry::arguments_digest`]).
    fn answer<'a>(
        &'a self,
        digest: &'a str,
    ) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>>;

    /// Inserts `approval` unless its id is taken; answers the approval already there, if any.
    fn insert_approval<'a>(
        &'a self,
        approval: &'a ApprovalRecord,
    ) -> BoxFuture<'a, Result<Option<ApprovalRecord>, StoreError>>;

    /// Replaces the approval of `approval.id` with `approval` if it still is in `state`.
    fn replace_approval<'a>(
        &'a self,
        state: ApprovalState,
        approval: &'a ApprovalRecord,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;

    /// The approval `id`.
    fn approval<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<ApprovalRecord>, StoreError>>;

    /// Every approval in `state`, or every approval, ordered by id.
    fn approvals(
        &self,
        state: Option<ApprovalState>,
    ) -> BoxFuture<'_, Result<Vec<ApprovalRecord>, StoreError>>;

    /// Inserts `task` unless its id is taken; answers the task already there, if any.
    fn insert_task<'a>(
        &'a self,
        task: &'a TaskRecord,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>>;

    /// Replaces the task of `task.id` with `task` if it still is at `revision`.
    fn replace_task<'a>(
        &'a self,
        revision: u64,
        task: &'a TaskRecord,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;

    /// The task `id`.
    fn task<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>>;

    /// Every task in `state`, or every task, ordered by id.
    fn tasks(&self, state: Option<TaskState>)
    -> BoxFuture<'_, Result<Vec<TaskRecord>, StoreError>>;
}

/// A store shared with others is a store: `Durability::new(Arc::clone(&store))` puts one store
/// under several registries (or beside the code that reads it).
impl<S: CallStore + ?Sized> CallStore for Arc<S> {
    fn insert_entry<'a>(
        &'a self,
        entry: &'a JournalEntry,
    ) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>> {
        (**self).insert_entry(entry)
    }

    fn replace_entry(
        &self,
        attempt: u64,
        state: JournalState,
        entry: JournalEntry,
    ) -> BoxFuture<'_, Result<bool, StoreError>> {
        (**self).replace_entry(attempt, state, entry)
    }

    fn entry<'a>(
        &'a self,
        key: &'a str,
    ) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>> {
        (**self).entry(key)
    }

    fn entries(
        &self,
        state: Option<JournalState>,
    ) -> BoxFuture<'_, Result<Vec<JournalEntry>, StoreError>> {
        (**self).entries(state)
    }

    fn answer<'a>(
        &'a self,
        digest: &'a str,
    ) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>> {
        (**self).answer(digest)
    }

    fn insert_approval<'a>(
        &'a self,
        approval: &'a ApprovalRecord,
    ) -> BoxFuture<'a, Result<Option<ApprovalRecord>, StoreError>> {
        (**self).insert_approval(approval)
    }

    fn replace_approval<'a>(
        &'a self,
        state: ApprovalState,
        approval: &'a ApprovalRecord,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        (**self).replace_approval(state, approval)
    }

    fn approval<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<ApprovalRecord>, StoreError>> {
        (**self).approval(id)
    }

    fn approvals(
        &self,
        state: Option<ApprovalState>,
    ) -> BoxFuture<'_, Result<Vec<ApprovalRecord>, StoreError>> {
        (**self).approvals(state)
    }

    fn insert_task<'a>(
        &'a self,
        task: &'a TaskRecord,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        (**self).insert_task(task)
    }

    fn replace_task<'a>(
        &'a self,
        revision: u64,
        task: &'a TaskRecord,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        (**self).replace_task(revision, task)
    }

    fn task<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        (**self).task(id)
    }

    fn tasks(
        &self,
        state: Option<TaskState>,
    ) -> BoxFuture<'_, Result<Vec<TaskRecord>, StoreError>> {
        (**self).tasks(state)
    }
}
