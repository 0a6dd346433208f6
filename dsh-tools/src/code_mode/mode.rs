//! How a scope's model calls tools ([`CodeMode`]). Who may call a tool (`ToolCallers`) is plain
//! data every build has (`callers.rs`), re-exported beside it.

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
