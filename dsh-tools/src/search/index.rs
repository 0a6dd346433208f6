//! [`SearchIndex`]: the deferred tools of one view, ranked for a query.
//!
//! Keyword mode is BM25 (k1 = 1.2, b = 0.75) over an inverted index, so a search costs what
//! the query's terms occur in, not the number of tools. The index is built once per set of
//! tools and then kept up to date one tool at a time ([`SearchIndex::insert`],
//! [`SearchIndex::remove`]): what it holds, and so every score, is the same as an index built
//! afresh from the same tools (the order of documents and postings is not, and nothing reads
//! it: ties are broken by name). Regular-expression mode scans each tool's text (it cannot use
//! the index); exact mode looks names up.

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

/// An inverted index over documents, answering with document positions. Positions are dense
/// (`0..len`) but in no particular order: a removal moves the last document into the hole.
#[derive(Clone, Debug)]
pub(crate) struct SearchIndex {
    documents: Vec<Arc<SearchDocument>>,
    /// For each term, the documents it occurs in with its weighted frequency there, in no
    /// order; a term no document has any more has no entry.
    postings: HashMap<Box<str>, Vec<(u32, f32)>>,
    by_name: HashMap<Box<str>, u32>,
    /// The sum of the documents' lengths. Every length is a sum of the term weights of
    /// `document.rs` (multiples of 1/4), so in an `f64` each addition and subtraction is exact
    /// and the total does not depend on the order documents came and went in.
    total_length: f64,
    average_length: f32,
    /// Each document's BM25 length normalisation, by position, unless `norms_stale`: a change
    /// of the average length changes them all, so changes mark them stale and
    /// [`SearchIndex::settle`] works them out again, once for a batch of changes.
    norms: Vec<f32>,
    norms_stale: bool,
}

impl SearchIndex {
    pub(crate) fn new(documents: Vec<Arc<SearchDocument>>) -> Self {
        let mut index = Self {
            documents: Vec::with_capacity(documents.len()),
            postings: HashMap::new(),
            by_name: HashMap::with_capacity(documents.len()),
            total_length: 0.0,
            average_length: 1.0,
            norms: Vec::new(),
            norms_stale: false,
        };
        for document in documents {
            index.insert(document);
        }
        index.settle();
        index
    }

    /// Works out the length normalisations again after changes (a search without it works
    /// them out for itself, the same to the last bit, at a float per document).
    pub(crate) fn settle(&mut self) {
        if self.norms_stale {
            self.norms = self.computed_norms();
            self.norms_stale = false;
        }
    }

    /// Each document's BM25 length normalisation, by position.
    fn computed_norms(&self) -> Vec<f32> {
        self.documents
            .iter()
            .map(|document| K1 * (1.0 - B + B * document.length / self.average_length))
            .collect()
    }

    /// Adds `document`, replacing the document of the same name if there is one.
    pub(crate) fn insert(&mut self, document: Arc<SearchDocument>) {
        self.remove(&document.name);
        let position = u32::try_from(self.documents.len()).unwrap_or(u32::MAX);
        self.total_length += f64::from(document.length);
        self.by_name.insert(document.name.as_str().into(), position);
        for (term, weight) in document.terms.iter() {
            match self.postings.get_mut(term) {
                Some(list) => list.push((position, *weight)),
                None => {
                    self.postings
                        .insert(term.clone(), vec![(position, *weight)]);
                }
            }
        }
        self.documents.push(document);
        self.average_length = self.average();
        self.norms.push(0.0);
        self.norms_stale = true;
    }

