//! [`JournalPolicy`]: what a tool asks of the call journal. Plain data every build has, so a
//! definition (and `#[tool(journal = false)]`, `#[tool(journal_ttl_ms = ..)]`) can say it whether
//! or not the crate's `durable` feature is on; only a registry with a call store reads it.

/// How the call journal treats a tool's calls (see [`ToolOptions::journal`]).
///
/// [`ToolOptions::journal`]: crate::call::ToolOptions::journal
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct JournalPolicy {
    /// Whether calls are journaled at all (`#[tool(journal = false)]` turns it off).
    pub enabled: bool,
    /// For a read-only tool: a call with the same tool, agent and arguments as one that
    /// completed less than this many milliseconds ago is answered from the journal, whatever
    /// its call id (`#[tool(journal_ttl_ms = ..)]`). `None`: never.
    pub answer_within_ms: Option<u64>,
}

impl JournalPolicy {
    /// Journaled, never answered across call ids (the default).
    pub const JOURNALED: Self = Self {
        enabled: true,
        answer_within_ms: None,
    };

    /// Not journaled: every attempt runs the body, as without a store.
    pub const OFF: Self = Self {
        enabled: false,
        answer_within_ms: None,
    };

    /// Journaled, and a read-only call with the same tool, agent and arguments as one completed
    /// within `ms` is answered from the journal.
    pub const fn answered_within(ms: u64) -> Self {
        Self {
            enabled: true,
            answer_within_ms: Some(ms),
        }
    }
}

impl Default for JournalPolicy {
    fn default() -> Self {
        Self::JOURNALED
    }
}
