//! # dsh-tools
//!
//! Turn ordinary `async fn`s into tools an LLM can call. Register them in a [`ToolRegistry`], give
//! its [`schemas`](ToolScope::schemas) to the model, and hand every tool call it makes to its
//! [`execute`](ToolScope::execute): each call runs through one pipeline of policy hooks, guards,
//! wrappers and result checks, and always ends as one well-formed [`ToolExecutionResult`].
//!
//! The model's JSON is untrusted. Whatever it sends, the caller gets a result the model can
//! self-correct from: never a panic, never a hang past its deadline, never a silently dropped
//! field.
//!
//! # Writing a tool
//!
//! ```
//! use dsh_tools::{ToolArgs, ToolDefinition, ToolError, tool};
//!
//! #[derive(ToolArgs)]
//! struct ReadFile {
//!     /// Absolute file path
//!     path: String,
//!     /// First line to return
//!     offset: Option<u64>,
//!     #[arg(default = 200, maximum = 10_000)]
//!     limit: u32,
//! }
//!
//! /// Read a file from disk.
//! #[tool(name = "read_file", kind = "read", timeout_ms = 5_000, concurrency_safe)]
//! async fn read_file(args: ReadFile) -> Result<String, ToolError> {
//!     Ok(std::fs::read_to_string(&args.path)?)
//! }
//!
//! // `ReadFileTool` is what `#[tool]` generated; `read_file` is still an ordinary function.
//! let schema = ReadFileTool.schema();
//! assert_eq!(schema.name, "read_file");
//! assert_eq!(schema.parameters["required"], dsh_tools::json!(["path"]));
//! ```
//!
//! [`ToolArgs`] describes any value a tool exchanges with the model: the standard types implement
//! it and `#[derive(ToolArgs)]` implements it for yours. Its schema is what the model is told, its
//! specialized check and the schema interpreter ([`schema`]) are what is enforced, and its
//! conversion is what the body receives; the three never disagree. The full list of keys and type
//! rules is `docs/authoring.md` in the repository.
//!
//! # The crate root
//! What a first tool needs: the macros ([`tool`], [`ToolArgs`]), the traits they implement
//! ([`Tool`], [`ToolDefinition`] with its [`ToolSchema`]) and [`FnTool`] for hand-written tools;
//! the [`ToolRegistry`] and its layers, [`ToolScope`]s (its global layer, which the registry
//! dereferences to, and one per agent), whose registrations return a [`Registration`]; one call in ([`ToolExecutionInput`], on behalf of an [`AgentId`]) and its
//! result out ([`ToolExecutionResult`], made of [`ContentBlock`]s); what a body gets and returns
//! ([`ToolRun`], [`ToolError`]); and the two decisions a policy hook makes ([`PreToolDecision`],
//! [`PostToolDecision`]). [`Value`] and [`json!`] are `serde_json`'s.
//!
//! # Modules
//! - [`call`]: one call while it runs — the frozen [`ToolExecution`](call::ToolExecution), its
//!   token, progress reports and sinks, shared state ([`SharedState`](call::SharedState)), the
//!   result's parts, [`FnToolBuilder`](call::FnToolBuilder), [`ToolAnnotations`](call::ToolAnnotations),
//!   and [`ToolExecutionInput::from_raw`] for a call with a model's raw argument string. A body can
//!   call other tools through the same pipeline ([`ToolRun::call_tool`]).
//! - [`hooks`]: the hook contracts, in pipeline order — `pre-execute` listeners
//!   ([`ToolScope::on_pre_execute`], [`hooks::PreExecuteNext`]), the [`hooks::Approver`] for
//!   `ask`, guards ([`ToolScope::guard`]), `execute` layers ([`ToolScope::wrap`],
//!   [`hooks::ExecuteLayer`] / [`hooks::Next`]), `post-execute` listeners
//!   ([`ToolScope::on_post_execute`]), result observers ([`ToolScope::on_result`]) and
//!   [`hooks::CallObserver`]s ([`ToolScope::observe`]), registered on the registry (its global
//!   layer) or on a scope. Within a kind, the global layer's hooks
//!   run first, then each scope's from the farthest ancestor to the call's own, each layer in
//!   registration order; the first `execute` layer is outermost.
//! - [`registry`]: the registry's other types — restrictions, change events, registration errors,
//!   and parallel batches ([`ToolRegistry::execute_batch`]).
//! - [`policy`]: the limits every call runs under, on by default ([`policy::CallLimits`], set
//!   with [`ToolRegistry::set_limits`]: each tool's `timeout_ms` is enforced, cooperative through
//!   the body's token, then a bounded grace after which the body's future is dropped; the text a
//!   result shows the model has a budget) and [`policy::TimeoutPolicy`], an outer budget of your
//!   own. Bodies that block their thread run on tokio's blocking pool (`#[tool(blocking)]`,
//!   [`FnToolBuilder::blocking_handler`](call::FnToolBuilder::blocking_handler)).
//! - [`errors`]: every error result carries a code ([`errors::ErrorCode`]), and model-facing text
//!   built from the model's input is bounded.
//! - [`content`]: the content blocks results are made of, lossless JSON for outputs, and what a
//!   `#[tool(render = path)]` function returns ([`content::IntoContent`]).
//! - [`fields`]: what `#[arg(..)]` asks of a field's type — the values a `default`, `enum` or
//!   `const` may be, and the types `min_length`, `minimum`, `multiple_of`, `unique_items` or
//!   `min_properties` apply to — as the traits a compile error names.
//! - [`present`]: the cards a UI shows for a call ([`present::ToolCallView`],
//!   [`present::ToolResultView`]), made by [`ToolScope::present_call`],
//!   [`ToolScope::present_progress`] and [`ToolScope::present_result`] so that they never
//!   fail, and rendered for terminals by [`present::TextCards`].
//! - [`schema`]: the schema engine — building, importing, compiling and validating schemas.
//! - [`providers`]: the tool list lowered for OpenAI, Anthropic, Gemini and DeepSeek, their tool
//!   calls parsed into inputs, results formatted as their next-turn messages.
//! - `mcp` (features `mcp`, `mcp-http`): serve a registry to MCP clients, import MCP servers'
//!   tools. `acp` (feature `acp`): show calls in an editor over the Agent Client Protocol.
//! - `code_mode` (feature `code-mode`): the model writes one JavaScript program that calls many
//!   tools (`run_code`), every nested call through the same pipeline.
//! - `telemetry` (feature `otel`): OpenTelemetry — each call's span in the GenAI conventions,
//!   policy events, trace context over MCP, opt-in arguments, results and metrics.
//! - What the macros generate, on real tools: [`example_tools`], the quickstart's tools.
//!
//! How the crate is layered inside is in `ARCHITECTURE.md` at the repository's root.

