//! What validating a large array costs per item: ours (the compiled schema, `is_valid`) against
//! the `jsonschema` crate (draft 2020-12, compiled once), on arrays of 10, 1,000 and 100,000
//! strings that are all valid (`{"type":"array","items":{"type":"string"}}`). Figures are per item.
//!
//! Target: ours ≤ 0.5 × `jsonschema` per item at every size.

use std::hint::black_box;
use std::rc::Rc;

use dsh_tools::schema::{CompiledSchema, Schema};
use dsh_tools_tests::bench::{Case, Suite, SuiteDef, Target};
use serde_json::{Value, json};

pub(crate) const SUITE: SuiteDef = SuiteDef::new("arrays", suite);

/// The array sizes every case runs at.
const SIZES: [(u64, &str, &str); 3] = [
    (10, "jsonschema_10", "compiled_10"),
    (1_000, "jsonschema_1000", "compiled_1000"),
    (100_000, "jsonschema_100000", "compiled_100000"),
];

struct Fixture {
    payload: Value,
    theirs: jsonschema::Validator,
    ours: CompiledSchema,
}

fn fixture(items: u64) -> Rc<Fixture> {
    let payload = Value::Array(
        (0..items)
            .map(|index| Value::String(format!("src/file_{index}.rs")))
            .collect(),
    );
    let theirs =
        jsonschema::draft202012::new(&json!({"type": "array", "items": {"type": "string"}}))
            .expect("schema compiles");
    let ours = Schema::array(Schema::string()).build().compile();
    assert!(theirs.is_valid(&payload) && ours.is_valid(&payload));
    Rc::new(Fixture {
        payload,
        theirs,
        ours,
    })
}

fn suite() -> Suite {
    let mut suite = Suite::new("arrays");
    for (items, theirs_id, ours_id) in SIZES {
        // Under callgrind, a long array needs few iterations.
        let iterations = (2_000_000 / items).clamp(2, 5_000);
        let fixture = fixture(items);
        let theirs = Rc::clone(&fixture);
        suite = suite
            .case(
                Case::iter(
                    theirs_id,
                    format!("`jsonschema` `is_valid`, {items} strings"),
                    move || theirs.theirs.is_valid(black_box(&theirs.payload)),
                )
                .per(items, "item")
                .profile_iterations(iterations),
            )
            .case(
                Case::iter(
                    ours_id,
                    format!("`CompiledSchema::is_valid`, {items} strings"),
                    move || fixture.ours.is_valid(black_box(&fixture.payload)),
                )
                .per(items, "item")
                .profile_iterations(iterations)
                .vs(theirs_id)
                .target(Target::Ratio(0.5)),
            );
    }
    suite
}
