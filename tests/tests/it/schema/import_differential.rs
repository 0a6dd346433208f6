//! Differential property test of import: raw JSON Schemas in every keyword combination the
//! importer accepts (`tests/src/raw_schemas.rs`) are imported, and for values shaped by them the
//! model accepts exactly what the `jsonschema` crate (draft 2020-12) accepts on the raw schema —
//! the schema as its author wrote it, not our rendering of it. The compiled model answers alike,
//! and the model's rendering means the same to `jsonschema` and imports back unchanged in meaning.
//!
//! A raw schema the importer refuses is fine (it says so with `UNSUPPORTED_SCHEMA`); one it
//! accepts must never accept a value the raw schema forbids, or refuse one it allows.
//! `PROPTEST_CASES` sets the number of cases (default 1,000).

use dsh_tools::schema::CompiledSchema;
use std::cell::Cell;

use dsh_tools::schema::Schema;
use dsh_tools_tests::json_values::{cases, value_for};
use dsh_tools_tests::raw_schemas::{listed_values, raw_schema};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::Value;

#[test]
fn imported_schemas_agree_with_jsonschema_on_the_raw_schema() {
    let cases = cases();
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        // Every shrinking step imports and compiles schemas again; a bounded search still
        // finds a small counterexample.
        max_shrink_iters: 256,
        max_shrink_time: 60_000,
        ..Config::default()
    });
    let imported_count = Cell::new(0u32);
    let refused_count = Cell::new(0u32);
    let valid = Cell::new(0u32);
    let invalid = Cell::new(0u32);
    let strategy = raw_schema().prop_flat_map(|raw| {
        let values = match Schema::from_json_schema(&raw) {
            Ok(imported) => prop_oneof![
                3 => value_for(&imported),
                1 => prop::sample::select(listed_values(&raw)),
            ]
            .boxed(),
            Err(_) => Just(Value::Null).boxed(),
        };
        (Just(raw), prop::collection::vec(values, 4))
    });
    let result = runner.run(&strategy, |(raw, values)| {
        let imported = match Schema::from_json_schema(&raw) {
            Ok(imported) => imported,
            Err(error) => {
                if std::env::var_os("SHOW_REFUSALS").is_some() {
                    eprintln!("refused: {error}");
                }
                refused_count.set(refused_count.get() + 1);
                return Ok(());
            }
        };
        imported_count.set(imported_count.get() + 1);
        let oracle = dsh_tools_tests::oracle::validator(&raw)
            .map_err(|error| TestCaseError::fail(format!("jsonschema refuses {raw}: {error}")))?;
        let rendered = imported.to_json_schema();
        let rendered_oracle = dsh_tools_tests::oracle::validator(&rendered).map_err(|error| {
            TestCaseError::fail(format!("rendered schema rejected: {error}\n{rendered}"))
        })?;
        let reimported = Schema::from_json_schema(&rendered).map_err(|error| {
            TestCaseError::fail(format!("rendering does not import: {error}\n{rendered}"))
        })?;
        let compiled = CompiledSchema::from(&imported);
        for value in &values {
            let theirs = oracle.is_valid(value);
            let ours = imported.is_valid(value);
            prop_assert_eq!(
                ours,
                theirs,
                "the imported model disagrees with jsonschema on the raw schema\nraw: {}\nrendered: {}\nvalue: {}",
                raw,
                rendered,
                value
            );
            prop_assert_eq!(compiled.is_valid(value), ours, "compiled disagrees");
            prop_assert_eq!(imported.validate(value).is_ok(), ours, "validate disagrees");
            prop_assert_eq!(
                rendered_oracle.is_valid(value),
                ours,
                "the rendering means something else\nraw: {}\nrendered: {}\nvalue: {}",
                raw,
                rendered,
                value
            );
            prop_assert_eq!(
                reimported.is_valid(value),
                ours,
                "the re-imported rendering disagrees\nrendered: {}\nvalue: {}",
                rendered,
                value
            );
            if ours {
                valid.set(valid.get() + 1);
            } else {
                invalid.set(invalid.get() + 1);
            }
        }
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
    let (imported, refused) = (imported_count.get(), refused_count.get());
    eprintln!(
        "import differential: {cases} schemas, {imported} imported, {refused} refused; {} valid and {} invalid values, 0 disagreements",
        valid.get(),
        invalid.get()
    );
    if cases >= 200 {
        // The generator aims at what the importer accepts; mostly it must hit.
        assert!(
            imported * 2 >= cases,
            "too few schemas import: {imported} of {cases}"
        );
        assert!(valid.get() * 10 >= cases && invalid.get() * 10 >= cases);
    }
}
