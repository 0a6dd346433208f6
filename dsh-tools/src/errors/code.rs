//! [`ErrorCode`]: the registry's own error codes, the `code` of an [`ErrorInfo`](super::ErrorInfo),
//! each with the error-family `name` it travels beside.

use super::string_enum::string_enum;

/// The registry's error codes ([`ErrorInfo::code`](super::ErrorInfo::code)), as `std::io::ErrorKind`
/// names an I/O error's kind.
///
/// Every error result the registry returns carries a code: the tool's own when its error has
/// one (any string), otherwise one of these, naming what failed (a denial, a hook, the tool
/// body, …). The code travels as its text ([`as_str`](Self::as_str)), which is what protocols
/// carry and what an `ErrorCode` compares equal to:
///
/// ```
/// use dsh_tools::errors::{ErrorCode, ErrorInfo};
///
/// let info = ErrorInfo {
///     name: ErrorCode::InvalidArgs.name().into(),
///     code: ErrorCode::InvalidArgs.into(),
/// };
/// assert!(info.code == ErrorCode::InvalidArgs);
/// assert!(info.code == "INVALID_ARGS");
/// assert_eq!(ErrorCode::InvalidArgs.as_str(), "INVALID_ARGS");
/// assert_eq!(info.name, ErrorCode::InvalidArgs.name());
/// assert_eq!(ErrorCode::InvalidArgs.name(), "ToolArgsError");
/// ```
///
/// Each code comes with the name of its error family ([`name`](Self::name)), the
/// [`ErrorInfo::name`](super::ErrorInfo::name) of every error the registry gives that code;
/// one family can hold several codes (`AbortError` is `ABORTED` and `ABORTED_BEFORE_DISPATCH`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// `UNKNOWN_TOOL`: no visible tool of that name when the call was dispatched.
    UnknownTool,
    /// `INVALID_ARGS`: the arguments violate the tool's schema.
    InvalidArgs,
    /// `INVALID_TOOL_OUTPUT`: the tool's value is not lossless JSON, does not match its
    /// output schema, or could not be rendered.
    InvalidToolOutput,
    /// `ABORTED_BEFORE_DISPATCH`: cancelled before the tool body started.
    AbortedBeforeDispatch,
    /// `ABORTED`: cancelled after the tool body started; supersedes a success.
    Aborted,
    /// `TOOL_TIMEOUT`: a call's deadline (its tool's budget, or a timeout layer's) fired
    /// before it finished.
    ToolTimeout,
    /// `TIMER_UNAVAILABLE`: a call has a time budget but runs where no tokio timer can
    /// enforce it (outside a tokio runtime, or in one built without time enabled).
    TimerUnavailable,
    /// `TOOL_PANICKED`: the tool body panicked.
    ToolPanicked,
    /// `TOOL_ERROR`: the tool body (or an `execute` layer standing in for it) returned an
    /// error without a code of its own.
    ToolError,
    /// `DENIED`: a `pre-execute` listener, a guard or the approver denied the call.
    Denied,
    /// `APPROVAL_PENDING`: the approver handed the call's approval to someone who answers
    /// with a later attempt of the same call
    /// ([`ApprovalOutcome::Pending`](crate::hooks::ApprovalOutcome::Pending)): this attempt
    /// ended before dispatch, neither allowed nor denied.
    ApprovalPending,
    /// `BLOCKED`: a `post-execute` listener blocked the result.
    Blocked,
    /// `HOOK_FAILED`: a hook (listener, approver, guard or `execute` layer) panicked,
    /// returned an error without a code of its own, or misused a decision.
    HookFailed,
    /// `FINALIZER_FAILED`: the tool's content finalizer panicked or returned an error
    /// without a code of its own.
    FinalizerFailed,
    /// `MCP_TRANSPORT`: an imported MCP tool's server died, hung or broke the protocol.
    McpTransport,
    /// `UNSUPPORTED_SCHEMA`: a schema uses JSON Schema the engine cannot enforce (a
    /// registration-time error).
    UnsupportedSchema,
    /// `SCOPE_DISPOSED`: the call went through a scope that was disposed (or whose
    /// ancestor was).
    ScopeDisposed,
    /// `UNKNOWN_AGENT`: the call names an agent that has no live scope.
    UnknownAgent,
    /// `CODE_RUN_FAILED`: a `run_code` program failed: a syntax error, an uncaught
    /// exception, a limit reached.
    CodeRunFailed,
    /// `CODE_RUN_DIVERGED`: a `run_code` program re-run from the call journal asked another
    /// tool, or other arguments, at a position where an earlier attempt of the run recorded
    /// a call: it ended there and nothing more ran (features `durable` and `code-mode`).
    CodeRunDiverged,
    /// `CALL_IN_DOUBT`: a retry of a journaled call whose earlier attempt started and
    /// recorded no outcome, for a tool neither idempotent nor read-only: it was not run
    /// again (feature `durable`).
    CallInDoubt,
    /// `STORE_FAILED`: the call store failed when the call needed it (feature `durable`).
    StoreFailed,
}

