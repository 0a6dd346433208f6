//! Search terms: text split into lower-case words, identifiers split at `_`, `-`, `.`, `/` and
//! camel-case humps (`readFile`, `read_file` and `read-file` split alike), English inflections
//! folded (`files`, `filed` and `file` meet; `meetings` → `meet`) and words too common to tell
//! tools apart dropped. The same function splits tool text and queries, so both meet in the
//! middle.

/// Words that say nothing about which tool is meant.
const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "all",
    "also",
    "an",
    "and",
    "any",
    "anything",
    "are",
    "as",
    "at",
    "be",
    "been",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "every",
    "for",
    "from",
    "had",
    "has",
    "have",
    "he",
    "her",
    "here",
    "him",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "just",
    "like",
    "many",
    "me",
    "much",
    "my",
    "need",
    "not",
    "now",
    "of",
    "on",
    "or",
    "our",
    "please",
    "really",
    "right",
    "she",
    "should",
    "so",
    "some",
    "something",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "to",
    "tool",
    "us",
    "use",
    "want",
    "was",
    "we",
    "what",
    "when",
    "where",
    "which",
    "who",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
];

/// Calls `emit` with each search term of `text`, in order.
pub(crate) fn for_each_term(text: &str, mut emit: impl FnMut(String)) {
    for_each_word(text, |word| {
        let lower = word.to_lowercase();
        if STOP_WORDS.binary_search(&lower.as_str()).is_ok() {
            return;
        }
        emit(stem(lower));
    });
}

/// The search terms of `text`.
pub(crate) fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_term(text, |term| out.push(term));
    out
}

/// Calls `emit` with each word of `text`: runs of letters and digits, with camel-case humps
/// split (`getHTTPResponse` → `get`, `HTTP`, `Response`).
fn for_each_word<'t>(text: &'t str, mut emit: impl FnMut(&'t str)) {
    for run in text.split(|c: char| !c.is_alphanumeric()) {
        if !run.is_empty() {
            camel_humps(run, &mut emit);
        }
    }
}

/// Splits one alphanumeric run at lower→upper changes and before the last capital of an
/// upper-case run that goes on in lower case, reading each character once and keeping nothing.
fn camel_humps<'t>(run: &'t str, emit: &mut impl FnMut(&'t str)) {
    let mut chars = run.char_indices().peekable();
    let mut start = 0;
    let Some((_, mut previous)) = chars.next() else {
        return;
    };
    while let Some((at, current)) = chars.next() {
        let next_is_lower = chars.peek().is_some_and(|(_, c)| c.is_lowercase());
        let boundary = (previous.is_lowercase() && current.is_uppercase())
            || (previous.is_uppercase() && current.is_uppercase() && next_is_lower)
            || (previous.is_alphabetic() && current.is_ascii_digit())
            || (previous.is_ascii_digit() && current.is_alphabetic());
        if boundary {
            emit(&run[start..at]);
            start = at;
        }
        previous = current;
    }
    emit(&run[start..]);
}

/// Words whose final `s` is not a plural (`news` is not `new`s, `alias` not `alia`s).
const KEEP_FINAL_S: &[&str] = &[
    "alias", "always", "analysis", "atlas", "bonus", "canvas", "chaos", "does", "has", "its",
    "news", "plus", "series", "species", "status", "this", "was", "yes",
];

