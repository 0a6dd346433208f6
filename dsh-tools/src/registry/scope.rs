//! [`ToolScope`]: the handle of one agent scope.
//!
//! Everything registered through a scope lives in it: its tools are visible to calls of the scope
//! and its descendants (shadowing globals and ancestors' tools of the same name), its hooks and
//! guards apply to those calls only, and its restrictions mask the tools it inherits (the global
//! layer's and its ancestors' own) for them. Disposing the scope removes all of it, together with
//! every descendant scope.

use std::future::Future;
use std::sync::Arc;

use crate::call::definition::{ToolDefinition, ToolSchema};
use crate::call::execution::ToolExecutionInput;
use crate::ids::AgentId;
use crate::registry::layer_api::layer_api;
use crate::registry::tool_registry::ToolRegistry;
use crate::result::ToolExecutionResult;
use crate::store::core::Core;
use crate::store::error::RegistryError;
use crate::store::registration::Registration;
use crate::store::restriction::ToolRestriction;
use crate::store::state::{AnyHook, Place};
use crate::store::view::View;

/// The handle of one agent scope. Cheap to clone. Operations on a disposed scope fail with
/// [`RegistryErrorKind::ScopeDisposed`](crate::registry::RegistryErrorKind::ScopeDisposed).
#[derive(Clone)]
pub struct ToolScope {
    core: Arc<Core>,
    agent: AgentId,
    instance: u64,
}

impl std::fmt::Debug for ToolScope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolScope")
            .field("agent", &self.agent)
            .field("active", &self.is_active())
            .finish_non_exhaustive()
    }
}

impl ToolScope {
    pub(crate) fn new(core: Arc<Core>, agent: AgentId, instance: u64) -> Self {
        Self {
            core,
            agent,
            instance,
        }
    }

    pub(crate) fn core(&self) -> &Arc<Core> {
        &self.core
    }

    pub(crate) fn instance(&self) -> u64 {
        self.instance
    }

    fn place(&self) -> Place {
        Place::Scope {
            agent: self.agent.clone(),
            instance: self.instance,
        }
    }

    /// The agent this scope belongs to.
    pub fn agent(&self) -> &AgentId {
        &self.agent
    }

    /// The parent scope's agent.
    pub fn parent(&self) -> Option<AgentId> {
        let state = self.core.read();
        let scope = state.scopes.get(&self.agent)?;
        (scope.instance == self.instance)
            .then(|| scope.parent().cloned())
            .flatten()
    }

    /// Whether the scope still exists.
    pub fn is_active(&self) -> bool {
        self.core.read().has_place(&self.place())
    }

    /// The registry this scope belongs to.
    pub fn registry(&self) -> ToolRegistry {
        ToolRegistry::from_core(Arc::clone(&self.core))
    }

    /// Creates a child scope for `agent`.
    pub fn create_child(&self, agent: impl Into<AgentId>) -> Result<ToolScope, RegistryError> {
        self.registry().create_scope(agent, Some(&self.agent))
    }

    /// Disposes the scope, its descendants and everything registered through them; `true` if it
    /// still existed.
    pub fn dispose(&self) -> bool {
        self.core.dispose_scope(&self.agent, self.instance)
    }

    /// The tool `name` resolves to in this scope.
    pub fn get(&self, name: &str) -> Option<Arc<dyn ToolDefinition>> {
        let state = self.core.read();
        View::open(&state, Some(&self.agent), Some(self.instance))
            .ok()?
            .resolve(name)
            .cloned()
    }

    /// The model-facing schemas of the tools visible in this scope, sorted by name, then the
    /// deferred tools this scope loaded (see [`ToolRegistry::schemas`]); none once the scope is
    /// disposed.
    pub fn schemas(&self) -> Arc<[ToolSchema]> {
        let state = self.core.read();
        View::open(&state, Some(&self.agent), Some(self.instance))
            .map_or_else(|_| Arc::from([]), |view| view.schemas())
    }

    /// Runs `input` on behalf of this scope's agent. Through a disposed scope (or one whose
    /// ancestor was disposed) the call is refused as `SCOPE_DISPOSED`, before any hook.
    pub fn execute(
        &self,
        input: ToolExecutionInput,
    ) -> impl Future<Output = ToolExecutionResult> + Send + 'static + use<> {
        crate::pipeline::execute(
            &self.core,
            input.with_agent(self.agent.clone()),
            Some(self.instance),
        )
    }

    /// Masks inherited tools — the global layer's and every ancestor scope's own, never this
    /// scope's own — for this scope and its descendants. Every name must be an inherited tool
    /// (one the scope only has as its own is refused, as is an empty filter). Restrictions
    /// intersect with earlier ones and with ancestors'. See [`ToolRestriction`] for tools
    /// registered later and for shadowing.
    pub fn restrict(&self, restriction: ToolRestriction) -> Result<Registration, RegistryError> {
        self.core.restrict(&self.agent, self.instance, restriction)
    }

    fn resolve_call(
        &self,
        name: &str,
        _agent: Option<&AgentId>,
    ) -> Option<Arc<dyn ToolDefinition>> {
        self.get(name)
    }

    fn add_hook(&self, hook: AnyHook) -> Result<Registration, RegistryError> {
        self.core.add_hook(self.place(), hook)
    }
}

layer_api!(
    ToolScope,
    hook_result: Result<Registration, RegistryError>,
    applies_to: "calls of this scope and its descendants",
    register_doc: "Registers a tool in this scope; it shadows a global or ancestor tool of the same name. A second tool of the same name in this scope is refused, as are an empty name, `timeout_ms == Some(0)`, `max_result_chars == Some(0)` and a tool that needs shared state the registry was not given (see [`ToolRegistry::with_state`])."
);

impl ToolRegistry {
    /// Creates the scope of `agent`, inside `parent`'s scope when given. Fails when `agent`
    /// already has a scope or `parent` has none.
    pub fn create_scope(
        &self,
        agent: impl Into<AgentId>,
        parent: Option<&AgentId>,
    ) -> Result<ToolScope, RegistryError> {
        let agent = agent.into();
        let instance = self.core().create_scope(&agent, parent)?;
        Ok(ToolScope::new(Arc::clone(self.core()), agent, instance))
    }

    /// The existing scope of `agent`.
    pub fn scope(&self, agent: &AgentId) -> Option<ToolScope> {
        let instance = self.core().read().scopes.get(agent)?.instance;
        Some(ToolScope::new(
            Arc::clone(self.core()),
            agent.clone(),
            instance,
        ))
    }
}
