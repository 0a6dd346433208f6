//! [`Tool`]: the typed face of a tool, which `#[tool]` implements, and the bridge that makes every
//! `Tool` a [`ToolDefinition`] the registry can run.
//!
//! The bridge owns the typed shim: validate the arguments against the cached schema (every
//! violation, `INVALID_ARGS`), convert them into `Tool::Args`, run the body, and serialize its value
//! losslessly (`INVALID_TOOL_OUTPUT` instead of a silent `null`). The registry checks the value
//! against the output schema afterwards, as it does for every definition.

use std::future::Future;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use crate::args::ToolArgs;
use crate::call::definition::{TaskSupport, ToolAnnotations, ToolDefinition, render_value_as_text};
use crate::call::execution::ToolExecution;
use crate::call::run::ToolRun;
use crate::callers::ToolCallers;
use crate::content::ContentBlock;
use crate::durable::policy::JournalPolicy;
use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::lossless::output_into_value;
use crate::present::{ResultSummary, ToolCallView, ToolIcon, ToolResultView};
use crate::progress::ToolProgress;
use crate::result::ToolExecutionResult;
use crate::state::StateType;
use dsh_tools_schema::{CompiledSchema, Schema, SchemaError};

/// A typed tool: arguments and output are Rust types with schemas.
///
/// `#[tool]` implements it on the unit struct it generates for an `async fn`; implementing it by
/// hand works the same way. Every `Tool` is a [`ToolDefinition`], so it registers directly. The
/// identity is associated constants and the methods have names of their own, so a type's `Tool`
/// and `ToolDefinition` methods never clash when both traits are in scope.
pub trait Tool: Send + Sync + 'static {
    /// The arguments the body takes.
    type Args: ToolArgs + Send + 'static;
    /// The canonical value the body returns; its schema is the output schema.
    type Output: ToolArgs + Serialize + Send + 'static;

    /// The name the model calls the tool by.
    const NAME: &'static str;
    /// What the tool does, for the model.
    const DESCRIPTION: &'static str;
    /// A time budget in milliseconds, enforced by the registry (see [`ToolDefinition::timeout_ms`]).
    const TIMEOUT_MS: Option<u64> = None;
    /// The grace after the deadline in milliseconds (see [`ToolDefinition::timeout_grace`]);
    /// `#[tool(timeout_grace_ms = ..)]` sets it.
    const TIMEOUT_GRACE_MS: Option<u64> = None;
    /// The result budget in characters (see [`ToolDefinition::max_result_chars`]).
    const MAX_RESULT_CHARS: Option<usize> = None;

    /// Whether the body, [`render_value`](Self::render_value) or [`finalize`](Self::finalize)
    /// read the call's arguments as the model sent them ([`ToolExecution::arguments`], through
    /// the [`ToolRun`], or the `arguments` `render_value` is given). When none of them does, a
    /// call that no hook, observer or recorded span watches hands its arguments to the
    /// conversion by value ([`ToolArgs::from_json_owned`]): nothing could read them afterwards,
    /// so strings and arrays are moved into `Args` rather than copied, and the execution holds
    /// `null` from then on. `true` by default; `#[tool]` sets `false` for a function without a
    /// `&ToolRun` parameter (its `render = fn` never sees the arguments, and it has no
    /// finalizer).
    const READS_CALL_ARGUMENTS: bool = true;

    /// Whether the tool is deferred (see [`ToolDefinition::defer_loading`]);
    /// `#[tool(defer_loading)]` sets it.
    const DEFER_LOADING: bool = false;

    /// Whether the tool may run as a task over MCP (see [`ToolDefinition::task_support`]).
    const TASK_SUPPORT: TaskSupport = TaskSupport::Forbidden;

    /// How a registry with a call store journals the tool's calls (see
    /// [`ToolDefinition::journal`]); `#[tool(journal = false)]` and `#[tool(journal_ttl_ms = ..)]`
    /// set it.
    const JOURNAL: JournalPolicy = JournalPolicy::JOURNALED;

    /// Worked examples of arguments, as JSON texts (see [`ToolDefinition::input_examples`]);
    /// `#[tool(example = r#"{…}"#)]` adds one per key, checked to be a JSON object at compile
    /// time and against the argument schema at registration.
    const INPUT_EXAMPLES: &'static [&'static str] = &[];

    /// Who may call the tool (see [`ToolDefinition::allowed_callers`]);
    /// `#[tool(callers = "model" | "program" | "both")]` sets it.
    const ALLOWED_CALLERS: ToolCallers = ToolCallers::Both;

    /// The schemas, built once per tool type: return a `static`
    /// `LazyLock<ToolContract>` initialised with [`ToolContract::of`].
    fn contract() -> &'static ToolContract;

    /// Behaviour hints, and the title (`#[tool(title = "…")]` sets it, see
    /// [`ToolDefinition::title`]).
    fn annotations() -> ToolAnnotations {
        ToolAnnotations::default()
    }

    /// Images a UI may show beside the tool (see [`ToolDefinition::icons`]);
    /// `#[tool(icon = "https://…")]` adds one per key.
    fn icons() -> Vec<ToolIcon> {
        Vec::new()
    }

    /// The types of shared state [`call`](Self::call) needs (see
    /// [`ToolDefinition::required_state`]); `#[tool]` lists its `#[state]` parameters' types.
    fn required_state() -> Vec<StateType> {
        Vec::new()
    }

    /// Runs the body with converted arguments.
    fn call<'a>(
        &'a self,
        args: Self::Args,
        run: &'a ToolRun,
    ) -> impl Future<Output = Result<Self::Output, ToolError>> + Send + 'a;

    /// Turns the (schema-valid) value into content; the default shows strings as text and other
    /// values as compact JSON.
    fn render_value(
        &self,
        arguments: &Value,
        value: &Value,
    ) -> Result<Vec<ContentBlock>, ToolError> {
        let _ = arguments;
        Ok(vec![render_value_as_text(value)])
    }

    /// How to show the pending call.
    fn call_view(&self, args: &Self::Args) -> Option<ToolCallView> {
        let _ = args;
        None
    }

    /// How to show the call while it runs, after a progress report.
    fn progress_view(&self, args: &Self::Args, progress: &ToolProgress) -> Option<ToolCallView> {
        let _ = (args, progress);
        None
    }

    /// How to show the completed call.
    fn result_view(&self, args: &Self::Args, result: &ResultSummary<'_>) -> Option<ToolResultView> {
        let _ = (args, result);
        None
    }

    /// Whether this call may run concurrently with other concurrency-safe calls.
    fn concurrency_safe(&self, args: &Self::Args) -> bool {
        let _ = args;
        false
    }

    /// Rewrites the content of every outcome (see [`ToolDefinition::finalize_content`]).
    fn finalize(
        &self,
        execution: &ToolExecution,
        result: &ToolExecutionResult,
    ) -> Result<Option<Vec<ContentBlock>>, ToolError> {
        let _ = (execution, result);
        Ok(None)
    }
}

