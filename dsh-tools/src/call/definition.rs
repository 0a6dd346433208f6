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
use crate::call::options::{DEFAULT_OPTIONS, RequestSettings, ToolOptions};
use crate::call::run::ToolRun;
pub(crate) use crate::content::render_value_as_text;
use crate::content::{ContentBlock, value_content};
use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::present::{ResultSummary, ToolCallView, ToolResultView};
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
    /// [`ToolOptions::input_examples`]); sent where a provider takes them (Anthropic's
    /// `input_examples`) and shown in the system-prompt catalog. Usually empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub input_examples: Vec<Value>,
    /// What the tool asks of the provider requests that list it (see
    /// [`ToolOptions::request_settings`]); the providers' defaults unless the tool says
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
/// - [`options`](Self::options): read once at registration for what the table keeps (the input
///   examples, validated against the schema; the request settings; whether the tool is deferred;
///   who may call it; a `timeout_ms` or `max_result_chars` of `Some(0)` is refused). The
///   registry enforces `timeout_ms` on every call of the definition it dispatches to (unless its
///   [`CallLimits`](crate::policy::CallLimits) turn timeouts off): at the deadline the body's
///   token is cancelled, after the grace its future is dropped and the call is `TOOL_TIMEOUT`.
///   `max_result_chars` is read when the call finishes, from the definition visible when it
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
/// - `is_concurrency_safe`: read by the batch runner
///   ([`execute_batch`](crate::ToolRegistry::execute_batch)); a panic counts as `false`.
/// - `present_call`, `present_progress`, `present_result`, and the options' `annotations`,
///   `icons` and `task_support`: never read by the pipeline; they are for bridges and UIs, which reach them through
///   [`ToolScope::present_call`](crate::ToolScope::present_call) and its kin, or an observer's
///   [`ObservedCall`](crate::hooks::ObservedCall) (fallbacks included: a panic there is contained).
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
    /// (macro-generated tools and MCP imports do). Not an API, as
    /// [`takes_arguments_by_value`](Self::takes_arguments_by_value): it saves one copy per
    /// registration and changes nothing a caller sees.
    #[doc(hidden)]
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
    /// (`run.state::<T>().ok()`, [`ToolRun::state`](crate::ToolRun::state)) is not declared.
    fn required_state(&self) -> Vec<StateType> {
        Vec::new()
    }

    /// The tool's options: its budgets, its hints for people and bridges, where and how it may
    /// be called (see [`ToolOptions`], whose fields say when the registry reads each). The
    /// defaults by default; a definition that declares any keeps one value and returns it (an
    /// [`FnTool`](crate::FnTool) the one it was built with, a [`Tool`](crate::Tool) one made
    /// from its [`ToolInfo`](crate::call::ToolInfo)). The pipeline reads the budgets and the
    /// journal policy on every call, so this should return a stored value, not build one.
    fn options(&self) -> &ToolOptions {
        &DEFAULT_OPTIONS
    }

    /// The schema the body's value must match; `None` accepts any JSON value. It checks every
    /// value, so it is kept compiled (`CompiledSchema::from(schema)`).
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
            input_examples: self.options().input_examples.clone(),
            settings: self.options().request_settings,
        }
    }
}
