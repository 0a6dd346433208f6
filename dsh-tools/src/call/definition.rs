//! [`ToolDefinition`]: the one object-safe shape every registered tool has, and [`ToolSchema`],
//! the only part of it a model ever sees.
//!
//! Macro-generated tools, hand-written tools and raw JSON-Schema tools (an MCP import) all
//! implement this trait. The registry never validates arguments itself: it asks the definition
//! (`validate_arguments`, before any policy), and a definition's `execute` checks them again
//! (typed tools through their generated validator), so raw tools keep their own rules.

use std::borrow::Cow;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::call::execution::ToolExecution;
use crate::call::run::ToolRun;
use crate::callers::ToolCallers;
pub(crate) use crate::content::render_value_as_text;
use crate::content::{ContentBlock, value_content};
use crate::durable::policy::JournalPolicy;
use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::present::{ResultSummary, ToolCallKind, ToolCallView, ToolIcon, ToolResultView};
use crate::progress::ToolProgress;
use crate::result::ToolExecutionResult;
use crate::state::StateType;
use dsh_tools_schema::CompiledSchema;

/// The model-facing description of a tool: exactly the fields a provider request carries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolSchema {
    /// The tool name.
    pub name: String,
    /// What the tool does, for the model.
    pub description: String,
    /// The JSON Schema of the arguments, shared with the definition it came from: cloning a
    /// schema (or a list of them) copies no JSON. Serialized as the plain JSON value.
    pub parameters: Arc<Value>,
    /// Worked examples of arguments, each valid against `parameters` (see
    /// [`ToolDefinition::input_examples`]); sent where a provider takes them (Anthropic's
    /// `input_examples`) and shown in the system-prompt catalog. Usually empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub input_examples: Vec<Value>,
    /// What the tool asks of the provider requests that list it (see
    /// [`ToolDefinition::request_settings`]); the providers' defaults unless the tool says
    /// otherwise.
    #[serde(default, skip_serializing_if = "RequestSettings::is_default")]
    pub settings: RequestSettings,
}

impl ToolSchema {
    /// A schema with no input examples and the default request settings.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        parameters: impl Into<Arc<Value>>,
    ) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            parameters: parameters.into(),
            input_examples: Vec::new(),
            settings: RequestSettings::default(),
        }
    }
}

/// What a tool asks of the provider requests that list it, beside its schema. The default is
/// each provider's documented default: strict as the view's dialect says, input streamed as the
/// provider streams it by default. A plain options value: set the fields that differ and take
/// the rest from [`RequestSettings::default`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RequestSettings {
    /// `Some(true)`: sent strict (the provider constrains the model's arguments to the schema)
    /// wherever the view can make the schema strict, whatever the dialect; `Some(false)`: never
    /// sent strict; `None`: as the dialect says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
    /// Anthropic's `eager_input_streaming`: the tool's input streams as Claude writes it,
    /// without the server buffering and validating it first — sooner for large inputs, though a
    /// streamed input may then not be valid JSON (the call ends `INVALID_ARGS`). Off by default,
    /// as Anthropic's; other providers have no such switch.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub eager_input_streaming: bool,
}

impl RequestSettings {
    /// The providers' defaults ([`Default`], in a `const`).
    pub(crate) const fn new() -> Self {
        Self {
            strict: None,
            eager_input_streaming: false,
        }
    }

    /// Whether these are the providers' defaults.
    pub(crate) fn is_default(&self) -> bool {
        *self == Self::new()
    }
}

/// Hints about a tool's behaviour, for protocol bridges (MCP tool annotations) and UIs.
/// All optional: `None` means "not declared", which is not the same as `false`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolAnnotations {
    /// A human-readable title (what [`ToolDefinition::title`] returns by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What kind of call this is, for icons.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<ToolCallKind>,
    /// The tool does not modify its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only: Option<bool>,
    /// The tool may perform destructive updates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive: Option<bool>,
    /// Calling the tool repeatedly with the same arguments has no additional effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent: Option<bool>,
    /// The tool interacts with an open world of external entities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world: Option<bool>,
}

