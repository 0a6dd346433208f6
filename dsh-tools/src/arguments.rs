//! Parsing a model's raw argument string.
//!
//! Providers deliver arguments as a JSON string. An empty string means "no arguments" (`{}`);
//! anything unparsable, including nesting deeper than `serde_json`'s recursion limit, becomes an
//! `INVALID_ARGS` error that quotes the parser, never a panic. An object that gives a key twice
//! (`{"path":"a","path":"b"}`) is an `INVALID_ARGS` error naming every repeated key with its path
//! (`duplicate property "path"`): keeping either value would drop one the model sent.

use serde_json::Value;

use crate::errors::tool_error::ToolError;
use crate::unique_keys::{ParseError, parse_unique};

/// Parses a model's raw argument string: empty or whitespace is `{}`, malformed JSON is an
/// `INVALID_ARGS` error quoting the parse error, and an object repeating a key is an
/// `INVALID_ARGS` error naming each repeated key (`duplicate property "a.b"`). Key order is kept.
///
/// Not API: public for the bench harness and the fuzz target, which measure and fuzz this step
/// on its own. A caller with a raw argument string makes its call with
/// [`ToolExecutionInput::from_raw`](crate::ToolExecutionInput::from_raw), whose result carries
/// the same `INVALID_ARGS` error.
#[doc(hidden)]
pub fn parse_arguments(raw: &str) -> Result<Value, ToolError> {
    match parse(raw) {
        Ok(value) => Ok(value),
        Err(ParseError::Syntax(error)) => Err(ToolError::invalid_arguments_text(not_json(&error))),
        Err(ParseError::RepeatedKeys(violations)) => Err(ToolError::invalid_arguments(&violations)),
    }
}

/// Parses `raw`, or says why it cannot be the call's arguments (`arguments are not valid JSON:
/// …`, or the repeated keys).
pub(crate) fn parse_raw(raw: &str) -> Result<Value, String> {
    parse(raw).map_err(|error| match error {
        ParseError::Syntax(error) => not_json(&error),
        ParseError::RepeatedKeys(violations) => violations.to_string(),
    })
}

fn parse(raw: &str) -> Result<Value, ParseError> {
    if raw.trim().is_empty() {
        return Ok(Value::Object(serde_json::Map::new()));
    }
    parse_unique(raw)
}

fn not_json(error: &serde_json::Error) -> String {
    format!("arguments are not valid JSON: {error}")
}
