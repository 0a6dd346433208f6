//! [`Tool`]: the typed face of a tool, which `#[tool]` implements, and the bridge that makes every
//! `Tool` a [`ToolDefinition`] the registry can run.
//!
//! The bridge owns the typed shim: validate the arguments against the cached schema (every
//! violation, `INVALID_ARGS`), convert them into `Tool::Args`, run the body, and serialize its value
//! losslessly (`INVALID_TOOL_OUTPUT` instead of a silent `null`). The registry checks the value
//! against the output schema afterwards, as it does for every definition.
//!
//! What depends on the tool's type is kept small, since a crate compiles it once per tool: a
//! constant table per type (`ToolTable`: the tool's [`Tool::INFO`], and only the provided
//! methods it overrides, [`Tool::OVERRIDDEN`]), read by one bridge compiled here, and the call,
//! reached through the tool as a `dyn TypedExecute` (one method), its body's future wrapped in a
//! `TypedCall` (`typed_call.rs`). Registering a tool shares a `TypedTool` (the tool and its table)
//! rather than the tool as a `dyn ToolDefinition`, whose thirty methods would each be
//! instantiated for every tool type registered.

use std::any::{Any, TypeId};
use std::borrow::Cow;
use std::collections::HashMap;
use std::future::Future;
use std::marker::PhantomData;
use std::sync::{Arc, LazyLock, OnceLock, PoisonError, RwLock};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use crate::__private::fields::Json;
use crate::args::{ConvertError, ToolArgs};
use crate::call::definition::{ToolDefinition, render_value_as_text};
use crate::call::execution::ToolExecution;
use crate::call::options::{RequestSettings, ToolAnnotations, ToolOptions, ToolOrigin};
use crate::call::run::ToolRun;
use crate::call::tool_info::ToolInfo;
use crate::call::typed_call::TypedCall;
use crate::content::{ContentBlock, value_content};
use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::present::{ResultSummary, ToolCallView, ToolIcon, ToolResultView};
use crate::progress::ToolProgress;
use crate::result::ToolExecutionResult;
use crate::state::StateType;
use dsh_tools_schema::{CompiledSchema, Schema, SchemaError};

/// A typed tool: arguments and output are Rust types with schemas.
///
/// `#[tool]` implements it on the unit struct it generates for an `async fn`; implementing it by
/// hand works the same way. Every `Tool` is a [`ToolDefinition`], so it registers directly. The
/// identity is an associated constant ([`Tool::INFO`]) and the methods have names of their own,
/// so a type's `Tool` and `ToolDefinition` methods never clash when both traits are in scope.
pub trait Tool: Send + Sync + 'static {
    /// The arguments the body takes.
    type Args: ToolArgs + Send + 'static;
    /// The canonical value the body returns; its schema is the output schema.
    type Output: ToolArgs + Serialize + Send + 'static;

    /// The tool's name, description, budgets and settings, built at compile time from
    /// [`ToolInfo::new`] (`#[tool]` writes it from the function's name, its doc comment and
    /// the attribute's keys).
    const INFO: ToolInfo;

    /// Which of the provided methods below the impl overrides: the registry's bridge calls only
    /// those, and does what the defaults would for the others, so a registered tool compiles no
    /// bridge for a default it keeps. Every one by default, which is always correct; `#[tool]`
    /// declares exactly the ones it generates. Not an API.
    #[doc(hidden)]
    const OVERRIDDEN: ToolMethods = ToolMethods::ALL;

    /// The schemas, built once per tool type: return a `static`
    /// `LazyLock<ToolContract>` initialised with [`ToolContract::of`].
    fn contract() -> &'static ToolContract;

    /// Behaviour hints, and the title (`#[tool(title = "…")]` sets it, see
    /// [`ToolOptions::annotations`]).
    fn annotations() -> ToolAnnotations {
        ToolAnnotations::default()
    }

    /// Images a UI may show beside the tool (see [`ToolOptions::icons`](crate::call::ToolOptions::icons));
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
/// reported at registration and on every call. A tool builds it with [`of`](Self::of) and
/// hands it out from [`Tool::contract`]; what it holds is read through the registered
/// definition ([`ToolDefinition::parameters`], [`ToolDefinition::output_schema`],
/// [`ToolDefinition::validate_arguments`]).
#[derive(Debug)]
pub struct ToolContract {
    built: Result<BuiltContract, ToolError>,
    /// The options of the tool type that hands out this contract, with that type, made the first
    /// time a tool of it is used as a `ToolDefinition` without being registered: a contract is
    /// one `static` per tool type, so this lends them for a field read per call.
    options: OnceLock<(TypeId, ToolOptions)>,
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

