//! Macro-generated argument handling on the shared `search_files` workload, against serde and the
//! `jsonschema` crate in the same run.
//!
//! - a: `serde_json::from_str::<SearchArgs>` of the valid string (parse + typed deserialization);
//! - b2: `serde_json::from_value::<SearchArgs>` of the parsed value (the clone that `from_value`
//!   consumes is made outside the timed routine);
//! - c1: `jsonschema` (draft 2020-12, compiled once) `is_valid` on the valid value;
//! - ours: the derive's specialized check (`is_valid_json`) and the schema interpreter's
//!   `is_valid` on the derived schema, and validation + typed conversion (`ToolContract::parse`,
//!   what a `#[tool]` runs before its body).
//!
//! Targets: validation + conversion ≤ 1.2 × b2; validation alone ≤ 0.5 × c1.
//!
//! Parsing a model's raw argument string (group `raw`): `serde_json::from_str::<Value>` against
//! ours (`parse_arguments`, which also refuses repeated keys), on the workload's valid string and
//! on a 1,000-key object, to show what the repeated-key check costs.
//!
//! For instruction counts, `ARGS_PROFILE=<case> valgrind --tool=callgrind <bench binary>` runs
//! one case (`setup`, `serde_value`, `ours_parse`, `serde_value_large`, `ours_parse_large`)
//! `PROFILE_ITERATIONS` times (default 100,000) instead of the criterion run; difference two runs
//! with different counts (or subtract `setup`) and divide.

// The argument types exist to be converted into; the bench never reads their fields.
#![allow(dead_code)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use dsh_tools::{ToolArgs, ToolContract, parse_arguments};
use serde::Deserialize;
use serde_json::Value;

const WORKLOAD: &str = include_str!("data/search_files.json");

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

fn bench(c: &mut Criterion) {
    let workload: Value = serde_json::from_str(WORKLOAD).expect("workload is JSON");
    let valid = workload["valid_args"].clone();
    let valid_text = serde_json::to_string(&valid).expect("serializable");
    let contract = ToolContract::of::<SearchArgs, String>();
    let schema = SearchArgs::schema().expect("schema builds");
    let oracle = jsonschema::draft202012::new(&workload["args_schema"]).expect("oracle compiles");
    assert!(
        schema.is_valid(&valid) && oracle.is_valid(&valid) && SearchArgs::is_valid_json(&valid)
    );
    assert!(contract.parse::<SearchArgs>(&valid).is_ok());

    let large_text = serde_json::to_string(&Value::Object(
        (0..1_000)
            .map(|n| (format!("key_{n}"), Value::from(format!("value {n}"))))
            .collect(),
    ))
    .expect("serializable");
    assert_eq!(
        parse_arguments(&valid_text).expect("parses"),
        serde_json::from_str::<Value>(&valid_text).expect("parses")
    );
    assert_eq!(
        parse_arguments(&large_text).expect("parses"),
        serde_json::from_str::<Value>(&large_text).expect("parses")
    );

    if let Ok(case) = std::env::var("ARGS_PROFILE") {
        let iterations: usize = std::env::var("PROFILE_ITERATIONS")
            .ok()
            .and_then(|count| count.parse().ok())
            .unwrap_or(100_000);
        let run: Box<dyn Fn()> = match case.as_str() {
            "setup" => Box::new(|| {}),
            "serde_value" => Box::new(|| {
                drop(black_box(serde_json::from_str::<Value>(black_box(
                    &valid_text,
                ))));
            }),
            "ours_parse" => Box::new(|| drop(black_box(parse_arguments(black_box(&valid_text))))),
            "serde_value_large" => Box::new(|| {
                drop(black_box(serde_json::from_str::<Value>(black_box(
                    &large_text,
                ))));
            }),
            "ours_parse_large" => {
                Box::new(|| drop(black_box(parse_arguments(black_box(&large_text)))))
            }
            other => panic!("unknown ARGS_PROFILE case {other:?}"),
        };
        for _ in 0..iterations {
            run();
        }
        return;
    }

    let mut group = c.benchmark_group("raw");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    group.bench_function("serde_json_from_str_value", |b| {
        b.iter(|| serde_json::from_str::<Value>(black_box(&valid_text)).expect("valid"))
    });
    group.bench_function("ours_parse_arguments", |b| {
        b.iter(|| parse_arguments(black_box(&valid_text)).expect("valid"))
    });
    group.bench_function("serde_json_from_str_value/1000_keys", |b| {
        b.iter(|| serde_json::from_str::<Value>(black_box(&large_text)).expect("valid"))
    });
    group.bench_function("ours_parse_arguments/1000_keys", |b| {
        b.iter(|| parse_arguments(black_box(&large_text)).expect("valid"))
    });
    group.finish();

    let mut group = c.benchmark_group("args");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    group.bench_function("a_serde_from_str", |b| {
        b.iter(|| serde_json::from_str::<SearchArgs>(black_box(&valid_text)).expect("valid"))
    });
    group.bench_function("b2_serde_from_value", |b| {
        b.iter_batched(
            || valid.clone(),
            |value| serde_json::from_value::<SearchArgs>(value).expect("valid"),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("c1_jsonschema_is_valid", |b| {
        b.iter(|| oracle.is_valid(black_box(&valid)))
    });
    group.bench_function("ours_interpreter_is_valid", |b| {
        b.iter(|| schema.is_valid(black_box(&valid)))
    });
    group.bench_function("ours_generated_is_valid", |b| {
        b.iter(|| SearchArgs::is_valid_json(black_box(&valid)))
    });
    group.bench_function("ours_validate_and_convert", |b| {
        b.iter(|| {
            contract
                .parse::<SearchArgs>(black_box(&valid))
                .expect("valid")
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
