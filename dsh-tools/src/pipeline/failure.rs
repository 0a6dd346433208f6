//! The one place where failures the pipeline itself detects get their wording: panicking hooks,
//! denials, misused post-execute decisions, a failing finalizer.
//!
//! Tool-level failures with codes (unknown tool, invalid arguments, aborts, timeouts, body panics)
//! are constructors of [`ToolError`] in `error.rs`; the ones here carry no `{name, code}`.

use crate::error::ToolError;
use crate::execution::ToolExecution;
use crate::result::ToolExecutionResult;

/// Which kind of hook failed.
#[derive(Clone, Copy, Debug)]
pub(crate) enum HookPhase {
    PreExecute,
    Approver,
    Guard,
    Wrapper,
    PostExecute,
}

impl HookPhase {
    fn describe(self) -> &'static str {
        match self {
            Self::PreExecute => "pre-execute listener",
            Self::Approver => "approver",
            Self::Guard => "guard",
            Self::Wrapper => "execute wrapper",
            Self::PostExecute => "post-execute listener",
        }
    }
}

/// `<phase> panicked: <message>`.
pub(crate) fn hook_panicked(phase: HookPhase, message: &str) -> ToolError {
    ToolError::new(format!("{} panicked: {message}", phase.describe()))
}

/// `tool "<name>" content finalizer panicked: <message>`.
pub(crate) fn finalizer_panicked(tool: &str, message: &str) -> ToolError {
    ToolError::new(format!(
        "tool \"{tool}\" content finalizer panicked: {message}"
    ))
}

/// `post-execute accept decision cannot replace both value and content`.
pub(crate) fn post_replaces_both() -> ToolError {
    ToolError::new("post-execute accept decision cannot replace both value and content")
}

/// `post-execute cannot replace the value of a failed result`.
pub(crate) fn post_replaces_failed_value() -> ToolError {
    ToolError::new("post-execute cannot replace the value of a failed result")
}

/// The message of a block whose feedback has no text.
pub(crate) const BLOCKED_BY_POLICY: &str = "tool result blocked by post-execute policy";

/// A result the registry built for `execution`.
#[inline]
pub(crate) fn failed(execution: &ToolExecution, error: ToolError) -> ToolExecutionResult {
    ToolExecutionResult::failure(error).stamped(execution.token())
}

/// A denial: `Error: <reason>`, no `{name, code}`.
pub(crate) fn denied(execution: &ToolExecution, reason: String) -> ToolExecutionResult {
    failed(execution, ToolError::new(reason))
}