/// Whether a tool may run as a task: a call that answers at once with a handle the caller polls
/// for the result (MCP's tasks extension, `io.modelcontextprotocol/tasks`). Only bridges read it;
/// a call through [`execute`](crate::ToolScope::execute) runs the same way whatever it says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TaskSupport {
    /// Calls are never tasks (the default).
    #[default]
    Forbidden,
    /// A client that speaks tasks gets a task; any other client an ordinary result.
    Optional,
    /// Calls must be tasks: a client that does not speak tasks is refused.
    Required,
}

impl TaskSupport {
    /// The name MCP uses for it: `forbidden`, `optional` or `required`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Forbidden => "forbidden",
            Self::Optional => "optional",
            Self::Required => "required",
        }
    }

    /// The support MCP names `name`; `None` for any other name.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "forbidden" => Some(Self::Forbidden),
            "optional" => Some(Self::Optional),
            "required" => Some(Self::Required),
            _ => None,
        }
    }
}

/// Where a tool runs: in this process, or on an imported MCP server. Telemetry names it
/// (`gen_ai.tool.type`: `function` or `extension`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolOrigin {
    /// A tool of this process (the default).
    #[default]
    Local,
    /// A tool imported from an MCP server.
    Mcp,
}

impl ToolOrigin {
    /// The OpenTelemetry GenAI conventions' `gen_ai.tool.type` of such a tool: `function` for a
    /// local tool, `extension` for one that runs on a server an agent reaches.
    #[cfg(feature = "otel")]
    pub(crate) fn gen_ai_tool_type(self) -> &'static str {
        match self {
            Self::Local => "function",
            Self::Mcp => "extension",
        }
    }
}