// docs.rs documents with `--cfg docsrs` on nightly: each item behind a Cargo feature is labelled
// with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "acp")]
pub mod acp;
mod args;
mod arguments;
pub mod call;
mod callers;
#[cfg(any(feature = "mcp", feature = "durable"))]
mod canonical;
#[cfg(feature = "code-mode")]
pub mod code_mode;
pub mod content;
mod decimal;
pub mod durable;
pub mod errors;
pub mod fields;
mod future;
pub mod hooks;
mod idempotency;
mod ids;
mod limits;
mod lossless;
#[cfg(feature = "mcp")]
pub mod mcp;
mod name_hash;
mod pipeline;
pub mod policy;
pub mod present;
mod progress;
pub mod providers;
pub mod registry;
mod result;
mod search;
mod state;
mod store;
#[cfg(feature = "otel")]
pub mod telemetry;
mod text_bounds;
mod unique_keys;

#[doc(hidden)]
#[path = "macro_support/mod.rs"]
pub mod __private;

// The macros' expansions name `::dsh_tools`, which this makes resolve inside the crate too.
#[cfg(doc)]
extern crate self as dsh_tools;

// The examples' tools (`examples/coding_tools/`), in the docs only, to show what the macros
// generate page by page; the library itself does not contain them. The module documents itself.
#[cfg(doc)]
#[path = "../examples/coding_tools/mod.rs"]
pub mod example_tools;

// The front door: what a user needs in the first hour. Everything else lives in the modules above,
// named for what they hold.
pub use args::ToolArgs;
pub use call::definition::{ToolDefinition, ToolSchema};
pub use call::execution::ToolExecutionInput;
pub use call::fn_tool::FnTool;
pub use call::run::ToolRun;
pub use call::tool::Tool;
pub use content::ContentBlock;
#[cfg(feature = "macros")]
pub use dsh_tools_macros::{ToolArgs, tool};
pub use errors::ToolError;
pub use hooks::{PostToolDecision, PreToolDecision};
pub use ids::AgentId;
pub use registry::{Registration, ToolRegistry, ToolScope};
pub use result::ToolExecutionResult;
pub use serde_json::{Value, json};

#[doc(inline)]
pub use dsh_tools_schema as schema;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
