//! The scope tree: creating scopes (from the registry, or as a scope's child), finding an
//! agent's scope or the layer its calls run in, and a scope's registry.

use std::sync::Arc;

use crate::ids::AgentId;
use crate::registry::scope::ToolScope;
use crate::registry::tool_registry::ToolRegistry;
use crate::store::error::RegistryError;
use crate::store::state::Place;
use crate::store::view::View;

impl ToolRegistry {
    /// Creates the scope of `agent`, inside `parent`'s scope when given. Fails when `agent`
    /// already has a scope or `parent` has none. Users call it as
    /// [`create_child`](ToolScope::create_child) on the parent's layer.
    pub(crate) fn create_scope(
        &self,
        agent: impl Into<AgentId>,
        parent: Option<&AgentId>,
    ) -> Result<ToolScope, RegistryError> {
        let agent = agent.into();
        let instance = self.core().create_scope(&agent, parent)?;
        Ok(ToolScope::new(
            Arc::clone(self.core()),
            Place::Scope { agent, instance },
        ))
    }

    /// The existing scope of `agent`.
    pub fn scope(&self, agent: &AgentId) -> Option<ToolScope> {
        let instance = self.core().read().scopes.get(agent)?.instance;
        Some(ToolScope::new(
            Arc::clone(self.core()),
            Place::Scope {
                agent: agent.clone(),
                instance,
            },
        ))
    }

    /// The layer a call naming `agent` runs in, as [`execute`](ToolScope::execute) routes it:
    /// `agent`'s scope; when it has none, the global layer if
    /// [unscoped agents see it](Self::set_unscoped_agents_see_global), else `None` — so what an
    /// unknown agent is shown (`layer_for(&agent).map(|layer| layer.schemas())`) is nothing,
    /// never a wider view.
    pub fn layer_for(&self, agent: &AgentId) -> Option<ToolScope> {
        let state = self.core().read();
        let view = View::open(&state, Some(agent), None).ok()?;
        let place = match view.owner() {
            None => Place::Global,
            Some(owner) => Place::Scope {
                agent: owner.clone(),
                instance: state.scopes.get(owner)?.instance,
            },
        };
        Some(ToolScope::new(Arc::clone(self.core()), place))
    }
}

impl ToolScope {
    /// The registry this layer belongs to.
    pub(crate) fn registry(&self) -> ToolRegistry {
        ToolRegistry::from_core(Arc::clone(self.core()))
    }

    /// Creates a scope for `agent` inside this one: a root scope from the global layer
    /// (`registry.create_child(agent)`, the registry dereferencing to it), else a child of this
    /// scope. Fails when `agent` already has a scope or this scope is gone.
    pub fn create_child(&self, agent: impl Into<AgentId>) -> Result<ToolScope, RegistryError> {
        self.registry().create_scope(agent, self.agent())
    }
}
