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

use std::hint::black_box;
use std::rc::Rc;

use dsh_tools::schema::{CompiledSchema, Schema};
use dsh_tools_tests::bench::{Case, Suite, SuiteDef, Target};
use serde_json::Value;

const WORKLOAD: &str = include_str!("../data/search_files.json");

pub(crate) const SUITE: SuiteDef = SuiteDef::new("validate", suite);

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
    Suite::new("validate")
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
        )
}
