//! [`ToolInfo`]: a typed tool's constants — its name, description, budgets and the settings the
//! registry reads of it — as one value `#[tool]` writes (or a hand-written `Tool` impl), built
//! at compile time.
//!
//! One constant rather than one per setting keeps the `Tool` trait to its behaviours; the
//! registry's table of a tool type copies it whole, so reading a setting per call is the same
//! field read it was.

use crate::call::options::TaskSupport;
use crate::callers::ToolCallers;
use crate::durable::policy::JournalPolicy;

/// What a typed tool declares besides its types and body: [`Tool::INFO`](crate::Tool::INFO). Build
/// it from [`ToolInfo::new`], setting the fields that differ:
///
/// ```
/// use dsh_tools::call::ToolInfo;
///
/// const INFO: ToolInfo = ToolInfo {
///     timeout_ms: Some(5_000),
///     defer_loading: true,
///     ..ToolInfo::new("read_file", "Reads a file of the workspace.")
/// };
/// assert_eq!(INFO.name, "read_file");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToolInfo {
    /// The name the model calls the tool by.
    pub name: &'static str,
    /// What the tool does, for the model.
    pub description: &'static str,
    /// A time budget in milliseconds, enforced by the registry (see
    /// [`ToolOptions::timeout_ms`](crate::call::ToolOptions::timeout_ms)); `#[tool(timeout_ms =
    /// ..)]` sets it. `None` by default.
    pub timeout_ms: Option<u64>,
    /// The grace after the deadline in milliseconds (see
    /// [`ToolOptions::timeout_grace`](crate::call::ToolOptions::timeout_grace));
    /// `#[tool(timeout_grace_ms = ..)]` sets it. `None` by default: the registry's.
    pub timeout_grace_ms: Option<u64>,
    /// The result budget in characters (see
    /// [`ToolOptions::max_result_chars`](crate::call::ToolOptions::max_result_chars));
    /// `#[tool(max_result_chars = ..)]` sets it. `None` by default: the registry's.
    pub max_result_chars: Option<usize>,
    /// Whether the body, [`render_value`](crate::Tool::render_value) or
    /// [`finalize`](crate::Tool::finalize) read the call's arguments as the model sent them
    /// ([`ToolExecution::arguments`], through the [`ToolRun`], or the `arguments` `render_value` is
    /// given). When none of them does, a call that no hook, observer or recorded span watches hands
    /// its arguments to the conversion by value (`ToolArgs::from_json_owned`): nothing could read
    /// them afterwards, so strings and arrays are moved into `Args` rather than copied, and the
    /// execution holds `null` from then on. `true` by default; `#[tool]` sets `false` for a
    /// function without a `&ToolRun` parameter (its `render = fn` never sees the arguments, and it
    /// has no finalizer).
    ///
    /// [`ToolExecution::arguments`]: crate::call::ToolExecution::arguments
    /// [`ToolRun`]: crate::ToolRun
    pub reads_call_arguments: bool,
    /// Whether the tool is deferred (see
    /// [`ToolOptions::defer_loading`](crate::call::ToolOptions::defer_loading));
    /// `#[tool(defer_loading)]` sets it. `false` by default.
    pub defer_loading: bool,
    /// Whether the tool may run as a task over MCP (see
    /// [`ToolOptions::task_support`](crate::call::ToolOptions::task_support)); `#[tool(task)]` sets
    /// it. [`TaskSupport::Forbidden`] by default.
    pub task_support: TaskSupport,
    /// How a registry with a call store journals the tool's calls (see
    /// [`ToolOptions::journal`](crate::call::ToolOptions::journal)); `#[tool(journal = false)]` and
    /// `#[tool(journal_ttl_ms = ..)]` set it. Journaled by default.
    pub journal: JournalPolicy,
    /// Worked examples of arguments, as JSON texts (see
    /// [`ToolOptions::input_examples`](crate::call::ToolOptions::input_examples)); `#[tool(example
    /// = r#"{…}"#)]` adds one per key, checked to be a JSON object at compile time and against the
    /// argument schema at registration. None by default.
    pub input_examples: &'static [&'static str],
    /// Who may call the tool (see
    /// [`ToolOptions::allowed_callers`](crate::call::ToolOptions::allowed_callers));
    /// `#[tool(callers = "model" | "program" | "both")]` sets it. [`ToolCallers::Both`] by default.
    pub allowed_callers: ToolCallers,
}

impl ToolInfo {
    /// A tool named `name` that does `description`, every other field at its default.
    pub const fn new(name: &'static str, description: &'static str) -> Self {
        Self {
            name,
            description,
            timeout_ms: None,
            timeout_grace_ms: None,
            max_result_chars: None,
            reads_call_arguments: true,
            defer_loading: false,
            task_support: TaskSupport::Forbidden,
            journal: JournalPolicy::JOURNALED,
            input_examples: &[],
            allowed_callers: ToolCallers::Both,
        }
    }
}
