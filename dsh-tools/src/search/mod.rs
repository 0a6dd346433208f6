//! Tool search: finding, among many tools, the few a request needs, by their names,
//! descriptions and parameters.
//!
//! Plain data and algorithms, knowing nothing of registries or calls: a [`SearchDocument`] is the
//! searchable text of one tool, a [`SearchIndex`] ranks documents for a query. The registry
//! keeps one index per visible set of deferred tools, up to date as tools come and go, and answers
//! `tool_search` calls through it.
//!
//! | file | owns |
//! |---|---|
//! | `query.rs` | [`ToolSearchQuery`], [`ToolSearchMode`], [`ToolSearchHit`], [`ToolSearchAnswer`] |
//! | `terms.rs` | splitting text into search terms (words, identifiers, light stemming) |
//! | `synonyms.rs` | the words a query uses for what tools do, and the tool words they stand for |
//! | `document.rs` | [`SearchDocument`]: one tool's weighted terms and its one-line summary |
//! | `index.rs` | [`SearchIndex`]: BM25 ranking, the regular-expression and exact-name modes |
//! | `embedding.rs` | [`ToolEmbedder`], [`HybridSearch`]: an application's embedding model fused with the keyword ranking |
//! | `random_words.rs` | (tests) random but repeatable tool texts for the index's differential tests |

mod document;
mod embedding;
mod index;
mod query;
#[cfg(test)]
pub(crate) mod random_words;
mod synonyms;
mod terms;

pub(crate) use self::document::SearchDocument;
pub use self::embedding::{HybridSearch, ToolEmbedder};
pub(crate) use self::embedding::{cosine, fuse};
pub(crate) use self::index::{MAX_QUERY_CHARS, SearchIndex, check_length};
pub use self::query::{ToolSearchAnswer, ToolSearchHit, ToolSearchMode, ToolSearchQuery};