/// The schemas of a typed tool, built once: the argument schema (validation), its rendering (what
/// the model sees) and the output schema, both schemas compiled since they check every call. A
/// schema that cannot be built (an unsupported `schemars` import) is kept as an error and
/// reported at registration and on every call.
#[derive(Debug)]
pub struct ToolContract {
    built: Result<BuiltContract, ToolError>,
}

#[derive(Debug)]
struct BuiltContract {
    arguments: CompiledSchema,
    /// Rendered once and shared by every `ToolSchema` the registry hands out for this tool.
    parameters: Arc<Value>,
    output: CompiledSchema,
}

/// What `parameters()` shows for a tool whose schema could not be built; such a tool cannot be
/// registered, so the model never sees it.
static EMPTY_OBJECT_SCHEMA: LazyLock<Arc<Value>> =
    LazyLock::new(|| Arc::new(serde_json::json!({"type": "object"})));

impl ToolContract {
    /// Builds the contract of a tool with arguments `A` and output `O`. Call it once, from a
    /// `static` `LazyLock`.
    pub fn of<A: ToolArgs, O: ToolArgs>() -> Self {
        Self::from_schemas(A::schema(), O::schema())
    }

    /// A contract from already-built schemas.
    pub fn from_schemas(
        arguments: Result<Schema, SchemaError>,
        output: Result<Schema, SchemaError>,
    ) -> Self {
        let built = arguments.and_then(|arguments| {
            let output = output?;
            let parameters = Arc::new(arguments.to_json_schema());
            Ok(BuiltContract {
                arguments: arguments.into(),
                parameters,
                output: output.into(),
            })
        });
        Self {
            built: built.map_err(|error| ToolError::unsupported_schema(&error)),
        }
    }

