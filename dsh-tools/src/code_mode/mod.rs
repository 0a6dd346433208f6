//! Code Mode: instead of one tool call per turn, the model writes one short JavaScript program
//! that calls many tools (`run_code`). Intermediate results stay out of the model's context, and
//! loops and joins cost no round trips.
//!
//! Every `await tools.x(args)` of a program is a nested call of the registry with the program's
//! call as its parent, through the whole pipeline: hooks, approvals, guards, layers, timeouts and
//! observers apply to it exactly as to a direct call. The model learns what it can call from a
//! TypeScript declaration of the tools, part of `run_code`'s description.
//!
//! A program runs on a thread of its own, and so do its nested calls: they are polled there,
//! between turns of the program, with the caller's tokio runtime and `tracing` context, but not
//! the caller's task-locals. The wall time bounds the whole run: when a program ends, however it
//! ends, its calls in flight are cancelled and, after the registry's timeout grace, dropped.
//!
//! A scope chooses how its model calls tools ([`CodeMode`], `set_code_mode` on the registry and
//! on scopes); a tool chooses who may call it ([`ToolCallers`]); the registry bounds every
//! program ([`CodeLimits`]).

mod code_limits;
pub(crate) mod convert;
mod declarations;
pub(crate) mod engine;
pub(crate) mod failure;
mod mode;
pub(crate) mod pool;
pub(crate) mod program_calls;
pub(crate) mod world;

pub use crate::callers::ToolCallers;
pub use code_limits::CodeLimits;
// Not API: the tests check the declarations through these.
#[doc(hidden)]
pub use declarations::{DeclaredTool, typescript_declarations};
pub use mode::CodeMode;
