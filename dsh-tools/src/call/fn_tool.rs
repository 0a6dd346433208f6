//! [`FnTool`]: a tool written by hand, without macros — a name, a description, the schema of its
//! arguments and an async closure (or a synchronous one, run on tokio's blocking pool), plus
//! whichever optional parts of [`ToolDefinition`] the tool needs.
//!
//! The registry never validates arguments; a hand-written tool does it here. Its arguments'
//! [`Schema`] is given once ([`FnToolBuilder::arguments`]) and both rendered into the
//! `parameters` the model sees and compiled into the check every call passes before the closure
//! runs (violations become `INVALID_ARGS`), so what the model is shown and what is enforced
//! cannot disagree. Raw tools whose schema is enforced elsewhere, such as an MCP import, show a
//! raw JSON Schema instead ([`FnToolBuilder::raw_parameters`]) and validate nothing. Schemas are
//! compiled once, when they are given, since they check every call.

use std::borrow::Cow;
use std::fmt;
use std::future::Future;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::call::blocking::run_blocking;
use crate::call::definition::ToolDefinition;
use crate::call::execution::ToolExecution;
use crate::call::options::ToolOptions;
use crate::call::run::ToolRun;
use crate::content::{ContentBlock, value_content};
use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::lossless::output_into_value;
use crate::present::{ResultSummary, ToolCallView, ToolResultView};
use crate::progress::ToolProgress;
use crate::result::ToolExecutionResult;
use crate::state::StateType;
use dsh_tools_schema::{CompiledSchema, Schema};

type Handler = dyn Fn(Value, ToolRun) -> BoxFuture<'static, Result<Value, ToolError>> + Send + Sync;
type Render = dyn Fn(&Value, &Value) -> Result<Vec<ContentBlock>, ToolError> + Send + Sync;
type Finalize = dyn Fn(&ToolExecution, &ToolExecutionResult) -> Result<Option<Vec<ContentBlock>>, ToolError>
    + Send
    + Sync;