    /// A contract from the functions building its schemas (`ToolArgs::schema` of the arguments
    /// and of the output types).
    pub(crate) fn from_schema_fns(
        arguments: fn() -> Result<Schema, SchemaError>,
        output: fn() -> Result<Schema, SchemaError>,
    ) -> Self {
        Self::from_schemas(arguments(), output())
    }

    /// A contract from already-built schemas.
    pub(crate) fn from_schemas(
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
            options: OnceLock::new(),
        }
    }

    /// The argument schema, compiled, or why it could not be built.
    pub(crate) fn arguments(&self) -> Result<&CompiledSchema, &ToolError> {
        self.built.as_ref().map(|built| &built.arguments)
    }

    /// The JSON Schema of the arguments (a bare object schema when it could not be built).
    pub(crate) fn parameters(&self) -> &Value {
        self.parameters_arc()
    }

    /// The same schema, shared (what [`ToolDefinition::shared_parameters`] hands out).
    pub(crate) fn shared_parameters(&self) -> Arc<Value> {
        Arc::clone(self.parameters_arc())
    }

    fn parameters_arc(&self) -> &Arc<Value> {
        match &self.built {
            Ok(built) => &built.parameters,
            Err(_) => &EMPTY_OBJECT_SCHEMA,
        }
    }

    /// The output schema, compiled, when it could be built.
    pub(crate) fn output(&self) -> Option<&CompiledSchema> {
        self.built.as_ref().ok().map(|built| &built.output)
    }

    /// The options of the tool type `type_id` whose contract this is, made by `make` once. A
    /// hand-written `Tool` may share one contract between types: the second type's options are
    /// then kept apart, by type.
    fn options_of(
        &'static self,
        type_id: TypeId,
        make: impl Fn() -> ToolOptions,
    ) -> &'static ToolOptions {
        let (owner, options) = self.options.get_or_init(|| (type_id, make()));
        if *owner == type_id {
            options
        } else {
            options_of_type(type_id, make)
        }
    }

    /// Why the contract could not be built.
    pub(crate) fn error(&self) -> Option<&ToolError> {
        self.built.as_ref().err()
    }

    /// Validates `arguments` and converts them: every violation becomes one `INVALID_ARGS` error.
    /// Not API: public only for the bench harness and the fuzz target, which measure and fuzz
    /// this step of a typed call on its own.
    #[doc(hidden)]
    pub fn parse<A: ToolArgs>(&self, arguments: &Value) -> Result<A, ToolError> {
        self.check_with(arguments, A::is_valid_json)?;
        match A::from_json(arguments) {
            Ok(args) => Ok(args),
            Err(error) => Err(error.into()),
        }
    }

    /// [`check_with`](Self::check_with) of arguments read or given up.
    fn check_json(
        &self,
        arguments: &Json<'_>,
        is_valid: fn(&Value) -> bool,
    ) -> Result<(), ToolError> {
        let arguments = match arguments {
            Json::Read(arguments) => arguments,
            Json::Given(arguments) => arguments,
        };
        self.check_with(arguments, is_valid)
    }

    /// The validation of [`parse`](Self::parse): every violation becomes one `INVALID_ARGS`
    /// error, given the arguments type's specialized yes/no check
    /// (`ToolArgs::is_valid_json`): compiled once, whatever the type. The specialized check
    /// answers for valid arguments; the compiled schema then collects every violation of invalid
    /// ones (and has the last word should the two ever disagree). A recursive schema is checked
    /// by the compiled schema alone: only it caps how deep a value nests, which a value built in
    /// code rather than parsed can exceed.
    fn check_with(&self, arguments: &Value, is_valid: fn(&Value) -> bool) -> Result<(), ToolError> {
        let schema = self.arguments().map_err(Clone::clone)?;
        let valid = if schema.is_recursive() {
            schema.is_valid(arguments)
        } else {
            is_valid(arguments)
        };
        if !valid && let Err(violations) = schema.validate(arguments) {
            return Err(ToolError::invalid_arguments(&violations));
        }
        Ok(())
    }
}

