//! Validation of the shared `search_files` workload: ours against the `jsonschema` crate
//! (draft 2020-12, compiled once) in the same run.
//!
//! - c1: `jsonschema` `is_valid` on the valid payload;
//! - c2: `jsonschema` `iter_errors().collect()` on the invalid payload (three violations);
//! - ours: the hand-built schema model, compiled once like `jsonschema`'s validator
//!   ([`CompiledSchema`], what tools validate with): `is_valid` and `validate` on the valid
//!   payload, `validate` collecting the three violations of the invalid payload;
//! - interp: `is_valid` and `validate` of the invalid payload on the uncompiled [`Schema`] (the
//!   interpreter behind `Schema::is_valid`), for reference.
//!
//! Targets: ours on the valid payload ≤ 0.5 × c1; ours collecting ≤ 1.0 × c2.
//!
//! Large objects (`large_…_<size>`): a closed object of 10, 1,000 and 20,000 optional integer
//! properties against a payload of all of them in reverse declaration order (so no key is where a
//! scan would look first): `jsonschema` `is_valid` against ours, compiled and interpreted. Figures
//! are per key; the cost per key must stay flat as the object grows.

use std::hint::black_box;
use std::rc::Rc;

use dsh_tools::schema::{CompiledSchema, Schema};
use dsh_tools_tests::bench::{Case, Meter, Suite, SuiteDef, Target};
use serde_json::Value;

const WORKLOAD: &str = include_str!("../data/search_files.json");

pub(crate) const SUITE: SuiteDef = SuiteDef::new("validate", suite);

/// The large-object sizes, with their cases' ids (`jsonschema`, compiled, interpreted).
const LARGE_SIZES: [(usize, [&str; 3]); 3] = [
    (
        10,
        [
            "large_jsonschema_10",
            "large_compiled_10",
            "large_interp_10",
        ],
    ),
    (
        1_000,
        [
            "large_jsonschema_1000",
            "large_compiled_1000",
            "large_interp_1000",
        ],
    ),
    (
        20_000,
        [
            "large_jsonschema_20000",
            "large_compiled_20000",
            "large_interp_20000",
        ],
    ),
];

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

/// A large-object case: `validator` is built from the schema of `size` properties the first time
/// the case runs (building 20,000 properties is slow under callgrind), and must accept the
/// reversed payload before it is measured.
fn large_case<V: 'static>(
    id: &'static str,
    about: String,
    size: usize,
    validator: impl FnOnce(Schema) -> V + 'static,
    is_valid: fn(&V, &Value) -> bool,
) -> Case {
    Case::with_fixture(
        id,
        about,
        move || {
            let validator = validator(large_schema(size));
            let payload = reversed_payload(size);
            assert!(is_valid(&validator, &payload), "{id} accepts the payload");
            (validator, payload)
        },
        move |(validator, payload), iterations, meter: &mut Meter| {
            meter.measure(|| {
                for _ in 0..iterations {
                    black_box(is_valid(validator, black_box(payload)));
                }
            });
        },
    )
    .per(size as u64, "key")
    // Under callgrind, a large object needs few iterations.
    .profile_iterations((200_000 / size as u64).clamp(5, 5_000))
}