type Classifier = dyn Fn(&Value) -> bool + Send + Sync;
type PresentCall = dyn Fn(&Value) -> Option<ToolCallView> + Send + Sync;
type PresentProgress = dyn Fn(&Value, &ToolProgress) -> Option<ToolCallView> + Send + Sync;
type PresentResult = dyn Fn(&Value, &ResultSummary<'_>) -> Option<ToolResultView> + Send + Sync;

/// The parts of an [`FnTool`] other than its handler.
#[derive(Clone)]
struct Parts {
    name: String,
    description: String,
    /// What the model is shown: the arguments' schema rendered, or a raw schema; kept in an
    /// `Arc` so that registering the tool (and cloning it) shares it rather than copying it.
    parameters: Arc<Value>,
    /// What every call is checked against: the same schema compiled (`None` for a raw schema).
    arguments: Option<CompiledSchema>,
    output: Option<CompiledSchema>,
    required_state: Vec<StateType>,
    options: ToolOptions,
    concurrency_safe: Option<Arc<Classifier>>,
    render: Option<Arc<Render>>,
    finalize: Option<Arc<Finalize>>,
    present_call: Option<Arc<PresentCall>>,
    present_partial_call: Option<Arc<PresentCall>>,
    present_progress: Option<Arc<PresentProgress>>,
    present_result: Option<Arc<PresentResult>>,
}

/// A hand-written tool. Build one with [`FnTool::builder`]:
///
/// ```
/// use dsh_tools::{FnTool, ToolDefinition, ToolRegistry, json, schema::Schema};
///
/// let echo = FnTool::builder("echo", "Echo the text back.")
///     .arguments(Schema::object().required("text", Schema::string()))
///     .handler(|arguments, _run| async move { Ok(arguments["text"].clone()) });
/// // The model is shown exactly the schema every call is checked against.
/// assert_eq!(
///     echo.parameters(),
///     &json!({
///         "type": "object",
///         "properties": {"text": {"type": "string"}},
///         "required": ["text"],
///         "additionalProperties": false
///     })
/// );
/// let registry = ToolRegistry::new();
/// registry.register(echo).unwrap();
/// ```
#[derive(Clone)]
pub struct FnTool {
    parts: Parts,
    handler: Arc<Handler>,
}

/// Builds an [`FnTool`]; [`handler`](Self::handler) finishes it.
#[derive(Clone)]
pub struct FnToolBuilder {
    parts: Parts,
}

impl FnTool {
    /// Starts a tool. Until [`arguments`](FnToolBuilder::arguments) or
    /// [`raw_parameters`](FnToolBuilder::raw_parameters) is given, the tool takes no arguments:
    /// it shows `{"type":"object","properties":{},"additionalProperties":false}` and refuses any
    /// key as `INVALID_ARGS`.
    pub fn builder(name: impl Into<String>, description: impl Into<String>) -> FnToolBuilder {
        let none = CompiledSchema::from(Schema::object().build());
        FnToolBuilder {
            parts: Parts {
                name: name.into(),
                description: description.into(),
                parameters: Arc::new(none.schema().to_json_schema()),
                arguments: Some(none),
                output: None,
                required_state: Vec::new(),
                options: ToolOptions::default(),
                concurrency_safe: None,
                render: None,
                finalize: None,
                present_call: None,
                present_partial_call: None,
                present_progress: None,
                present_result: None,
            },
        }
    }
}

impl FnToolBuilder {
    /// The arguments' schema, given once for both of its uses: rendered as the `parameters` the
    /// model is shown, and compiled (here, once) into the check every call passes before the
    /// handler runs — violations become an `INVALID_ARGS` result listing every one of them, and
    /// the handler is not called. Replaces earlier [`raw_parameters`](Self::raw_parameters).
    #[must_use]
    pub fn arguments(mut self, schema: impl Into<Schema>) -> Self {
        let compiled = CompiledSchema::from(schema.into());
        self.parts.parameters = Arc::new(compiled.schema().to_json_schema());
        self.parts.arguments = Some(compiled);
        self
    }

    /// A raw JSON Schema shown to the model as the `parameters`, and never validated here: for
    /// tools whose arguments are checked elsewhere, such as a tool imported from an MCP server
    /// (the server validates its own calls), or whose schema the engine cannot enforce. The
    /// handler receives whatever the model sent. Replaces earlier [`arguments`](Self::arguments).
    ///
    /// A `Value` is moved into an `Arc` here; an `Arc<Value>` is shared as it is (tools with one
    /// schema can share one copy). Either way registering the tool copies no JSON.
    #[must_use]
    pub fn raw_parameters(mut self, parameters: impl Into<Arc<Value>>) -> Self {
        self.parts.parameters = parameters.into();
        self.parts.arguments = None;
        self
    }

    /// The schema the handler's value must match (`INVALID_TOOL_OUTPUT` otherwise). A
    /// [`Schema`](dsh_tools_schema::Schema) is compiled here, once.
    #[must_use]
    pub fn output_schema(mut self, schema: impl Into<CompiledSchema>) -> Self {
        self.parts.output = Some(schema.into());
        self
    }

    /// Declares that the handler needs shared state of type `T` (it calls
    /// [`ToolRun::state`]): registering the tool in a registry that was not given a `T`
    /// is refused, naming the type (see [`ToolDefinition::required_state`]).
    #[must_use]
    pub fn requires_state<T: Send + Sync + 'static>(mut self) -> Self {
        let ty = StateType::of::<T>();
        if !self.parts.required_state.contains(&ty) {
            self.parts.required_state.push(ty);
        }
        self
    }

    /// The tool's budgets, hints and settings ([`ToolOptions`]: a timeout, a result budget,
    /// annotations and a title, icons, …), replacing any given before.
    #[must_use]
    pub fn options(mut self, options: ToolOptions) -> Self {
        self.parts.options = options;
        self
    }

    /// Decides per call, from its arguments, whether it may run concurrently with other
    /// concurrency-safe calls of a batch (`|_| true` for every call; a shell tool that is safe
    /// for read-only commands only decides on the command). No call does by default.
    #[must_use]
    pub fn concurrency_classifier<F>(mut self, classify: F) -> Self
    where
        F: Fn(&Value) -> bool + Send + Sync + 'static,
    {
        self.parts.concurrency_safe = Some(Arc::new(classify));
        self
    }

    /// How a value becomes content, from `(arguments, value)`; the default shows a string as
    /// text and anything else as compact JSON.
    #[must_use]
    pub fn render<F>(mut self, render: F) -> Self
    where
        F: Fn(&Value, &Value) -> Result<Vec<ContentBlock>, ToolError> + Send + Sync + 'static,
    {
        self.parts.render = Some(Arc::new(render));
        self
    }

    /// Rewrites the content of every outcome just before observers see it (`Ok(None)` keeps it).
    #[must_use]
    pub fn finalize<F>(mut self, finalize: F) -> Self
    where
        F: Fn(&ToolExecution, &ToolExecutionResult) -> Result<Option<Vec<ContentBlock>>, ToolError>
            + Send
            + Sync
            + 'static,
    {
        self.parts.finalize = Some(Arc::new(finalize));
        self
    }

    /// How to show a pending call.
    #[must_use]
    pub fn present_call<F>(mut self, present: F) -> Self
    where
        F: Fn(&Value) -> Option<ToolCallView> + Send + Sync + 'static,
    {
        self.parts.present_call = Some(Arc::new(present));
        self
    }

    /// How to show a call the model is still writing, from its arguments so far (see
    /// [`ToolDefinition::present_partial_call`]: they may be cut anywhere, so show only what is
    /// sound on a prefix). Without it, such a call gets the generic card.
    #[must_use]
    pub fn present_partial_call<F>(mut self, present: F) -> Self
    where
        F: Fn(&Value) -> Option<ToolCallView> + Send + Sync + 'static,
    {
        self.parts.present_partial_call = Some(Arc::new(present));
        self
    }

    /// How to show a running call after a progress report, from `(arguments, progress)`.
    #[must_use]
    pub fn present_progress<F>(mut self, present: F) -> Self
    where
        F: Fn(&Value, &ToolProgress) -> Option<ToolCallView> + Send + Sync + 'static,
    {
        self.parts.present_progress = Some(Arc::new(present));
        self
    }

    /// How to show a completed call.
    #[must_use]
    pub fn present_result<F>(mut self, present: F) -> Self
    where
        F: Fn(&Value, &ResultSummary<'_>) -> Option<ToolResultView> + Send + Sync + 'static,
    {
        self.parts.present_result = Some(Arc::new(present));
        self
    }

    /// Finishes the tool with its body: `handler(arguments, run)` returns any serializable value
    /// (a `Value` is used as it is; anything else is converted losslessly, so a NaN is an
    /// `INVALID_TOOL_OUTPUT` instead of a silent `null`).
    pub fn handler<F, Fut, O>(self, handler: F) -> FnTool
    where
        F: Fn(Value, ToolRun) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, ToolError>> + Send + 'static,
        O: Serialize + Send + 'static,
    {
        let name: Arc<str> = Arc::from(self.parts.name.as_str());
        let handler: Arc<Handler> = Arc::new(move |arguments, run| {
            let body = handler(arguments, run);
            let name = Arc::clone(&name);
            Box::pin(async move {
                let output = body.await?;
                output_into_value(output).map_err(|reason| ToolError::invalid_output(&name, reason))
            })
        });
        FnTool {
            parts: self.parts,
            handler,
        }
    }

    /// Finishes the tool with a synchronous body, run on tokio's blocking pool: for a body that
    /// blocks its thread (file or process I/O, a sync client). `handler(arguments, run)` returns
    /// what [`handler`](Self::handler)'s future would.
    ///
    /// A deadline cannot stop a thread: past its budget and grace the call returns `TOOL_TIMEOUT`
    /// and the thread finishes in the background, its result discarded. A body that can stop
    /// early checks its [`ToolRun::signal`], which is cancelled at the deadline or when the caller
    /// cancels. Calls must run on a tokio runtime.
    ///
    /// ```
    /// use dsh_tools::call::ToolOptions;
    /// use dsh_tools::{FnTool, ToolError};
    ///
    /// let disk_usage = FnTool::builder("disk_usage", "Bytes used by the workspace.")
    ///     .options(ToolOptions {
    ///         timeout_ms: Some(5_000),
    ///         ..ToolOptions::default()
    ///     })
    ///     .blocking_handler(|_arguments, run| {
    ///         let mut total = 0_u64;
    ///         for entry in std::fs::read_dir(".")? {
    ///             if run.signal().is_cancelled() {
    ///                 return Err(ToolError::new("stopped"));
    ///             }
    ///             total += entry?.metadata()?.len();
    ///         }
    ///         Ok(total)
    ///     });
    /// ```
    pub fn blocking_handler<F, O>(self, handler: F) -> FnTool
    where
        F: Fn(Value, ToolRun) -> Result<O, ToolError> + Send + Sync + 'static,
        O: Serialize + Send + 'static,
    {
        let handler = Arc::new(handler);
        self.handler(move |arguments, run| {
            let handler = Arc::clone(&handler);
            run_blocking(move || handler(arguments, run))
        })
    }
}

impl ToolDefinition for FnTool {
    fn name(&self) -> &str {
        &self.parts.name
    }

    fn description(&self) -> &str {
        &self.parts.description
    }

    fn parameters(&self) -> &Value {
        &self.parts.parameters
    }

    fn shared_parameters(&self) -> Arc<Value> {
        Arc::clone(&self.parts.parameters)
    }

    fn required_state(&self) -> Vec<StateType> {
        self.parts.required_state.clone()
    }

    fn options(&self) -> &ToolOptions {
        &self.parts.options
    }

    fn output_schema(&self) -> Option<&CompiledSchema> {
        self.parts.output.as_ref()
    }

    fn validate_arguments(&self, arguments: &Value) -> Result<(), ToolError> {
        match &self.parts.arguments {
            Some(schema) => schema
                .validate(arguments)
                .map_err(|violations| ToolError::invalid_arguments(&violations)),
            None => Ok(()),
        }
    }

    fn execute<'a>(
        &'a self,
        arguments: &'a Value,
        run: &'a ToolRun,
    ) -> BoxFuture<'a, Result<Value, ToolError>> {
        if let Some(schema) = &self.parts.arguments
            && let Err(violations) = schema.validate(arguments)
        {
            let error = ToolError::invalid_arguments(&violations);
            return Box::pin(async move { Err(error) });
        }
        (self.handler)(arguments.clone(), run.clone())
    }

    fn render(
        &self,
        arguments: &Value,
        value: &Value,
    ) -> Result<Cow<'static, [ContentBlock]>, ToolError> {
        match &self.parts.render {
            Some(render) => render(arguments, value).map(Cow::Owned),
            None => Ok(value_content(value)),
        }
    }

    fn finalize_content(
        &self,
        execution: &ToolExecution,
        result: &ToolExecutionResult,
    ) -> Result<Option<Vec<ContentBlock>>, ToolError> {
        match &self.parts.finalize {
            Some(finalize) => finalize(execution, result),
            None => Ok(None),
        }
    }

    fn present_call(&self, arguments: &Value) -> Option<ToolCallView> {
        self.parts
            .present_call
            .as_ref()
            .and_then(|present| present(arguments))
    }

    fn present_partial_call(&self, arguments: &Value) -> Option<ToolCallView> {
        self.parts
            .present_partial_call
            .as_ref()
            .and_then(|present| present(arguments))
    }

    fn present_progress(&self, arguments: &Value, progress: &ToolProgress) -> Option<ToolCallView> {
        self.parts
            .present_progress
            .as_ref()
            .and_then(|present| present(arguments, progress))
    }

    fn present_result(
        &self,
        arguments: &Value,
        result: &ResultSummary<'_>,
    ) -> Option<ToolResultView> {
        self.parts
            .present_result
            .as_ref()
            .and_then(|present| present(arguments, result))
    }

    fn is_concurrency_safe(&self, arguments: &Value) -> bool {
        self.parts
            .concurrency_safe
            .as_ref()
            .is_some_and(|classify| classify(arguments))
    }
}

impl fmt::Debug for FnTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FnTool")
            .field("name", &self.parts.name)
            .field("timeout_ms", &self.parts.options.timeout_ms)
            .field("timeout_grace", &self.parts.options.timeout_grace)
            .field("classified", &self.parts.concurrency_safe.is_some())
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for FnToolBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FnToolBuilder")
            .field("name", &self.parts.name)
            .finish_non_exhaustive()
    }
}
