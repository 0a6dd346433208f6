//! What a tool search asks and what it answers.

use serde::{Deserialize, Serialize};

/// How a [`ToolSearchQuery`]'s text is read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ToolSearchMode {
    /// Natural-language keywords, ranked by BM25 over each tool's name (weighted most), its
    /// parameters' names, its description and its parameters' descriptions.
    #[default]
    Keywords,
    /// A regular expression (ECMA-262-like syntax of the `regex` crate, case-insensitive)
    /// matched against the same text; tools whose name matches come first.
    Regex,
    /// Tool names, separated by commas or white space, matched exactly, in the order given.
    Exact,
}

/// A search over the deferred tools a scope can call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolSearchQuery {
    /// The keywords, the pattern or the names.
    pub text: String,
    /// How `text` is read.
    pub mode: ToolSearchMode,
    /// How many tools to return (and load) at most: 5 unless set; clamped to `1..=20`.
    pub max_results: usize,
}

impl ToolSearchQuery {
    /// How many tools a search returns unless it asks otherwise.
    pub(crate) const DEFAULT_MAX_RESULTS: usize = 5;
    /// The most tools one search returns.
    pub(crate) const MAX_RESULTS: usize = 20;

    /// A search of `text` read as `mode` says, returning at most 5 tools: set
    /// [`max_results`](Self::max_results) for more or fewer
    /// (`ToolSearchQuery { max_results: 10, ..ToolSearchQuery::new("send email", ToolSearchMode::Keywords) }`).
    pub fn new(text: impl Into<String>, mode: ToolSearchMode) -> Self {
        Self {
            text: text.into(),
            mode,
            max_results: Self::DEFAULT_MAX_RESULTS,
        }
    }

    /// `max_results` within its bounds.
    pub(crate) fn limit(&self) -> usize {
        self.max_results.clamp(1, Self::MAX_RESULTS)
    }
}

/// One tool a search found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolSearchHit {
    /// The tool's name.
    pub name: String,
    /// The first line of its description (at most 160 characters).
    pub description: String,
}

/// What a search found, best first, and which of those tools it loaded: the found tools that
/// were not loaded yet for the scope (the others were already in its tool list).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolSearchAnswer {
    /// The tools found, best first.
    pub tools: Vec<ToolSearchHit>,
    /// The names among `tools` this search added to the scope's tool list, in the order added.
    pub loaded: Vec<String>,
}