/// Folds the inflections that separate a query's word from a tool's, in order, so that one
/// word may lose several (`meetings` → `meeting` → `meet`, `settings` → `set`): a plural or
/// third-person `s` (`ies` → `y`), then `ing` or `ed` when a syllable is left (`ied` → `y`),
/// undoubling the consonant that leaves (`sett` → `set`, `logg` → `log`), then a final silent
/// `e` (`create`, `created` and `creating` all give `creat`). Short words are kept whole, so
/// `is`, `bus` or `string` stay themselves.
fn stem(mut word: String) -> String {
    if word.len() <= 3 || !word.is_ascii() {
        return word;
    }
    // A plural or a third person.
    if word.ends_with("sses") {
        word.truncate(word.len() - 2);
    } else if word.ends_with("ies") && word.len() > 4 {
        word.truncate(word.len() - 3);
        word.push('y');
    } else if word.ends_with('s')
        && !word.ends_with("ss")
        && !word.ends_with("us")
        && !word.ends_with("is")
        && KEEP_FINAL_S.binary_search(&word.as_str()).is_err()
    {
        word.pop();
    }
    // A participle or a past tense, when what is left still has a vowel.
    if word.ends_with("ied") && word.len() > 4 {
        word.truncate(word.len() - 3);
        word.push('y');
    } else if !word.ends_with("eed") {
        for ending in ["ing", "ed"] {
            let Some(rest) = word.strip_suffix(ending) else {
                continue;
            };
            if rest.len() >= 3 && rest.bytes().any(is_vowel) {
                word.truncate(rest.len());
                undouble(&mut word);
            }
            break;
        }
    }
    // `creat(e)`, `writ(e)`: a final silent `e`, so the verb meets its inflections.
    if word.len() >= 4 && word.ends_with('e') && !word.ends_with("ee") {
        word.pop();
    }
    word
}

fn is_vowel(byte: u8) -> bool {
    matches!(byte, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

/// `sett` → `set`, `runn` → `run`: a doubled final consonant an ending left behind, but not
/// `ll`, `ss` or `zz`, which the word had before (`fill`, `pass`, `buzz`).
fn undouble(word: &mut String) {
    let bytes = word.as_bytes();
    let len = bytes.len();
    if len >= 3
        && bytes[len - 1] == bytes[len - 2]
        && !is_vowel(bytes[len - 1])
        && !matches!(bytes[len - 1], b'l' | b's' | b'z')
    {
        word.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::terms;

    #[test]
    fn identifiers_split_like_words() {
        assert_eq!(terms("read_file"), ["read", "fil"]);
        assert_eq!(terms("readFile"), ["read", "fil"]);
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
    fn a_word_loses_every_inflection_it_has() {
        for (forms, stem) in [
            (&["meeting", "meetings", "meet", "meets"][..], "meet"),
            (&["booking", "bookings", "book", "booked"], "book"),
            (&["setting", "settings", "set", "sets"], "set"),
            (&["listing", "listings", "list", "listed"], "list"),
            (&["recording", "recordings", "record", "recorded"], "record"),
            (&["logs", "logging", "log", "logged"], "log"),
            (&["replies", "replied", "reply"], "reply"),
            (&["running", "runs", "run"], "run"),
            (&["updates", "updating", "updated", "update"], "updat"),
            (&["matches", "matching", "match"], "match"),
        ] {
            for form in forms {
                assert_eq!(terms(form), [stem], "{form}");
            }
        }
        assert_eq!(
            terms("string status address filling"),
            ["string", "status", "address", "fill"]
        );
    }

    /// How words were split before they were split in one pass: every character collected, then
    /// the runs cut.
    fn humps_collected(run: &str) -> Vec<&str> {
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

    #[test]
    fn words_split_in_one_pass_as_they_did_collected() {
        let alphabet: Vec<char> = "aZ9éÉ_ -xY1ßΣσ".chars().collect();
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..5_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let text: String = (0..(state % 12) as usize)
                .map(|at| alphabet[((state >> (at * 4)) % alphabet.len() as u64) as usize])
                .collect();
            let mut split = Vec::new();
            super::for_each_word(&text, |word| split.push(word));
            let collected: Vec<&str> = text
                .split(|c: char| !c.is_alphanumeric())
                .filter(|run| !run.is_empty())
                .flat_map(humps_collected)
                .collect();
            assert_eq!(split, collected, "{text:?}");
        }
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