    /// Removes the document named `name` and returns it; the last document takes its position.
    pub(crate) fn remove(&mut self, name: &str) -> Option<Arc<SearchDocument>> {
        let position = self.by_name.remove(name)?;
        let document = self.documents.swap_remove(position as usize);
        self.norms.swap_remove(position as usize);
        self.norms_stale = true;
        for (term, _) in document.terms.iter() {
            if let Some(list) = self.postings.get_mut(term) {
                if let Some(at) = list.iter().position(|(at, _)| *at == position) {
                    list.swap_remove(at);
                }
                if list.is_empty() {
                    self.postings.remove(term);
                }
            }
        }
        // The document that was last now sits at `position`.
        let last = u32::try_from(self.documents.len()).unwrap_or(u32::MAX);
        if let Some(moved) = self.documents.get(position as usize) {
            if let Some(slot) = self.by_name.get_mut(moved.name.as_str()) {
                *slot = position;
            }
            for (term, _) in moved.terms.iter() {
                if let Some(list) = self.postings.get_mut(term)
                    && let Some(entry) = list.iter_mut().find(|(at, _)| *at == last)
                {
                    entry.0 = position;
                }
            }
        }
        self.total_length -= f64::from(document.length);
        self.average_length = self.average();
        Some(document)
    }

    /// How many documents there are.
    pub(crate) fn len(&self) -> usize {
        self.documents.len()
    }

