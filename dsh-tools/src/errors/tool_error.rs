//! The error every failure funnels into: [`ToolError`] and its machine-routable [`ErrorInfo`]
//! (the registry's own codes are [`ErrorCode`], each naming its family with [`ErrorCode::name`]).
//!
//! Everything that can go wrong in a call (a tool's own error, bad arguments, a panic, a timeout,
//! a failing hook) ends as a `ToolError`; the model sees `Error: <message>`, code sees
//! [`ToolError::info`], which every error result has. Constructors for the registry's own
//! failures live here so that their wording exists in exactly one place (the pipeline's own,
//! with their codes, in `pipeline/failure.rs`).

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use crate::errors::code::ErrorCode;
use crate::text_bounds::bound_error_message;
use dsh_tools_schema::text_bounds::quoted;
use dsh_tools_schema::{SchemaError, Violation, Violations};

/// Machine-routable identity of an error: which family (`name`) and which case (`code`).
///
/// Retry, sandbox and replay code branches on these; the model reads the message instead.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ErrorInfo {
    /// The error family, e.g. `ToolNotFoundError`.
    pub name: Cow<'static, str>,
    /// The case, e.g. `UNKNOWN_TOOL`.
    pub code: Cow<'static, str>,
}

impl ErrorInfo {
    /// The pair the registry attaches; users write the struct (or call [`ToolError::coded`]).
    pub(crate) fn new(
        name: impl Into<Cow<'static, str>>,
        code: impl Into<Cow<'static, str>>,
    ) -> Self {
        Self {
            name: name.into(),
            code: code.into(),
        }
    }
}

/// A failed tool call, hook or policy: a message for the model and optional structure for code.
///
/// Any `std::error::Error` converts into it with `?` (its `Display` becomes the message), which is
/// why `ToolError` itself does not implement `std::error::Error` (the same trade `anyhow` makes).
///
/// An error without `{name, code}` gets the code of what failed when it becomes a result
/// (`TOOL_ERROR` from a tool body, `HOOK_FAILED` from a hook, …; see [`ErrorCode`]). The messages
/// the registry builds from the model's input (invalid arguments, unparsable JSON, unknown tool
/// names, panic messages) are cut to 8 KiB; a
/// message a tool or hook writes itself is kept whole here, and what the model sees of it is
/// bounded by the result budget ([`CallLimits`](crate::policy::CallLimits)).
#[derive(Clone, PartialEq)]
pub struct ToolError {
    message: String,
    /// Boxed so that a `ToolError` (and every result that may hold one) stays small on the
    /// success path; only errors that carry a code or violations pay for the allocation.
    detail: Option<Box<ErrorDetail>>,
}

/// The optional structure of an error.
#[derive(Clone, Default, PartialEq)]
struct ErrorDetail {
    info: Option<ErrorInfo>,
    violations: Option<Arc<[Violation]>>,
}

