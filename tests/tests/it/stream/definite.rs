//! Definite violations (`Schema::definite_violations`) of arguments still being streamed: a
//! prefix of a valid payload has none, whatever the schema and wherever the text is cut, and the
//! definite violations of any prefix are among the final validation's own (the same paths and
//! messages). Schemas come from the typed-schema generator the schema engine's differential test
//! uses, payloads from its value generators (mostly valid, often subtly not), streamed one
//! character at a time. `PROPTEST_CASES` sets the number of cases (default 1,000). A final report
//! cut at `MAX_REPORTED_VIOLATIONS` is the one case left out: the prefix may name a violation
//! the cut report does not show.

use std::collections::BTreeSet;

use dsh_tools::Value;
use dsh_tools::json;
use dsh_tools::providers::stream::PartialJson;
use dsh_tools::schema::{DefiniteProgress, Schema, Violations};
use dsh_tools_tests::json_values::{cases, value_for};
use dsh_tools_tests::typed_schemas::schema_strategy;
use proptest::prelude::*;

/// The path and message of each violation: what the model is shown. (A count found so far,
/// `maxItems` or `maxLength` of an open value, says what it found so far.)
fn texts(violations: &Violations) -> BTreeSet<(String, String)> {
    violations
        .reported
        .iter()
        .map(|violation| (violation.path().to_owned(), violation.message().to_owned()))
        .collect()
}

/// The definite violations after each character of `text`, fed one character at a time.
fn each_prefix(schema: &Schema, text: &str, mut visit: impl FnMut(usize, Result<(), Violations>)) {
    let mut reader = PartialJson::default();
    for (at, c) in text.char_indices() {
        reader
            .push(&text[at..at + c.len_utf8()])
            .expect("a prefix of JSON");
        visit(at + c.len_utf8(), schema.definite_violations(&reader));
    }
    reader.end().expect("whole JSON");
    visit(text.len(), schema.definite_violations(&reader));
}

fn text_of(value: &Value, pretty: bool) -> String {
    if pretty {
        serde_json::to_string_pretty(value).expect("JSON")
    } else {
        serde_json::to_string(value).expect("JSON")
    }
}

/// Longest payload text streamed: each of its prefixes is checked, so the cost grows with the
/// square of its length.
const MAX_TEXT: usize = 512;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        // Generated values are mostly valid and mostly short; the others are skipped.
        max_global_rejects: cases().saturating_mul(20),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// No prefix of a valid payload has a definite violation.
    #[test]
    fn prefixes_of_valid_payloads_have_none(
        (schema, value) in schema_strategy().prop_flat_map(|schema| {
            let values = value_for(&schema);
            (Just(schema), values)
        }),
        pretty in any::<bool>(),
    ) {
        prop_assume!(schema.is_valid(&value));
        let text = text_of(&value, pretty);
        prop_assume!(text.len() <= MAX_TEXT);
        let mut found = None;
        each_prefix(&schema, &text, |at, result| {
            if found.is_none() && let Err(violations) = result {
                found = Some((at, violations.to_string()));
            }
        });
        prop_assert!(found.is_none(), "{text} at {:?}", found);
    }

    /// Every definite violation of a prefix is one the final validation reports, and the whole
    /// text's are exactly the final ones.
    #[test]
    fn definite_violations_are_among_the_final_ones(
        (schema, value) in schema_strategy().prop_flat_map(|schema| {
            let values = value_for(&schema);
            (Just(schema), values)
        }),
        pretty in any::<bool>(),
    ) {
        let text = text_of(&value, pretty);
        prop_assume!(text.len() <= MAX_TEXT);
        let last = schema.validate(&value);
        // A report cut at `MAX_REPORTED_VIOLATIONS` leaves out violations a prefix may name.
        prop_assume!(last.as_ref().err().is_none_or(|violations| violations.omitted == 0));
        let last_texts = match &last {
            Ok(()) => BTreeSet::new(),
            Err(violations) => texts(violations),
        };
        let mut stray = None;
        let mut at_end = None;
        each_prefix(&schema, &text, |at, result| {
            let found = match &result {
                Ok(()) => BTreeSet::new(),
                Err(violations) => texts(violations),
            };
            if stray.is_none() && !found.is_subset(&last_texts) {
                stray = Some((at, found.difference(&last_texts).cloned().collect::<Vec<_>>()));
            }
            if at == text.len() {
                at_end = Some(result.map_err(|violations| violations.to_string()));
            }
        });
        prop_assert!(stray.is_none(), "{text}: {stray:?} not in {last_texts:?}");
        prop_assert_eq!(at_end, Some(last.map_err(|violations| violations.to_string())));
    }

    /// A stream checked as it grows with one `DefiniteProgress` finds, after every fragment,
    /// exactly what a check of the value so far finds, in the same order, wherever the text
    /// is cut (fragments of 1 to 7 characters).
    #[test]
    fn checks_carried_across_a_stream_find_what_a_whole_check_finds(
        (schema, value) in schema_strategy().prop_flat_map(|schema| {
            let values = value_for(&schema);
            (Just(schema), values)
        }),
        pretty in any::<bool>(),
        cut in 1usize..8,
    ) {
        let text = text_of(&value, pretty);
        prop_assume!(text.len() <= MAX_TEXT);
        let characters: Vec<(usize, char)> = text.char_indices().collect();
        let mut reader = PartialJson::default();
        let mut progress = DefiniteProgress::default();
        for piece in characters.chunks(cut) {
            let start = piece[0].0;
            let (last, c) = piece[piece.len() - 1];
            reader.push(&text[start..last + c.len_utf8()]).expect("a prefix of JSON");
            let carried = schema
                .definite_violations_since(&reader, &mut progress)
                .map_err(|violations| violations.to_string());
            if reader.is_complete() {
                // The final validation is the caller's.
                prop_assert_eq!(carried, Ok(()));
                continue;
            }
            let whole = schema
                .definite_violations(&reader)
                .map_err(|violations| violations.to_string());
            prop_assert_eq!(carried, whole, "{} after {} bytes", text, last + c.len_utf8());
        }
    }
}

