//! The words people use for what tools do, mapped to the words tools are named and described
//! with: a query says "cancel my reservation", the tool is `delete_booking`; "answer the
//! thread", the tool is `reply_to_email`. A keyword search adds these terms to the query at a
//! lower weight, so a word of the query itself always counts more than one it stands for.

use std::collections::HashMap;
use std::sync::LazyLock;

use super::terms::terms;

/// How much a term a query's word stands for counts, against the word itself.
pub(crate) const SYNONYM_WEIGHT: f32 = 0.5;

/// Query words and the tool words they stand for. Only the verbs of common operations and a
/// few nouns every tool catalog has: domain vocabularies belong in tool descriptions.
const SYNONYMS: &[(&str, &[&str])] = &[
    ("add", &["create"]),
    ("answer", &["reply"]),
    ("appointment", &["event"]),
    ("book", &["create", "booking"]),
    ("cancel", &["delete"]),
    ("change", &["update"]),
    ("drop", &["delete"]),
    ("edit", &["update"]),
    ("email", &["send", "mail"]),
    ("erase", &["delete"]),
    ("fetch", &["get"]),
    ("find", &["search"]),
    ("look", &["search", "get"]),
    ("lookup", &["search", "get"]),
    ("make", &["create"]),
    ("meeting", &["event"]),
    ("message", &["send"]),
    ("modify", &["update"]),
    ("new", &["create"]),
    ("notify", &["send"]),
    ("open", &["create"]),
    ("read", &["get"]),
    ("remove", &["delete"]),
    ("rename", &["update"]),
    ("reply", &["answer"]),
    ("reservation", &["booking"]),
    ("reserve", &["create", "booking"]),
    ("respond", &["reply"]),
    ("retrieve", &["get"]),
    ("schedule", &["create", "event"]),
    ("see", &["get", "list"]),
    ("show", &["get", "list"]),
    ("start", &["create"]),
    ("text", &["send", "sms"]),
    ("view", &["get"]),
    ("write", &["create"]),
];

/// The table in search terms (it is written in plain words), made on the first search.
static TABLE: LazyLock<HashMap<String, Vec<String>>> = LazyLock::new(|| {
    let mut table: HashMap<String, Vec<String>> = HashMap::new();
    for (word, stands_for) in SYNONYMS {
        let Some(term) = terms(word).into_iter().next() else {
            continue;
        };
        table
            .entry(term)
            .or_default()
            .extend(stands_for.iter().flat_map(|word| terms(word)));
    }
    table
});

/// The terms `term` (already a search term) stands for, as search terms.
pub(crate) fn synonyms_of(term: &str) -> &'static [String] {
    TABLE.get(term).map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_stands_for_the_tool_words() {
        assert_eq!(synonyms_of(&terms("cancel")[0]), terms("delete"));
        assert_eq!(synonyms_of(&terms("cancels")[0]), terms("delete"));
        assert!(synonyms_of(&terms("weather")[0]).is_empty());
    }

    #[test]
    fn the_table_is_sorted() {
        let words: Vec<&str> = SYNONYMS.iter().map(|(word, _)| *word).collect();
        let mut sorted = words.clone();
        sorted.sort_unstable();
        assert_eq!(words, sorted);
    }
}