impl ErrorCode {
    /// The text, exactly as it travels in an [`ErrorInfo`](super::ErrorInfo).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::UnknownTool => "UNKNOWN_TOOL",
            Self::InvalidArgs => "INVALID_ARGS",
            Self::InvalidToolOutput => "INVALID_TOOL_OUTPUT",
            Self::AbortedBeforeDispatch => "ABORTED_BEFORE_DISPATCH",
            Self::Aborted => "ABORTED",
            Self::ToolTimeout => "TOOL_TIMEOUT",
            Self::TimerUnavailable => "TIMER_UNAVAILABLE",
            Self::ToolPanicked => "TOOL_PANICKED",
            Self::ToolError => "TOOL_ERROR",
            Self::Denied => "DENIED",
            Self::ApprovalPending => "APPROVAL_PENDING",
            Self::Blocked => "BLOCKED",
            Self::HookFailed => "HOOK_FAILED",
            Self::FinalizerFailed => "FINALIZER_FAILED",
            Self::McpTransport => "MCP_TRANSPORT",
            Self::UnsupportedSchema => "UNSUPPORTED_SCHEMA",
            Self::ScopeDisposed => "SCOPE_DISPOSED",
            Self::UnknownAgent => "UNKNOWN_AGENT",
            Self::CodeRunFailed => "CODE_RUN_FAILED",
            Self::CodeRunDiverged => "CODE_RUN_DIVERGED",
            Self::CallInDoubt => "CALL_IN_DOUBT",
            Self::StoreFailed => "STORE_FAILED",
        }
    }

    /// The name of the error family this code belongs to, exactly as it travels in an
    /// [`ErrorInfo`](super::ErrorInfo) beside the code: `"ToolArgsError"` for `INVALID_ARGS`.
    ///
    /// A name is a string, not an enum of its own, because a tool's own errors carry any name;
    /// compare `info.name == ErrorCode::InvalidArgs.name()` (or `"ToolArgsError"`).
    pub const fn name(self) -> &'static str {
        match self {
            Self::UnknownTool => "ToolNotFoundError",
            Self::InvalidArgs => "ToolArgsError",
            Self::InvalidToolOutput => "ToolOutputError",
            Self::AbortedBeforeDispatch | Self::Aborted => "AbortError",
            Self::ToolTimeout | Self::TimerUnavailable => "ToolTimeoutError",
            Self::ToolPanicked => "ToolPanicError",
            Self::ToolError => "ToolError",
            Self::Denied => "ToolDeniedError",
            Self::ApprovalPending => "ToolApprovalPendingError",
            Self::Blocked => "ToolBlockedError",
            Self::HookFailed => "HookError",
            Self::FinalizerFailed => "ToolFinalizerError",
            Self::McpTransport => "McpTransportError",
            Self::UnsupportedSchema => "JsonSchemaError",
            Self::ScopeDisposed | Self::UnknownAgent => "ToolScopeError",
            Self::CodeRunFailed => "CodeRunError",
            Self::CodeRunDiverged => "CodeRunDivergedError",
            Self::CallInDoubt => "CallInDoubtError",
            Self::StoreFailed => "CallStoreError",
        }
    }
}

string_enum!(ErrorCode);
