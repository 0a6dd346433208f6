//! [`ToolRegistry`]: where tools, hooks and policies are registered, and where calls run.
//!
//! The registry has a global layer and any number of agent scopes, each with an optional parent.
//! A call made on behalf of an agent resolves tools through the agent's scope chain (its own
//! tools shadow its ancestors', which shadow the global ones), sees the inherited tools its
//! chain's restrictions admit ([`ToolRestriction`]), and runs the hooks of the global layer and
//! of every scope of its chain.
//!
//! # One layer type
//! Every layer — the global one and each agent's scope — is a [`ToolScope`], with one API:
//! registering tools and hooks, listing and looking up what it sees, running calls, presenting
//! them, deferred tools and Code Mode. The registry *is* its global layer: [`ToolRegistry`]
//! dereferences to it (`&*registry` is the global layer), the way a `String` is a `str`, so the common
//! path reads `registry.register(tool)`, `registry.on_pre_execute(..)`, `registry.schemas()` and
//! `registry.execute(input)`, and code that takes any layer takes a `&ToolScope` (a
//! `&ToolRegistry` coerces to it). The registry adds only what belongs to all layers: shared
//! state, limits, the approver, change listeners, scopes and batches. A deref rather than one
//! trait both types implement: a trait would have to be imported before the first
//! `registry.register(..)` compiles, and rustdoc would show the API on the trait's page instead of
//! the types'; a deref keeps every method on `ToolScope`'s page, listed on the registry's too.
//!
//! What an agent sees goes through its scope: `registry.scope(&agent)` (or
//! [`ToolRegistry::layer_for`], which fails closed as a call naming the agent does), then
//! `.schemas()`, `.get(name)`. A call naming an agent still runs in the agent's scope through the
//! registry (`registry.execute(input.with_agent(agent))`).
//!
//! Registrations return `Result` in every layer: through a disposed scope they fail, and in the
//! global layer, which always exists, only for what is wrong with the request itself (hooks,
//! deferral and Code Mode settings never fail there).
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
//! [`schemas`](ToolScope::schemas) lists the visible tools sorted by name (byte order), so the
//! model-facing prefix of a request does not depend on registration timing.
//!
//! # Deferred tools
//! A tool registered deferred (`#[tool(defer_loading)]`,
//! [`ToolOptions::defer_loading`](crate::call::ToolOptions::defer_loading), an MCP import
//! option), or deferred by a layer's [`Deferral`] ("all but these"), is callable but absent from
//! `schemas()` until it is loaded for the layer. A view with deferred tools lists the built-in
//! [`TOOL_SEARCH`] tool: the model searches (keywords ranked by BM25, a regular expression, or
//! exact names) and the best matches are loaded into its scope's list. Loaded tools come after
//! the sorted ones, in the order they were loaded, so a load only appends to the list and the
//! request prefix a provider caches stays valid. Searches see only what the scope can call:
//! restrictions apply first. Keyword searches can rank by meaning too, through the embedding
//! model the application runs ([`ToolEmbedder`], [`ToolRegistry::set_tool_embedder`]).
//!
//! # Files
//! `tool_registry.rs` the registry, `scope.rs` a layer's handle, tools, lookups and calls,
//! `scope_tree.rs` creating and finding scopes, `hooks.rs` hook registration, `present.rs` cards, `deferred.rs` deferred tools, `code_mode.rs`
//! Code Mode's settings, `batch.rs` (with `batch/`) parallel batches, `into_definition.rs` what
//! registering takes.

mod batch;
#[cfg(feature = "code-mode")]
mod code_mode;
mod deferred;
#[cfg(feature = "durable")]
mod durable;
mod hooks;
mod into_definition;
mod present;
mod scope;
mod scope_tree;
mod tool_registry;

pub use self::batch::{BatchFeed, BatchOutcome, FedBatch};
pub use self::into_definition::{IntoToolDefinition, IntoToolDefinitions, ViaIterator, ViaTuple};
pub use self::scope::ToolScope;
pub use self::tool_registry::ToolRegistry;
#[cfg(feature = "code-mode")]
pub use crate::call::run_code::RUN_CODE;
pub use crate::call::tool_search::TOOL_SEARCH;
pub use crate::search::{
    HybridSearch, ToolEmbedder, ToolSearchAnswer, ToolSearchHit, ToolSearchMode, ToolSearchQuery,
};
pub use crate::store::deferral::Deferral;
pub use crate::store::error::{RegistryError, RegistryErrorKind};
pub use crate::store::event::{DefinitionChange, DefinitionDecision, RegistryEvent};
pub use crate::store::registration::Registration;
pub use crate::store::restriction::ToolRestriction;
