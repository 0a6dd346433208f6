//! Macro-generated argument handling on the shared `search_files` workload, against serde and the
//! `jsonschema` crate in the same run.
//!
//! - a: `serde_json::from_str::<SearchArgs>` of the valid string (parse + typed deserialization);
//! - b2: `serde_json::from_value::<SearchArgs>` of the parsed value (the clone that `from_value`
//!   consumes is made outside the measured section);
//! - c1: `jsonschema` (draft 2020-12, compiled once) `is_valid` on the valid value;
//! - c1_generated: `jsonschema`'s validator generated at compile time (its `validator` macro)
//!   from the derive's own schema (`../data/search_files_derived.json`, checked against the
//!   derive when the suite is built), `is_valid` on the valid value;
//! - ours: the derive's specialized check (`is_valid_json`), the schema interpreter's `is_valid`
//!   on the derived schema, and validation + typed conversion (`ToolContract::parse`, what a
//!   `#[tool]` runs before its body).
//!
//! Targets: validation + conversion ≤ 1.2 × b2; macro-generated validation alone ≤ 1.0 ×
//! c1_generated (generated code against generated code), shown against c1 as well.
//!
//! Parsing a model's raw argument string (`raw_…`): `serde_json::from_str::<Value>` against ours
//! (`parse_arguments`, which also refuses repeated keys), on the workload's valid string and on a
//! 1,000-key object, to show what the repeated-key check costs.

// The argument types exist to be converted into; the bench never reads their fields.
#![allow(dead_code)]

use std::hint::black_box;
use std::sync::Arc;

use dsh_tools::{__private::parse_arguments, ToolArgs, call::ToolContract};
use dsh_tools_tests::bench::{Case, Suite, SuiteDef, Target};
use serde::Deserialize;
use serde_json::Value;

const WORKLOAD: &str = include_str!("../data/search_files.json");

/// The derive's schema of [`SearchArgs`], as `jsonschema`'s macro reads it at compile time.
const DERIVED_SCHEMA: &str = include_str!("../data/search_files_derived.json");

pub(crate) const SUITE: SuiteDef = SuiteDef::new("args", suite);

/// Callgrind iterations of the 1,000-key cases (about two million instructions each).
const LARGE_PROFILE_ITERATIONS: u64 = 200;

#[derive(ToolArgs, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
enum Mode {
    Literal,
    Regex,
}

#[derive(ToolArgs, Deserialize, Debug)]
struct SearchOptions {
    follow_links: bool,
    depth: Option<u32>,
}

/// The arguments of `search_files`, as the workload's README describes them.
#[derive(ToolArgs, Deserialize, Debug)]
struct SearchArgs {
    /// Text or regex to look for.
    #[arg(min_length = 1)]
    pattern: String,
    /// Directory to search from.
    path: String,
    #[arg(minimum = 1, maximum = 10_000)]
    max_results: Option<u32>,
    case_sensitive: Option<bool>,
    include: Option<Vec<String>>,
    mode: Option<Mode>,
    options: Option<SearchOptions>,
}

/// `jsonschema`'s validator of [`SearchArgs`]'s schema, generated at compile time from the same
/// file as [`DERIVED_SCHEMA`] (the path is the tests crate's, where the macro looks).
#[jsonschema_codegen::validator(path = "benches/data/search_files_derived.json", draft = Draft202012)]
struct GeneratedOracle;

/// A flat object of 1,000 distinct string-valued keys, as text.
fn thousand_keys_text() -> String {
    serde_json::to_string(&Value::Object(
        (0..1_000)
            .map(|n| (format!("key_{n}"), Value::from(format!("value {n}"))))
            .collect(),
    ))
    .expect("serializable")
}

