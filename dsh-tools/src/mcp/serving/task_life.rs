//! How a served task lives and ends, in the words both `tasks.rs` (the task in this server's
//! memory) and `task_book.rs` (the task on the call store) use: the settings its server gives it
//! (time to live, poll interval, how long its owner may stay silent) and how its call settled.

use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model as mcp;
use rmcp::task_manager::{TaskContext, TaskExit};

/// How long a served task lives from its creation unless changed (five minutes).
const DEFAULT_TASK_TTL: Duration = Duration::from_secs(300);

/// How often a client is asked to poll a served task unless changed (one second).
pub(crate) const DEFAULT_TASK_POLL_INTERVAL: Duration = Duration::from_secs(1);

/// Why an expired task failed: the words of rmcp's store, which fails a task it finds expired
/// before its call noticed.
pub(crate) const EXPIRED_MESSAGE: &str = "task expired: TTL elapsed before completion";

/// How the served tasks of one server live: their time to live (`None`: until the server is
/// dropped) and the poll interval suggested to clients.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TaskSettings {
    pub(crate) ttl: Option<Duration>,
    pub(crate) poll_interval: Duration,
    /// How long the owner of a task on the call store may stay silent before other servers
    /// report the task failed (`None`: `task_book.rs`'s default).
    pub(crate) owner_timeout: Option<Duration>,
}

impl Default for TaskSettings {
    fn default() -> Self {
        Self {
            ttl: Some(DEFAULT_TASK_TTL),
            poll_interval: DEFAULT_TASK_POLL_INTERVAL,
            owner_timeout: None,
        }
    }
}

/// How a task's call settled.
#[derive(Debug)]
pub(crate) enum Settled {
    /// With the call's result (an error outcome too).
    Completed(mcp::CallToolResult),
    /// Cancelled, with the pipeline's words for it.
    Cancelled(String),
    /// Failed without a result, for this reason.
    Failed(String),
}

impl Settled {
    /// How the task's operation exits for rmcp's store (which then settles the task the same
    /// way).
    pub(crate) fn exit(self, task: &TaskContext) -> Result<mcp::CallToolResult, TaskExit> {
        match self {
            Self::Completed(result) => Ok(result),
            Self::Cancelled(message) => {
                task.set_status_message(message);
                Err(TaskExit::Cancelled)
            }
            Self::Failed(message) => Err(TaskExit::Error(ErrorData::internal_error(message, None))),
        }
    }
}
