//! Arbitrary bytes, parsed as JSON, imported as a JSON Schema: import must never panic, and a
//! schema it accepts must render to JSON Schema that imports again, meaning the same for the
//! schema document itself used as a value.

#![no_main]

use dsh_tools::schema::Schema;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(raw) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let Ok(schema) = Schema::from_json_schema(&raw) else {
        return;
    };
    let rendered = schema.to_json_schema();
    let again = Schema::from_json_schema(&rendered).expect("a rendered schema imports");
    for probe in [&raw, &rendered, &Value::Null] {
        assert_eq!(schema.is_valid(probe), again.is_valid(probe));
        assert_eq!(schema.validate(probe).is_ok(), schema.is_valid(probe));
    }
});
