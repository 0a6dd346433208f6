//! The official JSON Schema Test Suite, draft 2020-12 (vendored under
//! `tests/json-schema-test-suite/`): every schema imports, and the interpreter, the compiled
//! validator and the reporting walk each give every test's verdict. Remote references resolve
//! to the suite's `remotes/`, given to the import as the suite's `http://localhost:1234/`.
//!
//! The required tests run with `format` as an annotation, the specification's default (which
//! `format.json` checks); `optional/format/` runs with formats asserted, the engine's default.

use std::path::{Path, PathBuf};

use dsh_tools::schema::{CompiledSchema, Schema, SchemaImportOptions};
use serde_json::Value;

/// Tests that cannot pass, by file and description of the case and test (`*` for all), with
/// why.
const EXCEPTIONS: &[(&str, &str, &str, &str)] = &[
    (
        "defs.json",
        "validate definition against metaschema",
        "*",
        "refers to the 2020-12 meta-schema at json-schema.org, a remote document the suite's \
         remotes/ do not hold and the engine does not fetch",
    ),
    (
        "ref.json",
        "remote ref, containing refs itself",
        "*",
        "refers to the 2020-12 meta-schema at json-schema.org (as above)",
    ),
];

fn suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("json-schema-test-suite")
}

fn read(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("the test suite's {} is missing: {error}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Every document of `remotes/`, at `http://localhost:1234/<its path>`.
fn with_remotes(mut options: SchemaImportOptions) -> SchemaImportOptions {
    let root = suite().join("remotes");
    let mut pending = vec![root.clone()];
    while let Some(directory) = pending.pop() {
        for entry in std::fs::read_dir(&directory).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path
                .extension()
                .is_some_and(|extension| extension == "json")
            {
                let relative = path.strip_prefix(&root).unwrap().to_string_lossy();
                let relative = relative.replace('\\', "/");
                options
                    .documents
                    .insert(format!("http://localhost:1234/{relative}"), read(&path));
            }
        }
    }
    options
}

fn files(directory: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(directory)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "json")
        })
        .collect();
    files.sort();
    files
}

fn excepted(file: &str, case: &str, test: &str) -> bool {
    EXCEPTIONS
        .iter()
        .any(|(f, c, t, _)| *f == file && (*c == "*" || *c == case) && (*t == "*" || *t == test))
}

/// Runs every test of `files`; returns the failures, how many tests ran and how many were
/// excepted.
fn run(files: Vec<PathBuf>, options: SchemaImportOptions) -> (Vec<String>, usize, usize) {
    let options = with_remotes(options);
    let mut failures = Vec::new();
    let (mut ran, mut skipped) = (0, 0);
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        for case in read(&path).as_array().unwrap() {
            let description = case["description"].as_str().unwrap();
            let tests = case["tests"].as_array().unwrap();
            if tests
                .iter()
                .all(|test| excepted(&file, description, test["description"].as_str().unwrap()))
            {
                skipped += tests.len();
                continue;
            }
            let schema = match Schema::from_json_schema_with(&case["schema"], &options) {
                Ok(schema) => schema,
                Err(error) => {
                    failures.push(format!("{file} / {description}: refused: {error}"));
                    continue;
                }
            };
            let compiled = CompiledSchema::from(schema.clone());
            for test in tests {
                let name = test["description"].as_str().unwrap();
                if excepted(&file, description, name) {
                    skipped += 1;
                    continue;
                }
                ran += 1;
                let data = &test["data"];
                let expected = test["valid"].as_bool().unwrap();
                let verdicts = [
                    ("is_valid", schema.is_valid(data)),
                    ("compiled", compiled.is_valid(data)),
                    ("validate", schema.validate(data).is_ok()),
                    ("compiled validate", compiled.validate(data).is_ok()),
                ];
                for (how, verdict) in verdicts {
                    if verdict != expected {
                        failures.push(format!(
                            "{file} / {description} / {name}: {how} says {}",
                            if verdict { "valid" } else { "invalid" }
                        ));
                    }
                }
                // An invalid value's report is never empty and stays bounded.
                if let Err(violations) = schema.validate(data) {
                    let text = violations.to_string();
                    assert!(!text.is_empty() && text.len() < 20_000, "{file} / {name}");
                }
            }
        }
    }
    (failures, ran, skipped)
}

#[test]
fn every_test_of_draft_2020_12_passes() {
    let options = SchemaImportOptions {
        assert_formats: false,
        ..SchemaImportOptions::default()
    };
    let (failures, ran, skipped) = run(files(&suite().join("tests/draft2020-12")), options);
    assert!(ran > 1_200, "only {ran} tests ran");
    assert!(
        failures.is_empty(),
        "{} of {ran} tests failed ({skipped} excepted):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn optional_format_tests_pass_for_the_checked_formats() {
    let directory = suite().join("tests/draft2020-12/optional/format");
    let checked: Vec<PathBuf> = files(&directory)
        .into_iter()
        .filter(|path| {
            let name = path.file_stem().unwrap().to_string_lossy();
            !matches!(
                dsh_tools::schema::StringFormat::from(name.as_ref()),
                dsh_tools::schema::StringFormat::Other(_)
            )
        })
        .collect();
    assert_eq!(checked.len(), 9, "{checked:?}");
    let (failures, ran, _) = run(checked, SchemaImportOptions::default());
    assert!(ran > 300, "only {ran} tests ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_optional_test_imports_and_evaluates_without_panicking() {
    let directory = suite().join("tests/draft2020-12/optional");
    let (failures, ran, _) = run(files(&directory), SchemaImportOptions::default());
    assert!(ran > 100, "only {ran} tests ran");
    // Optional behaviour the engine does not take on (non-BMP patterns under `u`, bignum
    // precision, …) may fail; what matters here is that nothing panics.
    eprintln!("{}", failures.join("\n"));
}
