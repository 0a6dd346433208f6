//! Code Mode: instead of one tool call per turn, the model writes one short JavaScript program
//! that calls many tools (`run_code`). Intermediate results stay out of the model's context, and
//! loops and joins cost no round trips.
//!
//! Every `await tools.x(args)` of a program is a nested call of the registry with the program's
//! call as its parent, through the whole pipeline: hooks, approvals, guards, layers, timeouts and
//! observers apply to it exactly as to a direct call. The model learns what it can call from a
//! TypeScript declaration of the tools ([`typescript_declarations`]), part of `run_code`'s
//! description.
//!
//! A scope chooses how its model calls tools ([`CodeMode`], `set_code_mode` on the registry and
//! on scopes); a tool chooses who may call it ([`ToolCallers`]); the registry bounds every
//! program ([`CodeLimits`]).

pub(crate) mod convert;
mod declarations;
pub(crate) mod engine;
pub(crate) mod failure;
mod limits;
mod mode;
pub(crate) mod pool;
pub(crate) mod world;

pub use crate::callers::ToolCallers;
pub use declarations::{DeclaredTool, typescript_declarations};
pub use limits::CodeLimits;
pub use mode::CodeMode;
