//! # dsh-tools
//!
//! Turn ordinary `async fn`s into tools an LLM can call. Register them in a [`ToolRegistry`], give
//! [`ToolRegistry::schemas`] to the model, and hand every tool call it makes to
//! [`ToolRegistry::execute`]: each call runs through one pipeline of policy hooks, guards,
//! wrappers and result checks, and always ends as one well-formed [`ToolExecutionResult`].
//!
//! The model's JSON is untrusted. Whatever it sends, the caller gets a result the model can
//! self-correct from: never a panic, never a silently dropped field.

mod args;
mod arguments;
mod content;
mod definition;
mod error;
mod execution;
mod future;
mod lossless;
mod present;
mod result;
mod run;
pub mod schema;
mod tool;

#[doc(hidden)]
#[path = "macro_support/mod.rs"]
pub mod __private;

pub use args::{ConvertError, ToolArgs, ToolArgsObject};
pub use arguments::parse_arguments;
pub use content::{ContentBlock, joined_text};
pub use definition::{ToolAnnotations, ToolDefinition, ToolSchema, render_value_as_text};
#[cfg(feature = "macros")]
pub use dsh_tools_macros::{ToolArgs, tool};
pub use error::{ErrorInfo, ToolError, codes, names};
pub use execution::{AgentId, ToolExecution, ToolExecutionInput, ToolExecutionToken};
pub use future::BoxFuture;
pub use lossless::{LosslessError, to_lossless_value};
pub use present::{FileDiff, FileLocation, ToolCallKind, ToolCallView, ToolResult, ToolResultView};
pub use result::{ToolExecutionResult, ToolExecutionResultParts, ToolOutcome};
pub use run::{SharedState, ToolRun};
pub use schema::{Schema, SchemaError};
pub use serde_json::{Value, json};
pub use tokio_util::sync::CancellationToken;
pub use tool::{Tool, ToolContract};
