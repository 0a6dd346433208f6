//! Conversion steps of generated `from_json` bodies. Values arrive validated, so these only fail
//! when a schema and a type disagree; every failure names where it happened.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::args::{ConvertError, ToolArgs};
use crate::errors::tool_error::ToolError;

/// The value as an object.
pub fn expect_object(value: &Value) -> Result<&Map<String, Value>, ConvertError> {
    value
        .as_object()
        .ok_or_else(|| ConvertError::expected("an object", value))
}

/// The value at hand is not `what` the type expects.
#[cold]
pub fn expected(what: &str, value: &Value) -> ConvertError {
    ConvertError::expected(what, value)
}

/// `error`, placed under the property `key` (from the inside out).
#[cold]
pub fn at_key(error: ConvertError, key: &str) -> ConvertError {
    error.at_key(key)
}

/// The value must be `null` (a unit struct).
pub fn expect_null(value: &Value) -> Result<(), ConvertError> {
    if value.is_null() {
        Ok(())
    } else {
        Err(ConvertError::expected("null", value))
    }
}

/// Converts the property `key`.
#[inline]
pub fn convert_field<T: ToolArgs>(value: &Value, key: &str) -> Result<T, ConvertError> {
    T::from_json(value).map_err(|error| error.at_key(key))
}

/// The value of the absent property `key` (`ToolArgs::absent`), or the error that it is missing.
pub fn absent_or_missing<T>(absent: Option<T>, key: &str) -> Result<T, ConvertError> {
    match absent {
        Some(value) => Ok(value),
        None => Err(missing(key)),
    }
}

/// The required property `key` is absent.
#[cold]
pub fn missing(key: &str) -> ConvertError {
    ConvertError::new("is missing").at_key(key)
}

/// Converts the property `key` of a `#[arg(schemars)]` field through `serde::Deserialize`.
pub fn schemars_field<T: DeserializeOwned>(value: &Value, key: &str) -> Result<T, ConvertError> {
    T::deserialize(value).map_err(|error| ConvertError::new(error.to_string()).at_key(key))
}

/// A `#[arg(schemars)]` newtype's whole value, through `Deserialize`.
pub fn schemars_value<T: DeserializeOwned>(value: &Value) -> Result<T, ConvertError> {
    T::deserialize(value).map_err(|error| ConvertError::new(error.to_string()))
}

/// The value of the absent `#[arg(schemars)]` property `key`: whatever `Deserialize` makes of
/// `null` (`None` for an `Option`), otherwise missing.
pub fn schemars_absent<T: DeserializeOwned>(key: &str) -> Result<T, ConvertError> {
    T::deserialize(&Value::Null).map_err(|_| ConvertError::new("is missing").at_key(key))
}

/// The only entry of an externally tagged variant object.
pub fn single_entry(map: &Map<String, Value>) -> Result<(&str, &Value), ConvertError> {
    let mut entries = map.iter();
    match (entries.next(), entries.next()) {
        (Some((key, value)), None) => Ok((key.as_str(), value)),
        _ => Err(ConvertError::new(format!(
            "expected an object with exactly one variant key, got {} keys",
            map.len()
        ))),
    }
}

/// The tag of an internally or adjacently tagged variant.
pub fn tag_of<'a>(map: &'a Map<String, Value>, tag: &str) -> Result<&'a str, ConvertError> {
    map.get(tag)
        .and_then(Value::as_str)
        .ok_or_else(|| ConvertError::new("is missing or not a string").at_key(tag))
}

/// The content of an adjacently tagged variant.
pub fn content_of<'a>(
    map: &'a Map<String, Value>,
    content: &str,
) -> Result<&'a Value, ConvertError> {
    map.get(content)
        .ok_or_else(|| ConvertError::new("is missing").at_key(content))
}

/// A variant name no variant has.
pub fn unknown_variant(name: &str) -> ConvertError {
    ConvertError::new(format!("unknown variant {:?}", name))
}

/// A tool's value converted back into its output type (for a custom `render`).
pub fn output_from_json<T: ToolArgs>(tool: &str, value: &Value) -> Result<T, ToolError> {
    T::from_json(value).map_err(|error| ToolError::invalid_output(tool, error))
}
