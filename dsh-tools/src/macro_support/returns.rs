//! What a tool function may return (`T` or `Result<T, E>`) and how `#[state]` parameters are
//! reached. The generated code checks the value type, the error's conversion and the state types
//! itself, at the user's tokens, and reaches the tool's output type through its `Tool` impl
//! wherever it can, so a type that cannot be a tool value is reported once, on the return type.
//! What a `render` function may return is `crate::content::IntoContent`.

use std::ops::Deref;

use serde::de::DeserializeOwned;
use serde::{Serialize, Serializer};
use serde_json::Value;

use super::convert::output_from_json;
use crate::args::{ConvertError, ToolArgs};
use crate::call::run::ToolRun;
use crate::call::tool::{Tool, ToolContract};
use crate::errors::tool_error::ToolError;
use dsh_tools_schema::{Schema, SchemaError};

/// The value type of a `Result` a `#[tool]` function returns: the macro takes any return type
/// named `Result` (`Result<T, E>`, `io::Result<T>`, `anyhow::Result<T>`) as one, and any other as
/// the value itself. It has no bounds, so naming the value type never fails; the value type's own
/// requirements (`ToolArgs`, `Serialize`, `Send`) are checked once, by the generated code.
pub trait ResultValue {
    /// `T` of `Result<T, E>`.
    type Value;
}

impl<T, E> ResultValue for Result<T, E> {
    type Value = T;
}

/// A value a tool returned directly.
pub fn tool_value<T>(value: T) -> Result<T, ToolError> {
    Ok(value)
}

/// A tool's value converted back into its output type (for a custom `render`). Going through
/// the `Tool` impl keeps an output type without `ToolArgs` from being reported here again.
pub fn tool_output<T: Tool>(value: &Value) -> Result<T::Output, ToolError> {
    output_from_json::<T::Output>(T::INFO.name, value)
}

/// The shared state of type `T` for a `#[state]` parameter.
pub fn require_state<T: Send + Sync + 'static>(run: &ToolRun) -> Result<&T, ToolError> {
    run.state::<T>()
}

/// Builds the contract of a tool from its `Tool` impl. Going through the impl (rather than naming
/// the output type) keeps a return type that cannot be a tool value from being reported again
/// here: the impl's `Output` is where it is reported.
/// It only names the two schema functions: the contract is built by code compiled once.
pub fn contract_of<T: Tool>() -> ToolContract {
    ToolContract::from_schema_fns(
        <T::Args as ToolArgs>::schema,
        <T::Output as ToolArgs>::schema,
    )
}

/// The value of a `#[tool(schemars_output)]` function: a type of another crate, whose schema
/// comes from `schemars::JsonSchema` and whose value is read back (for `render = fn`) through
/// `Deserialize`. Serialized as the value itself; a `render` function taking `&T` gets it
/// through `Deref`.
#[derive(Debug)]
pub struct SchemarsOutput<T>(pub T);

impl<T> Deref for SchemarsOutput<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Serialize> Serialize for SchemarsOutput<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<T: schemars::JsonSchema + DeserializeOwned> ToolArgs for SchemarsOutput<T> {
    fn schema() -> Result<Schema, SchemaError> {
        dsh_tools_schema::derive::schemars_schema::<T>()
    }

    fn from_json(value: &Value) -> Result<Self, ConvertError> {
        T::deserialize(value)
            .map(Self)
            .map_err(|error| ConvertError::new(error.to_string()))
    }
}