/// What is definite, case by case: a finished value of the wrong type, an undeclared key
/// whose value has begun, a closed string outside its pattern, an open string already too
/// long, too many items — and what is not yet (a number still being written, a string that may
/// still match, a missing key in an open object).
#[test]
fn what_is_definite_and_what_is_not_yet() {
    let schema = Schema::object()
        .required("path", Schema::string().pattern("^/").unwrap())
        .required("mode", Schema::enumeration(["read", "write"]))
        .optional("limit", Schema::integer().range(..=10))
        .optional(
            "tags",
            Schema::array(Schema::string().length(..=3)).item_count(..=2),
        )
        .build();
    let steps: &[(&str, &[&str])] = &[
        (r#"{"pa"#, &[]),
        (r#"th": "sr"#, &[]),
        (r#"c", "#, &[r#""path" must match the pattern "^/""#]),
        (r#""mode": "re"#, &[r#""path" must match the pattern "^/""#]),
        (
            r#"ad", "limit": 1"#,
            &[r#""path" must match the pattern "^/""#],
        ),
        // `12` is over the maximum, but `1` could have been `1.5` or `1e0`: only its end tells.
        (
            r#"2, "tags": ["abcd"#,
            &[
                r#""path" must match the pattern "^/""#,
                r#""limit" must be <= 10"#,
                r#""tags[0]" must be at most 3 characters long"#,
            ],
        ),
        (
            r#"", "a", "b""#,
            &[
                r#""path" must match the pattern "^/""#,
                r#""limit" must be <= 10"#,
                r#""tags" must have at most 2 items"#,
                r#""tags[0]" must be at most 3 characters long"#,
            ],
        ),
        (
            r#"], "x": {"#,
            &[
                r#""path" must match the pattern "^/""#,
                r#""limit" must be <= 10"#,
                r#""tags" must have at most 2 items"#,
                r#""tags[0]" must be at most 3 characters long"#,
                r#""x" is not a declared property (additionalProperties: false)"#,
            ],
        ),
    ];
    let mut reader = PartialJson::default();
    for (fragment, expected) in steps {
        reader.push(fragment).unwrap();
        let found: Vec<String> = match schema.definite_violations(&reader) {
            Ok(()) => Vec::new(),
            Err(violations) => violations
                .reported
                .iter()
                .map(|v| v.message().to_owned())
                .collect(),
        };
        assert_eq!(found, *expected, "after {fragment:?}");
    }
    // A wrong type is definite as soon as the type is known; a missing key only at the end.
    let mut reader = PartialJson::default();
    reader.push(r#"{"path": ["#).unwrap();
    assert_eq!(
        schema.definite_violations(&reader).unwrap_err().to_string(),
        r#""path" must be a string"#
    );
    reader.push(r#"]}"#).unwrap();
    assert_eq!(
        schema.definite_violations(&reader).unwrap_err().to_string(),
        schema
            .validate(&json!({"path": []}))
            .unwrap_err()
            .to_string()
    );
}