impl ToolError {
    /// An error with a message and no code.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            detail: None,
        }
    }

    /// An error carrying `{name, code}`, e.g. `ToolError::coded("IoError", "ENOSPC", "disk full")`.
    pub fn coded(
        name: impl Into<Cow<'static, str>>,
        code: impl Into<Cow<'static, str>>,
        message: impl Into<String>,
    ) -> Self {
        Self::new(message).with_info(ErrorInfo::new(name, code))
    }

    /// An error with one of the registry's own codes, named by the code's family
    /// ([`ErrorCode::name`]), so that a code and its name cannot disagree.
    pub(crate) fn of_code(code: ErrorCode, message: impl Into<String>) -> Self {
        Self::coded(code.name(), code, message)
    }

    /// Attaches `{name, code}`.
    #[must_use]
    pub(crate) fn with_info(mut self, info: ErrorInfo) -> Self {
        self.detail.get_or_insert_default().info = Some(info);
        self
    }

    /// Attaches the registry's `code` and its name unless the error already has a pair of its own.
    #[must_use]
    pub(crate) fn or_info(self, code: ErrorCode) -> Self {
        if self.info().is_some() {
            return self;
        }
        self.with_info(ErrorInfo::new(code.name(), code))
    }

    /// An error the registry builds, whose message may quote untrusted input: cut to fit
    /// 8 KiB with a marker.
    fn bounded(code: ErrorCode, message: String) -> Self {
        Self::of_code(code, bound_error_message(message))
    }

    fn with_violations(mut self, violations: &Violations) -> Self {
        self.detail.get_or_insert_default().violations =
            Some(violations.reported.as_slice().into());
        self
    }

    /// The message (without the `Error: ` envelope the model sees).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The `{name, code}` pair, when the error has one.
    pub fn info(&self) -> Option<&ErrorInfo> {
        self.detail.as_ref().and_then(|detail| detail.info.as_ref())
    }

    /// The code, when the error has one (users read [`info`](Self::info), or a result's
    /// [`error_code`](crate::ToolExecutionResult::error_code)).
    pub(crate) fn code(&self) -> Option<&str> {
        self.info().map(|info| info.code.as_ref())
    }

    /// The structured violations behind an `INVALID_ARGS` / `INVALID_TOOL_OUTPUT` error (empty otherwise).
    pub fn violations(&self) -> &[Violation] {
        self.detail
            .as_ref()
            .and_then(|detail| detail.violations.as_deref())
            .unwrap_or(&[])
    }

    /// The model-facing text: `Error: <message>` (a failure's content).
    pub(crate) fn model_text(&self) -> String {
        format!("Error: {}", self.message)
    }

    /// `agent scope "<agent>" was disposed` (`SCOPE_DISPOSED`): the call went through a scope
    /// that no longer exists.
    pub(crate) fn scope_disposed(agent: &str) -> Self {
        Self::of_code(
            ErrorCode::ScopeDisposed,
            format!("agent scope \"{}\" was disposed", quoted(agent)),
        )
    }

    /// `unknown agent "<agent>"` (`UNKNOWN_AGENT`): the call names an agent with no live scope.
    pub(crate) fn unknown_agent(agent: &str) -> Self {
        Self::of_code(
            ErrorCode::UnknownAgent,
            format!("unknown agent \"{}\"", quoted(agent)),
        )
    }

    /// `unknown tool "<name>"` (`UNKNOWN_TOOL`); a name longer than
    /// [`MAX_QUOTED_CHARS`](crate::errors::MAX_QUOTED_CHARS) is quoted as a prefix with a marker.
    pub(crate) fn unknown_tool(name: &str) -> Self {
        Self::of_code(
            ErrorCode::UnknownTool,
            format!("unknown tool \"{}\"", quoted(name)),
        )
    }

    /// ``unknown tool "<name>": only `run_code` is callable directly — call `<name>` from inside
    /// a `run_code` program instead`` (`UNKNOWN_TOOL`): a direct call, in Code Mode, of a tool
    /// that only programs call.
    #[cfg(feature = "code-mode")]
    pub(crate) fn only_from_programs(name: &str) -> Self {
        let name = quoted(name);
        Self::of_code(
            ErrorCode::UnknownTool,
            format!(
                "unknown tool \"{name}\": only `run_code` is callable directly — call `{name}` \
                 from inside a `run_code` program instead"
            ),
        )
    }

    /// `<reason> at <line>:<col>` and the output so far (`CODE_RUN_FAILED`): a `run_code`
    /// program failed. The text is cut to fit
    /// 8 KiB.
    #[cfg(feature = "code-mode")]
    pub(crate) fn code_run_failed(message: impl Into<String>) -> Self {
        Self::of_code(ErrorCode::CodeRunFailed, message.into())
    }

    /// `the program took another path on resume at call <n>: an earlier attempt recorded
    /// tools.<tool> there (with other arguments), and now it calls tools.<name>(<arguments>);
    /// nothing more ran …` (`CODE_RUN_DIVERGED`): a `run_code` program re-run from the call
    /// journal asked position `n` for another call than the one an earlier attempt of the run
    /// recorded there (`same_tool`: the same tool, with other arguments). The names and the
    /// arguments are quoted as bounded prefixes.
    #[cfg(feature = "durable")]
    pub(crate) fn code_run_diverged(
        n: u64,
        recorded_tool: &str,
        same_tool: bool,
        tool: &str,
        arguments: &serde_json::Value,
    ) -> Self {
        let recorded = if same_tool {
            format!("tools.{} with other arguments", quoted(recorded_tool))
        } else {
            format!("tools.{}", quoted(recorded_tool))
        };
        Self::bounded(
            ErrorCode::CodeRunDiverged,
            format!(
                "the program took another path on resume at call {n}: an earlier attempt \
                 recorded {recorded} there, and now it calls tools.{}({}); nothing more ran. \
                 A program resumed under the same call id must make the same calls in the same \
                 order; to run it afresh, call run_code with a new call id",
                quoted(tool),
                quoted(&arguments.to_string())
            ),
        )
    }

    /// `<the nested call's waiting text>; the program run <key> paused at call <n>: …`
    /// (`APPROVAL_PENDING`): a `run_code` program with a call store stopped at a nested call
    /// whose approval waits; the retry of the run (same call id and program) resumes it.
    #[cfg(all(feature = "durable", feature = "code-mode"))]
    pub(crate) fn code_run_paused(waiting: &str, run_key: &str, n: u64) -> Self {
        Self::bounded(
            ErrorCode::ApprovalPending,
            format!(
                "{waiting}; the program run {run_key} paused at call {n}: once the approval is \
                 decided, retry this run_code call (the same call id and program) and it \
                 resumes, its earlier calls answered from the journal"
            ),
        )
    }

    /// `an earlier attempt of this call started at <time> on <place> and its outcome is unknown;
    /// it was not run again` (`CALL_IN_DOUBT`): DESIGN's text, the time saying where too. An
    /// unknown outcome is what the journal knows: nothing was recorded after the intent.
    #[cfg(feature = "durable")]
    pub(crate) fn call_in_doubt(started_at: &str, place: &str) -> Self {
        Self::bounded(
            ErrorCode::CallInDoubt,
            format!(
                "an earlier attempt of this call started at {started_at} on {place} and its \
                 outcome is unknown; it was not run again"
            ),
        )
    }

    /// `an earlier attempt of this call started at <time> on <place> and its outcome is unknown;
    /// it was given up: <reason>` (`CALL_IN_DOUBT`): the decision taken about such a call.
    #[cfg(feature = "durable")]
    pub(crate) fn call_given_up(started_at: &str, place: &str, reason: &str) -> Self {
        Self::bounded(
            ErrorCode::CallInDoubt,
            format!(
                "an earlier attempt of this call started at {started_at} on {place} and its \
                 outcome is unknown; it was given up: {reason}"
            ),
        )
    }

    /// `the call store failed: <message>` (`STORE_FAILED`).
    #[cfg(feature = "durable")]
    pub(crate) fn store_failed(message: &str) -> Self {
        Self::bounded(
            ErrorCode::StoreFailed,
            format!("the call store failed: {message}"),
        )
    }

    /// `invalid arguments: <v1>; <v2>…` (`INVALID_ARGS`), keeping the structured list. The text
    /// is cut to fit 8 KiB.
    pub fn invalid_arguments(violations: &Violations) -> Self {
        Self::bounded(
            ErrorCode::InvalidArgs,
            format!("invalid arguments: {violations}"),
        )
        .with_violations(violations)
    }

    /// `invalid arguments: <detail>` (`INVALID_ARGS`) for failures that are not schema
    /// violations, such as unparsable JSON. The text is cut to fit
    /// 8 KiB.
    pub(crate) fn invalid_arguments_text(detail: impl fmt::Display) -> Self {
        Self::bounded(
            ErrorCode::InvalidArgs,
            format!("invalid arguments: {detail}"),
        )
    }

    /// `tool "<name>" returned invalid output: <detail>` (`INVALID_TOOL_OUTPUT`). The text is
    /// cut to fit 8 KiB.
    pub(crate) fn invalid_output(tool: &str, detail: impl fmt::Display) -> Self {
        Self::bounded(
            ErrorCode::InvalidToolOutput,
            format!("tool \"{tool}\" returned invalid output: {detail}"),
        )
    }

    /// `tool "<name>" returned invalid output: <v1>; <v2>…` (`INVALID_TOOL_OUTPUT`), keeping the list.
    pub(crate) fn invalid_output_violations(tool: &str, violations: &Violations) -> Self {
        Self::invalid_output(tool, violations).with_violations(violations)
    }

    /// A schema the engine cannot build or enforce, with its message
    /// (`unsupported JSON schema: <v1>; <v2>…`) and `{name: "JsonSchemaError", code:
    /// "UNSUPPORTED_SCHEMA"}`: a typed tool's contract that could not be built. (`?` on a
    /// [`SchemaError`] goes through the blanket conversion and keeps only the message.)
    pub(crate) fn unsupported_schema(error: &SchemaError) -> Self {
        Self::of_code(ErrorCode::UnsupportedSchema, error.to_string())
    }

    /// `tool call aborted before dispatch` (`ABORTED_BEFORE_DISPATCH`).
    pub(crate) fn aborted_before_dispatch() -> Self {
        Self::of_code(
            ErrorCode::AbortedBeforeDispatch,
            "tool call aborted before dispatch",
        )
    }

    /// `tool call aborted` (`ABORTED`).
    pub fn aborted() -> Self {
        Self::of_code(ErrorCode::Aborted, "tool call aborted")
    }

    /// `tool call timed out after <ms>ms` (`TOOL_TIMEOUT`).
    pub(crate) fn timed_out(budget_ms: u64) -> Self {
        Self::of_code(
            ErrorCode::ToolTimeout,
            format!("tool call timed out after {budget_ms}ms"),
        )
    }

    /// `tool call has a <ms>ms budget, but no tokio timer is available to enforce it: …`
    /// (`TIMER_UNAVAILABLE`).
    pub(crate) fn timer_unavailable(budget_ms: u64) -> Self {
        Self::of_code(
            ErrorCode::TimerUnavailable,
            format!(
                "tool call has a {budget_ms}ms budget, but no tokio timer is available to enforce it: run calls on a tokio runtime with time enabled, or turn timeouts off with CallLimits::enforce_timeouts"
            ),
        )
    }

    /// `<what happened>` (`MCP_TRANSPORT`): an imported MCP tool's server died, hung or broke
    /// the protocol. The text is cut to fit 8 KiB.
    #[cfg(feature = "mcp")]
    pub(crate) fn mcp_transport(message: impl Into<String>) -> Self {
        Self::bounded(ErrorCode::McpTransport, message.into())
    }

    /// `tool "<name>" panicked: <message>` (`TOOL_PANICKED`). The text is cut to fit
    /// 8 KiB.
    pub(crate) fn panicked(tool: &str, message: &str) -> Self {
        Self::bounded(
            ErrorCode::ToolPanicked,
            format!("tool \"{tool}\" panicked: {message}"),
        )
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Debug for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut debug = f.debug_struct("ToolError");
        debug.field("message", &self.message);
        if let Some(info) = self.info() {
            debug.field("name", &info.name).field("code", &info.code);
        }
        if !self.violations().is_empty() {
            debug.field("violations", &self.violations().len());
        }
        debug.finish()
    }
}

impl<E> From<E> for ToolError
where
    E: std::error::Error + Send + Sync + 'static,
{
    fn from(error: E) -> Self {
        Self::new(error.to_string())
    }
}

impl serde::Serialize for ToolError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut state = serializer.serialize_struct("ToolError", 2)?;
        state.serialize_field("message", &self.message)?;
        if let Some(info) = self.info() {
            state.serialize_field("info", info)?;
        } else {
            state.skip_field("info")?;
        }
        state.end()
    }
}