    /// The argument schema, compiled, or why it could not be built.
    pub fn arguments(&self) -> Result<&CompiledSchema, &ToolError> {
        self.built.as_ref().map(|built| &built.arguments)
    }

    /// The JSON Schema of the arguments (a bare object schema when it could not be built).
    pub fn parameters(&self) -> &Value {
        self.parameters_arc()
    }

    /// The same schema, shared (what [`ToolDefinition::shared_parameters`] hands out).
    pub fn shared_parameters(&self) -> Arc<Value> {
        Arc::clone(self.parameters_arc())
    }

    fn parameters_arc(&self) -> &Arc<Value> {
        match &self.built {
            Ok(built) => &built.parameters,
            Err(_) => &EMPTY_OBJECT_SCHEMA,
        }
    }

    /// The output schema, compiled, when it could be built.
    pub fn output(&self) -> Option<&CompiledSchema> {
        self.built.as_ref().ok().map(|built| &built.output)
    }

    /// Why the contract could not be built.
    pub fn error(&self) -> Option<&ToolError> {
        self.built.as_ref().err()
    }

    /// Validates `arguments` without converting them: every violation becomes one
    /// `INVALID_ARGS` error. Arguments it accepts convert into `A`.
    pub fn check<A: ToolArgs>(&self, arguments: &Value) -> Result<(), ToolError> {
        let schema = self.arguments().map_err(Clone::clone)?;
        if !quick_check::<A>(schema, arguments)
            && let Err(violations) = schema.validate(arguments)
        {
            return Err(ToolError::invalid_arguments(&violations));
        }
        Ok(())
    }

    /// Validates `arguments` and converts them: every violation becomes one `INVALID_ARGS` error.
    pub fn parse<A: ToolArgs>(&self, arguments: &Value) -> Result<A, ToolError> {
        self.check::<A>(arguments)?;
        A::from_json(arguments).map_err(ToolError::from)
    }

    /// [`parse`](Self::parse) of arguments the caller gives up: validated in place, then moved
    /// into `A` ([`ToolArgs::from_json_owned`]) instead of copied.
    pub fn parse_owned<A: ToolArgs>(&self, arguments: Value) -> Result<A, ToolError> {
        let schema = self.arguments().map_err(Clone::clone)?;
        if !quick_check::<A>(schema, &arguments)
            && let Err(violations) = schema.validate(&arguments)
        {
            return Err(ToolError::invalid_arguments(&violations));
        }
        A::from_json_owned(arguments).map_err(ToolError::from)
    }
}

/// The yes/no check before conversion. The specialized check answers for valid arguments; the
/// compiled schema then collects every violation of invalid ones (and has the last word should
/// the two ever disagree). A recursive schema is checked by the compiled schema alone: only it
/// caps how deep a value nests, which a value built in code rather than parsed can exceed.
fn quick_check<A: ToolArgs>(schema: &CompiledSchema, arguments: &Value) -> bool {
    if schema.is_recursive() {
        schema.is_valid(arguments)
    } else {
        A::is_valid_json(arguments)
    }
}

impl<T: Tool> ToolDefinition for T {
    fn name(&self) -> &str {
        T::NAME
    }

    fn description(&self) -> &str {
        T::DESCRIPTION
    }

    fn parameters(&self) -> &Value {
        T::contract().parameters()
    }

    fn shared_parameters(&self) -> Arc<Value> {
        T::contract().shared_parameters()
    }

