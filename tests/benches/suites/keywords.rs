//! The keyword engine against the `jsonschema` crate on the official suite's own schemas and
//! values (`tests/json-schema-test-suite/tests/draft2020-12/`), by keyword family: each case
//! checks every test value of its family's files against its compiled schema, `is_valid`, once
//! per iteration; figures are per value. Both sides compile every schema once, outside the
//! measured section, and give the suite's verdict on every value before they are measured.
//!
//! Target: ours ≤ 1.0 × `jsonschema` in every family.

use std::hint::black_box;
use std::path::Path;

use dsh_tools::schema::{CompiledSchema, Schema, SchemaImportOptions};
use dsh_tools_tests::bench::{Case, Meter, Suite, SuiteDef, Target};
use serde_json::Value;

pub(crate) const SUITE: SuiteDef = SuiteDef::new("keywords", suite);

/// The families: the ids of their two cases, and the suite's files in them.
const FAMILIES: &[(&str, &str, &[&str])] = &[
    (
        "applicators_jsonschema",
        "applicators_ours",
        &[
            "allOf",
            "anyOf",
            "oneOf",
            "not",
            "if-then-else",
            "dependentSchemas",
        ],
    ),
    (
        "unevaluated_jsonschema",
        "unevaluated_ours",
        &["unevaluatedProperties", "unevaluatedItems"],
    ),
    (
        "references_jsonschema",
        "references_ours",
        &[
            "ref",
            "defs",
            "anchor",
            "dynamicRef",
            "infinite-loop-detection",
        ],
    ),
    (
        "arrays_jsonschema",
        "arrays_ours",
        &[
            "items",
            "prefixItems",
            "contains",
            "minContains",
            "maxContains",
            "uniqueItems",
            "minItems",
            "maxItems",
        ],
    ),
    (
        "objects_jsonschema",
        "objects_ours",
        &[
            "properties",
            "patternProperties",
            "additionalProperties",
            "propertyNames",
            "required",
            "dependentRequired",
            "minProperties",
            "maxProperties",
        ],
    ),
    (
        "numbers_jsonschema",
        "numbers_ours",
        &[
            "multipleOf",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
        ],
    ),
    (
        "strings_jsonschema",
        "strings_ours",
        &["minLength", "maxLength", "pattern"],
    ),
    (
        "types_jsonschema",
        "types_ours",
        &["type", "enum", "const", "boolean_schema"],
    ),
];

/// Every (schema, values with their verdicts) of `files`, for the schemas both engines take
/// without remote documents.
fn cases_of(files: &[&str]) -> Vec<(Value, Vec<(Value, bool)>)> {
    let directory =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("json-schema-test-suite/tests/draft2020-12");
    let options = SchemaImportOptions {
        assert_formats: false,
        ..SchemaImportOptions::default()
    };
    let mut cases = Vec::new();
    for file in files {
        let path = directory.join(format!("{file}.json"));
        let text = std::fs::read_to_string(&path).expect("the suite is vendored");
        let groups: Vec<Value> = serde_json::from_str(&text).expect("suite JSON");
        for group in groups {
            let schema = group["schema"].clone();
            if Schema::from_json_schema_with(&schema, &options).is_err()
                || jsonschema::draft202012::new(&schema).is_err()
            {
                continue;
            }
            let values = group["tests"]
                .as_array()
                .expect("tests")
                .iter()
                .map(|test| {
                    (
                        test["data"].clone(),
                        test["valid"].as_bool().expect("valid"),
                    )
                })
                .collect();
            cases.push((schema, values));
        }
    }
    cases
}

fn count(cases: &[(Value, Vec<(Value, bool)>)]) -> u64 {
    cases.iter().map(|(_, values)| values.len() as u64).sum()
}

/// A case checking every value of `cases` with `check`, after `build` compiled each schema and
/// every verdict was confirmed.
fn family_case<V: 'static>(
    id: &'static str,
    about: String,
    cases: Vec<(Value, Vec<(Value, bool)>)>,
    build: fn(&Value) -> V,
    check: fn(&V, &Value) -> bool,
) -> Case {
    let values = count(&cases);
    Case::with_fixture(
        id,
        about,
        move || {
            let compiled: Vec<(V, Vec<Value>)> = cases
                .into_iter()
                .map(|(schema, values)| {
                    let validator = build(&schema);
                    for (value, valid) in &values {
                        assert_eq!(
                            check(&validator, value),
                            *valid,
                            "{id}: {schema} on {value}"
                        );
                    }
                    (
                        validator,
                        values.into_iter().map(|(value, _)| value).collect(),
                    )
                })
                .collect();
            compiled
        },
        move |compiled, iterations, meter: &mut Meter| {
            meter.measure(|| {
                for _ in 0..iterations {
                    for (validator, values) in compiled.iter() {
                        for value in values {
                            black_box(check(validator, black_box(value)));
                        }
                    }
                }
            });
        },
    )
    .per(values, "value")
    .profile_iterations(50)
}

fn suite() -> Suite {
    let mut suite = Suite::new("keywords");
    for (theirs, ours, files) in FAMILIES {
        let cases = cases_of(files);
        let family = files.join(", ");
        suite = suite
            .case(family_case(
                theirs,
                format!("`jsonschema` `is_valid` on the suite's {family}"),
                cases.clone(),
                |schema| jsonschema::draft202012::new(schema).expect("compiles"),
                |validator, value| validator.is_valid(value),
            ))
            .case(
                family_case(
                    ours,
                    format!("`CompiledSchema::is_valid` on the suite's {family}"),
                    cases,
                    |schema| {
                        let options = SchemaImportOptions {
                            assert_formats: false,
                            ..SchemaImportOptions::default()
                        };
                        CompiledSchema::from(
                            Schema::from_json_schema_with(schema, &options).expect("imports"),
                        )
                    },
                    CompiledSchema::is_valid,
                )
                .vs(theirs)
                .target(Target::Ratio(1.0)),
            );
    }
    suite
}
