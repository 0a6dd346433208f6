//! Differential property test of the keyword engine: generated JSON Schema 2020-12 documents
//! beyond the typed subset (`tests/src/keyword_schemas.rs`) import, and for generated values
//! the interpreter, the compiled schema and the reporting walk accept exactly what the
//! `jsonschema` crate accepts on the document as written, and on its rendering.
//! `PROPTEST_CASES` sets the number of cases (default 1,000).

use dsh_tools::schema::CompiledSchema;
use std::cell::Cell;

use dsh_tools::schema::Schema;
use dsh_tools_tests::json_values::cases;
use dsh_tools_tests::keyword_schemas::{keyword_schema, keyword_value};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

#[test]
fn keyword_documents_agree_with_jsonschema() {
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        failure_persistence: None,
        max_shrink_iters: 512,
        max_shrink_time: 60_000,
        ..Config::default()
    });
    let (valid, invalid) = (Cell::new(0u32), Cell::new(0u32));
    let strategy = (keyword_schema(), prop::collection::vec(keyword_value(), 6));
    let result = runner.run(&strategy, |(raw, values)| {
        let schema = Schema::from_json_schema(&raw)
            .map_err(|error| TestCaseError::fail(format!("refused {raw}: {error}")))?;
        let oracle = dsh_tools_tests::oracle::validator(&raw)
            .map_err(|error| TestCaseError::fail(format!("jsonschema refuses {raw}: {error}")))?;
        let rendered = schema.to_json_schema();
        let rendered_oracle = dsh_tools_tests::oracle::validator(&rendered)
            .map_err(|error| TestCaseError::fail(format!("rendering refused: {error}")))?;
        let compiled = CompiledSchema::from(&schema);
        for value in &values {
            let theirs = oracle.is_valid(value);
            let ours = schema.is_valid(value);
            prop_assert_eq!(ours, theirs, "\nschema: {}\nvalue: {}", raw, value);
            prop_assert_eq!(compiled.is_valid(value), ours, "compiled disagrees");
            prop_assert_eq!(schema.validate(value).is_ok(), ours, "validate disagrees");
            prop_assert_eq!(compiled.validate(value).is_ok(), ours, "compiled validate");
            prop_assert_eq!(rendered_oracle.is_valid(value), ours, "rendering disagrees");
            if let Err(violations) = schema.validate(value) {
                prop_assert!((violations.reported.len() + violations.omitted) > 0);
                prop_assert_eq!(
                    violations.to_string(),
                    compiled.validate(value).unwrap_err().to_string()
                );
            }
            if ours {
                valid.set(valid.get() + 1);
            } else {
                invalid.set(invalid.get() + 1);
            }
        }
        Ok(())
    });
    if let Err(error) = result {
        panic!("{error}");
    }
    // Both answers were exercised, each well.
    let (valid, invalid) = (valid.get(), invalid.get());
    assert!(
        valid * 10 > invalid && invalid * 10 > valid,
        "{valid} valid, {invalid} invalid"
    );
}
