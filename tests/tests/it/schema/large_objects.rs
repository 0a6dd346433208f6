//! Objects with thousands of declared properties, against payloads in any key order: the
//! interpreter and the compiled schema find each key through an index (the `validate` bench
//! shows the cost growing linearly with the size), and report exactly what they report for small
//! objects, in the same order.

use dsh_tools::schema::CompiledSchema;
use dsh_tools::schema::{Property, Schema};
use serde_json::{Map, Value, json};

const PROPERTIES: usize = 5_000;

/// `p0` … `p4999`, integers; every third one required.
fn large_schema(open: bool) -> Schema {
    let mut object = Schema::object();
    for n in 0..PROPERTIES {
        object = object.property(Property {
            name: format!("p{n}"),
            schema: Schema::integer().range(0..).build(),
            required: n % 3 == 0,
        });
    }
    object.additional_properties(open).build()
}

/// Every property, in reverse declaration order (so the hint never guesses right).
fn reversed_payload() -> Map<String, Value> {
    (0..PROPERTIES)
        .rev()
        .map(|n| (format!("p{n}"), json!(n)))
        .collect()
}

#[test]
fn out_of_order_payloads_validate_like_ordered_ones() {
    for open in [false, true] {
        let schema = large_schema(open);
        let compiled = CompiledSchema::from(&schema);
        let payload = Value::Object(reversed_payload());
        assert!(schema.is_valid(&payload) && compiled.is_valid(&payload));
        assert_eq!(schema.validate(&payload), Ok(()));
        // Interleaved: every other key from the end.
        let shuffled: Map<String, Value> = (0..PROPERTIES)
            .map(|n| if n % 2 == 0 { n } else { PROPERTIES - n })
            .map(|n| (format!("p{n}"), json!(1)))
            .collect();
        let shuffled = Value::Object(shuffled);
        assert!(schema.is_valid(&shuffled) && compiled.is_valid(&shuffled));
    }
}

#[test]
fn large_objects_report_every_violation_in_order() {
    let schema = large_schema(false);
    let compiled = CompiledSchema::from(&schema);
    let mut payload = reversed_payload();
    payload.shift_remove("p3");
    payload.shift_remove("p0");
    payload.insert("zz".to_owned(), json!(1));
    payload["p4001"] = json!(-1);
    payload.insert("p".to_owned(), json!(2));
    payload["p17"] = json!("x");
    let payload = Value::Object(payload);
    assert!(!schema.is_valid(&payload) && !compiled.is_valid(&payload));
    let violations = schema.validate(&payload).unwrap_err();
    let messages: Vec<&str> = violations.reported.iter().map(|v| v.message()).collect();
    assert_eq!(
        messages,
        [
            "missing required property \"p0\"",
            "missing required property \"p3\"",
            "\"p17\" must be an integer",
            "\"p4001\" must be >= 0",
            "\"zz\" is not a declared property (additionalProperties: false)",
            "\"p\" is not a declared property (additionalProperties: false)",
        ]
    );
    assert_eq!(compiled.validate(&payload), Err(violations));
}

#[test]
fn a_large_map_schema_checks_undeclared_values() {
    let mut object = Schema::object();
    for n in 0..100 {
        object = object.optional(format!("k{n}"), Schema::boolean());
    }
    let schema = object.additional_schema(Schema::string()).build();
    let compiled = CompiledSchema::from(&schema);
    let payload = json!({"extra": 1, "k99": true, "k0": "no", "other": "fine"});
    let violations = schema.validate(&payload).unwrap_err();
    let messages: Vec<&str> = violations.reported.iter().map(|v| v.message()).collect();
    assert_eq!(
        messages,
        ["\"k0\" must be a boolean", "\"extra\" must be a string"]
    );
    assert_eq!(compiled.validate(&payload), Err(violations));
    assert!(compiled.is_valid(&json!({"k50": false, "k2": true, "x": "y"})));
}