/// Which of [`Tool`]'s provided methods an impl overrides, so that a registered tool compiles only
/// the bridges it needs ([`Tool::OVERRIDDEN`]). Not an API: `#[tool]` sets it.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToolMethods {
    /// [`Tool::render_value`].
    pub render_value: bool,
    /// [`Tool::finalize`].
    pub finalize: bool,
    /// [`Tool::call_view`], [`Tool::progress_view`] or [`Tool::result_view`].
    pub presenters: bool,
    /// [`Tool::concurrency_safe`].
    pub concurrency_safe: bool,
    /// [`Tool::annotations`].
    pub annotations: bool,
    /// [`Tool::icons`].
    pub icons: bool,
    /// [`Tool::required_state`].
    pub required_state: bool,
}

impl ToolMethods {
    /// Every one of them (what a hand-written impl declares, always correct).
    #[doc(hidden)]
    pub const ALL: Self = Self {
        render_value: true,
        finalize: true,
        presenters: true,
        concurrency_safe: true,
        annotations: true,
        icons: true,
        required_state: true,
    };
}

/// A tool of any type, as the registry's bridge sees it.
type ErasedTool = dyn TypedExecute;

/// The call of a typed tool, reached through the tool itself: its vtable hands the call the
/// tool as its own type, with no check of the type on every call (as a table's function given
/// `dyn Any` would need). The provided methods a tool overrides reach it through `Any`
/// ([`downcast`]), compiled only for the tools that override them.
trait TypedExecute: Any + Send + Sync {
    /// Converts the arguments, already checked against the schema ([`Bridge::execute`]), and
    /// starts the body of the tool `name` (its table's: read here, the name would copy the
    /// type's whole [`ToolInfo`] into every tool's code).
    fn start<'a>(
        &'a self,
        name: &'static str,
        arguments: CallArguments<'a>,
        run: &'a ToolRun,
    ) -> BoxFuture<'a, Result<Value, ToolError>>;
}

/// Converts the arguments, runs the body and serializes its value losslessly
/// (`INVALID_TOOL_OUTPUT` instead of a silent `null`). The arguments are converted and the body's
/// future made before anything is boxed, so what is compiled for every tool type is this and the
/// short `poll` of a [`TypedCall`] around its body: arguments that fail end in a future made once
/// for all tools.
impl<T: Tool> TypedExecute for T {
    fn start<'a>(
        &'a self,
        name: &'static str,
        arguments: CallArguments<'a>,
        run: &'a ToolRun,
    ) -> BoxFuture<'a, Result<Value, ToolError>> {
        let converted = match arguments {
            Json::Read(arguments) => <T::Args as ToolArgs>::from_json(arguments),
            Json::Given(arguments) => <T::Args as ToolArgs>::from_json_owned(arguments),
        };
        match converted {
            Ok(args) => Box::pin(TypedCall::new(name, self.call(args, run))),
            Err(error) => failed_conversion(error),
        }
    }
}

/// The arguments of a call to a typed tool: read, or given up (see
/// [`ToolDefinition::execute_owned`]).
type CallArguments<'a> = Json<'a>;

/// Which presenter to run on the converted arguments.
enum Presenting<'a, 'b> {
    Call,
    Progress(&'a ToolProgress),
    Result(&'a ResultSummary<'b>),
}

/// What a presenter showed.
enum Presented {
    Call(Option<ToolCallView>),
    Result(Option<ToolResultView>),
}

type RenderFn = fn(&ErasedTool, &Value, &Value) -> Result<Vec<ContentBlock>, ToolError>;
type FinalizeFn = fn(
    &ErasedTool,
    &ToolExecution,
    &ToolExecutionResult,
) -> Result<Option<Vec<ContentBlock>>, ToolError>;
type PresentFn = for<'a, 'b> fn(&ErasedTool, &Value, Presenting<'a, 'b>) -> Option<Presented>;
type ConcurrencyFn = fn(&ErasedTool, &Value) -> bool;

/// Everything the registry needs of a [`Tool`] type: its constants, and the few functions that
/// depend on the type (the provided methods it overrides; the call is [`TypedExecute`]). One
/// table per tool type, a constant: registering a tool instantiates these few functions and
/// nothing else, and the bridge that reads the table ([`Bridge`], [`TypedTool`]) is compiled
/// once, in this crate.
struct ToolTable {
    info: ToolInfo,
    contract: fn() -> &'static ToolContract,
    /// The arguments type's specialized check (`ToolArgs::is_valid_json`).
    is_valid: fn(&Value) -> bool,
    annotations: Option<fn() -> ToolAnnotations>,
    icons: Option<fn() -> Vec<ToolIcon>>,
    required_state: Option<fn() -> Vec<StateType>>,
    render: Option<RenderFn>,
    finalize: Option<FinalizeFn>,
    present: Option<PresentFn>,
    concurrency_safe: Option<ConcurrencyFn>,
}

/// The table of the tool type `T`.
struct TableOf<T>(PhantomData<T>);

impl<T: Tool> TableOf<T> {
    const TABLE: &'static ToolTable = &ToolTable {
        info: T::INFO,
        contract: T::contract,
        is_valid: <T::Args as ToolArgs>::is_valid_json,
        annotations: if T::OVERRIDDEN.annotations {
            Some(T::annotations)
        } else {
            None
        },
        icons: if T::OVERRIDDEN.icons {
            Some(T::icons)
        } else {
            None
        },
        required_state: if T::OVERRIDDEN.required_state {
            Some(T::required_state)
        } else {
            None
        },
        // A provided method the impl keeps is not instantiated: the bridge does what it would.
        render: if T::OVERRIDDEN.render_value {
            Some(render_typed::<T>)
        } else {
            None
        },
        finalize: if T::OVERRIDDEN.finalize {
            Some(finalize_typed::<T>)
        } else {
            None
        },
        present: if T::OVERRIDDEN.presenters {
            Some(present_typed::<T>)
        } else {
            None
        },
        concurrency_safe: if T::OVERRIDDEN.concurrency_safe {
            Some(concurrency_typed::<T>)
        } else {
            None
        },
    };
}

