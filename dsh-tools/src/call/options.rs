//! [`ToolOptions`]: what a hand-written tool declares beside its name, schemas and body — its
//! budgets, its hints for people and bridges, where and how it may be called — as one plain value
//! whose defaults are those of [`ToolDefinition`]'s provided methods.
//!
//! Each field answers one of those methods for an [`FnTool`](crate::FnTool), read as it is: a
//! field read per call (the budgets, the journal policy) costs what the method's own field read
//! did.

use std::time::Duration;

use serde_json::Value;

use crate::call::definition::{RequestSettings, TaskSupport, ToolAnnotations};
use crate::callers::ToolCallers;
use crate::durable::policy::JournalPolicy;
use crate::present::ToolIcon;

/// The options of an [`FnTool`](crate::FnTool), given with
/// [`FnToolBuilder::options`](crate::call::FnToolBuilder::options). Set the fields that differ from
/// the defaults and take the rest from [`ToolOptions::default`]:
///
/// ```
/// use dsh_tools::call::{ToolAnnotations, ToolOptions};
/// use dsh_tools::{FnTool, json};
///
/// let search = FnTool::builder("search", "Searches the workspace.")
///     .options(ToolOptions {
///         timeout_ms: Some(5_000),
///         annotations: ToolAnnotations {
///             title: Some("Search".to_owned()),
///             read_only: Some(true),
///             ..ToolAnnotations::default()
///         },
///         input_examples: vec![json!({})],
///         ..ToolOptions::default()
///     })
///     .handler(|_arguments, _run| async { Ok("found") });
/// # let _ = search;
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolOptions {
    /// A time budget in milliseconds, enforced by the registry: at the deadline the handler's
    /// token is cancelled, after a grace its future is dropped and the call is `TOOL_TIMEOUT`
    /// (see [`ToolDefinition::timeout_ms`](crate::ToolDefinition::timeout_ms)). `None` by
    /// default: the registry's default budget, if any.
    pub timeout_ms: Option<u64>,
    /// This tool's grace after its deadline, before its handler's future is dropped (see
    /// [`ToolDefinition::timeout_grace`](crate::ToolDefinition::timeout_grace)). `None` by
    /// default: the registry's.
    pub timeout_grace: Option<Duration>,
    /// How many characters of text a result shows the model (see
    /// [`ToolDefinition::max_result_chars`](crate::ToolDefinition::max_result_chars)). `None`
    /// by default: the registry's budget.
    pub max_result_chars: Option<usize>,
    /// Behaviour hints for bridges and UIs, with the tool's human-readable title (see
    /// [`ToolDefinition::title`](crate::ToolDefinition::title)). None declared by default.
    pub annotations: ToolAnnotations,
    /// Images a UI may show beside the tool, in order (see
    /// [`ToolDefinition::icons`](crate::ToolDefinition::icons)). None by default.
    pub icons: Vec<ToolIcon>,
    /// Whether the tool is deferred: callable, but listed only once a search loads it (see
    /// [`ToolDefinition::defer_loading`](crate::ToolDefinition::defer_loading)). `false` by
    /// default.
    pub defer_loading: bool,
    /// Whether the tool may run as a task over MCP (see
    /// [`ToolDefinition::task_support`](crate::ToolDefinition::task_support)).
    /// [`TaskSupport::Forbidden`] by default.
    pub task_support: TaskSupport,
    /// How a registry with a call store journals the tool's calls (see
    /// [`ToolDefinition::journal`](crate::ToolDefinition::journal)). Journaled by default.
    pub journal: JournalPolicy,
    /// Worked examples of arguments, shown to the model where the provider takes examples;
    /// each is checked against the argument schema when the tool is registered (see
    /// [`ToolDefinition::input_examples`](crate::ToolDefinition::input_examples)). None by
    /// default.
    pub input_examples: Vec<Value>,
    /// Who may call the tool (see
    /// [`ToolDefinition::allowed_callers`](crate::ToolDefinition::allowed_callers)).
    /// [`ToolCallers::Both`] by default.
    pub allowed_callers: ToolCallers,
    /// What the tool asks of the provider requests that list it (see
    /// [`ToolDefinition::request_settings`](crate::ToolDefinition::request_settings)). The
    /// providers' defaults by default.
    pub request_settings: RequestSettings,
}
