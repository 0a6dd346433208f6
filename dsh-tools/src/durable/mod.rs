//! Calls that outlive the process (feature `durable`): a call store behind one trait
//! ([`CallStore`]) with three backends — in memory ([`MemoryStore`]), a SQLite file
//! ([`SqliteStore`], feature `store-sqlite`) and PostgreSQL ([`PostgresStore`], feature
//! `store-postgres`) — and on it the journal of calls, keyed by the idempotency key
//! (`journal.rs`), approvals that wait (`approval.rs`), Code Mode runs that resume after an
//! approval (`program.rs`; their positions, `position.rs`), and the records of served MCP tasks ([`TaskRecord`]; their rules are
//! the MCP bridge's, `mcp/serving/task_book.rs`).
//!
//! A registry uses it once given one ([`ToolRegistry::set_durability`]); without one, calls run
//! as they always did, at the same cost. [`JournalPolicy`] is plain data every build has: what a
//! tool asks of the journal.
//!
//! [`ToolRegistry::set_durability`]: crate::ToolRegistry::set_durability

#[cfg(feature = "durable")]
pub(crate) mod approval;
#[cfg(feature = "durable")]
pub(crate) mod approval_key;
#[cfg(feature = "durable")]
pub(crate) mod attempt;
#[cfg(feature = "durable")]
pub(crate) mod call_key;
#[cfg(feature = "durable")]
pub(crate) mod clock;
#[cfg(feature = "durable")]
pub(crate) mod journal;
#[cfg(feature = "durable")]
pub(crate) mod memory;
pub(crate) mod policy;
#[cfg(feature = "durable")]
pub(crate) mod position;
#[cfg(feature = "store-postgres")]
pub(crate) mod postgres;
#[cfg(all(feature = "durable", feature = "code-mode"))]
pub(crate) mod program;
#[cfg(feature = "durable")]
pub(crate) mod record;
#[cfg(any(feature = "store-sqlite", feature = "store-postgres"))]
pub(crate) mod schema;
#[cfg(feature = "store-sqlite")]
pub(crate) mod sqlite;
#[cfg(feature = "durable")]
pub(crate) mod store;

#[cfg(feature = "durable")]
pub use approval::arguments_digest;
#[cfg(feature = "durable")]
pub use approval_key::ApprovalKey;
#[cfg(feature = "durable")]
pub use journal::Durability;
#[cfg(feature = "durable")]
pub use memory::MemoryStore;
pub use policy::JournalPolicy;
#[cfg(feature = "store-postgres")]
pub use postgres::PostgresStore;
#[cfg(feature = "durable")]
pub use record::{
    ApprovalRecord, ApprovalState, CallDecision, JournalEntry, JournalState, RecordedOutcome,
    TaskRecord, TaskState,
};
#[cfg(feature = "store-sqlite")]
pub use sqlite::SqliteStore;
#[cfg(feature = "durable")]
pub use store::{CallStore, StoreError};

/// The idempotency key of a call (see
/// [`ToolExecution::idempotency_key`](crate::call::ToolExecution::idempotency_key)): what the
/// journal keys a call by, for an operator who knows the call's id, tool, agent and arguments.
/// (The `n`th nested call of a Code Mode run is keyed `<run key>/<n>` instead, the run's key
/// being this function's of the `run_code` call.)
pub fn idempotency_key(
    call_id: &str,
    tool: &str,
    agent: Option<&str>,
    arguments: &serde_json::Value,
) -> String {
    crate::idempotency::idempotency_key(call_id, tool, agent, arguments)
}