/// The tool a table is paired with.
fn downcast<T: Tool>(tool: &ErasedTool) -> &T {
    let tool: &dyn Any = tool;
    match tool.downcast_ref::<T>() {
        Some(tool) => tool,
        None => mismatched_table(),
    }
}

#[cold]
fn mismatched_table() -> ! {
    unreachable!("a tool's table is only ever paired with a tool of its own type")
}

/// The call of arguments that are not valid.
fn failed_call<'a>(error: ToolError) -> BoxFuture<'a, Result<Value, ToolError>> {
    Box::pin(std::future::ready(Err(error)))
}

/// The call of arguments that could not be converted.
fn failed_conversion<'a>(error: ConvertError) -> BoxFuture<'a, Result<Value, ToolError>> {
    failed_call(error.into())
}

fn render_typed<T: Tool>(
    tool: &ErasedTool,
    arguments: &Value,
    value: &Value,
) -> Result<Vec<ContentBlock>, ToolError> {
    downcast::<T>(tool).render_value(arguments, value)
}

fn finalize_typed<T: Tool>(
    tool: &ErasedTool,
    execution: &ToolExecution,
    result: &ToolExecutionResult,
) -> Result<Option<Vec<ContentBlock>>, ToolError> {
    downcast::<T>(tool).finalize(execution, result)
}

/// Runs a presenter on the arguments, once they make a whole `Args` value.
fn present_typed<T: Tool>(
    tool: &ErasedTool,
    arguments: &Value,
    presenting: Presenting<'_, '_>,
) -> Option<Presented> {
    let tool = downcast::<T>(tool);
    let args: T::Args = T::contract().parse(arguments).ok()?;
    Some(match presenting {
        Presenting::Call => Presented::Call(tool.call_view(&args)),
        Presenting::Progress(progress) => Presented::Call(tool.progress_view(&args, progress)),
        Presenting::Result(result) => Presented::Result(tool.result_view(&args, result)),
    })
}

fn concurrency_typed<T: Tool>(tool: &ErasedTool, arguments: &Value) -> bool {
    match T::contract().parse::<T::Args>(arguments) {
        Ok(args) => downcast::<T>(tool).concurrency_safe(&args),
        Err(_) => false,
    }
}

/// A typed tool seen through its table: every `ToolDefinition` method of a [`Tool`], compiled
/// once. Both the registered form ([`TypedTool`]) and the blanket impl for `T: Tool` use it.
#[derive(Clone, Copy)]
struct Bridge<'a> {
    table: &'static ToolTable,
    tool: &'a ErasedTool,
}

