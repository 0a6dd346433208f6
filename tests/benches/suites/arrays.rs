//! What validating a large array costs per item: ours (the compiled schema) against the
//! `jsonschema` crate (draft 2020-12, compiled once), on arrays of 10, 1,000 and 100,000 items
//! for `{"type":"array","items":{"type":"string"}}`. Figures are per item.
//!
//! - valid (every item a string): `is_valid` on both sides;
//! - all-invalid (every item a number): collecting the violations, `validate` (every violation
//!   counted, the first ones reported with their paths, the rest as "and N more") against
//!   `iter_errors().collect()` (a `ValidationError` per item).
//!
//! `jsonschema`'s validator generated at compile time for the same schema (its `validator` macro)
//! runs both ways too (`jsonschema_generated_…`), and ours is shown against it as well.
//!
//! Target: ours ≤ 0.5 × `jsonschema` (the runtime validator) per item at every size, both ways.

use std::hint::black_box;
use std::rc::Rc;

use dsh_tools::schema::{CompiledSchema, Schema};
use dsh_tools_tests::bench::{Case, Suite, SuiteDef, Target};
use serde_json::{Value, json};

pub(crate) const SUITE: SuiteDef = SuiteDef::new("arrays", suite);

/// `jsonschema`'s validator of the same schema, generated at compile time.
#[jsonschema_codegen::validator(
    schema = r#"{"type": "array", "items": {"type": "string"}}"#,
    draft = Draft202012
)]
struct Generated;

/// The array sizes every case runs at, with the ids of their cases: theirs and ours on the valid
/// array, theirs and ours on the invalid one, then theirs generated on each.
const SIZES: [(u64, [&str; 6]); 3] = [
    (
        10,
        [
            "jsonschema_10",
            "compiled_10",
            "jsonschema_invalid_10",
            "compiled_invalid_10",
            "jsonschema_generated_10",
            "jsonschema_generated_invalid_10",
        ],
    ),
    (
        1_000,
        [
            "jsonschema_1000",
            "compiled_1000",
            "jsonschema_invalid_1000",
            "compiled_invalid_1000",
            "jsonschema_generated_1000",
            "jsonschema_generated_invalid_1000",
        ],
    ),
    (
        100_000,
        [
            "jsonschema_100000",
            "compiled_100000",
            "jsonschema_invalid_100000",
            "compiled_invalid_100000",
            "jsonschema_generated_100000",
            "jsonschema_generated_invalid_100000",
        ],
    ),
];

struct Fixture {
    valid: Value,
    invalid: Value,
    theirs: jsonschema::Validator,
    ours: CompiledSchema,
}

fn fixture(items: u64) -> Rc<Fixture> {
    let valid = Value::Array(
        (0..items)
            .map(|index| Value::String(format!("src/file_{index}.rs")))
            .collect(),
    );
    let invalid = Value::Array((0..items).map(|index| json!(index)).collect());
    let theirs =
        jsonschema::draft202012::new(&json!({"type": "array", "items": {"type": "string"}}))
            .expect("schema compiles");
    let ours = CompiledSchema::from(Schema::array(Schema::string()).build());
    assert!(theirs.is_valid(&valid) && ours.is_valid(&valid) && Generated::is_valid(&valid));
    assert_eq!(theirs.iter_errors(&invalid).count() as u64, items);
    assert_eq!(Generated::iter_errors(&invalid).count() as u64, items);
    let violations = ours.validate(&invalid).expect_err("every item is invalid");
    assert_eq!(
        (violations.reported.len() + violations.omitted) as u64,
        items
    );
    Rc::new(Fixture {
        valid,
        invalid,
        theirs,
        ours,
    })
}

fn suite() -> Suite {
    let mut suite = Suite::new("arrays");
    for (
        items,
        [
            theirs_valid,
            ours_valid,
            theirs_invalid,
            ours_invalid,
            generated_valid,
            generated_invalid,
        ],
    ) in SIZES
    {
        // Under callgrind, a long array needs few iterations.
        let iterations = (2_000_000 / items).clamp(2, 5_000);
        let fixture = fixture(items);
        let theirs = Rc::clone(&fixture);
        let ours = Rc::clone(&fixture);
        let theirs_errors = Rc::clone(&fixture);
        let generated = Rc::clone(&fixture);
        let generated_errors = Rc::clone(&fixture);
        suite = suite
            .case(
                Case::iter(
                    theirs_valid,
                    format!("`jsonschema` `is_valid`, {items} strings"),
                    move || theirs.theirs.is_valid(black_box(&theirs.valid)),
                )
                .per(items, "item")
                .profile_iterations(iterations),
            )
            .case(
                Case::iter(
                    ours_valid,
                    format!("`CompiledSchema::is_valid`, {items} strings"),
                    move || ours.ours.is_valid(black_box(&ours.valid)),
                )
                .per(items, "item")
                .profile_iterations(iterations)
                .vs(theirs_valid)
                .vs(generated_valid)
                .target(Target::Ratio(0.5)),
            )
            .case(
                Case::iter(
                    theirs_invalid,
                    format!("`jsonschema` `iter_errors().collect()`, {items} numbers"),
                    move || {
                        theirs_errors
                            .theirs
                            .iter_errors(black_box(&theirs_errors.invalid))
                            .collect::<Vec<_>>()
                            .len()
                    },
                )
                .per(items, "item")
                .profile_iterations(iterations.min(500)),
            )
            .case(
                Case::iter(
                    ours_invalid,
                    format!("`CompiledSchema::validate`, {items} numbers"),
                    move || fixture.ours.validate(black_box(&fixture.invalid)),
                )
                .per(items, "item")
                .profile_iterations(iterations.min(500))
                .vs(theirs_invalid)
                .vs(generated_invalid)
                .target(Target::Ratio(0.5)),
            )
            .case(
                Case::iter(
                    generated_valid,
                    format!("`jsonschema` generated at compile time, `is_valid`, {items} strings"),
                    move || Generated::is_valid(black_box(&generated.valid)),
                )
                .per(items, "item")
                .profile_iterations(iterations),
            )
            .case(
                Case::iter(
                    generated_invalid,
                    format!(
                        "`jsonschema` generated at compile time, `iter_errors().collect()`, \
                         {items} numbers"
                    ),
                    move || {
                        Generated::iter_errors(black_box(&generated_errors.invalid))
                            .collect::<Vec<_>>()
                            .len()
                    },
                )
                .per(items, "item")
                .profile_iterations(iterations.min(500)),
            );
    }
    suite
}
