//! How a scope's model calls tools ([`CodeMode`]) and who may call a tool ([`ToolCallers`]).

/// How the model of a scope calls tools. Set per scope; a scope that sets none inherits its
/// parent's, and the global layer's default is [`Native`](Self::Native).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CodeMode {
    /// One tool call per call, as without Code Mode; no `run_code`.
    #[default]
    Native,
    /// The model sees only `run_code` (and `tool_search` while tools are deferred): every other
    /// tool is called from a program. A direct call to another tool is `UNKNOWN_TOOL`, with a
    /// hint to call it from a program, decided before any policy.
    Code,
    /// The model sees its tools and `run_code`, and calls either way.
    Both,
}

/// Who may call a tool: the model directly, programs (`run_code`, and any nested call a tool
/// makes), or both — Anthropic's `allowed_callers`. A direct call a tool does not take, or a
/// nested call it does not take, is `UNKNOWN_TOOL`; the tool is listed only where its callers
/// can see it (the model's schemas, the programs' declaration).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ToolCallers {
    /// Both the model and programs (the default).
    #[default]
    Both,
    /// Only the model, directly: not from a program.
    Model,
    /// Only programs: the model reaches the tool through `run_code`.
    Program,
}

impl ToolCallers {
    /// Whether the model may call the tool directly.
    pub const fn takes_model(self) -> bool {
        !matches!(self, Self::Program)
    }

    /// Whether a program (a nested call) may call the tool.
    pub const fn takes_program(self) -> bool {
        !matches!(self, Self::Model)
    }
}
