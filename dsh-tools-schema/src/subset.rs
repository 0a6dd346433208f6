//! The spec's structured-output functions over raw JSON Schema, in Rust case:
//! [`assert_supported_json_schema`], its object-rooted variant
//! [`assert_supported_object_json_schema`], and [`validate_json_schema_value`].
//!
//! They accept what import takes (see [`Schema::from_json_schema`]): all of JSON Schema 2020-12
//! but remote references and patterns the engine cannot run, every keyword enforced or a pure
//! annotation, so a schema handed to a model as a forced tool's `parameters` means exactly what
//! the value is later checked against.

use std::fmt;

use serde_json::Value;

use super::error::SchemaError;
use super::model::{Schema, SchemaKind};
use super::violation::Violations;

/// Checks that the engine enforces `schema` as written; the error lists every
/// problem with its path (`unsupported JSON schema: …`, code `UNSUPPORTED_SCHEMA`).
pub fn assert_supported_json_schema(schema: &Value) -> Result<(), SchemaError> {
    Schema::from_json_schema(schema).map(drop)
}

/// [`assert_supported_json_schema`] for structured output, which is object-rooted: the root
/// must also declare `"type": "object"`.
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

/// Validates `value` against the raw JSON Schema `schema` (paths rooted at `value`): the schema
/// must be in the supported subset, and then every violation of the value is listed.
///
/// To check many values against one schema, import it once with [`Schema::from_json_schema`]
/// and call [`Schema::validate_output`].
pub fn validate_json_schema_value(
    schema: &Value,
    value: &Value,
) -> Result<(), JsonSchemaValueError> {
    let imported = Schema::from_json_schema(schema).map_err(JsonSchemaValueError::Unsupported)?;
    imported
        .validate_output(value)
        .map_err(JsonSchemaValueError::Invalid)
}

/// Why [`validate_json_schema_value`] failed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum JsonSchemaValueError {
    /// The schema uses JSON Schema the engine cannot enforce.
    Unsupported(SchemaError),
    /// The value violates the schema.
    Invalid(Violations),
}

impl fmt::Display for JsonSchemaValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unsupported(error) => error.fmt(f),
            Self::Invalid(violations) => violations.fmt(f),
        }
    }
}

impl std::error::Error for JsonSchemaValueError {}