impl<'a> Bridge<'a> {
    fn contract(self) -> &'static ToolContract {
        (self.table.contract)()
    }

    /// Checks the arguments against the schema (with the type's specialized check), then has
    /// the tool convert them and start its body: the check compiled once, here, for every tool.
    fn execute(
        self,
        arguments: CallArguments<'a>,
        run: &'a ToolRun,
    ) -> BoxFuture<'a, Result<Value, ToolError>> {
        if let Err(error) = self.contract().check_json(&arguments, self.table.is_valid) {
            return failed_call(error);
        }
        self.tool.start(self.table.info.name, arguments, run)
    }

    fn render(
        self,
        arguments: &Value,
        value: &Value,
    ) -> Result<Cow<'static, [ContentBlock]>, ToolError> {
        match self.table.render {
            Some(render) => render(self.tool, arguments, value).map(Cow::Owned),
            None => Ok(value_content(value)),
        }
    }

    fn finalize(
        self,
        execution: &ToolExecution,
        result: &ToolExecutionResult,
    ) -> Result<Option<Vec<ContentBlock>>, ToolError> {
        match self.table.finalize {
            Some(finalize) => finalize(self.tool, execution, result),
            None => Ok(None),
        }
    }

    fn present_call(self, arguments: &Value) -> Option<ToolCallView> {
        match (self.table.present?)(self.tool, arguments, Presenting::Call)? {
            Presented::Call(view) => view,
            Presented::Result(_) => None,
        }
    }

    fn present_progress(self, arguments: &Value, progress: &ToolProgress) -> Option<ToolCallView> {
        match (self.table.present?)(self.tool, arguments, Presenting::Progress(progress))? {
            Presented::Call(view) => view,
            Presented::Result(_) => None,
        }
    }

    fn present_result(
        self,
        arguments: &Value,
        result: &ResultSummary<'_>,
    ) -> Option<ToolResultView> {
        match (self.table.present?)(self.tool, arguments, Presenting::Result(result))? {
            Presented::Result(view) => view,
            Presented::Call(_) => None,
        }
    }

    fn is_concurrency_safe(self, arguments: &Value) -> bool {
        self.table
            .concurrency_safe
            .is_some_and(|concurrency_safe| concurrency_safe(self.tool, arguments))
    }

    /// The tool's options, made from its table: the constants of its [`ToolInfo`], its
    /// annotations and icons, its input examples parsed.
    fn options(self) -> ToolOptions {
        let table = self.table;
        let info = &table.info;
        ToolOptions {
            timeout_ms: info.timeout_ms,
            timeout_grace: info.timeout_grace_ms.map(Duration::from_millis),
            max_result_chars: info.max_result_chars,
            annotations: table
                .annotations
                .map_or_else(ToolAnnotations::default, |annotations| annotations()),
            icons: table.icons.map_or_else(Vec::new, |icons| icons()),
            defer_loading: info.defer_loading,
            task_support: info.task_support,
            journal: info.journal,
            // A text that is not JSON (only possible for a hand-written `Tool`) stays a string,
            // which the registration's check then refuses against the object schema, quoting it.
            input_examples: info
                .input_examples
                .iter()
                .map(|text| {
                    serde_json::from_str(text).unwrap_or_else(|_| Value::String((*text).to_owned()))
                })
                .collect(),
            allowed_callers: info.allowed_callers,
            request_settings: RequestSettings::new(),
            origin: ToolOrigin::Local,
        }
    }
}

