//! Arbitrary bytes, parsed as a JSON pair `[schema, value]`: importing the schema never panics,
//! nor does validating the value; when the schema imports, the interpreter, the compiled schema
//! and the report agree, and they agree with the `jsonschema` crate on the schema as written,
//! except where the two engines are known to part: fractional `multipleOf` (doubles there,
//! exact decimals here), `pattern`s (regex dialects), and `format`s (different grammars).

#![no_main]

use dsh_tools::schema::{CompiledSchema, Schema};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// Whether `schema` uses a keyword the two engines decide differently by design.
fn parts_ways(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(key, value)| match key.as_str() {
            "pattern" | "patternProperties" | "format" | "$schema" | "$id" | "$vocabulary" => true,
            "multipleOf" => value.as_f64().is_none_or(|factor| factor.fract() != 0.0),
            _ => parts_ways(value),
        }),
        Value::Array(items) => items.iter().any(parts_ways),
        _ => false,
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(Value::Array(pair)) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let [schema, value] = pair.as_slice() else {
        return;
    };
    let Ok(imported) = Schema::from_json_schema(schema) else {
        return;
    };
    let compiled = CompiledSchema::from(&imported);
    let ours = imported.is_valid(value);
    assert_eq!(compiled.is_valid(value), ours);
    assert_eq!(imported.validate(value).is_ok(), ours);
    assert_eq!(compiled.validate(value).is_ok(), ours);
    if parts_ways(schema) {
        return;
    }
    let Ok(oracle) = jsonschema::draft202012::options().build(schema) else {
        return;
    };
    assert_eq!(oracle.is_valid(value), ours, "schema {schema}, value {value}");
});
