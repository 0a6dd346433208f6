//! The one place where failures the pipeline itself detects get their wording and their codes:
//! denials (`DENIED`), approvals answered by a later attempt (`APPROVAL_PENDING`), failing hooks (`HOOK_FAILED`), blocked results (`BLOCKED`), a failing
//! finalizer (`FINALIZER_FAILED`), and the `TOOL_ERROR` a tool's uncoded error gets.
//!
//! An error that already carries `{name, code}` keeps it: a hook or a tool that fails with a code
//! of its own is routed by that code. Tool-level failures with fixed codes (unknown tool, invalid
//! arguments, aborts, timeouts, body panics) are constructors of [`ToolError`] in `error.rs`.

use crate::call::execution::ToolExecution;
use crate::errors::code::ErrorCode;
use crate::errors::tool_error::ToolError;
use crate::result::ToolExecutionResult;
use crate::text_bounds::bound_error_message;

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

/// `<phase> panicked: <message>` (`HOOK_FAILED`); the panic message is cut to fit the error cap.
pub(crate) fn hook_panicked(phase: HookPhase, message: &str) -> ToolError {
    let message = bound_error_message(format!("{} panicked: {message}", phase.describe()));
    ToolError::of_code(ErrorCode::HookFailed, message)
}

/// A hook's own error: its code, or `HOOK_FAILED`.
pub(crate) fn hook_failed(error: ToolError) -> ToolError {
    error.or_info(ErrorCode::HookFailed)
}

/// A tool's own error (the body's, or an `execute` layer's failure standing in for it): its code,
/// or `TOOL_ERROR`.
#[inline]
pub(crate) fn tool_failed(error: ToolError) -> ToolError {
    error.or_info(ErrorCode::ToolError)
}

/// `tool "<name>" content finalizer panicked: <message>` (`FINALIZER_FAILED`).
pub(crate) fn finalizer_panicked(tool: &str, message: &str) -> ToolError {
    let message = bound_error_message(format!(
        "tool \"{tool}\" content finalizer panicked: {message}"
    ));
    ToolError::of_code(ErrorCode::FinalizerFailed, message)
}

/// A finalizer's own error: its code, or `FINALIZER_FAILED`.
pub(crate) fn finalizer_failed(error: ToolError) -> ToolError {
    error.or_info(ErrorCode::FinalizerFailed)
}

/// `post-execute accept decision cannot replace both value and content` (`HOOK_FAILED`).
pub(crate) fn post_replaces_both() -> ToolError {
    ToolError::of_code(
        ErrorCode::HookFailed,
        "post-execute accept decision cannot replace both value and content",
    )
}

/// `post-execute cannot replace the value of a failed result` (`HOOK_FAILED`).
pub(crate) fn post_replaces_failed_value() -> ToolError {
    ToolError::of_code(
        ErrorCode::HookFailed,
        "post-execute cannot replace the value of a failed result",
    )
}

/// A post-execute block whose message is `message` (`BLOCKED`).
pub(crate) fn blocked(message: String) -> ToolError {
    ToolError::of_code(ErrorCode::Blocked, message)
}

/// The message of a block whose feedback has no text.
pub(crate) const BLOCKED_BY_POLICY: &str = "tool result blocked by post-execute policy";

/// A result the registry built for `execution`.
#[inline]
pub(crate) fn failed(execution: &ToolExecution, error: ToolError) -> ToolExecutionResult {
    ToolExecutionResult::failure(error).stamped(execution.token())
}

/// A result ending the call because a hook failed (`HOOK_FAILED` unless the error has a code).
pub(crate) fn hook_failed_result(
    execution: &ToolExecution,
    error: ToolError,
) -> ToolExecutionResult {
    failed(execution, hook_failed(error))
}

/// `tool "<name>" is waiting for approval` (`APPROVAL_PENDING`): the approver's answer comes
/// with a later attempt of the call.
pub(crate) fn approval_pending(execution: &ToolExecution) -> ToolExecutionResult {
    let message = format!("tool \"{}\" is waiting for approval", execution.name());
    failed(
        execution,
        ToolError::of_code(ErrorCode::ApprovalPending, message),
    )
}

/// `waiting for approval <id> of tool "<name>" (expires at <time>)` (`APPROVAL_PENDING`): the
/// approval waits in the call store until someone decides it; the call's retry uses the decision.
#[cfg(feature = "durable")]
pub(crate) fn approval_waiting(
    execution: &ToolExecution,
    approval: &crate::durable::record::ApprovalRecord,
) -> ToolExecutionResult {
    let message = format!(
        "waiting for approval {} of tool \"{}\" (expires at {})",
        approval.id,
        execution.name(),
        crate::durable::clock::format_time(approval.expires_at_ms)
    );
    failed(
        execution,
        ToolError::of_code(ErrorCode::ApprovalPending, message),
    )
}

/// A denial: `Error: <reason>` (`DENIED`).
pub(crate) fn denied(execution: &ToolExecution, reason: String) -> ToolExecutionResult {
    failed(execution, ToolError::of_code(ErrorCode::Denied, reason))
}
