//! Differential property test: for generated schemas and values, our validator accepts exactly
//! when the `jsonschema` crate (draft 2020-12) accepts the rendered schema, and `validate` is
//! `Ok` exactly when `is_valid` is true. The compiled schema ([`CompiledSchema`]) answers exactly
//! as the interpreter, violations included. Rendered schemas also import back into a model that
//! agrees.
//!
//! Values are derived from the schema (mostly valid) and mutated (wrong types, missing and extra
//! keys, numbers at and across bounds and beside multiples, `1.0` for `1`, `-0`, repeated items,
//! multi-byte strings), so both answers are exercised. Every typed keyword is generated:
//! inclusive and exclusive bounds, `multipleOf` (integer factors only: `jsonschema` divides
//! doubles where the engine reads the decimals as written), `uniqueItems`, `minProperties`,
//! `maxProperties`. `PROPTEST_CASES` sets the number of cases (default 1,000; the local
//! acceptance run uses 10,000 or more).

use std::cell::Cell;

use dsh_tools::schema::{CompiledSchema, Schema};
use dsh_tools_tests::json_values::{cases, value_for};
use dsh_tools_tests::typed_schemas::schema_strategy;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

#[test]
fn validator_agrees_with_jsonschema_on_rendered_schemas() {
    let cases = cases();
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let valid = Cell::new(0u32);
    let invalid = Cell::new(0u32);
    let strategy = schema_strategy().prop_flat_map(|schema| {
        let value = value_for(&schema);
        (Just(schema), value)
    });
    let result = runner.run(&strategy, |(schema, value)| {
        let rendered = schema.to_json_schema();
        let validator = dsh_tools_tests::oracle::validator(&rendered)
            .map_err(|error| TestCaseError::fail(format!("rendered schema rejected: {error}")))?;
        let theirs = validator.is_valid(&value);
        let ours = schema.is_valid(&value);
        let validated = schema.validate(&value);
        prop_assert_eq!(
            ours,
            theirs,
            "is_valid disagrees with jsonschema\nschema: {}\nvalue: {}",
            rendered,
            value
        );
        let compiled: CompiledSchema = CompiledSchema::from(&schema);
        prop_assert_eq!(
            compiled.is_valid(&value),
            ours,
            "the compiled schema disagrees with the interpreter\nschema: {}\nvalue: {}",
            rendered,
            value
        );
        prop_assert_eq!(
            &compiled.validate(&value),
            &validated,
            "the compiled schema reports differently\nschema: {}\nvalue: {}",
            rendered,
            value
        );
        prop_assert_eq!(
            compiled.validate_output(&value),
            schema.validate_output(&value),
            "the compiled schema reports output differently"
        );
        prop_assert_eq!(
            validated.is_ok(),
            ours,
            "validate disagrees with is_valid: {:?}",
            validated
        );
        if let Err(violations) = &validated {
            prop_assert!((violations.reported.len() + violations.omitted) > 0);
            prop_assert!(violations.reported.iter().all(|v| !v.message().is_empty()));
        }
        prop_assert_eq!(
            schema.validate_output(&value).is_ok(),
            ours,
            "validate_output disagrees"
        );
        // What we render imports back into a model that means the same.
        match Schema::from_json_schema(&rendered) {
            Ok(imported) => prop_assert_eq!(
                imported.is_valid(&value),
                ours,
                "re-imported schema disagrees\nschema: {}\nvalue: {}",
                rendered,
                value
            ),
            Err(error) => {
                return Err(TestCaseError::fail(format!(
                    "rendered schema does not import: {error}\nschema: {rendered}"
                )));
            }
        }
        if ours {
            valid.set(valid.get() + 1);
        } else {
            invalid.set(invalid.get() + 1);
        }
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
    eprintln!(
        "differential: {cases} cases, {} valid, {} invalid, 0 disagreements",
        valid.get(),
        invalid.get()
    );
    if cases >= 200 {
        // Both answers must be exercised for the agreement to mean anything.
        assert!(
            valid.get() * 10 >= cases,
            "too few valid values: {}",
            valid.get()
        );
        assert!(
            invalid.get() * 10 >= cases,
            "too few invalid values: {}",
            invalid.get()
        );
    }
}
