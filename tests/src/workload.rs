//! The argument types of the shared `search_files` workload, written with `#[derive(ToolArgs)]`
//! (and serde, so tests can compare both ways of reading the same JSON).

use dsh_tools::ToolArgs;
use serde::{Deserialize, Serialize};

/// How the pattern is matched.
#[derive(ToolArgs, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The pattern is plain text.
    Literal,
    /// The pattern is a regular expression.
    Regex,
}

/// How to walk the tree.
#[derive(ToolArgs, Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct SearchOptions {
    /// Follow symbolic links.
    pub follow_links: bool,
    /// How deep to descend.
    pub depth: Option<u32>,
}

/// The arguments of `search_files`.
#[derive(ToolArgs, Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct SearchArgs {
    /// Text or regex to look for.
    #[arg(min_length = 1)]
    pub pattern: String,
    /// Directory to search from.
    pub path: String,
    /// Stop after this many matches.
    #[arg(minimum = 1, maximum = 10_000)]
    pub max_results: Option<u32>,
    /// Whether case matters.
    pub case_sensitive: Option<bool>,
    /// Globs of the files to search.
    pub include: Option<Vec<String>>,
    pub mode: Option<Mode>,
    pub options: Option<SearchOptions>,
}
