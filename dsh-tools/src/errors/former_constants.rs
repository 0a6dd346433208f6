//! The constants the registry's codes and names were before [`ErrorCode`] and [`ErrorName`]:
//! `errors::codes::INVALID_ARGS`, `errors::names::TOOL_ARGS`, … Kept, hidden from the docs and
//! deprecated, so that code written against them still builds while it moves to the enums; each
//! is its enum's text, so it compares as it always did.

use super::code::ErrorCode;
use super::name::ErrorName;

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

/// The error-type names paired with the codes, as strings (deprecated: use [`ErrorName`]).
pub mod names {
    use super::ErrorName;
    #[deprecated(note = "use `ErrorName::ToolNotFound`")]
    pub const TOOL_NOT_FOUND: &str = ErrorName::ToolNotFound.as_str();
    #[deprecated(note = "use `ErrorName::ToolArgs`")]
    pub const TOOL_ARGS: &str = ErrorName::ToolArgs.as_str();
    #[deprecated(note = "use `ErrorName::ToolOutput`")]
    pub const TOOL_OUTPUT: &str = ErrorName::ToolOutput.as_str();
    #[deprecated(note = "use `ErrorName::Abort`")]
    pub const ABORT: &str = ErrorName::Abort.as_str();
    #[deprecated(note = "use `ErrorName::ToolTimeout`")]
    pub const TOOL_TIMEOUT: &str = ErrorName::ToolTimeout.as_str();
    #[deprecated(note = "use `ErrorName::ToolPanic`")]
    pub const TOOL_PANIC: &str = ErrorName::ToolPanic.as_str();
    #[deprecated(note = "use `ErrorName::ToolError`")]
    pub const TOOL_ERROR: &str = ErrorName::ToolError.as_str();
    #[deprecated(note = "use `ErrorName::ToolDenied`")]
    pub const TOOL_DENIED: &str = ErrorName::ToolDenied.as_str();
    #[deprecated(note = "use `ErrorName::ApprovalPending`")]
    pub const APPROVAL_PENDING: &str = ErrorName::ApprovalPending.as_str();
    #[deprecated(note = "use `ErrorName::ToolBlocked`")]
    pub const TOOL_BLOCKED: &str = ErrorName::ToolBlocked.as_str();
    #[deprecated(note = "use `ErrorName::Hook`")]
    pub const HOOK: &str = ErrorName::Hook.as_str();
    #[deprecated(note = "use `ErrorName::Finalizer`")]
    pub const FINALIZER: &str = ErrorName::Finalizer.as_str();
    #[deprecated(note = "use `ErrorName::McpTransport`")]
    pub const MCP_TRANSPORT: &str = ErrorName::McpTransport.as_str();
    #[deprecated(note = "use `ErrorName::JsonSchema`")]
    pub const JSON_SCHEMA: &str = ErrorName::JsonSchema.as_str();
    #[deprecated(note = "use `ErrorName::Scope`")]
    pub const SCOPE: &str = ErrorName::Scope.as_str();
    #[deprecated(note = "use `ErrorName::CodeRun`")]
    pub const CODE_RUN: &str = ErrorName::CodeRun.as_str();
    #[deprecated(note = "use `ErrorName::CodeRunDiverged`")]
    pub const CODE_RUN_DIVERGED: &str = ErrorName::CodeRunDiverged.as_str();
    #[deprecated(note = "use `ErrorName::CallInDoubt`")]
    pub const CALL_IN_DOUBT: &str = ErrorName::CallInDoubt.as_str();
    #[deprecated(note = "use `ErrorName::StoreFailed`")]
    pub const STORE_FAILED: &str = ErrorName::StoreFailed.as_str();
}
