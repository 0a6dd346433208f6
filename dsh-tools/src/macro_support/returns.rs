//! What a tool function may return (`T` or `Result<T, E>`), what a `render` function may return,
//! and how `#[state]` parameters are reached.

use serde::Serialize;

use crate::args::ToolArgs;
use crate::content::ContentBlock;
use crate::error::ToolError;
use crate::run::ToolRun;

/// The return type of a `#[tool]` function: a value with a schema, or a `Result` of one whose
/// error converts into `ToolError`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a tool",
    label = "a tool returns `T` or `Result<T, E>`",
    note = "`T` must implement `Serialize` and `ToolArgs` (derive both); `E` must convert into `ToolError` (any `std::error::Error` does)"
)]
pub trait IntoToolReturn {
    /// The canonical value.
    type Output: ToolArgs + Serialize + Send + 'static;

    /// The value, or the tool's error.
    fn into_tool_return(self) -> Result<Self::Output, ToolError>;
}

impl<T, E> IntoToolReturn for Result<T, E>
where
    T: ToolArgs + Serialize + Send + 'static,
    E: Into<ToolError>,
{
    type Output = T;

    fn into_tool_return(self) -> Result<T, ToolError> {
        self.map_err(Into::into)
    }
}

/// A value returned directly (not in a `Result`).
impl<T> IntoToolReturn for T
where
    T: ToolArgs + Serialize + Send + 'static,
{
    type Output = T;

    fn into_tool_return(self) -> Result<T, ToolError> {
        Ok(self)
    }
}

/// What a `render = path` function returns.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be tool content",
    label = "a render function returns a `String`, a `ContentBlock` or a `Vec<ContentBlock>`"
)]
pub trait IntoContent {
    /// The content blocks.
    fn into_content(self) -> Vec<ContentBlock>;
}

impl IntoContent for String {
    fn into_content(self) -> Vec<ContentBlock> {
        vec![ContentBlock::text(self)]
    }
}

impl IntoContent for &str {
    fn into_content(self) -> Vec<ContentBlock> {
        vec![ContentBlock::text(self)]
    }
}

impl IntoContent for ContentBlock {
    fn into_content(self) -> Vec<ContentBlock> {
        vec![self]
    }
}

impl IntoContent for Vec<ContentBlock> {
    fn into_content(self) -> Vec<ContentBlock> {
        self
    }
}

/// The shared state of type `T` for a `#[state]` parameter.
pub fn require_state<T: Send + Sync + 'static>(run: &ToolRun) -> Result<&T, ToolError> {
    run.require_state::<T>()
}

/// Builds the contract of a tool from its `Tool` impl. Going through the impl (rather than naming
/// the output type) keeps a return type that cannot be a tool value from being reported again
/// here: the impl's `Output` is where it is reported.
pub fn contract_of<T: crate::tool::Tool>() -> crate::tool::ToolContract {
    crate::tool::ToolContract::of::<T::Args, T::Output>()
}
