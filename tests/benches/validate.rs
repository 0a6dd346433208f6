//! Validation of the shared `search_files` workload: ours against the `jsonschema` crate
//! (draft 2020-12, compiled once) in the same run.
//!
//! - c1: `jsonschema` `is_valid` on the valid payload;
//! - c2: `jsonschema` `iter_errors().collect()` on the invalid payload (three violations);
//! - ours: the hand-built schema model, compiled once like `jsonschema`'s validator
//!   ([`CompiledSchema`], what tools validate with): `is_valid` and `validate` on the valid
//!   payload, `validate` collecting the three violations of the invalid payload;
//! - interp: the same three on the uncompiled [`Schema`] (the interpreter behind
//!   `Schema::is_valid`), for reference.
//!
//! Targets: ours on the valid payload ≤ 0.5 × c1; ours collecting ≤ 1.0 × c2.
//!
//! For instruction counts, `VALIDATE_PROFILE=<case> valgrind --tool=callgrind <bench binary>`
//! runs one case (`c1`, `c2`, `ours_is_valid`, `ours_validate_valid`, `ours_validate_invalid`,
//! and the same three with `interp_`) `PROFILE_ITERATIONS` times instead of the criterion run;
//! subtract the total of the `setup` case (which runs nothing) and divide by that count.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use dsh_tools::schema::{CompiledSchema, Schema};
use serde_json::Value;

const WORKLOAD: &str = include_str!("data/search_files.json");

/// Iterations of a `VALIDATE_PROFILE` run.
const PROFILE_ITERATIONS: usize = 100_000;

/// The hand-built model of `search_files`'s arguments (closed root, as the macros generate).
fn search_files_schema() -> Schema {
    Schema::object()
        .title("search_files arguments")
        .required(
            "pattern",
            Schema::string()
                .min_length(1)
                .description("Text or regex to look for."),
        )
        .required(
            "path",
            Schema::string().description("Directory to search from."),
        )
        .optional("max_results", Schema::integer().range(1, 10_000))
        .optional("case_sensitive", Schema::boolean())
        .optional("include", Schema::array(Schema::string()))
        .optional("mode", Schema::enumeration(["literal", "regex"]))
        .optional(
            "options",
            Schema::object()
                .required("follow_links", Schema::boolean())
                .optional("depth", Schema::integer().minimum(0).maximum(u32::MAX)),
        )
        .build()
}

fn bench(c: &mut Criterion) {
    let workload: Value = serde_json::from_str(WORKLOAD).expect("workload is JSON");
    let valid = &workload["valid_args"];
    let invalid = &workload["invalid_args"];
    let expected = workload["invalid_expected_violations"]
        .as_u64()
        .expect("violation count") as usize;
    let theirs = jsonschema::draft202012::new(&workload["args_schema"]).expect("schema compiles");
    let interp = search_files_schema();
    let ours: CompiledSchema = interp.compile();

    // The comparison only means something when both sides agree on the workload.
    assert!(theirs.is_valid(valid) && ours.is_valid(valid) && interp.is_valid(valid));
    assert_eq!(theirs.iter_errors(invalid).count(), expected);
    assert_eq!(ours.validate(invalid).map_err(|v| v.total()), Err(expected));
    assert_eq!(ours.validate(invalid), interp.validate(invalid));

    if let Ok(case) = std::env::var("VALIDATE_PROFILE") {
        // The case is chosen once, so the loop costs the same few instructions for every case
        // (and `setup` measures exactly those).
        let run: Box<dyn Fn()> = match case.as_str() {
            "setup" => Box::new(|| {}),
            "c1" => Box::new(|| {
                black_box(theirs.is_valid(black_box(valid)));
            }),
            "c2" => Box::new(|| {
                drop(black_box(
                    theirs.iter_errors(black_box(invalid)).collect::<Vec<_>>(),
                ))
            }),
            "ours_is_valid" => Box::new(|| {
                black_box(ours.is_valid(black_box(valid)));
            }),
            "ours_validate_valid" => Box::new(|| drop(black_box(ours.validate(black_box(valid))))),
            "ours_validate_invalid" => {
                Box::new(|| drop(black_box(ours.validate(black_box(invalid)))))
            }
            "interp_is_valid" => Box::new(|| {
                black_box(interp.is_valid(black_box(valid)));
            }),
            "interp_validate_valid" => {
                Box::new(|| drop(black_box(interp.validate(black_box(valid)))))
            }
            "interp_validate_invalid" => {
                Box::new(|| drop(black_box(interp.validate(black_box(invalid)))))
            }
            other => panic!("unknown VALIDATE_PROFILE case {other:?}"),
        };
        for _ in 0..PROFILE_ITERATIONS {
            run();
        }
        return;
    }

    let mut group = c.benchmark_group("search_files");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    group.bench_function("c1_jsonschema_is_valid", |b| {
        b.iter(|| theirs.is_valid(black_box(valid)))
    });
    group.bench_function("c2_jsonschema_iter_errors", |b| {
        b.iter(|| theirs.iter_errors(black_box(invalid)).collect::<Vec<_>>())
    });
    group.bench_function("ours_is_valid", |b| {
        b.iter(|| ours.is_valid(black_box(valid)))
    });
    group.bench_function("ours_validate_valid", |b| {
        b.iter(|| ours.validate(black_box(valid)))
    });
    group.bench_function("ours_validate_invalid", |b| {
        b.iter(|| ours.validate(black_box(invalid)))
    });
    group.bench_function("interp_is_valid", |b| {
        b.iter(|| interp.is_valid(black_box(valid)))
    });
    group.bench_function("interp_validate_invalid", |b| {
        b.iter(|| interp.validate(black_box(invalid)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
