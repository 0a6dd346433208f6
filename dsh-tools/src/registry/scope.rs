//! [`ToolScope`]: the handle of one layer of the registry — the global layer or an agent's
//! scope — with its tools, lookups, calls and restrictions, and the scope's own life (its parent
//! and disposal). Its hooks are `hooks.rs`, its cards `present.rs`, its deferred tools
//! `deferred.rs`, its Code Mode `code_mode.rs`, its children and registry `scope_tree.rs`.
//!
//! Everything registered through a scope lives in it: its tools are visible to calls of the scope
//! and its descendants (shadowing globals and ancestors' tools of the same name), its hooks and
//! guards apply to those calls only, and its restrictions mask the tools it inherits (the global
//! layer's and its ancestors' own) for them. Disposing the scope removes all of it, together with
//! every descendant scope. The global layer is the layer every scope inherits; it has no agent
//! and is never disposed.

use std::future::Future;
use std::sync::Arc;

use crate::call::definition::{ToolDefinition, ToolSchema};
use crate::call::execution::ToolExecutionInput;
use crate::ids::AgentId;
#[cfg(feature = "mcp")]
use crate::pipeline::resolved::ResolvedTool;
use crate::registry::into_definition::{IntoToolDefinition, IntoToolDefinitions};
use crate::result::ToolExecutionResult;
use crate::store::core::Core;
use crate::store::error::RegistryError;
use crate::store::registration::Registration;
use crate::store::restriction::ToolRestriction;
use crate::store::state::Place;
use crate::store::view::View;

/// One layer of a registry: its global layer (which a [`ToolRegistry`](crate::ToolRegistry)
/// dereferences to) or an agent's scope ([`create_child`](Self::create_child)). Cheap to clone.
///
/// An agent scope's handle stays tied to the scope it was made for: once that scope (or an
/// ancestor) is disposed, registrations through it fail with
/// [`RegistryErrorKind::ScopeDisposed`](crate::registry::RegistryErrorKind::ScopeDisposed), its
/// listings are empty and its calls are refused as `SCOPE_DISPOSED` — even when a new scope of
/// the same agent exists. The global layer lives as long as the registry, so its operations never
/// fail for that reason; they return the same `Result`s, whose `Err` then only carries what is
/// wrong with the request itself (a duplicate name, a restriction).
#[derive(Clone)]
pub struct ToolScope {
    core: Arc<Core>,
    place: Place,
}

impl std::fmt::Debug for ToolScope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut out = f.debug_struct("ToolScope");
        match self.agent() {
            Some(agent) => out.field("agent", agent),
            None => out.field("layer", &format_args!("global")),
        };
        out.field("active", &self.is_active())
            .finish_non_exhaustive()
    }
}

impl ToolScope {
    pub(crate) fn new(core: Arc<Core>, place: Place) -> Self {
        Self { core, place }
    }

    pub(crate) fn core(&self) -> &Arc<Core> {
        &self.core
    }

    /// Where this layer's registrations go.
    pub(crate) fn place(&self) -> &Place {
        &self.place
    }

    /// The agent this scope belongs to; `None` for the global layer.
    pub fn agent(&self) -> Option<&AgentId> {
        self.place.agent()
    }

    /// The parent scope's agent; `None` for a root scope and for the global layer.
    pub fn parent(&self) -> Option<AgentId> {
        let (agent, instance) = self.place.scope()?;
        let state = self.core.read();
        let scope = state.scopes.get(agent)?;
        (scope.instance == instance)
            .then(|| scope.parent().cloned())
            .flatten()
    }

    /// Whether the scope still exists (the global layer always does).
    pub fn is_active(&self) -> bool {
        self.core.read().has_place(&self.place)
    }

    /// Disposes the scope, its descendants and everything registered through them; `true` if it
    /// still existed. The global layer is never disposed: `false`, and nothing changes.
    pub fn dispose(&self) -> bool {
        match self.place.scope() {
            Some((agent, instance)) => self.core.dispose_scope(agent, instance),
            None => false,
        }
    }

    /// Registers a tool in this layer. In a scope, it shadows a global or ancestor tool of the
    /// same name. A second tool of the same name in the same layer is refused (in the global
    /// layer: register the per-agent variant in the agent's scope); so are an empty name,
    /// `timeout_ms == Some(0)`, `max_result_chars == Some(0)` and a tool that needs shared state
    /// the registry was not given (see
    /// [`ToolRegistry::with_state`](crate::ToolRegistry::with_state)). The tool's name,
    /// description and parameters are read now, once: they are what [`schemas`](Self::schemas)
    /// shows.
    pub fn register(&self, tool: impl IntoToolDefinition) -> Result<Registration, RegistryError> {
        self.register_shared(tool.into_definition())
    }

    /// [`register`](Self::register) of the shared definition: the part compiled once, whatever
    /// the tool's type, so a crate compiles only the conversion above per tool type it registers.
    fn register_shared(
        &self,
        definition: Arc<dyn ToolDefinition>,
    ) -> Result<Registration, RegistryError> {
        self.core.register_tool(self.place.clone(), definition)
    }

