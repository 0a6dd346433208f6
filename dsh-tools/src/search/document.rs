//! [`SearchDocument`]: the searchable text of one tool, made once from its name, description
//! and parameter schema, and kept for as long as the tool is registered.

use std::collections::HashMap;

use serde_json::Value;

use super::terms::for_each_term;

/// How much a term counts by where it was found: a word of the name says most about a tool.
const NAME_WEIGHT: f32 = 3.0;
const PARAMETER_NAME_WEIGHT: f32 = 1.5;
const DESCRIPTION_WEIGHT: f32 = 1.0;
const PARAMETER_DESCRIPTION_WEIGHT: f32 = 0.75;

/// How deep into nested parameter objects names and descriptions are collected.
const MAX_PARAMETER_DEPTH: usize = 4;

/// The longest one-line summary a hit shows.
const SUMMARY_CHARS: usize = 160;

/// One tool, as a search sees it.
#[derive(Debug)]
pub(crate) struct SearchDocument {
    /// The registration id of the tool (what an embedding of it is kept by).
    pub(crate) id: u64,
    pub(crate) name: String,
    /// The description's first line, bounded.
    pub(crate) summary: String,
    /// Every term with its weighted frequency, sorted by term.
    pub(crate) terms: Box<[(Box<str>, f32)]>,
    /// The sum of the weighted frequencies (BM25's document length).
    pub(crate) length: f32,
    /// The name, description and parameter names and descriptions, one per line, for the
    /// regular-expression mode.
    pub(crate) text: String,
}

impl SearchDocument {
    pub(crate) fn new(id: u64, name: &str, description: &str, parameters: &Value) -> Self {
        let mut weights: HashMap<String, f32> = HashMap::new();
        let mut add = |text: &str, weight: f32| {
            for_each_term(text, |term| *weights.entry(term).or_default() += weight);
        };
        add(name, NAME_WEIGHT);
        add(description, DESCRIPTION_WEIGHT);
        let mut text = format!("{name}\n{description}");
        let mut parameter_text = Vec::new();
        collect_parameters(parameters, 0, &mut parameter_text);
        for (text_of, is_name) in &parameter_text {
            let weight = if *is_name {
                PARAMETER_NAME_WEIGHT
            } else {
                PARAMETER_DESCRIPTION_WEIGHT
            };
            add(text_of, weight);
            text.push('\n');
            text.push_str(text_of);
        }
        let mut terms: Vec<(Box<str>, f32)> = weights
            .into_iter()
            .map(|(term, weight)| (term.into_boxed_str(), weight))
            .collect();
        terms.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let length = terms.iter().map(|(_, weight)| weight).sum();
        Self {
            id,
            name: name.to_owned(),
            summary: summary(description),
            terms: terms.into_boxed_slice(),
            length,
            text,
        }
    }
}

/// The property names (`true`) and descriptions (`false`) of a parameter schema, nested objects
/// and array items included, up to [`MAX_PARAMETER_DEPTH`].
fn collect_parameters<'v>(schema: &'v Value, depth: usize, out: &mut Vec<(&'v str, bool)>) {
    if depth > MAX_PARAMETER_DEPTH {
        return;
    }
    let Value::Object(node) = schema else {
        return;
    };
    if depth > 0
        && let Some(Value::String(description)) = node.get("description")
    {
        out.push((description, false));
    }
    if let Some(Value::Object(properties)) = node.get("properties") {
        for (name, property) in properties {
            out.push((name, true));
            collect_parameters(property, depth + 1, out);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(child @ Value::Object(_)) = node.get(key) {
            collect_parameters(child, depth + 1, out);
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = node.get(key) {
            for branch in branches {
                collect_parameters(branch, depth + 1, out);
            }
        }
    }
}

/// The first line of `description`, cut to [`SUMMARY_CHARS`] characters with `…`.
pub(crate) fn summary(description: &str) -> String {
    let line = description.trim().lines().next().unwrap_or("").trim();
    match line.char_indices().nth(SUMMARY_CHARS) {
        None => line.to_owned(),
        Some((cut, _)) => format!("{}…", line[..cut].trim_end()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_document_weighs_the_name_most_and_reads_nested_parameters() {
        let document = SearchDocument::new(
            1,
            "read_file",
            "Read a file from disk.\nSecond line.",
            &json!({"type": "object", "properties": {
                "path": {"type": "string", "description": "Absolute path"},
                "options": {"type": "object", "properties": {"encoding": {"type": "string"}}}
            }}),
        );
        let weight = |term: &str| {
            document
                .terms
                .iter()
                .find(|(t, _)| &**t == term)
                .map(|(_, w)| *w)
        };
        assert_eq!(weight("fil"), Some(NAME_WEIGHT + DESCRIPTION_WEIGHT));
        assert_eq!(
            weight("path"),
            Some(PARAMETER_NAME_WEIGHT + PARAMETER_DESCRIPTION_WEIGHT)
        );
        assert_eq!(weight("encod"), Some(PARAMETER_NAME_WEIGHT));
        assert_eq!(document.summary, "Read a file from disk.");
        assert!(document.text.contains("Absolute path"));
    }

    #[test]
    fn a_summary_is_one_bounded_line() {
        let long = "x".repeat(400);
        let cut = summary(&long);
        assert_eq!(cut.chars().count(), SUMMARY_CHARS + 1);
        assert!(cut.ends_with('…'));
        assert_eq!(summary("  \n"), "");
    }
}