/// The `ToolDefinition` of a typed tool, delegating to the [`Bridge`]; `$bridge` makes the
/// bridge of `self`.
macro_rules! typed_definition {
    ($self:ident => $bridge:expr) => {
        fn name(&self) -> &str {
            let $self = self;
            $bridge.table.info.name
        }

        fn description(&self) -> &str {
            let $self = self;
            $bridge.table.info.description
        }

        fn parameters(&self) -> &Value {
            let $self = self;
            $bridge.contract().parameters()
        }

        fn shared_parameters(&self) -> Arc<Value> {
            let $self = self;
            $bridge.contract().shared_parameters()
        }

        fn definition_error(&self) -> Option<ToolError> {
            let $self = self;
            $bridge.contract().error().cloned()
        }

        fn required_state(&self) -> Vec<StateType> {
            let $self = self;
            $bridge
                .table
                .required_state
                .map_or_else(Vec::new, |required| required())
        }

        fn output_schema(&self) -> Option<&CompiledSchema> {
            let $self = self;
            $bridge.contract().output()
        }

        fn validate_arguments(&self, arguments: &Value) -> Result<(), ToolError> {
            let $self = self;
            let bridge = $bridge;
            bridge
                .contract()
                .check_with(arguments, bridge.table.is_valid)
        }

        fn execute<'a>(
            &'a self,
            arguments: &'a Value,
            run: &'a ToolRun,
        ) -> BoxFuture<'a, Result<Value, ToolError>> {
            let $self = self;
            $bridge.execute(CallArguments::Read(arguments), run)
        }

        fn takes_arguments_by_value(&self) -> bool {
            let $self = self;
            !$bridge.table.info.reads_call_arguments
        }

        fn execute_owned<'a>(
            &'a self,
            arguments: Value,
            run: &'a ToolRun,
        ) -> BoxFuture<'a, Result<Value, ToolError>> {
            let $self = self;
            $bridge.execute(CallArguments::Given(arguments), run)
        }

        fn render(
            &self,
            arguments: &Value,
            value: &Value,
        ) -> Result<Cow<'static, [ContentBlock]>, ToolError> {
            let $self = self;
            $bridge.render(arguments, value)
        }

        fn finalize_content(
            &self,
            execution: &ToolExecution,
            result: &ToolExecutionResult,
        ) -> Result<Option<Vec<ContentBlock>>, ToolError> {
            let $self = self;
            $bridge.finalize(execution, result)
        }

        fn present_call(&self, arguments: &Value) -> Option<ToolCallView> {
            let $self = self;
            $bridge.present_call(arguments)
        }

        fn present_partial_call(&self, arguments: &Value) -> Option<ToolCallView> {
            // Only once the arguments so far are a whole `Args`: the presenter is written for those.
            let $self = self;
            $bridge.present_call(arguments)
        }

        fn present_progress(
            &self,
            arguments: &Value,
            progress: &ToolProgress,
        ) -> Option<ToolCallView> {
            let $self = self;
            $bridge.present_progress(arguments, progress)
        }

        fn present_result(
            &self,
            arguments: &Value,
            result: &ResultSummary<'_>,
        ) -> Option<ToolResultView> {
            let $self = self;
            $bridge.present_result(arguments, result)
        }

        fn is_concurrency_safe(&self, arguments: &Value) -> bool {
            let $self = self;
            $bridge.is_concurrency_safe(arguments)
        }
    };
}

/// Every `Tool` is a `ToolDefinition`, through its table. Registering one shares a compact form
/// (the tool and its table) rather than the tool itself, so that these methods are instantiated
/// for a tool type only when the tool is used as a `dyn ToolDefinition` by other means.
impl<T: Tool> ToolDefinition for T {
    typed_definition!(this => Bridge { table: TableOf::<T>::TABLE, tool: this });

    fn options(&self) -> &ToolOptions {
        let bridge = Bridge {
            table: TableOf::<T>::TABLE,
            tool: self,
        };
        bridge
            .contract()
            .options_of(TypeId::of::<T>(), || bridge.options())
    }

    fn into_shared_definition(self) -> Arc<dyn ToolDefinition> {
        TypedTool::shared(TableOf::<T>::TABLE, Box::new(self))
    }
}

/// A registered [`Tool`]: the tool and its type's table. Not generic, so the registry's view of
/// every typed tool is compiled once, here.
struct TypedTool {
    table: &'static ToolTable,
    tool: Box<ErasedTool>,
    /// Made from the table once, at registration: the pipeline reads the budgets per call.
    options: ToolOptions,
}

impl TypedTool {
    /// The registered form of `tool`, whose table is `table`: made here, once for every tool
    /// type, which only boxes its tool.
    fn shared(table: &'static ToolTable, tool: Box<ErasedTool>) -> Arc<dyn ToolDefinition> {
        let options = Bridge {
            table,
            tool: &*tool,
        }
        .options();
        Arc::new(Self {
            table,
            tool,
            options,
        })
    }
}

impl ToolDefinition for TypedTool {
    typed_definition!(this => Bridge { table: this.table, tool: &*this.tool });

    fn options(&self) -> &ToolOptions {
        &self.options
    }
}

/// The options of the tool type `type_id`, made by `make` the first time they are asked for and
/// kept for the life of the process: for a `Tool` used as a `ToolDefinition` without being
/// registered (registering keeps them in its [`TypedTool`]) whose contract another type's
/// options already hold. One per tool type, so what is kept is bounded by the program's tool
/// types.
fn options_of_type(type_id: TypeId, make: impl FnOnce() -> ToolOptions) -> &'static ToolOptions {
    static KEPT: LazyLock<RwLock<HashMap<TypeId, &'static ToolOptions>>> =
        LazyLock::new(RwLock::default);
    let kept = KEPT
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&type_id)
        .copied();
    if let Some(options) = kept {
        return options;
    }
    let mut kept = KEPT.write().unwrap_or_else(PoisonError::into_inner);
    kept.entry(type_id)
        .or_insert_with(|| Box::leak(Box::new(make())))
}
