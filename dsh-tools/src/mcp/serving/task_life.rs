//! How a served task lives and ends, in the words both `tasks.rs` (the task in this server's
//! memory) and `task_book.rs` (the task on the call store) use: the settings its server gives it
//! (time to live, poll interval, how long its owner may stay silent), what it says of its
//! progress while it runs, and how its call settled.

use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model as mcp;
use rmcp::task_manager::{TaskContext, TaskExit};

use crate::progress::ToolProgress;

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

/// The status message of a running task whose call last reported `report`: its message, with
/// how far it came (`indexing (3/10)`; without a total `indexing (3)`; without a message the
/// figures alone), since a task's poller sees no `notifications/progress` of its own.
pub(crate) fn progress_status(report: &ToolProgress) -> String {
    let figures = match report.total {
        Some(total) => format!("{}/{total}", report.progress),
        None => report.progress.to_string(),
    };
    match &report.message {
        Some(message) => format!("{message} ({figures})"),
        None => figures,
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

#[cfg(test)]
mod tests {
    use super::progress_status;
    use crate::progress::ToolProgress;

    #[test]
    fn a_reports_status_gives_its_message_and_how_far_it_came() {
        let report = ToolProgress {
            total: Some(10.0),
            message: Some("indexing".into()),
            ..ToolProgress::from(3.0)
        };
        assert_eq!(progress_status(&report), "indexing (3/10)");
        let report = ToolProgress {
            message: Some("indexing".into()),
            ..ToolProgress::from(0.5)
        };
        assert_eq!(progress_status(&report), "indexing (0.5)");
        assert_eq!(
            progress_status(&ToolProgress {
                total: Some(100.0),
                ..ToolProgress::from(40.0)
            }),
            "40/100"
        );
        assert_eq!(progress_status(&ToolProgress::from(7.0)), "7");
    }
}