    /// The document named `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&Arc<SearchDocument>> {
        self.by_name
            .get(name)
            .map(|&position| &self.documents[position as usize])
    }

    /// BM25's average document length (1 for no documents).
    fn average(&self) -> f32 {
        if self.documents.is_empty() {
            1.0
        } else {
            self.total_length as f32 / self.documents.len() as f32
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
        let words = weighted_terms(text);
        let count = self.documents.len();
        SCRATCH.with(|scratch| {
            // A search on this thread is never inside another: the buffers are free.
            let Ok(mut scratch) = scratch.try_borrow_mut() else {
                let mut fresh = Scratch::default();
                return self.ranked_in(&words, limit, &mut fresh);
            };
            if scratch.dirty {
                // A search that unwound left scores behind.
                scratch.scores.fill(0.0);
                scratch.last_word.fill(0);
                scratch.matched.fill(0);
            }
            scratch.dirty = true;
            let best = self.ranked_in(&words, limit, &mut scratch);
            scratch.dirty = false;
            // Keep a buffer no larger than needed for long (an index that shrank for good).
            if scratch.scores.len() > 4 * count.max(1_024) {
                *scratch = Scratch::default();
            }
            best
        })
    }

    /// [`SearchIndex::ranked`] in `scratch`'s buffers, left zeroed again after.
    fn ranked_in(&self, words: &[QueryWord], limit: usize, scratch: &mut Scratch) -> Vec<usize> {
        let count = self.documents.len();
        let several = words.len() > 1;
        if scratch.scores.len() < count {
            scratch.scores.resize(count, 0.0);
        }
        if several && scratch.last_word.len() < count {
            scratch.last_word.resize(count, 0);
            scratch.matched.resize(count, 0);
        }
        let Scratch {
            scores,
            last_word,
            matched,
            touched,
            ..
        } = scratch;
        touched.clear();
        let (last_word, matched) = if several {
            (&mut last_word[..count], &mut matched[..count])
        } else {
            (&mut [][..], &mut [][..])
        };
        self.accumulate(words, &mut scores[..count], last_word, matched, touched);
        let best = self.best(scores, touched, limit);
        for &position in touched.iter() {
            scores[position as usize] = 0.0;
        }
        if several {
            for &position in touched.iter() {
                last_word[position as usize] = 0;
                matched[position as usize] = 0;
            }
        }
        best
    }

    /// The `limit` best of the `touched` documents by `scores` (ties by name), best first.
    fn best(&self, scores: &[f32], touched: &[u32], limit: usize) -> Vec<usize> {
        let by_rank = |a: u32, b: u32| {
            scores[b as usize]
                .total_cmp(&scores[a as usize])
                .then_with(|| {
                    self.documents[a as usize]
                        .name
                        .cmp(&self.documents[b as usize].name)
                })
        };
        if limit == 0 {
            return Vec::new();
        }
        if touched.len() > limit && limit <= FEW {
            // One pass keeping the best few in order: most documents lose to the last kept at
            // the first comparison. The order is total (names are unique), so these are the
            // same few, in the same order, as a full sort's first ones.
            let mut best: Vec<u32> = Vec::with_capacity(limit + 1);
            for &position in touched {
                if best.len() == limit && by_rank(position, best[limit - 1]).is_ge() {
                    continue;
                }
                let at = best.partition_point(|&kept| by_rank(kept, position).is_lt());
                best.insert(at, position);
                best.truncate(limit);
            }
            return best.into_iter().map(|position| position as usize).collect();
        }
        let mut touched = touched.to_vec();
        let by_rank = |a: &u32, b: &u32| by_rank(*a, *b);
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

    /// Every document's keyword score for `text`, by position (zero where no term matched).
    ///
    /// BM25 over the query's terms and the terms they stand for, summed, then scaled by the
    /// share of the query's words the document matched ([`coverage`]): a tool that matches one
    /// generic word of a long request (`set` → `redis__set`) ranks under one that matches
    /// several of its words.
    pub(crate) fn scores(&self, text: &str) -> Vec<f32> {
        let count = self.documents.len();
        let words = weighted_terms(text);
        let several = words.len() > 1;
        let mut scores = vec![0.0_f32; count];
        let mut last_word = vec![0_u16; if several { count } else { 0 }];
        let mut matched = vec![0_u16; last_word.len()];
        let mut touched = Vec::new();
        self.accumulate(
            &words,
            &mut scores,
            &mut last_word,
            &mut matched,
            &mut touched,
        );
        scores
    }

    /// Adds up the scores of `words` into `scores` (zeroed, one per document), recording in
    /// `touched` the documents that matched; for a query of several words, `last_word` and
    /// `matched` (zeroed, one per document; empty otherwise) keep the last word that matched a
    /// document and how many did, and scale its score by [`coverage`].
    ///
    /// Dense scores (one float per tool) and the tools touched, so scoring hashes nothing and
    /// ranking looks only at the tools that matched.
    fn accumulate(
        &self,
        words: &[QueryWord],
        scores: &mut [f32],
        last_word: &mut [u16],
        matched: &mut [u16],
        touched: &mut Vec<u32>,
    ) {
        let count = self.documents.len() as f32;
        let several = words.len() > 1;
        let computed;
        let norms: &[f32] = if self.norms_stale {
            computed = self.computed_norms();
            &computed
        } else {
            &self.norms
        };
        for (word, query_word) in (1_u16..).zip(words) {
            for (term, boost) in query_word.weighted() {
                let Some(list) = self.postings.get(term) else {
                    continue;
                };
                let frequency = list.len() as f32;
                let idf = (1.0 + (count - frequency + 0.5) / (frequency + 0.5)).ln();
                for &(position, weight) in list {
                    let position = position as usize;
                    let norm = norms[position];
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
            for &position in touched.iter() {
                let share = f32::from(matched[position as usize]) / words.len() as f32;
                scores[position as usize] *= coverage(share);
            }
        }
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

/// Up to how many results a search keeps the best in one pass rather than selecting them.
const FEW: usize = 64;

/// The buffers a keyword search scores into, kept by each thread between its searches so that
/// a search zeroes only what it touched rather than one float per tool.
#[derive(Default)]
struct Scratch {
    scores: Vec<f32>,
    last_word: Vec<u16>,
    matched: Vec<u16>,
    touched: Vec<u32>,
    /// A search is under way (or unwound): the buffers may not be zeroed.
    dirty: bool,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

/// One word of a query: its own term, at full weight, and the terms it stands for (see
/// `synonyms.rs`) at [`SYNONYM_WEIGHT`].
struct QueryWord {
    term: String,
    synonyms: &'static [String],
}

impl QueryWord {
    /// The word's terms with their weights, each once: its own, then the terms it stands for
    /// in their order, leaving out any given already.
    fn weighted(&self) -> impl Iterator<Item = (&str, f32)> {
        let synonyms = self.synonyms;
        std::iter::once((self.term.as_str(), 1.0)).chain(
            synonyms
                .iter()
                .enumerate()
                .filter(move |(at, synonym)| {
                    **synonym != self.term && !synonyms[..*at].contains(synonym)
                })
                .map(|(_, synonym)| (synonym.as_str(), SYNONYM_WEIGHT)),
        )
    }
}

/// The query's words, each with its own term at full weight and the terms it stands for at
/// [`SYNONYM_WEIGHT`]; a word given twice counts once.
fn weighted_terms(text: &str) -> Vec<QueryWord> {
    let mut own = terms(text);
    own.sort_unstable();
    own.dedup();
    own.into_iter()
        .map(|term| QueryWord {
            synonyms: synonyms_of(&term),
            term,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::random_words::Random;
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
            names(
                &index,
                ToolSearchQuery::new("send an email", ToolSearchMode::Keywords)
            ),
            ["send_email", "list_emails", "weather"]
        );
        assert_eq!(
            names(
                &index,
                ToolSearchQuery {
                    max_results: 1,
                    ..ToolSearchQuery::new("email", ToolSearchMode::Keywords)
                }
            ),
            ["send_email"]
        );
        assert!(
            names(
                &index,
                ToolSearchQuery::new("kubernetes", ToolSearchMode::Keywords)
            )
            .is_empty()
        );
    }

    #[test]
    fn regex_puts_name_matches_first_and_refuses_bad_patterns() {
        let index = index(&[("b_mail", "x"), ("a_tool", "Writes mail."), ("c_mail", "y")]);
        assert_eq!(
            names(&index, ToolSearchQuery::new("MAIL", ToolSearchMode::Regex)),
            ["b_mail", "c_mail", "a_tool"]
        );
        let error = index
            .search(&ToolSearchQuery::new("(", ToolSearchMode::Regex))
            .unwrap_err();
        assert!(
            error.starts_with("\"(\" is not a regular expression"),
            "{error}"
        );
    }

    fn random_document(random: &mut Random, id: u64, name: &str) -> Arc<SearchDocument> {
        let mut sentence = |count: usize| {
            (0..1 + random.below(count))
                .map(|_| random.word())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let description = sentence(12);
        let parameter = sentence(2).replace(' ', "_");
        let about = sentence(6);
        Arc::new(SearchDocument::new(
            id,
            name,
            &description,
            &json!({"type": "object", "properties": {parameter: {"description": about}}}),
        ))
    }

    /// Every document's score for `text`, by name, as bits: equal means equal to the last bit.
    fn score_bits(index: &SearchIndex, text: &str) -> Vec<(String, u32)> {
        let scores = index.scores(text);
        let mut by_name: Vec<(String, u32)> = index
            .documents()
            .iter()
            .zip(&scores)
            .map(|(document, score)| (document.name.clone(), score.to_bits()))
            .collect();
        by_name.sort_unstable();
        by_name
    }

    /// The best `limit` documents for `text` by a sort of every matched one, as ranking was
    /// before it kept the best few in one pass.
    fn sorted_in_full(index: &SearchIndex, text: &str, limit: usize) -> Vec<usize> {
        let scores = index.scores(text);
        let mut touched: Vec<usize> = (0..scores.len()).filter(|&at| scores[at] > 0.0).collect();
        touched.sort_unstable_by(|a, b| {
            scores[*b]
                .total_cmp(&scores[*a])
                .then_with(|| index.documents[*a].name.cmp(&index.documents[*b].name))
        });
        touched.truncate(limit);
        touched
    }

    /// The terms of a query and their weights as they were listed before: a list per word,
    /// each term pushed unless listed already.
    fn listed(text: &str) -> Vec<Vec<(String, f32)>> {
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

    #[test]
    fn a_query_weighs_the_same_terms_as_listed() {
        let words = "cancel my booking, book a hotel; find the free time and delete, remove, \
                     answer email, change settings, add insert, bill the customer, copy clone";
        let weighted: Vec<Vec<(String, f32)>> = weighted_terms(words)
            .iter()
            .map(|word| {
                word.weighted()
                    .map(|(term, weight)| (term.to_owned(), weight))
                    .collect()
            })
            .collect();
        assert_eq!(weighted, listed(words));
        assert!(weighted.iter().any(|terms| terms.len() > 2));
    }

    #[test]
    fn an_index_updated_in_place_scores_as_one_built_afresh() {
        let queries = [
            "send an email to the customer",
            "delete booking",
            "hotel",
            "list calendar events in the city",
            "scale deployment table query",
        ];
        for seed in 1..=8_u64 {
            let mut random = Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut live: std::collections::BTreeMap<String, Arc<SearchDocument>> =
                std::collections::BTreeMap::new();
            let mut index = SearchIndex::new(Vec::new());
            for step in 0..400_u64 {
                let name = format!("tool_{}", random.below(60));
                if random.below(3) == 0 {
                    let removed = index.remove(&name);
                    assert_eq!(removed.is_some(), live.remove(&name).is_some());
                } else {
                    // New or replacing a document of the same name with other text.
                    let document = random_document(&mut random, step, &name);
                    live.insert(name, Arc::clone(&document));
                    index.insert(document);
                }
                if step % 7 != 0 {
                    continue;
                }
                let fresh = SearchIndex::new(live.values().cloned().collect());
                // Half the time with the normalisations worked out after the changes, half the
                // time left to the search.
                if step % 2 == 0 {
                    index.settle();
                }
                assert_eq!(index.len(), fresh.len());
                assert_eq!(
                    index.average_length.to_bits(),
                    fresh.average_length.to_bits()
                );
                let postings = |index: &SearchIndex| {
                    let mut all: Vec<(String, String, u32)> = index
                        .postings
                        .iter()
                        .flat_map(|(term, list)| {
                            list.iter().map(move |(position, weight)| {
                                (
                                    term.to_string(),
                                    index.document(*position as usize).name.clone(),
                                    weight.to_bits(),
                                )
                            })
                        })
                        .collect();
                    all.sort_unstable();
                    all
                };
                assert_eq!(
                    postings(&index),
                    postings(&fresh),
                    "seed {seed} step {step}"
                );
                for (name, position) in &index.by_name {
                    assert_eq!(&*index.documents[*position as usize].name, &**name);
                }
                for text in queries {
                    assert_eq!(score_bits(&index, text), score_bits(&fresh, text), "{text}");
                    for limit in [0, 1, 3, 5, FEW, FEW + 1, 1_000] {
                        let query = ToolSearchQuery::new(text, ToolSearchMode::Keywords);
                        let found = index.search_up_to(&query, limit).unwrap();
                        assert_eq!(found, sorted_in_full(&index, text, limit), "{text}");
                    }
                    for query in [
                        ToolSearchQuery {
                            max_results: 1_000,
                            ..ToolSearchQuery::new(text, ToolSearchMode::Keywords)
                        },
                        ToolSearchQuery {
                            max_results: 3,
                            ..ToolSearchQuery::new(text, ToolSearchMode::Keywords)
                        },
                        ToolSearchQuery::new("e.*l", ToolSearchMode::Regex),
                        ToolSearchQuery::new("tool_1 tool_7, tool_30", ToolSearchMode::Exact),
                    ] {
                        assert_eq!(names(&index, query.clone()), names(&fresh, query), "{text}");
                    }
                }
            }
        }
    }

    #[test]
    fn exact_names_keep_their_order() {
        let index = index(&[("a", ""), ("b", ""), ("c", "")]);
        assert_eq!(
            names(
                &index,
                ToolSearchQuery::new("c, a a missing", ToolSearchMode::Exact)
            ),
            ["c", "a"]
        );
    }
}
