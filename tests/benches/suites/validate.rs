//! Validation of the shared `search_files` workload: ours against the `jsonschema` crate
//! (draft 2020-12, compiled once) in the same run.
//!
//! - c1: `jsonschema` `is_valid` on the valid payload;
//! - c2: `jsonschema` `iter_errors().collect()` on the invalid payload (three violations);
//! - c1_generated, c2_generated: the same with `jsonschema`'s validator generated at compile
//!   time (its `validator` macro) from the derive's schema of the workload
//!   (`../data/search_files_derived.json`, which the `args` suite checks against the derive);
//! - ours: the hand-built schema model, compiled once like `jsonschema`'s validator
//!   ([`CompiledSchema`], what tools validate with): `is_valid` and `validate` on the valid
//!   payload, `validate` collecting the three violations of the invalid payload;
//! - interp: `is_valid` and `validate` of the invalid payload on the uncompiled [`Schema`] (the
//!   interpreter behind `Schema::is_valid`), for reference.
//!
//! Targets: ours on the valid payload ≤ 0.5 × c1; ours collecting ≤ 1.0 × c2. Our rows are
//! shown against the generated validator too.
//!
//! Large objects (`large_…_<size>`): a closed object of 10, 1,000 and 20,000 optional integer
//! properties against a payload of all of them in reverse declaration order (so no key is where a
//! scan would look first): `jsonschema` `is_valid` against ours, compiled and interpreted, and at
//! 10 and 1,000 properties `jsonschema`'s validator generated at compile time from the same schema
//! (`../data/large_object_<size>.json`, checked against the model when the case runs; not at
//! 20,000, whose schema file would be about 800 KB of generated code to compile). Figures are per
//! key; the cost per key must stay flat as the object grows.

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

/// `jsonschema`'s validators generated at compile time from the search schema and two of the
/// large ones (paths are the tests crate's, where the macro looks).
#[jsonschema_codegen::validator(path = "benches/data/search_files_derived.json", draft = Draft202012)]
struct GeneratedSearch;
#[jsonschema_codegen::validator(path = "benches/data/large_object_10.json", draft = Draft202012)]
struct GeneratedLarge10;
#[jsonschema_codegen::validator(path = "benches/data/large_object_1000.json", draft = Draft202012)]
struct GeneratedLarge1000;

/// A generated validator's `is_valid`.
type GeneratedIsValid = fn(&Value) -> bool;

/// The large-object sizes with a generated validator: its case's id, its schema file's text and
/// its `is_valid`.
const LARGE_GENERATED: [(usize, &str, &str, GeneratedIsValid); 2] = [
    (
        10,
        "large_jsonschema_generated_10",
        include_str!("../data/large_object_10.json"),
        GeneratedLarge10::is_valid,
    ),
    (
        1_000,
        "large_jsonschema_generated_1000",
        include_str!("../data/large_object_1000.json"),
        GeneratedLarge1000::is_valid,
    ),
];

/// A closed object of `size` optional integer properties `p0`, `p1`, …
fn large_schema(size: usize) -> Schema {
    let mut object = Schema::object();
    for n in 0..size {
        object = object.optional(format!("p{n}"), Schema::integer().range(0..));
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
        let generated = LARGE_GENERATED
            .iter()
            .find(|(generated_size, ..)| *generated_size == size);
        // Ours against the runtime validator, and the generated one where there is one.
        let versus = |case: Case| match generated {
            Some((_, id, ..)) => case.vs(theirs).vs(id),
            None => case.vs(theirs),
        };
        suite = suite.case(large_case(
            theirs,
            format!("`jsonschema` `is_valid`, closed object of {size} properties"),
            size,
            |schema| jsonschema::draft202012::new(&schema.to_json_schema()).expect("compiles"),
            |validator, payload| validator.is_valid(payload),
        ));
        if let Some(&(_, id, text, is_valid)) = generated {
            suite = suite.case(large_case(
                id,
                format!("`jsonschema` generated at compile time, `is_valid`, {size} properties"),
                size,
                move |schema| {
                    let file: Value = serde_json::from_str(text).expect("schema file is JSON");
                    assert_eq!(
                        schema.to_json_schema(),
                        file,
                        "benches/data/large_object_{size}.json is no longer the large schema"
                    );
                    is_valid
                },
                |is_valid, payload| is_valid(payload),
            ));
        }
        suite = suite
            .case(flat(versus(large_case(
                compiled,
                format!("`CompiledSchema::is_valid`, {size} properties"),
                size,
                |schema| CompiledSchema::from(&schema),
                CompiledSchema::is_valid,
            ))))
            .case(flat(versus(large_case(
                interp,
                format!("the interpreter (`Schema::is_valid`), {size} properties"),
                size,
                |schema| schema,
                Schema::is_valid,
            ))));
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
                .length(1..)
                .description("Text or regex to look for."),
        )
        .required(
            "path",
            Schema::string().description("Directory to search from."),
        )
        .optional("max_results", Schema::integer().range(1..=10_000))
        .optional("case_sensitive", Schema::boolean())
        .optional("include", Schema::array(Schema::string()))
        .optional("mode", Schema::enumeration(["literal", "regex"]))
        .optional(
            "options",
            Schema::object()
                .required("follow_links", Schema::boolean())
                .optional("depth", Schema::integer().range(0..=u32::MAX)),
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
        ours: CompiledSchema::from(&interp),
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
    assert_eq!(
        ours.validate(invalid)
            .map_err(|v| v.reported.len() + v.omitted),
        Err(expected)
    );
    assert_eq!(ours.validate(invalid), interp.validate(invalid));
    assert!(GeneratedSearch::is_valid(valid));
    assert_eq!(GeneratedSearch::iter_errors(invalid).count(), expected);

    let f = || Rc::clone(&fixture);
    let (c1, c2, is_valid, valid_ok, invalid_all, interp_valid, interp_invalid) =
        (f(), f(), f(), f(), f(), f(), f());
    let (c1_generated, c2_generated) = (f(), f());
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
        .case(Case::iter(
            "c1_generated",
            "`jsonschema` generated at compile time, `is_valid`",
            move || GeneratedSearch::is_valid(black_box(&c1_generated.valid)),
        ))
        .case(Case::iter(
            "c2_generated",
            "`jsonschema` generated at compile time, `iter_errors().collect()`",
            move || {
                let errors: Vec<_> =
                    GeneratedSearch::iter_errors(black_box(&c2_generated.invalid)).collect();
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
            .vs("c1_generated")
            .target(Target::Ratio(0.5)),
        )
        .case(
            Case::iter(
                "compiled_validate_valid",
                "`CompiledSchema::validate` of the valid payload",
                move || valid_ok.ours.validate(black_box(&valid_ok.valid)),
            )
            .vs("c1")
            .vs("c1_generated"),
        )
        .case(
            Case::iter(
                "compiled_validate_invalid",
                "`CompiledSchema::validate` collecting the three violations",
                move || invalid_all.ours.validate(black_box(&invalid_all.invalid)),
            )
            .vs("c2")
            .vs("c2_generated")
            .target(Target::Ratio(1.0)),
        )
        .case(
            Case::iter(
                "interp_is_valid",
                "the interpreter (`Schema::is_valid`)",
                move || interp_valid.interp.is_valid(black_box(&interp_valid.valid)),
            )
            .vs("c1")
            .vs("c1_generated"),
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
            .vs("c2")
            .vs("c2_generated"),
        );
    large_object_cases(suite)
}
