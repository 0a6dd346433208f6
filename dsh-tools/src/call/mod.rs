//! The call: what one tool call is while it runs, and what can be called — the input and its
//! frozen [`ToolExecution`], the [`ToolRun`] a body gets, its [`ToolExecutionResult`], and the
//! definitions ([`ToolDefinition`], the typed [`Tool`], hand-written [`FnTool`]s).
//!
//! # Layer
//! Above the data layer (content, errors, results, limits, progress data, shared state) and below
//! the hook contracts: the input and its frozen execution, the run context a body gets, the
//! definitions and the typed `Tool` trait, and the handle through which a call reaches the
//! registry it runs in (`CallHost`, in `execution.rs`), which the registry implements without this layer knowing it.

pub(crate) mod blocking;
pub(crate) mod cards;
pub(crate) mod context;
pub(crate) mod definition;
pub(crate) mod execution;
pub(crate) mod fn_tool;
pub(crate) mod options;
pub(crate) mod run;
#[cfg(feature = "code-mode")]
pub(crate) mod run_code;
pub(crate) mod tool;
pub(crate) mod tool_info;
pub(crate) mod tool_search;
pub(crate) mod typed_call;

pub use self::definition::{ToolDefinition, ToolSchema};
pub use self::execution::{ProgressSink, ToolExecution, ToolExecutionInput};
pub use self::fn_tool::{FnTool, FnToolBuilder};
pub use self::options::{RequestSettings, TaskSupport, ToolAnnotations, ToolOptions, ToolOrigin};
pub use self::run::ToolRun;
pub use self::tool::{Tool, ToolContract};
pub use self::tool_info::ToolInfo;
pub use crate::callers::ToolCallers;
pub use crate::future::BoxFuture;
pub use crate::ids::{AgentId, ToolExecutionToken};
pub use crate::progress::ToolProgress;
pub use crate::result::ToolExecutionResult;
pub use crate::state::{SharedState, StateType};
pub use tokio_util::sync::CancellationToken;