/// A registered tool.
///
/// Only [`name`](Self::name), [`description`](Self::description),
/// [`parameters`](Self::parameters) and [`execute`](Self::execute) are required; everything else
/// has a default that suits a raw tool.
///
/// # How the registry uses a definition
/// - `name`, `description` and [`shared_parameters`](Self::shared_parameters): read once at
///   registration (the name is the key; empty names are refused), so they must not change. They
///   are all [`schemas`](crate::ToolScope::schemas) ever shows the model.
/// - `required_state`: read once at registration; a type the registry's
///   [`SharedState`](crate::call::SharedState) lacks refuses the registration, naming it.
/// - `timeout_ms`: `Some(0)` is refused at registration. The registry enforces it on every call
///   of the definition it dispatches to (unless its [`CallLimits`](crate::policy::CallLimits) turn
///   timeouts off): at the deadline the body's token is cancelled, after the grace its future is
///   dropped and the call is `TOOL_TIMEOUT`.
/// - `max_result_chars`: read when the call finishes, from the definition visible when it
///   started; `None` uses the registry's budget.
/// - `validate_arguments`: called once per call on the definition visible when it started (not
///   for a call refused before, nor for an unknown tool), after the cancellation check and before
///   every hook: an `Err` (or malformed raw arguments) ends the call `INVALID_ARGS` at once,
///   without pre-execute listeners, guards, the approver or post-execute; a panic there is
///   `TOOL_PANICKED`.
/// - `execute`: called at dispatch (more than once if a retry layer asks), with the frozen
///   arguments and the [`ToolRun`] (a typed tool's arguments are handed over by value instead,
///   on a call nothing else watches). It validates its own arguments (violations as
///   [`ToolError::invalid_arguments`]); an `Err` reaches the model as `Error: <message>` with its
///   `{name, code}`; a panic, even before the future is returned, becomes `TOOL_PANICKED`. A
///   typed output should be converted with [`to_lossless_value`](crate::content::to_lossless_value), so a
///   NaN is reported instead of becoming `null`.
/// - `output_schema` and `render`: every success value (the body's, a layer's, a post-execute
///   replacement) is validated against the schema and then rendered; a violation, a render error
///   or a panic there is `INVALID_TOOL_OUTPUT`.
/// - `finalize_content`: called exactly once per call, on the definition visible when the call
///   started, whatever the outcome.
/// - `is_concurrency_safe`: read by [`execution_mode`](crate::ToolRegistry::execution_mode) and
///   the batch runner; a panic counts as `false`.
/// - `present_call`, `present_progress`, `present_result`, `annotations`, `title`, `icons`,
///   `task_support`: never called by the pipeline; they are for bridges and UIs, which reach them through
///   [`ToolCallView::present`] and its kin (fallbacks included: a panic there is contained).
pub trait ToolDefinition: Send + Sync + 'static {
    /// The name the model calls the tool by.
    fn name(&self) -> &str;

    /// What the tool does, for the model.
    fn description(&self) -> &str;

    /// The JSON Schema of the arguments, exactly as the model sees it.
    fn parameters(&self) -> &Value;

    /// The same schema as [`parameters`](Self::parameters), shared: the registry takes it once,
    /// at registration, for the [`ToolSchema`] it hands out. The default copies `parameters()`
    /// into a new `Arc`; a definition that keeps its schema in an `Arc` returns a clone of it
    /// (macro-generated tools do).
    fn shared_parameters(&self) -> Arc<Value> {
        Arc::new(self.parameters().clone())
    }

    /// Why this definition cannot be registered (a schema that could not be built); the registry
    /// refuses such a definition with this error.
    fn definition_error(&self) -> Option<ToolError> {
        None
    }

    /// The types of shared state the body reaches (a `#[tool]`'s `#[state]` parameters). The
    /// registry refuses to register the definition unless its
    /// [`SharedState`](crate::call::SharedState) holds a value of each, naming the missing
    /// types; the state is given once, when the registry is built
    /// ([`ToolRegistry::with_state`](crate::ToolRegistry::with_state)), so a tool that registers
    /// finds its state on every call. Empty by default: state a body only looks up optionally
    /// ([`ToolRun::state`](crate::ToolRun::state)) is not declared.
    fn required_state(&self) -> Vec<StateType> {
        Vec::new()
    }

    /// A time budget in milliseconds, enforced by the registry on every call (see
    /// [`CallLimits`](crate::policy::CallLimits)): at the deadline the body's
    /// [`ToolRun::signal`](crate::ToolRun::signal) is cancelled, and after a grace the body's
    /// future is dropped and the call fails with `TOOL_TIMEOUT`. Never sent to the model.
    fn timeout_ms(&self) -> Option<u64> {
        None
    }

    /// How long the body may still run after its deadline before its future is dropped: this
    /// tool's own grace, which replaces the registry's
    /// ([`CallLimits::timeout_grace`](crate::policy::CallLimits::timeout_grace)) for
    /// its calls. `None` (the default) uses the registry's.
    fn timeout_grace(&self) -> Option<std::time::Duration> {
        None
    }

    /// How many characters of text this tool's results show the model; longer content is cut
    /// with a marker saying how much was cut (the value stays whole). `None` uses the registry's
    /// budget ([`CallLimits::max_result_chars`](crate::policy::CallLimits::max_result_chars));
    /// `Some(usize::MAX)` shows results whole.
    fn max_result_chars(&self) -> Option<usize> {
        None
    }

    /// The schema the body's value must match; `None` accepts any JSON value. It checks every
    /// value, so it is kept compiled ([`Schema::compile`](dsh_tools_schema::Schema::compile)).
    fn output_schema(&self) -> Option<&CompiledSchema> {
        None
    }

    /// Checks `arguments` against the tool's argument schema without running anything: every
    /// violation as one [`ToolError::invalid_arguments`]. The registry calls it before any policy
    /// (pre-execute listeners, guards, the approver), so an invalid call ends `INVALID_ARGS`
    /// without asking anyone, and every hook sees arguments the body will accept. `Ok` by default:
    /// a raw tool whose schema is enforced elsewhere (an MCP import) accepts any arguments here.
    fn validate_arguments(&self, arguments: &Value) -> Result<(), ToolError> {
        let _ = arguments;
        Ok(())
    }

    /// Runs the body: validates `arguments` (raw tools may skip that), does the work and returns
    /// the canonical JSON value.
    fn execute<'a>(
        &'a self,
        arguments: &'a Value,
        run: &'a ToolRun,
    ) -> BoxFuture<'a, Result<Value, ToolError>>;

    /// Whether a call may hand this definition its arguments by value, through
    /// [`execute_owned`](Self::execute_owned), once nothing else can see them: no hook, observer
    /// or recorded span watches the call, and neither the body, [`render`](Self::render) nor
    /// [`finalize_content`](Self::finalize_content) reads [`ToolExecution::arguments`] (which
    /// is `null` from then on). `false` by default; typed tools answer
    /// `!`[`ToolInfo::reads_call_arguments`](crate::call::ToolInfo::reads_call_arguments). Not an
    /// API: the typed tools' bridge answers it.
    #[doc(hidden)]
    fn takes_arguments_by_value(&self) -> bool {
        false
    }

    /// [`execute`](Self::execute) with arguments the call gives up, so that they can be moved
    /// into the body's own types rather than copied. Called instead of `execute` only when
    /// [`takes_arguments_by_value`](Self::takes_arguments_by_value) says so and nothing else can
    /// see the call; the default runs `execute` on them. Not an API, as
    /// [`takes_arguments_by_value`](Self::takes_arguments_by_value).
    #[doc(hidden)]
    fn execute_owned<'a>(
        &'a self,
        arguments: Value,
        run: &'a ToolRun,
    ) -> BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async move { self.execute(&arguments, run).await })
    }

    /// Turns a schema-valid value into model-facing content. The default shows strings as text
    /// and any other value as compact JSON text (`null`, `true` and `false` as blocks made once
    /// and shared, so a call returning nothing allocates no content).
    ///
    /// Content of the tool's own is `Cow::Owned` (`Ok(blocks.into())`); `Cow::Borrowed` shares
    /// blocks that live as long as the program, which the result then never copies unless they
    /// are cut to a result budget.
    fn render(
        &self,
        arguments: &Value,
        value: &Value,
    ) -> Result<Cow<'static, [ContentBlock]>, ToolError> {
        let _ = arguments;
        Ok(value_content(value))
    }

    /// Rewrites the content of every outcome (success, failure, denial) just before observers see
    /// it; `Ok(None)` keeps the content. Captured when the call starts, so it runs exactly once
    /// even if the tool is disposed meanwhile.
    fn finalize_content(
        &self,
        execution: &ToolExecution,
        result: &ToolExecutionResult,
    ) -> Result<Option<Vec<ContentBlock>>, ToolError> {
        let _ = (execution, result);
        Ok(None)
    }

    /// How to show the pending call; `None` falls back to a generic card.
    fn present_call(&self, arguments: &Value) -> Option<ToolCallView> {
        let _ = arguments;
        None
    }

    /// How to show a call the model is still writing, from its `arguments` so far, in the
    /// tool's own form (a streamed response:
    /// [`ToolCallStream::arguments_so_far`](crate::providers::stream::ToolCallStream::arguments_so_far));
    /// `None` (the default) shows the generic card with the raw input so far. It may run after
    /// every fragment, on arguments that are still growing (a string cut short, properties
    /// still missing): show only what is sound on a prefix. Typed tools run their call
    /// presenter here as soon as the arguments so far make a whole `Args` value.
    fn present_partial_call(&self, arguments: &Value) -> Option<ToolCallView> {
        let _ = arguments;
        None
    }

    /// How to show the call while it runs, after the body reported `progress`; `None` keeps the
    /// pending card (the progress is shown beside it).
    fn present_progress(&self, arguments: &Value, progress: &ToolProgress) -> Option<ToolCallView> {
        let _ = (arguments, progress);
        None
    }

    /// How to show the completed call; `None` keeps the pending title and shows raw content.
    fn present_result(
        &self,
        arguments: &Value,
        result: &ResultSummary<'_>,
    ) -> Option<ToolResultView> {
        let _ = (arguments, result);
        None
    }

    /// Whether this call may run concurrently with other concurrency-safe calls of a batch.
    fn is_concurrency_safe(&self, arguments: &Value) -> bool {
        let _ = arguments;
        false
    }

    /// Behaviour hints for bridges and UIs.
    fn annotations(&self) -> ToolAnnotations {
        ToolAnnotations::default()
    }

    /// A human-readable title of the tool (`Read file`), for people rather than the model:
    /// published as the MCP tool's `title`, and the title of a call's card when no presenter
    /// gives one. The providers' tool lists have no field for it, so the model never sees it.
    /// The default is the [annotations'](Self::annotations) title.
    fn title(&self) -> Option<String> {
        self.annotations().title
    }

    /// Images a UI may show beside the tool, published as the MCP tool's `icons`. Empty by
    /// default; no provider's tool list carries them.
    fn icons(&self) -> Vec<ToolIcon> {
        Vec::new()
    }

    /// Whether the tool is deferred: callable, but left out of
    /// [`schemas`](crate::ToolScope::schemas) until a search (the built-in `tool_search`, or
    /// a provider's native search) or [`load_tools`](crate::ToolScope::load_tools) loads it
    /// for a scope. Read once, at registration. `false` by default.
    fn defer_loading(&self) -> bool {
        false
    }

    /// Whether the tool may run as a task over MCP (see [`TaskSupport`]); never called by the
    /// pipeline. [`TaskSupport::Forbidden`] by default.
    fn task_support(&self) -> TaskSupport {
        TaskSupport::Forbidden
    }

    /// Where the tool runs ([`ToolOrigin::Local`] by default; imported MCP tools say
    /// [`ToolOrigin::Mcp`]); read by telemetry only.
    fn origin(&self) -> ToolOrigin {
        ToolOrigin::Local
    }

    /// How a registry with a call store journals this tool's calls (see
    /// [`durable`](crate::durable)): journaled by default; [`JournalPolicy::OFF`] runs every
    /// attempt as without a store (`#[tool(journal = false)]`), and a read-only tool may have
    /// its calls answered from the journal within a time to live (`#[tool(journal_ttl_ms = ..)]`).
    /// Without a store it is never read.
    fn journal(&self) -> JournalPolicy {
        JournalPolicy::JOURNALED
    }

    /// Worked examples of arguments, for the model: read once, at registration, where each is
    /// validated against [`parameters`](Self::parameters) (an invalid one refuses the
    /// registration, naming its violations). Empty by default.
    fn input_examples(&self) -> Vec<Value> {
        Vec::new()
    }

    /// Who may call the tool: the model directly, programs (`run_code`, and nested calls of
    /// other tools), or both (the default). Read once, at registration; enforced by Code Mode
    /// (feature `code-mode`), without which no program runs.
    fn allowed_callers(&self) -> ToolCallers {
        ToolCallers::Both
    }

    /// What the tool asks of the provider requests that list it: sent strict or not whatever
    /// the dialect, Anthropic's `eager_input_streaming` (see [`RequestSettings`]). Read once, at
    /// registration. The providers' defaults by default.
    fn request_settings(&self) -> RequestSettings {
        RequestSettings::new()
    }

    /// How [`register`](crate::ToolScope::register) shares a definition given by value:
    /// `Arc::new(self)`. A [`Tool`](crate::Tool) shares a compact form instead, compiled once in
    /// this crate rather than once per tool type. Not an API.
    #[doc(hidden)]
    fn into_shared_definition(self) -> Arc<dyn ToolDefinition>
    where
        Self: Sized,
    {
        Arc::new(self)
    }

    /// The model-facing projection of this definition.
    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.name().to_owned(),
            description: self.description().to_owned(),
            parameters: self.shared_parameters(),
            input_examples: self.input_examples(),
            settings: self.request_settings(),
        }
    }
}
