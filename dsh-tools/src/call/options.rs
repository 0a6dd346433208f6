//! [`ToolOptions`]: what a tool declares beside its name, schemas and body — its budgets, its
//! hints for people and bridges, where and how it may be called — as one plain value, the one
//! [`ToolDefinition::options`](crate::ToolDefinition::options) returns for every kind of tool.
//!
//! A definition keeps its options and hands out a reference, so a field read per call (the
//! budgets, the journal policy) is one virtual call and a field read; a definition that declares
//! none returns [`DEFAULT_OPTIONS`], built at compile time.
//!
//! The values its fields are made of live here too: [`ToolAnnotations`] (hints and title),
//! [`TaskSupport`], [`ToolOrigin`] and [`RequestSettings`] (which the tool's [`ToolSchema`]
//! carries to the providers).
//!
//! [`ToolSchema`]: crate::ToolSchema

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::callers::ToolCallers;
use crate::durable::policy::JournalPolicy;
use crate::present::{ToolCallKind, ToolIcon};

/// A tool's options ([`ToolDefinition::options`](crate::ToolDefinition::options)): given to an
/// [`FnTool`](crate::FnTool) with [`FnToolBuilder::options`](crate::call::FnToolBuilder::options),
/// made for a typed tool from its [`ToolInfo`](crate::call::ToolInfo), kept by a hand-written
/// definition. Set the fields that differ from the defaults and take the rest from
/// [`ToolOptions::default`]:
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
#[derive(Clone, Debug, PartialEq)]
pub struct ToolOptions {
    /// A time budget in milliseconds, enforced by the registry on every call (see
    /// [`CallLimits`](crate::policy::CallLimits)): at the deadline the body's
    /// [`ToolRun::signal`](crate::ToolRun::signal) is cancelled, and after a grace the body's
    /// future is dropped and the call fails with `TOOL_TIMEOUT`. `Some(0)` is refused at
    /// registration. Never sent to the model. `None` by default: the registry's default budget,
    /// if any.
    pub timeout_ms: Option<u64>,
    /// How long the body may still run after its deadline before its future is dropped: this
    /// tool's own grace, which replaces the registry's
    /// ([`CallLimits::timeout_grace`](crate::policy::CallLimits::timeout_grace)) for its calls.
    /// `None` by default: the registry's.
    pub timeout_grace: Option<Duration>,
    /// How many characters of text this tool's results show the model; longer content is cut
    /// with a marker saying how much was cut (the value stays whole). `None` by default: the
    /// registry's budget ([`CallLimits::max_result_chars`](crate::policy::CallLimits::max_result_chars));
    /// `Some(usize::MAX)` shows results whole; `Some(0)` is refused at registration.
    pub max_result_chars: Option<usize>,
    /// Behaviour hints for bridges and UIs, with the tool's human-readable title (`Read file`),
    /// for people rather than the model: published as the MCP tool's `title`, and the title of a
    /// call's card when no presenter gives one. The providers' tool lists have no field for it,
    /// so the model never sees it. None declared by default.
    pub annotations: ToolAnnotations,
    /// Images a UI may show beside the tool, in order, published as the MCP tool's `icons`; no
    /// provider's tool list carries them. None by default.
    pub icons: Vec<ToolIcon>,
    /// Whether the tool is deferred: callable, but left out of
    /// [`schemas`](crate::ToolScope::schemas) until a search (the built-in `tool_search`, or a
    /// provider's native search) or [`load_tools`](crate::ToolScope::load_tools) loads it for a
    /// scope. Read once, at registration. `false` by default.
    pub defer_loading: bool,
    /// Whether the tool may run as a task over MCP (see [`TaskSupport`]); never read by the
    /// pipeline. [`TaskSupport::Forbidden`] by default.
    pub task_support: TaskSupport,
    /// How a registry with a call store journals the tool's calls (see
    /// [`durable`](crate::durable)): journaled by default; `enabled: false` runs every
    /// attempt as without a store (`#[tool(journal = false)]`), and a read-only tool may have its
    /// calls answered from the journal within a time to live (`#[tool(journal_ttl_ms = ..)]`).
    /// Without a store it is never read.
    pub journal: JournalPolicy,
    /// Worked examples of arguments, for the model, shown where the provider takes examples
    /// (Anthropic's `input_examples`) and in the system-prompt catalog: read once, at
    /// registration, where each is validated against the argument schema (an invalid one refuses
    /// the registration, naming its violations). None by default.
    pub input_examples: Vec<Value>,
    /// Who may call the tool: the model directly, programs (`run_code`, and nested calls of
    /// other tools), or both. Read once, at registration; enforced by Code Mode (feature
    /// `code-mode`), without which no program runs. [`ToolCallers::Both`] by default.
    pub allowed_callers: ToolCallers,
    /// What the tool asks of the provider requests that list it: sent strict or not whatever the
    /// dialect, Anthropic's `eager_input_streaming` (see [`RequestSettings`]). Read once, at
    /// registration. The providers' defaults by default.
    pub request_settings: RequestSettings,
    /// Where the tool runs; read by telemetry only. [`ToolOrigin::Local`] by default; an
    /// imported MCP tool says [`ToolOrigin::Mcp`].
    pub origin: ToolOrigin,
}

impl ToolOptions {
    /// The defaults ([`Default`], in a `const`).
    pub(crate) const DEFAULT: Self = Self {
        timeout_ms: None,
        timeout_grace: None,
        max_result_chars: None,
        annotations: ToolAnnotations {
            title: None,
            kind: None,
            read_only: None,
            destructive: None,
            idempotent: None,
            open_world: None,
        },
        icons: Vec::new(),
        defer_loading: false,
        task_support: TaskSupport::Forbidden,
        journal: JournalPolicy::JOURNALED,
        input_examples: Vec::new(),
        allowed_callers: ToolCallers::Both,
        request_settings: RequestSettings::new(),
        origin: ToolOrigin::Local,
    };
}

impl Default for ToolOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The options of a definition that declares none: what the provided
/// [`ToolDefinition::options`](crate::ToolDefinition::options) returns.
pub(crate) static DEFAULT_OPTIONS: ToolOptions = ToolOptions::DEFAULT;

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
    /// A human-readable title (published as the MCP tool's `title`, and the title of a call's card
    /// when no presenter gives one).
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

// MCP's names for the supports, which only the MCP bridge reads and writes.
#[cfg(feature = "mcp")]
impl TaskSupport {
    /// The name MCP uses for it: `forbidden`, `optional` or `required`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Forbidden => "forbidden",
            Self::Optional => "optional",
            Self::Required => "required",
        }
    }

    /// The support MCP names `name`; `None` for any other name.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
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
