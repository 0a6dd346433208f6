//! [`SearchIndex`]: the deferred tools of one view, ranked for a query.
//!
//! Keyword mode is BM25 (k1 = 1.2, b = 0.75) over an inverted index, so a search costs what
//! the query's terms occur in, not the number of tools; the index is built once per set of
//! tools and kept until that set changes. Regular-expression mode scans each tool's text (it
//! cannot use the index); exact mode looks names up.

use std::collections::HashMap;
use std::sync::Arc;

use super::document::SearchDocument;
use super::query::{ToolSearchMode, ToolSearchQuery};
use super::synonyms::{SYNONYM_WEIGHT, synonyms_of};
use super::terms::terms;

const K1: f32 = 1.2;
const B: f32 = 0.75;

/// The most a compiled search pattern may take, so a hostile pattern costs bounded memory.
const REGEX_SIZE_LIMIT: usize = 1 << 20;
/// The longest pattern or query text a search takes.
pub(crate) const MAX_QUERY_CHARS: usize = 1_000;

/// An inverted index over documents, answering with document positions.
#[derive(Debug)]
pub(crate) struct SearchIndex {
    documents: Vec<Arc<SearchDocument>>,
    /// For each term, the documents it occurs in with its weighted frequency there.
    postings: HashMap<Box<str>, Vec<(u32, f32)>>,
    by_name: HashMap<String, u32>,
    average_length: f32,
}

impl SearchIndex {
    pub(crate) fn new(documents: Vec<Arc<SearchDocument>>) -> Self {
        let mut postings: HashMap<Box<str>, Vec<(u32, f32)>> = HashMap::new();
        let mut by_name = HashMap::with_capacity(documents.len());
        let mut total_length = 0.0;
        for (position, document) in documents.iter().enumerate() {
            let position = u32::try_from(position).unwrap_or(u32::MAX);
            total_length += document.length;
            by_name.insert(document.name.clone(), position);
            for (term, weight) in document.terms.iter() {
                match postings.get_mut(term) {
                    Some(list) => list.push((position, *weight)),
                    None => {
                        postings.insert(term.clone(), vec![(position, *weight)]);
                    }
                }
            }
        }
        let average_length = if documents.is_empty() {
            1.0
        } else {
            total_length / documents.len() as f32
        };
        Self {
            documents,
            postings,
            by_name,
            average_length,
        }
    }

    pub(crate) fn document(&self, position: usize) -> &SearchDocument {
        &self.documents[position]
    }

    /// Every document, by position.
    pub(crate) fn documents(&self) -> &[Arc<SearchDocument>] {
        &self.documents
    }

    /// The positions of the best documents for `query`, best first; an error names a pattern
    /// that is not a regular expression or a query too long.
    pub(crate) fn search(&self, query: &ToolSearchQuery) -> Result<Vec<usize>, String> {
        self.search_up_to(query, query.limit())
    }

    /// [`SearchIndex::search`] returning up to `limit` positions instead of the query's own
    /// limit: a view that leaves some documents out ranks them all, then keeps its count of the
    /// ones it shows.
    pub(crate) fn search_up_to(
        &self,
        query: &ToolSearchQuery,
        limit: usize,
    ) -> Result<Vec<usize>, String> {
        check_length(query)?;
        match query.mode {
            ToolSearchMode::Keywords => Ok(self.ranked(&query.text, limit)),
            ToolSearchMode::Regex => self.matching(&query.text, limit),
            ToolSearchMode::Exact => Ok(self.named(&query.text, limit)),
        }
    }

    fn ranked(&self, text: &str, limit: usize) -> Vec<usize> {
        let scores = self.scores(text);
        let mut touched: Vec<u32> = scores.touched;
        let scores = scores.scores;
        let by_rank = |a: &u32, b: &u32| {
            scores[*b as usize]
                .total_cmp(&scores[*a as usize])
                .then_with(|| {
                    self.documents[*a as usize]
                        .name
                        .cmp(&self.documents[*b as usize].name)
                })
        };
        if touched.len() > limit {
            touched.select_nth_unstable_by(limit, by_rank);
            touched.truncate(limit);
        }
        touched.sort_unstable_by(by_rank);
        touched
            .into_iter()
            .map(|position| position as usize)
            .collect()
    }

    /// Every document's keyword score for `text` (zero where no term matched), and the
    /// documents that matched.
    ///
    /// BM25 over the query's terms and the terms they stand for, summed, then scaled by the
    /// share of the query's words the document matched ([`coverage`]): a tool that matches one
    /// generic word of a long request (`set` → `redis__set`) ranks under one that matches
    /// several of its words.
    pub(crate) fn scores(&self, text: &str) -> Scores {
        let count = self.documents.len() as f32;
        // Dense scores (one float per tool, zeroed in one allocation) and the tools touched, so
        // scoring hashes nothing and ranking sorts only the tools that matched.
        let mut scores = vec![0.0_f32; self.documents.len()];
        let mut touched: Vec<u32> = Vec::new();
        let words = weighted_terms(text);
        // Per document (for a query of several words): the last word that matched it, and how
        // many words did.
        let several = words.len() > 1;
        let mut last_word = vec![0_u16; if several { self.documents.len() } else { 0 }];
        let mut matched = vec![0_u16; last_word.len()];
        for (word, terms) in (1_u16..).zip(&words) {
            for (term, boost) in terms {
                let Some(list) = self.postings.get(term.as_str()) else {
                    continue;
                };
                let frequency = list.len() as f32;
                let idf = (1.0 + (count - frequency + 0.5) / (frequency + 0.5)).ln();
                for &(position, weight) in list {
                    let position = position as usize;
                    let length = self.documents[position].length;
                    let norm = K1 * (1.0 - B + B * length / self.average_length);
                    let score = &mut scores[position];
                    if *score == 0.0 {
                        touched.push(position as u32);
                    }
                    *score += boost * idf * weight * (K1 + 1.0) / (weight + norm);
                    if several && last_word[position] != word {
                        last_word[position] = word;
                        matched[position] += 1;
                    }
                }
            }
        }
        if several {
            for &position in &touched {
                let share = f32::from(matched[position as usize]) / words.len() as f32;
                scores[position as usize] *= coverage(share);
            }
        }
        Scores { scores, touched }
    }

