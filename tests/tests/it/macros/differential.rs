//! Property tests of macro-generated types: for values shaped by each type's schema (valid ones,
//! near misses, and valid ones with a single property off), the generated check
//! (`is_valid_json`), the schema interpreter, the compiled schema and the `jsonschema` crate on
//! the rendered schema all give the same answer (and the compiled schema reports exactly the
//! interpreter's violations); every accepted value
//! converts into the Rust type; and for types that also derive `Serialize`, serializing the
//! converted value gives a value the schema accepts (one source of truth, both directions).
//! `PROPTEST_CASES` sets the number of cases per type (default 1,000).

// The argument types exist for their schemas; not every field is read back.
#![allow(dead_code)]

use dsh_tools::schema::CompiledSchema;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use dsh_tools::{ToolArgs, Value, content::to_lossless_value, schema::Schema};
use dsh_tools_tests::json_values::{cases, one_off, valid_value, value_for};
use dsh_tools_tests::workload::{Mode, SearchArgs};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde::{Deserialize, Serialize};

#[derive(ToolArgs, Serialize, Deserialize, Debug)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Shape {
    Circle { radius: f64 },
    Square { side: u16 },
    Dot,
}

#[derive(ToolArgs, Serialize, Deserialize, Debug)]
#[serde(tag = "op", content = "args")]
enum Command {
    Move(f32),
    Stop,
    Turn { degrees: i8 },
}

#[derive(ToolArgs, Serialize, Deserialize, Debug)]
enum External {
    Unit,
    Other,
    Wrapped(String),
    Fields { a: u8, b: Option<bool> },
}

#[derive(ToolArgs, Serialize, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
struct Everything {
    #[arg(default = 3, minimum = 1)]
    depth: u32,
    #[serde(default = "three")]
    width: u32,
    #[arg(enum = ["fast", "slow", "1"])]
    speed: String,
    #[arg(const = 2)]
    version: i64,
    // `Option` beside `enum`/`const`: `null` is accepted (as `None`) and the schema says so.
    #[arg(enum = [1, 2])]
    level: Option<u8>,
    #[arg(const = "x")]
    marker: Option<String>,
    #[arg(pattern = "^[a-c]*$", max_length = 3)]
    word: Option<String>,
    #[arg(min_items = 1, max_items = 2)]
    tags: Option<Vec<char>>,
    scores: HashMap<String, i16>,
    sorted: BTreeMap<String, Vec<u8>>,
    fixed: [i32; 2],
    raw: Value,
    shape: Option<Shape>,
    command: Command,
    external: Vec<External>,
    #[arg(minimum = -1.5, maximum = 2.5)]
    ratio: f32,
    precise: Option<f64>,
    letter: Option<char>,
    nothing: (),
    #[arg(multiple_of = 3, exclusive_minimum = -7, exclusive_maximum = 20)]
    step: i32,
    #[arg(multiple_of = 2, exclusive_maximum = 1000)]
    even: Option<u64>,
    #[arg(exclusive_minimum = 0.5)]
    above_half: f64,
    names: HashSet<String>,
    levels: Option<BTreeSet<i8>>,
    #[arg(unique_items, max_items = 3)]
    distinct: Vec<Option<bool>>,
    #[arg(min_properties = 1, max_properties = 2)]
    labels: BTreeMap<String, u8>,
    #[arg(max_properties = 1)]
    notes: Option<HashMap<String, String>>,
}

fn three() -> u32 {
    3
}

/// Runs the agreement checks for `T`; `roundtrip` serializes converted values back.
fn agree<T: ToolArgs + Serialize>(name: &str) {
    let schema: Schema = T::schema().expect("schema builds");
    let rendered = schema.to_json_schema();
    let oracle = dsh_tools_tests::oracle::validator(&rendered).expect("rendered schema compiles");
    let compiled = CompiledSchema::from(&schema);
    let cases = cases();
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        // Valid leaves are drawn by filtering near misses; the rejections add up over many
        // cases without meaning anything, so the budget grows with the case count.
        max_local_rejects: cases.saturating_mul(64).max(65_536),
        ..Config::default()
    });
    let valid = std::cell::Cell::new(0u32);
    let invalid = std::cell::Cell::new(0u32);
    let values = prop_oneof![valid_value(&schema), value_for(&schema), one_off(&schema)];
    let result = runner.run(&values, |value| {
        let generated = T::is_valid_json(&value);
        let interpreted = schema.is_valid(&value);
        let theirs = oracle.is_valid(&value);
        let precompiled = compiled.is_valid(&value);
        if generated != interpreted || interpreted != theirs || precompiled != interpreted {
            return Err(TestCaseError::fail(format!(
                "{name}: generated {generated}, interpreter {interpreted}, compiled {precompiled}, jsonschema {theirs}\nvalue: {value}\nschema: {rendered}"
            )));
        }
        if generated {
            valid.set(valid.get() + 1);
            let converted = T::from_json(&value)
                .map_err(|error| TestCaseError::fail(format!("{name}: {value} is valid but does not convert: {error}")))?;
            let back = to_lossless_value(&converted)
                .map_err(|error| TestCaseError::fail(format!("{name}: {error}")))?;
            if !schema.is_valid(&back) || !oracle.is_valid(&back) {
                return Err(TestCaseError::fail(format!(
                    "{name}: {value} converts, but serializes to {back}, which the schema rejects"
                )));
            }
        } else {
            invalid.set(invalid.get() + 1);
            let validated = schema.validate(&value);
            if validated.is_ok() {
                return Err(TestCaseError::fail(format!("{name}: validate accepts {value}")));
            }
            if compiled.validate(&value) != validated {
                return Err(TestCaseError::fail(format!("{name}: the compiled schema reports {value} differently")));
            }
        }
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
    let (valid, invalid) = (valid.get(), invalid.get());
    eprintln!("{name}: {valid} valid, {invalid} invalid, 0 disagreements");
    assert!(
        valid > 0 && invalid > 0,
        "{name}: both answers must be exercised"
    );
}

#[test]
fn search_args_agree() {
    agree::<SearchArgs>("SearchArgs");
}

#[test]
fn enums_agree() {
    agree::<Shape>("Shape");
    agree::<Command>("Command");
    agree::<External>("External");
    agree::<Mode>("Mode");
}

#[test]
fn every_key_and_type_agree() {
    agree::<Everything>("Everything");
}
