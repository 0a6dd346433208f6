//! [`JournalPolicy`]: what a tool asks of the call journal. Plain data every build has, so a
//! definition (and `#[tool(journal = false)]`, `#[tool(journal_ttl_ms = ..)]`) can say it whether
//! or not the crate's `durable` feature is on; only a registry with a call store reads it.

/// How the call journal treats a tool's calls (see [`ToolOptions::journal`]), written field by
/// field: `JournalPolicy { enabled: false, answer_within_ms: None }` runs every attempt as
/// without a store; the default journals every call and never answers across call ids.
///
/// [`ToolOptions::journal`]: crate::call::ToolOptions::journal
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JournalPolicy {
    /// Whether calls are journaled at all (`#[tool(journal = false)]` turns it off). Default:
    /// `true`.
    pub enabled: bool,
    /// For a read-only tool: a call with the same tool, agent and arguments as one that
    /// completed less than this many milliseconds ago is answered from the journal, whatever
    /// its call id (`#[tool(journal_ttl_ms = ..)]`). Default: `None`, never.
    pub answer_within_ms: Option<u64>,
}

impl JournalPolicy {
    /// The default, for constant contexts (a tool's `INFO`).
    pub(crate) const JOURNALED: Self = Self {
        enabled: true,
        answer_within_ms: None,
    };
}

impl Default for JournalPolicy {
    fn default() -> Self {
        Self::JOURNALED
    }
}
