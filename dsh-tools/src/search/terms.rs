//! Search terms: text split into lower-case words, identifiers split at `_`, `-`, `.`, `/` and
//! camel-case humps (`readFile`, `read_file` and `read-file` all give `read`, `file`), common
//! English endings folded (`files` → `file`, `reading` → `read`) and words too common to tell
//! tools apart dropped. The same function splits tool text and queries, so both meet in the
//! middle.

/// Words that say nothing about which tool is meant.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "any", "are", "as", "at", "be", "by", "can", "do", "for", "from", "how", "i",
    "if", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or", "our", "so", "some",
    "that", "the", "their", "them", "then", "this", "to", "tool", "use", "want", "was", "we",
    "what", "when", "which", "with", "you", "your",
];

/// Calls `emit` with each search term of `text`, in order.
pub(crate) fn for_each_term(text: &str, mut emit: impl FnMut(String)) {
    for word in words(text) {
        let lower = word.to_lowercase();
        if STOP_WORDS.binary_search(&lower.as_str()).is_ok() {
            continue;
        }
        emit(stem(lower));
    }
}

/// The search terms of `text`.
pub(crate) fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_term(text, |term| out.push(term));
    out
}

/// The words of `text`: runs of letters and digits, with camel-case humps split
/// (`getHTTPResponse` → `get`, `HTTP`, `Response`).
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|run| !run.is_empty())
        .flat_map(camel_humps)
}

/// Splits one alphanumeric run at lower→upper changes and before the last capital of an
/// upper-case run that goes on in lower case.
fn camel_humps(run: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = run.char_indices().collect();
    let mut parts = Vec::new();
    let mut start = 0;
    for window in 1..chars.len() {
        let (at, current) = chars[window];
        let previous = chars[window - 1].1;
        let next_is_lower = chars.get(window + 1).is_some_and(|(_, c)| c.is_lowercase());
        let boundary = (previous.is_lowercase() && current.is_uppercase())
            || (previous.is_uppercase() && current.is_uppercase() && next_is_lower)
            || (previous.is_alphabetic() && current.is_ascii_digit())
            || (previous.is_ascii_digit() && current.is_alphabetic());
        if boundary {
            parts.push(&run[start..at]);
            start = at;
        }
    }
    parts.push(&run[start..]);
    parts
}

/// Folds the endings that most often separate a query's word from a tool's (`files`/`file`,
/// `reads`/`read`, `searching`/`search`, `created`/`create`), conservatively: a short word is
/// kept whole, so `is`, `bus` or `news` stay themselves.
fn stem(mut word: String) -> String {
    let len = word.chars().count();
    if len <= 3 || !word.is_ascii() {
        return word;
    }
    for (ending, keep) in [
        ("ies", "y"),
        ("sses", "ss"),
        ("ing", ""),
        ("ed", ""),
        ("es", "e"),
        ("s", ""),
    ] {
        if word.len() > ending.len() + 3
            && word.ends_with(ending)
            && !(ending == "s" && (word.ends_with("ss") || word.ends_with("us")))
        {
            word.truncate(word.len() - ending.len());
            word.push_str(keep);
            break;
        }
    }
    // `creat(e)`, `writ(e)`: fold a final silent `e` too, so `create`, `created` and `creating`
    // meet.
    if word.len() > 4 && word.ends_with('e') && !word.ends_with("ee") {
        word.pop();
    }
    word
}

#[cfg(test)]
mod tests {
    use super::terms;

    #[test]
    fn identifiers_split_like_words() {
        assert_eq!(terms("read_file"), ["read", "file"]);
        assert_eq!(terms("readFile"), ["read", "file"]);
        assert_eq!(terms("getHTTPResponse"), ["get", "http", "respons"]);
        assert_eq!(terms("s3-bucket.v2"), ["s", "3", "bucket", "v", "2"]);
    }

    #[test]
    fn endings_fold_so_forms_of_one_word_meet() {
        assert_eq!(terms("files"), terms("file"));
        assert_eq!(terms("searching"), terms("search"));
        assert_eq!(terms("created"), terms("create"));
        assert_eq!(terms("creating"), terms("create"));
        assert_eq!(terms("queries"), terms("query"));
        assert_eq!(terms("news bus is"), ["news", "bus"]);
    }

    #[test]
    fn stop_words_are_sorted_and_dropped() {
        let mut sorted = super::STOP_WORDS.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, super::STOP_WORDS);
        assert_eq!(
            terms("Find the weather for a city"),
            ["find", "weather", "city"]
        );
    }
}