fn suite() -> Suite {
    let workload: Value = serde_json::from_str(WORKLOAD).expect("workload is JSON");
    let valid = Arc::new(workload["valid_args"].clone());
    let valid_text = serde_json::to_string(&*valid).expect("serializable");
    let contract = Arc::new(ToolContract::of::<SearchArgs, String>());
    let schema = Arc::new(SearchArgs::schema().expect("schema builds"));
    let oracle =
        Arc::new(jsonschema::draft202012::new(&workload["args_schema"]).expect("oracle compiles"));
    // The generated oracle checks the schema the derive renders, not a copy that could drift.
    let derived: Value = serde_json::from_str(DERIVED_SCHEMA).expect("derived schema is JSON");
    assert_eq!(
        schema.to_json_schema(),
        derived,
        "benches/data/search_files_derived.json is no longer the derive's schema of SearchArgs: \
         write the derive's rendering there"
    );
    // The comparison only means something when every side accepts the workload.
    assert!(
        schema.is_valid(&valid)
            && oracle.is_valid(&valid)
            && GeneratedOracle::is_valid(&valid)
            && SearchArgs::is_valid_json(&valid)
    );
    let invalid = &workload["invalid_args"];
    assert!(!GeneratedOracle::is_valid(invalid) && !SearchArgs::is_valid_json(invalid));
    assert!(contract.parse::<SearchArgs>(&valid).is_ok());
    let large_text = thousand_keys_text();
    // Both parsers read the same value from both texts.
    for text in [&valid_text, &large_text] {
        assert_eq!(
            parse_arguments(text).expect("parses"),
            serde_json::from_str::<Value>(text).expect("parses")
        );
    }

    let b2_input = Arc::clone(&valid);
    let c1 = (Arc::clone(&oracle), Arc::clone(&valid));
    let interp = (Arc::clone(&schema), Arc::clone(&valid));
    let c1_generated = Arc::clone(&valid);
    let generated = Arc::clone(&valid);
    let parse = (Arc::clone(&contract), Arc::clone(&valid));
    let valid_text: Arc<str> = valid_text.into();
    let large_text: Arc<str> = large_text.into();
    let a_text = Arc::clone(&valid_text);
    let (serde_text, ours_text) = (Arc::clone(&valid_text), valid_text);
    let (serde_large, ours_large) = (Arc::clone(&large_text), large_text);
    Suite::new("args")
        .case(Case::iter(
            "a",
            "`serde_json::from_str::<SearchArgs>` of the valid text (a)",
            move || serde_json::from_str::<SearchArgs>(black_box(&a_text)).expect("valid"),
        ))
        .case(Case::batched(
            "b2",
            "`serde_json::from_value::<SearchArgs>` (b2)",
            move || (*b2_input).clone(),
            |value| serde_json::from_value::<SearchArgs>(value).expect("valid"),
        ))
        .case(Case::iter(
            "c1",
            "`jsonschema` `is_valid` (c1)",
            move || c1.0.is_valid(black_box(&c1.1)),
        ))
        .case(Case::iter(
            "c1_generated",
            "`jsonschema` generated at compile time, `is_valid` on the derive's schema",
            move || GeneratedOracle::is_valid(black_box(&c1_generated)),
        ))
        .case(
            Case::iter(
                "generated_is_valid",
                "macro-generated validation alone (`is_valid_json`)",
                move || SearchArgs::is_valid_json(black_box(&generated)),
            )
            .vs("c1_generated")
            .vs("c1")
            .target(Target::Ratio(1.0)),
        )
        .case(
            Case::iter(
                "interp_is_valid",
                "the derived schema, interpreted (`Schema::is_valid`)",
                move || interp.0.is_valid(black_box(&interp.1)),
            )
            .vs("c1")
            .vs("c1_generated"),
        )
        .case(
            Case::iter(
                "validate_and_convert",
                "macro-generated validation + typed conversion (`ToolContract::parse`)",
                move || {
                    parse
                        .0
                        .parse::<SearchArgs>(black_box(&parse.1))
                        .expect("valid")
                },
            )
            .vs("b2")
            .target(Target::Ratio(1.2)),
        )
        .case(Case::iter(
            "raw_serde_value",
            "raw argument text → `Value`: `serde_json::from_str::<Value>`",
            move || serde_json::from_str::<Value>(black_box(&serde_text)).expect("valid"),
        ))
        .case(
            Case::iter(
                "raw_parse_arguments",
                "the same with `parse_arguments` (refuses repeated keys)",
                move || parse_arguments(black_box(&ours_text)).expect("valid"),
            )
            .vs("raw_serde_value"),
        )
        .case(
            Case::iter(
                "raw_serde_value_1000_keys",
                "`serde_json::from_str::<Value>` of a 1,000-key object",
                move || serde_json::from_str::<Value>(black_box(&serde_large)).expect("valid"),
            )
            .profile_iterations(LARGE_PROFILE_ITERATIONS),
        )
        .case(
            Case::iter(
                "raw_parse_arguments_1000_keys",
                "`parse_arguments` of the 1,000-key object",
                move || parse_arguments(black_box(&ours_large)).expect("valid"),
            )
            .vs("raw_serde_value_1000_keys")
            .profile_iterations(LARGE_PROFILE_ITERATIONS),
        )
}