    fn definition_error(&self) -> Option<ToolError> {
        T::contract().error().cloned()
    }

    fn required_state(&self) -> Vec<StateType> {
        T::required_state()
    }

    fn timeout_ms(&self) -> Option<u64> {
        T::TIMEOUT_MS
    }

    fn timeout_grace(&self) -> Option<Duration> {
        T::TIMEOUT_GRACE_MS.map(Duration::from_millis)
    }

    fn max_result_chars(&self) -> Option<usize> {
        T::MAX_RESULT_CHARS
    }

    fn output_schema(&self) -> Option<&CompiledSchema> {
        T::contract().output()
    }

    fn validate_arguments(&self, arguments: &Value) -> Result<(), ToolError> {
        T::contract().check::<T::Args>(arguments)
    }

    fn execute<'a>(
        &'a self,
        arguments: &'a Value,
        run: &'a ToolRun,
    ) -> BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async move {
            let args: T::Args = T::contract().parse(arguments)?;
            let output = self.call(args, run).await?;
            output_into_value(output).map_err(|error| ToolError::invalid_output(T::NAME, error))
        })
    }

    fn takes_arguments_by_value(&self) -> bool {
        !T::READS_CALL_ARGUMENTS
    }

    fn execute_owned<'a>(
        &'a self,
        arguments: Value,
        run: &'a ToolRun,
    ) -> BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async move {
            let args: T::Args = T::contract().parse_owned(arguments)?;
            let output = self.call(args, run).await?;
            output_into_value(output).map_err(|error| ToolError::invalid_output(T::NAME, error))
        })
    }

    fn render(&self, arguments: &Value, value: &Value) -> Result<Vec<ContentBlock>, ToolError> {
        self.render_value(arguments, value)
    }

    fn finalize_content(
        &self,
        execution: &ToolExecution,
        result: &ToolExecutionResult,
    ) -> Result<Option<Vec<ContentBlock>>, ToolError> {
        self.finalize(execution, result)
    }

    fn present_call(&self, arguments: &Value) -> Option<ToolCallView> {
        let args: T::Args = T::contract().parse(arguments).ok()?;
        self.call_view(&args)
    }

    fn present_partial_call(&self, arguments: &Value) -> Option<ToolCallView> {
        // Only once the arguments so far are a whole `Args`: the presenter is written for those.
        let args: T::Args = T::contract().parse(arguments).ok()?;
        self.call_view(&args)
    }

    fn present_progress(&self, arguments: &Value, progress: &ToolProgress) -> Option<ToolCallView> {
        let args: T::Args = T::contract().parse(arguments).ok()?;
        self.progress_view(&args, progress)
    }

    fn present_result(
        &self,
        arguments: &Value,
        result: &ResultSummary<'_>,
    ) -> Option<ToolResultView> {
        let args: T::Args = T::contract().parse(arguments).ok()?;
        self.result_view(&args, result)
    }

    fn is_concurrency_safe(&self, arguments: &Value) -> bool {
        T::contract()
            .parse::<T::Args>(arguments)
            .is_ok_and(|args| self.concurrency_safe(&args))
    }

    fn annotations(&self) -> ToolAnnotations {
        T::annotations()
    }

    fn icons(&self) -> Vec<ToolIcon> {
        T::icons()
    }

    fn allowed_callers(&self) -> ToolCallers {
        T::ALLOWED_CALLERS
    }

    fn defer_loading(&self) -> bool {
        T::DEFER_LOADING
    }

    fn task_support(&self) -> TaskSupport {
        T::TASK_SUPPORT
    }

    fn journal(&self) -> JournalPolicy {
        T::JOURNAL
    }

    fn input_examples(&self) -> Vec<Value> {
        // A text that is not JSON (only possible for a hand-written `Tool`) stays a string, which
        // the registration's check then refuses against the object schema, quoting it.
        T::INPUT_EXAMPLES
            .iter()
            .map(|text| {
                serde_json::from_str(text).unwrap_or_else(|_| Value::String((*text).to_owned()))
            })
            .collect()
    }
}
