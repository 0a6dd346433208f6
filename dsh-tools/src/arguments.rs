//! Parsing a model's raw argument string.
//!
//! Providers deliver arguments as a JSON string. An empty string means "no arguments" (`{}`);
//! anything unparsable, including nesting deeper than `serde_json`'s recursion limit, becomes an
//! `INVALID_ARGS` error that quotes the parser, never a panic.

use serde_json::Value;

use crate::error::ToolError;

/// Parses a model's raw argument string: empty or whitespace is `{}`, malformed JSON is an
/// `INVALID_ARGS` error quoting the parse error. Key order is kept.
pub fn parse_arguments(raw: &str) -> Result<Value, ToolError> {
    parse_raw(raw).map_err(ToolError::invalid_arguments_text)
}

/// Parses `raw`, or says why it is not JSON (`arguments are not valid JSON: …`).
pub(crate) fn parse_raw(raw: &str) -> Result<Value, String> {
    if raw.trim().is_empty() {
        return Ok(Value::Object(serde_json::Map::new()));
    }
    serde_json::from_str(raw).map_err(|error| format!("arguments are not valid JSON: {error}"))
}
