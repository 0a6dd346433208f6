//! [`ErrorName`]: the error-type names the registry pairs with its [`ErrorCode`](super::ErrorCode)s,
//! the `name` of an [`ErrorInfo`](super::ErrorInfo).

use super::string_enum::string_enum;

/// The error-type names ([`ErrorInfo::name`](super::ErrorInfo::name)) the registry pairs
/// with its [`ErrorCode`](super::ErrorCode)s; a tool's own errors may carry any name.
///
/// Like a code, a name travels as its text ([`as_str`](Self::as_str)) and compares equal to
/// it: `info.name == ErrorName::ToolArgs`, `info.name == "ToolArgsError"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorName {
    /// `ToolNotFoundError`, paired with `UNKNOWN_TOOL`.
    ToolNotFound,
    /// `ToolArgsError`, paired with `INVALID_ARGS`.
    ToolArgs,
    /// `ToolOutputError`, paired with `INVALID_TOOL_OUTPUT`.
    ToolOutput,
    /// `AbortError`, paired with `ABORTED` and `ABORTED_BEFORE_DISPATCH`.
    Abort,
    /// `ToolTimeoutError`, paired with `TOOL_TIMEOUT` and `TIMER_UNAVAILABLE`.
    ToolTimeout,
    /// `ToolPanicError`, paired with `TOOL_PANICKED`.
    ToolPanic,
    /// `ToolError`, paired with `TOOL_ERROR`.
    ToolError,
    /// `ToolDeniedError`, paired with `DENIED`.
    ToolDenied,
    /// `ToolApprovalPendingError`, paired with `APPROVAL_PENDING`.
    ApprovalPending,
    /// `ToolBlockedError`, paired with `BLOCKED`.
    ToolBlocked,
    /// `HookError`, paired with `HOOK_FAILED`.
    Hook,
    /// `ToolFinalizerError`, paired with `FINALIZER_FAILED`.
    Finalizer,
    /// `McpTransportError`, paired with `MCP_TRANSPORT`.
    McpTransport,
    /// `JsonSchemaError`, paired with `UNSUPPORTED_SCHEMA`.
    JsonSchema,
    /// `ToolScopeError`, paired with `SCOPE_DISPOSED` and `UNKNOWN_AGENT`.
    Scope,
    /// `CodeRunError`, paired with `CODE_RUN_FAILED`.
    CodeRun,
    /// `CodeRunDivergedError`, paired with `CODE_RUN_DIVERGED`.
    CodeRunDiverged,
    /// `CallInDoubtError`, paired with `CALL_IN_DOUBT`.
    CallInDoubt,
    /// `CallStoreError`, paired with `STORE_FAILED`.
    StoreFailed,
}

impl ErrorName {
    /// The text, exactly as it travels in an [`ErrorInfo`](super::ErrorInfo).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::ToolNotFound => "ToolNotFoundError",
            Self::ToolArgs => "ToolArgsError",
            Self::ToolOutput => "ToolOutputError",
            Self::Abort => "AbortError",
            Self::ToolTimeout => "ToolTimeoutError",
            Self::ToolPanic => "ToolPanicError",
            Self::ToolError => "ToolError",
            Self::ToolDenied => "ToolDeniedError",
            Self::ApprovalPending => "ToolApprovalPendingError",
            Self::ToolBlocked => "ToolBlockedError",
            Self::Hook => "HookError",
            Self::Finalizer => "ToolFinalizerError",
            Self::McpTransport => "McpTransportError",
            Self::JsonSchema => "JsonSchemaError",
            Self::Scope => "ToolScopeError",
            Self::CodeRun => "CodeRunError",
            Self::CodeRunDiverged => "CodeRunDivergedError",
            Self::CallInDoubt => "CallInDoubtError",
            Self::StoreFailed => "CallStoreError",
        }
    }
}

string_enum!(ErrorName);
