//! The constants the registry's codes and names were before [`ErrorCode`] and
//! [`ErrorCode::name`]: `errors::codes::INVALID_ARGS`, `errors::names::TOOL_ARGS`, … Kept, hidden
//! from the docs and deprecated, so that code written against them still builds while it moves
//! to the enum; each is the same text, so it compares as it always did.

use super::code::ErrorCode;

/// The registry's error codes as strings (deprecated: use [`ErrorCode`]).
pub mod codes {
    use super::ErrorCode;
    #[deprecated(note = "use `ErrorCode::UnknownTool`")]
    pub const UNKNOWN_TOOL: &str = ErrorCode::UnknownTool.as_str();
    #[deprecated(note = "use `ErrorCode::InvalidArgs`")]
    pub const INVALID_ARGS: &str = ErrorCode::InvalidArgs.as_str();
    #[deprecated(note = "use `ErrorCode::InvalidToolOutput`")]
    pub const INVALID_TOOL_OUTPUT: &str = ErrorCode::InvalidToolOutput.as_str();
    #[deprecated(note = "use `ErrorCode::AbortedBeforeDispatch`")]
    pub const ABORTED_BEFORE_DISPATCH: &str = ErrorCode::AbortedBeforeDispatch.as_str();
    #[deprecated(note = "use `ErrorCode::Aborted`")]
    pub const ABORTED: &str = ErrorCode::Aborted.as_str();
    #[deprecated(note = "use `ErrorCode::ToolTimeout`")]
    pub const TOOL_TIMEOUT: &str = ErrorCode::ToolTimeout.as_str();
    #[deprecated(note = "use `ErrorCode::TimerUnavailable`")]
    pub const TIMER_UNAVAILABLE: &str = ErrorCode::TimerUnavailable.as_str();
    #[deprecated(note = "use `ErrorCode::ToolPanicked`")]
    pub const TOOL_PANICKED: &str = ErrorCode::ToolPanicked.as_str();
    #[deprecated(note = "use `ErrorCode::ToolError`")]
    pub const TOOL_ERROR: &str = ErrorCode::ToolError.as_str();
    #[deprecated(note = "use `ErrorCode::Denied`")]
    pub const DENIED: &str = ErrorCode::Denied.as_str();
    #[deprecated(note = "use `ErrorCode::ApprovalPending`")]
    pub const APPROVAL_PENDING: &str = ErrorCode::ApprovalPending.as_str();
    #[deprecated(note = "use `ErrorCode::Blocked`")]
    pub const BLOCKED: &str = ErrorCode::Blocked.as_str();
    #[deprecated(note = "use `ErrorCode::HookFailed`")]
    pub const HOOK_FAILED: &str = ErrorCode::HookFailed.as_str();
    #[deprecated(note = "use `ErrorCode::FinalizerFailed`")]
    pub const FINALIZER_FAILED: &str = ErrorCode::FinalizerFailed.as_str();
    #[deprecated(note = "use `ErrorCode::McpTransport`")]
    pub const MCP_TRANSPORT: &str = ErrorCode::McpTransport.as_str();
    #[deprecated(note = "use `ErrorCode::UnsupportedSchema`")]
    pub const UNSUPPORTED_SCHEMA: &str = ErrorCode::UnsupportedSchema.as_str();
    #[deprecated(note = "use `ErrorCode::ScopeDisposed`")]
    pub const SCOPE_DISPOSED: &str = ErrorCode::ScopeDisposed.as_str();
    #[deprecated(note = "use `ErrorCode::UnknownAgent`")]
    pub const UNKNOWN_AGENT: &str = ErrorCode::UnknownAgent.as_str();
    #[deprecated(note = "use `ErrorCode::CodeRunFailed`")]
    pub const CODE_RUN_FAILED: &str = ErrorCode::CodeRunFailed.as_str();
    #[deprecated(note = "use `ErrorCode::CodeRunDiverged`")]
    pub const CODE_RUN_DIVERGED: &str = ErrorCode::CodeRunDiverged.as_str();
    #[deprecated(note = "use `ErrorCode::CallInDoubt`")]
    pub const CALL_IN_DOUBT: &str = ErrorCode::CallInDoubt.as_str();
    #[deprecated(note = "use `ErrorCode::StoreFailed`")]
    pub const STORE_FAILED: &str = ErrorCode::StoreFailed.as_str();
}

