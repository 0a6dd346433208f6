//! Progress of a running tool body: what a body reports ([`ToolProgress`], through
//! [`ToolRun::report_progress`](crate::ToolRun::report_progress)) and where it goes (a
//! [`ProgressSink`] the caller set on the call's [`ToolExecutionInput`](crate::ToolExecutionInput)).
//!
//! Bridges consume it: the MCP server forwards reports as `notifications/progress`, UIs update a
//! pending card. A call without a sink pays nothing: reporting is one `None` check. A sink that
//! panics is logged and otherwise ignored; it never fails the call.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::execution::ToolExecution;
use crate::future::catch_panic;

/// One progress report: how far a body has come, out of how much, and what it is doing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolProgress {
    /// Work done so far (should increase with each report of a call).
    pub progress: f64,
    /// The total amount of work, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<f64>,
    /// What the body is doing now, for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl ToolProgress {
    /// `progress` done, total unknown, no message.
    pub fn new(progress: f64) -> Self {
        Self {
            progress,
            total: None,
            message: None,
        }
    }

    /// Sets the total amount of work.
    #[must_use]
    pub fn with_total(mut self, total: f64) -> Self {
        self.total = Some(total);
        self
    }

    /// Sets the message.
    #[must_use]
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }
}

impl From<f64> for ToolProgress {
    fn from(progress: f64) -> Self {
        Self::new(progress)
    }
}

/// Receives the progress reports of the calls it is set on
/// ([`ToolExecutionInput::with_progress`](crate::ToolExecutionInput::with_progress)).
///
/// Called synchronously on the body's task, so it should only hand the report on (send it on a
/// channel, write a notification), not wait. Any `Fn(&ToolExecution, ToolProgress)` closure is a
/// sink.
pub trait ProgressSink: Send + Sync + 'static {
    /// One report of the call `execution`.
    fn report(&self, execution: &ToolExecution, progress: ToolProgress);
}

impl<F> ProgressSink for F
where
    F: Fn(&ToolExecution, ToolProgress) + Send + Sync + 'static,
{
    fn report(&self, execution: &ToolExecution, progress: ToolProgress) {
        self(execution, progress);
    }
}

/// A shared sink, as a call's input carries it.
#[derive(Clone)]
pub(crate) struct SharedSink(pub(crate) Arc<dyn ProgressSink>);

impl SharedSink {
    /// Hands `progress` to the sink; a panic is logged, never propagated.
    pub(crate) fn deliver(&self, execution: &ToolExecution, progress: ToolProgress) {
        if let Err(message) = catch_panic(|| self.0.report(execution, progress)) {
            tracing::warn!(
                tool = execution.name(),
                call_id = execution.call_id(),
                "progress sink panicked: {message}"
            );
        }
    }
}

impl fmt::Debug for SharedSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProgressSink")
    }
}