    fn matching(&self, pattern: &str, limit: usize) -> Result<Vec<usize>, String> {
        let regex = regex::RegexBuilder::new(pattern)
            .case_insensitive(true)
            .size_limit(REGEX_SIZE_LIMIT)
            .build()
            .map_err(|error| format!("{pattern:?} is not a regular expression: {error}"))?;
        let mut by_name = Vec::new();
        let mut by_text = Vec::new();
        for (position, document) in self.documents.iter().enumerate() {
            if regex.is_match(&document.name) {
                by_name.push(position);
            } else if regex.is_match(&document.text) {
                by_text.push(position);
            }
        }
        let name_of = |position: &usize| self.documents[*position].name.as_str();
        by_name.sort_unstable_by_key(name_of);
        by_text.sort_unstable_by_key(name_of);
        by_name.extend(by_text);
        by_name.truncate(limit);
        Ok(by_name)
    }

    fn named(&self, names: &str, limit: usize) -> Vec<usize> {
        let mut found = Vec::new();
        for name in names.split(|c: char| c == ',' || c.is_whitespace()) {
            if let Some(&position) = self.by_name.get(name) {
                let position = position as usize;
                if !found.contains(&position) {
                    found.push(position);
                }
            }
        }
        found.truncate(limit);
        found
    }
}

/// Refuses a query text longer than [`MAX_QUERY_CHARS`].
pub(crate) fn check_length(query: &ToolSearchQuery) -> Result<(), String> {
    if query.text.chars().count() > MAX_QUERY_CHARS {
        return Err(format!(
            "the query is longer than {MAX_QUERY_CHARS} characters"
        ));
    }
    Ok(())
}

/// How much of a document's score it keeps for matching `share` of the query's words: in
/// proportion (measured on the evaluation set of `dsh-tools-tests`, a square or a cube ranks
/// the same, no scaling loses a tenth of the first places).
fn coverage(share: f32) -> f32 {
    share
}

/// Every document's keyword score for a query.
pub(crate) struct Scores {
    /// One per document, by position; zero where nothing matched.
    pub(crate) scores: Vec<f32>,
    /// The positions of the documents that matched, in no order.
    pub(crate) touched: Vec<u32>,
}

/// The query's words, each with its own term at full weight and the terms it stands for (see
/// `synonyms.rs`) at [`SYNONYM_WEIGHT`]; a word given twice counts once.
fn weighted_terms(text: &str) -> Vec<Vec<(String, f32)>> {
    let mut own = terms(text);
    own.sort_unstable();
    own.dedup();
    own.into_iter()
        .map(|term| {
            let mut weighted = vec![(term.clone(), 1.0)];
            for synonym in synonyms_of(&term) {
                if !weighted.iter().any(|(seen, _)| seen == synonym) {
                    weighted.push((synonym.clone(), SYNONYM_WEIGHT));
                }
            }
            weighted
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn index(tools: &[(&str, &str)]) -> SearchIndex {
        SearchIndex::new(
            tools
                .iter()
                .enumerate()
                .map(|(id, (name, description))| {
                    Arc::new(SearchDocument::new(
                        id as u64,
                        name,
                        description,
                        &json!({}),
                    ))
                })
                .collect(),
        )
    }

    fn names(index: &SearchIndex, query: ToolSearchQuery) -> Vec<&str> {
        index
            .search(&query)
            .unwrap()
            .into_iter()
            .map(|position| index.document(position).name.as_str())
            .collect()
    }

    #[test]
    fn keywords_rank_by_bm25_with_the_name_first() {
        let index = index(&[
            ("send_email", "Send an email message to a recipient."),
            ("read_file", "Read a file from disk."),
            ("list_emails", "List the messages of a mailbox."),
            (
                "weather",
                "The forecast for a city; also mentions email once.",
            ),
        ]);
        assert_eq!(
            names(&index, ToolSearchQuery::keywords("send an email")),
            ["send_email", "list_emails", "weather"]
        );
        assert_eq!(
            names(
                &index,
                ToolSearchQuery::keywords("email").with_max_results(1)
            ),
            ["send_email"]
        );
        assert!(names(&index, ToolSearchQuery::keywords("kubernetes")).is_empty());
    }

    #[test]
    fn regex_puts_name_matches_first_and_refuses_bad_patterns() {
        let index = index(&[("b_mail", "x"), ("a_tool", "Writes mail."), ("c_mail", "y")]);
        assert_eq!(
            names(&index, ToolSearchQuery::regex("MAIL")),
            ["b_mail", "c_mail", "a_tool"]
        );
        let error = index.search(&ToolSearchQuery::regex("(")).unwrap_err();
        assert!(
            error.starts_with("\"(\" is not a regular expression"),
            "{error}"
        );
    }

    #[test]
    fn exact_names_keep_their_order() {
        let index = index(&[("a", ""), ("b", ""), ("c", "")]);
        assert_eq!(
            names(&index, ToolSearchQuery::exact("c, a a missing")),
            ["c", "a"]
        );
    }
}