/// The error-type names paired with the codes, as strings (deprecated: use [`ErrorCode::name`]).
pub mod names {
    use super::ErrorCode;
    #[deprecated(note = "use `ErrorCode::UnknownTool.name()`")]
    pub const TOOL_NOT_FOUND: &str = ErrorCode::UnknownTool.name();
    #[deprecated(note = "use `ErrorCode::InvalidArgs.name()`")]
    pub const TOOL_ARGS: &str = ErrorCode::InvalidArgs.name();
    #[deprecated(note = "use `ErrorCode::InvalidToolOutput.name()`")]
    pub const TOOL_OUTPUT: &str = ErrorCode::InvalidToolOutput.name();
    #[deprecated(note = "use `ErrorCode::Aborted.name()`")]
    pub const ABORT: &str = ErrorCode::Aborted.name();
    #[deprecated(note = "use `ErrorCode::ToolTimeout.name()`")]
    pub const TOOL_TIMEOUT: &str = ErrorCode::ToolTimeout.name();
    #[deprecated(note = "use `ErrorCode::ToolPanicked.name()`")]
    pub const TOOL_PANIC: &str = ErrorCode::ToolPanicked.name();
    #[deprecated(note = "use `ErrorCode::ToolError.name()`")]
    pub const TOOL_ERROR: &str = ErrorCode::ToolError.name();
    #[deprecated(note = "use `ErrorCode::Denied.name()`")]
    pub const TOOL_DENIED: &str = ErrorCode::Denied.name();
    #[deprecated(note = "use `ErrorCode::ApprovalPending.name()`")]
    pub const APPROVAL_PENDING: &str = ErrorCode::ApprovalPending.name();
    #[deprecated(note = "use `ErrorCode::Blocked.name()`")]
    pub const TOOL_BLOCKED: &str = ErrorCode::Blocked.name();
    #[deprecated(note = "use `ErrorCode::HookFailed.name()`")]
    pub const HOOK: &str = ErrorCode::HookFailed.name();
    #[deprecated(note = "use `ErrorCode::FinalizerFailed.name()`")]
    pub const FINALIZER: &str = ErrorCode::FinalizerFailed.name();
    #[deprecated(note = "use `ErrorCode::McpTransport.name()`")]
    pub const MCP_TRANSPORT: &str = ErrorCode::McpTransport.name();
    #[deprecated(note = "use `ErrorCode::UnsupportedSchema.name()`")]
    pub const JSON_SCHEMA: &str = ErrorCode::UnsupportedSchema.name();
    #[deprecated(note = "use `ErrorCode::ScopeDisposed.name()`")]
    pub const SCOPE: &str = ErrorCode::ScopeDisposed.name();
    #[deprecated(note = "use `ErrorCode::CodeRunFailed.name()`")]
    pub const CODE_RUN: &str = ErrorCode::CodeRunFailed.name();
    #[deprecated(note = "use `ErrorCode::CodeRunDiverged.name()`")]
    pub const CODE_RUN_DIVERGED: &str = ErrorCode::CodeRunDiverged.name();
    #[deprecated(note = "use `ErrorCode::CallInDoubt.name()`")]
    pub const CALL_IN_DOUBT: &str = ErrorCode::CallInDoubt.name();
    #[deprecated(note = "use `ErrorCode::StoreFailed.name()`")]
    pub const STORE_FAILED: &str = ErrorCode::StoreFailed.name();
}
