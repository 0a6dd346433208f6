//! [`ToolRegistry`]: where tools, hooks and policies are registered, and where calls run.
//!
//! The registry has a global layer and any number of agent scopes ([`ToolScope`]), each with an
//! optional parent. A call made on behalf of an agent resolves tools through the agent's scope
//! chain (its own tools shadow its ancestors', which shadow the global ones), sees the inherited
//! tools its chain's restrictions admit ([`ToolRestriction`]), and runs the hooks of the global
//! layer and of every scope of its chain.
//!
//! # Cost of a change
//! Registering or disposing a tool, a hook or a restriction, and creating a scope, cost the same
//! however many tools the registry holds (disposing a scope costs what it and its descendants
//! hold): changes edit the registry in place under a lock, and a call reads everything it needs
//! under that lock at once, so it sees the registry as it was at one moment.
//!
//! # Hook order
//! Hooks of each kind run in this order: the global layer's, then each scope's from the farthest
//! ancestor to the call's own scope; within one layer, in registration order. For `execute`
//! layers, first means outermost.
//!
//! # Schema order
//! [`schemas`](ToolRegistry::schemas) lists the visible tools sorted by name (byte order), so the
//! model-facing prefix of a request does not depend on registration timing.

mod batch;
mod into_definition;
mod layer_api;
mod present;
mod scope;
mod tool_registry;

pub use self::batch::{BatchOutcome, ExecutionMode};
pub use self::into_definition::{IntoToolDefinition, IntoToolDefinitions, ViaIterator, ViaTuple};
pub use self::scope::ToolScope;
pub use self::tool_registry::ToolRegistry;
pub use crate::store::error::{RegistryError, RegistryErrorKind};
pub use crate::store::event::RegistryEvent;
pub use crate::store::registration::Registration;
pub use crate::store::restriction::ToolRestriction;