/// The large-object cases of every size.
fn large_object_cases(mut suite: Suite) -> Suite {
    for (size, [theirs, compiled, interp]) in LARGE_SIZES {
        // Against the smallest size, the cost per key is held flat.
        let flat = |case: Case| {
            if size > LARGE_SIZES[0].0 {
                case.target(Target::Note("flat per key"))
            } else {
                case
            }
        };
        suite = suite
            .case(large_case(
                theirs,
                format!("`jsonschema` `is_valid`, closed object of {size} properties"),
                size,
                |schema| jsonschema::draft202012::new(&schema.to_json_schema()).expect("compiles"),
                |validator, payload| validator.is_valid(payload),
            ))
            .case(flat(
                large_case(
                    compiled,
                    format!("`CompiledSchema::is_valid`, {size} properties"),
                    size,
                    |schema| schema.compile(),
                    CompiledSchema::is_valid,
                )
                .vs(theirs),
            ))
            .case(flat(
                large_case(
                    interp,
                    format!("the interpreter (`Schema::is_valid`), {size} properties"),
                    size,
                    |schema| schema,
                    Schema::is_valid,
                )
                .vs(theirs),
            ));
    }
    suite
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

/// Everything the cases share, built once.
struct Fixture {
    valid: Value,
    invalid: Value,
    theirs: jsonschema::Validator,
    interp: Schema,
    ours: CompiledSchema,
}

fn suite() -> Suite {
    let workload: Value = serde_json::from_str(WORKLOAD).expect("workload is JSON");
    let interp = search_files_schema();
    let fixture = Rc::new(Fixture {
        valid: workload["valid_args"].clone(),
        invalid: workload["invalid_args"].clone(),
        theirs: jsonschema::draft202012::new(&workload["args_schema"]).expect("schema compiles"),
        ours: interp.compile(),
        interp,
    });
    let expected = workload["invalid_expected_violations"]
        .as_u64()
        .expect("violation count") as usize;
    let Fixture {
        valid,
        invalid,
        theirs,
        interp,
        ours,
    } = &*fixture;
    // The comparison only means something when both sides agree on the workload.
    assert!(theirs.is_valid(valid) && ours.is_valid(valid) && interp.is_valid(valid));
    assert_eq!(theirs.iter_errors(invalid).count(), expected);
    assert_eq!(ours.validate(invalid).map_err(|v| v.total()), Err(expected));
    assert_eq!(ours.validate(invalid), interp.validate(invalid));

    let f = || Rc::clone(&fixture);
    let (c1, c2, is_valid, valid_ok, invalid_all, interp_valid, interp_invalid) =
        (f(), f(), f(), f(), f(), f(), f());
    let suite = Suite::new("validate")
        .case(Case::iter(
            "c1",
            "`jsonschema` `is_valid` (c1)",
            move || c1.theirs.is_valid(black_box(&c1.valid)),
        ))
        .case(Case::iter(
            "c2",
            "`jsonschema` `iter_errors().collect()`, three violations (c2)",
            move || {
                // The errors borrow the instance: dropped here, inside the measured section.
                let errors: Vec<_> = c2.theirs.iter_errors(black_box(&c2.invalid)).collect();
                black_box(&errors);
                errors.len()
            },
        ))
        .case(
            Case::iter(
                "compiled_is_valid",
                "`CompiledSchema::is_valid` (hand-built schema, compiled once)",
                move || is_valid.ours.is_valid(black_box(&is_valid.valid)),
            )
            .vs("c1")
            .target(Target::Ratio(0.5)),
        )
        .case(
            Case::iter(
                "compiled_validate_valid",
                "`CompiledSchema::validate` of the valid payload",
                move || valid_ok.ours.validate(black_box(&valid_ok.valid)),
            )
            .vs("c1"),
        )
        .case(
            Case::iter(
                "compiled_validate_invalid",
                "`CompiledSchema::validate` collecting the three violations",
                move || invalid_all.ours.validate(black_box(&invalid_all.invalid)),
            )
            .vs("c2")
            .target(Target::Ratio(1.0)),
        )
        .case(
            Case::iter(
                "interp_is_valid",
                "the interpreter (`Schema::is_valid`)",
                move || interp_valid.interp.is_valid(black_box(&interp_valid.valid)),
            )
            .vs("c1"),
        )
        .case(
            Case::iter(
                "interp_validate_invalid",
                "the interpreter collecting the three violations (`Schema::validate`)",
                move || {
                    interp_invalid
                        .interp
                        .validate(black_box(&interp_invalid.invalid))
                },
            )
            .vs("c2"),
        );
    large_object_cases(suite)
}
