//! Progress of a running tool body as data: what a body reports ([`ToolProgress`], through
//! [`ToolRun::report_progress`](crate::ToolRun::report_progress)). Where reports go (the caller's
//! sink) belongs to the call's input, in `call/execution.rs`.

use serde::{Deserialize, Serialize};

/// One progress report: how far a body has come, out of how much, and what it is doing. A
/// plain value: `ToolProgress { total: Some(10.0), ..ToolProgress::from(3.0) }`.
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

/// `progress` done, total unknown, no message.
impl From<f64> for ToolProgress {
    fn from(progress: f64) -> Self {
        Self {
            progress,
            total: None,
            message: None,
        }
    }
}
