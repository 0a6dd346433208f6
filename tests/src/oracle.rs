//! The reference validator the differential tests compare against: the `jsonschema` crate for
//! draft 2020-12, asserting `format` as this engine does for the formats it checks.

use serde_json::Value;

/// A `jsonschema` validator of `schema` (draft 2020-12, formats asserted).
pub fn validator(schema: &Value) -> Result<jsonschema::Validator, String> {
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(schema)
        .map_err(|error| error.to_string())
}

/// Whether `jsonschema` finds `value` valid against `schema`, which it must take.
pub fn is_valid(schema: &Value, value: &Value) -> bool {
    validator(schema)
        .unwrap_or_else(|error| panic!("jsonschema refuses {schema}: {error}"))
        .is_valid(value)
}
