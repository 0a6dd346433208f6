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
//! Large objects (group `large_objects`): a closed object of 10, 1,000 and 20,000 optional integer
//! properties against a payload of all of them in reverse declaration order (so no key is where a
//! scan would look first), ours (compiled and interpreter) against `jsonschema` `is_valid`: the
//! cost per key must stay flat as the object grows.
//!
//! For instruction counts, `VALIDATE_PROFILE=<case> valgrind --tool=callgrind <bench binary>`
//! runs one case (`c1`, `c2`, `ours_is_valid`, `ours_validate_valid`, `ours_validate_invalid`,
//! the same three with `interp_`, and `large_<n>_<ours|interp|jsonschema>`) `PROFILE_ITERATIONS`
//! times (default 100,000; set the variable to change it) instead of the criterion run; subtract
//! the total of the `setup` case (which runs nothing) and divide by that count, or difference two
//! runs of one case with different counts.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use dsh_tools::schema::{CompiledSchema, Schema};
use serde_json::Value;

const WORKLOAD: &str = include_str!("data/search_files.json");

/// Iterations of a `VALIDATE_PROFILE` run, unless `PROFILE_ITERATIONS` says otherwise.
const PROFILE_ITERATIONS: usize = 100_000;

/// The sizes of the large-object cases.
const LARGE_SIZES: [usize; 3] = [10, 1_000, 20_000];

/// A closed object of `size` optional integer properties `p0`, `p1`, …
fn large_schema(size: usize) -> Schema {
    let mut object = Schema::object();
    for n in 0..size {
        object = object.optional(format!("p{n}"), Schema::integer().minimum(0));
    }
    object.build()
}

/// Every property of [`large_schema`], in reverse declaration order.
fn reversed_payload(size: usize) -> Value {
    Value::Object(
        (0..size)
            .rev()
            .map(|n| (format!("p{n}"), Value::from(n)))
            .collect(),
    )
}

/// One size of the large-object cases: ours compiled and interpreted, and `jsonschema`.
struct LargeCase {
    size: usize,
    interp: Schema,
    ours: CompiledSchema,
    theirs: jsonschema::Validator,
    payload: Value,
}

impl LargeCase {
    fn new(size: usize) -> Self {
        let interp = large_schema(size);
        let ours = interp.compile();
        let theirs = jsonschema::draft202012::new(&interp.to_json_schema()).expect("compiles");
        let payload = reversed_payload(size);
        assert!(ours.is_valid(&payload) && interp.is_valid(&payload) && theirs.is_valid(&payload));
        Self {
            size,
            interp,
            ours,
            theirs,
            payload,
        }
    }
}

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
        let iterations = std::env::var("PROFILE_ITERATIONS")
            .ok()
            .and_then(|count| count.parse().ok())
            .unwrap_or(PROFILE_ITERATIONS);
        if let Some(rest) = case.strip_prefix("large_") {
            let (size, side) = rest.split_once('_').expect("large_<size>_<side>");
            let large = LargeCase::new(size.parse().expect("a size"));
            let run: Box<dyn Fn()> = match side {
                "ours" => Box::new(|| {
                    black_box(large.ours.is_valid(black_box(&large.payload)));
                }),
                "interp" => Box::new(|| {
                    black_box(large.interp.is_valid(black_box(&large.payload)));
                }),
                "jsonschema" => Box::new(|| {
                    black_box(large.theirs.is_valid(black_box(&large.payload)));
                }),
                other => panic!("unknown large-object side {other:?}"),
            };
            for _ in 0..iterations {
                run();
            }
            return;
        }
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
        for _ in 0..iterations {
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

    let mut group = c.benchmark_group("large_objects");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20);
    for size in LARGE_SIZES {
        let large = LargeCase::new(size);
        let name = |side: &str| format!("{side}/{}", large.size);
        group.bench_function(name("jsonschema_is_valid"), |b| {
            b.iter(|| large.theirs.is_valid(black_box(&large.payload)))
        });
        group.bench_function(name("ours_is_valid"), |b| {
            b.iter(|| large.ours.is_valid(black_box(&large.payload)))
        });
        group.bench_function(name("interp_is_valid"), |b| {
            b.iter(|| large.interp.is_valid(black_box(&large.payload)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
