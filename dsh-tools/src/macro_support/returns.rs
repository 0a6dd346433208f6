//! What a tool function may return (`T` or `Result<T, E>`) and how `#[state]` parameters are
//! reached. The generated code checks the value type, the error's conversion and the state types
//! itself, at the user's tokens, and reaches the tool's output type through its `Tool` impl
//! wherever it can, so a type that cannot be a tool value is reported once, on the return type.
//! What a `render` function may return is `crate::content::IntoContent`.

use serde_json::Value;

use super::convert::output_from_json;
use crate::call::run::ToolRun;
use crate::call::tool::{Tool, ToolContract};
use crate::error::ToolError;

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
    output_from_json::<T::Output>(T::NAME, value)
}

/// The shared state of type `T` for a `#[state]` parameter.
pub fn require_state<T: Send + Sync + 'static>(run: &ToolRun) -> Result<&T, ToolError> {
    run.require_state::<T>()
}

/// Builds the contract of a tool from its `Tool` impl. Going through the impl (rather than naming
/// the output type) keeps a return type that cannot be a tool value from being reported again
/// here: the impl's `Output` is where it is reported.
pub fn contract_of<T: Tool>() -> ToolContract {
    ToolContract::of::<T::Args, T::Output>()
}
