//! The structured-output check over raw JSON Schema: [`assert_supported_object_json_schema`].
//!
//! It accepts what import takes (see [`Schema::from_json_schema`]): all of JSON Schema 2020-12
//! but remote references and patterns the engine cannot run, every keyword enforced or a pure
//! annotation, so a schema handed to a model as a forced tool's `parameters` means exactly what
//! the value is later checked against; and it asks for an object at the root. Any other schema
//! is checked by importing it ([`Schema::from_json_schema`] is the check), and its values by the
//! imported schema, compiled: [`CompiledSchema::validate_output`](crate::CompiledSchema::validate_output).

use serde_json::Value;

use super::error::SchemaError;
use super::model::{Schema, SchemaKind};

/// Checks that the engine enforces `schema` as written and that it is object-rooted, as
/// structured output is: the root must also declare `"type": "object"`. The error lists every
/// problem with its path (`unsupported JSON schema: …`, code `UNSUPPORTED_SCHEMA`).
pub fn assert_supported_object_json_schema(schema: &Value) -> Result<(), SchemaError> {
    let object_rooted = schema
        .get("type")
        .is_some_and(|kind| kind.as_str() == Some("object"));
    match Schema::from_json_schema(schema) {
        Ok(imported)
            if object_rooted
                && matches!(
                    imported.kind,
                    SchemaKind::Object(_) | SchemaKind::Keywords(_)
                ) =>
        {
            Ok(())
        }
        Ok(_) => Err(object_root_error()),
        Err(mut error) => {
            if !object_rooted {
                error.push("schema.type".to_owned(), object_root_message().to_owned());
            }
            Err(error)
        }
    }
}

fn object_root_message() -> &'static str {
    "schema.type must be \"object\" (structured output is object-rooted)"
}

fn object_root_error() -> SchemaError {
    SchemaError::at("schema.type", object_root_message())
}