    /// Registers several tools in one change, all or none: if any is refused (for the reasons
    /// [`register`](Self::register) gives, or a name given twice), nothing is registered. No call
    /// and no [`schemas`](Self::schemas) sees some of them without the others; listeners hear one
    /// event per tool, in the order given. The handles come back in the same order.
    ///
    /// `tools` is an array, a `Vec` or an iterator of tools of one type, or a tuple of tools of
    /// different types (`register_all((GreetTool, ping))`, no boxing or casts); see
    /// [`IntoToolDefinitions`](crate::registry::IntoToolDefinitions).
    pub fn register_all<M>(
        &self,
        tools: impl IntoToolDefinitions<M>,
    ) -> Result<Vec<Registration>, RegistryError> {
        self.core
            .register_tools(self.place.clone(), tools.into_definitions())
    }

    /// The tool `name` resolves to in this layer: its own, else an inherited one its
    /// restrictions admit; `None` once the scope is disposed.
    pub fn get(&self, name: &str) -> Option<Arc<dyn ToolDefinition>> {
        let state = self.core.read();
        View::open(&state, self.agent(), self.place.instance())
            .ok()?
            .resolve(name)
            .cloned()
    }

    /// The model-facing schemas of the tools visible in this layer, sorted by name (byte order,
    /// so the model-facing prefix of a request does not depend on registration timing); none
    /// once the scope is disposed. Deferred tools are left out until loaded (then they follow the
    /// sorted list, in the order they were loaded) and `tool_search` is listed while any visible
    /// tool is deferred (see [`registry`](crate::registry#deferred-tools)). Cached until the
    /// registry changes, so repeated calls are cheap.
    pub fn schemas(&self) -> Arc<[ToolSchema]> {
        let state = self.core.read();
        View::open(&state, self.agent(), self.place.instance())
            .map_or_else(|_| Arc::from([]), |view| view.schemas())
    }

    /// Runs one call through the pipeline. Never fails and never panics: every outcome is a
    /// [`ToolExecutionResult`]. The call is captured when this is called (its token minted, the
    /// visible definition and hooks taken from the registry as it is now); the future owns what
    /// it needs (`'static`), so it can be spawned.
    ///
    /// A scope runs the call on behalf of its agent, whatever agent the input names; through a
    /// disposed scope (or one whose ancestor was disposed) the call is refused as
    /// `SCOPE_DISPOSED`, before any hook. The global layer — `registry.execute(input)` — runs
    /// the call where its input says: in the global layer without an agent, in the agent's scope
    /// with one, and refuses an agent with no live scope as `UNKNOWN_AGENT` before any hook,
    /// unless
    /// [`set_unscoped_agents_see_global`](crate::ToolRegistry::set_unscoped_agents_see_global) says
    /// otherwise.
    #[inline]
    pub fn execute(
        &self,
        input: ToolExecutionInput,
    ) -> impl Future<Output = ToolExecutionResult> + Send + 'static + use<> {
        match &self.place {
            Place::Global => crate::pipeline::execute(&self.core, input, None),
            Place::Scope { agent, instance } => crate::pipeline::execute(
                &self.core,
                input.with_agent(agent.clone()),
                Some(*instance),
            ),
        }
    }

    /// The tool `name` resolves to in this layer for a call the model makes, with what the
    /// call's capture needs of that lookup ([`execute_resolved`](Self::execute_resolved));
    /// nothing once the scope is disposed.
    #[cfg(feature = "mcp")]
    pub(crate) fn resolve_for_call(&self, name: &str) -> ResolvedTool {
        let state = self.core.read();
        match View::open(&state, self.agent(), self.place.instance()) {
            Ok(view) => ResolvedTool::look_up(&view, name, state.generation),
            Err(_) => ResolvedTool::missed(),
        }
    }

    /// [`execute`](Self::execute) for a call of the name `resolved` was looked up for in this
    /// layer ([`resolve_for_call`](Self::resolve_for_call)): the capture takes that lookup while
    /// the registry has not changed since, rather than resolving the name again; the call is
    /// otherwise the same, through the same pipeline.
    #[cfg(feature = "mcp")]
    pub(crate) fn execute_resolved(
        &self,
        input: ToolExecutionInput,
        resolved: ResolvedTool,
    ) -> impl Future<Output = ToolExecutionResult> + Send + 'static + use<> {
        match &self.place {
            Place::Global => {
                // The lookup is of the global layer's view; a call that names an agent runs in
                // that agent's scope, so its capture resolves the name there itself.
                let resolved = if input.agent().is_some() {
                    ResolvedTool::missed()
                } else {
                    resolved
                };
                crate::pipeline::execute_resolved(&self.core, input, None, resolved)
            }
            Place::Scope { agent, instance } => crate::pipeline::execute_resolved(
                &self.core,
                input.with_agent(agent.clone()),
                Some(*instance),
                resolved,
            ),
        }
    }

    /// Masks inherited tools — the global layer's and every ancestor scope's own, never this
    /// scope's own — for this scope and its descendants. Every name must be an inherited tool
    /// (one the scope only has as its own is refused, as is an empty filter). Restrictions
    /// intersect with earlier ones and with ancestors'. See [`ToolRestriction`] for tools
    /// registered later and for shadowing. The global layer inherits nothing, so restricting it
    /// is refused.
    pub fn restrict(&self, restriction: ToolRestriction) -> Result<Registration, RegistryError> {
        match self.place.scope() {
            Some((agent, instance)) => self.core.restrict(agent, instance, restriction),
            None => Err(RegistryError::global_restriction()),
        }
    }
}
