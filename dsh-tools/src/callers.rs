//! [`ToolCallers`]: who may call a tool — the model directly, programs, or both. Plain data,
//! available without Code Mode so that a definition (and `#[tool(callers = ..)]`) can say it in
//! every build; Code Mode (feature `code-mode`) is what enforces it.

/// Who may call a tool: the model directly, programs (`run_code`, and any nested call a tool
/// makes), or both — Anthropic's `allowed_callers`. With Code Mode (feature `code-mode`), a
/// direct call a tool does not take, or a nested call it does not take, is `UNKNOWN_TOOL`; the
/// tool is listed only where its callers can see it (the model's schemas, the programs'
/// declaration). Without the feature no program runs and nothing reads it: every tool is listed
/// to and called by the model as if it took [`Both`](Self::Both). The provider views send it as
/// each tool's `allowed_callers` when the provider runs the programs
/// (`ProviderTools::programmatic`).
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
    /// Whether the model may call the tool directly (only Code Mode asks).
    #[cfg(feature = "code-mode")]
    pub(crate) const fn takes_model(self) -> bool {
        !matches!(self, Self::Program)
    }

    /// Whether a program (a nested call) may call the tool.
    pub(crate) const fn takes_program(self) -> bool {
        !matches!(self, Self::Model)
    }
}
