//! Deferred tools on the facade: the policy that defers tools, loading them into a scope's tool
//! list, searching them, and listing them for a provider's native search — for the global layer
//! ([`ToolRegistry`], whose methods take the agent) and for a scope ([`ToolScope`]).
//!
//! A deferred tool is callable but left out of `schemas()` until it is loaded for the scope
//! that lists it. A view with deferred tools lists the built-in `tool_search`
//! ([`TOOL_SEARCH`](crate::registry::TOOL_SEARCH)), which the model calls to find and load
//! them. `schemas()` lists the tools that are not deferred sorted by name, then the loaded ones
//! in the order they were loaded, so a load only appends to the list: the request prefix a
//! provider caches stays the same.

use crate::call::definition::ToolSchema;
use crate::error::ToolError;
use crate::ids::AgentId;
use crate::registry::scope::ToolScope;
use crate::registry::tool_registry::ToolRegistry;
use crate::search::{ToolSearchHit, ToolSearchQuery};
use crate::store::deferral::Deferral;
use crate::store::error::RegistryError;

/// Collects borrowed names for the store.
fn names_of<I, S>(names: I) -> Vec<S>
where
    I: IntoIterator<Item = S>,
{
    names.into_iter().collect()
}

impl ToolRegistry {
    /// Sets which tools the global layer defers (scopes inherit it unless they set their
    /// own): [`Deferral::AllExcept`] defers every tool but the ones named; tools registered
    /// deferred ([`ToolDefinition::defer_loading`](crate::ToolDefinition::defer_loading)) stay
    /// deferred whatever the policy.
    pub fn set_deferral(&self, deferral: Deferral) {
        // The global layer always exists.
        let _ = self.core().set_deferral(None, deferral);
    }

    /// Loads the deferred tools `names` into `agent`'s tool list (`None`: the global layer's),
    /// after the ones loaded before; returns the names newly loaded. A name that is not a
    /// deferred tool `agent` can call refuses the whole load, naming it.
    pub fn load_tools<I, S>(
        &self,
        agent: Option<&AgentId>,
        names: I,
    ) -> Result<Vec<String>, RegistryError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let names = names_of(names);
        let names: Vec<&str> = names.iter().map(AsRef::as_ref).collect();
        self.core().load(agent, None, &names, true)
    }

    /// Forgets the tools loaded for `agent` (a new conversation starts from the short list);
    /// returns whether any were loaded.
    pub fn unload_tools(&self, agent: Option<&AgentId>) -> Result<bool, RegistryError> {
        self.core().unload_all(agent, None)
    }

    /// The deferred tools `agent` can call that best match `query`, best first, without
    /// loading them. Fails as the `tool_search` call would: an invalid regular expression or a
    /// query too long is `INVALID_ARGS`, an agent without a scope `UNKNOWN_AGENT`.
    pub fn search_tools(
        &self,
        agent: Option<&AgentId>,
        query: &ToolSearchQuery,
    ) -> Result<Vec<ToolSearchHit>, ToolError> {
        self.core().search_tools(agent, None, query)
    }

    /// The schemas of the deferred tools `agent` can call, loaded or not, sorted by name: what
    /// a provider's native tool search is sent (see [`providers`](crate::providers)).
    pub fn deferred_schemas(&self, agent: Option<&AgentId>) -> Vec<ToolSchema> {
        self.core().deferred_schemas(agent, None)
    }
}

impl ToolScope {
    /// Sets which tools this scope (and its descendants that set none) defers; see
    /// [`ToolRegistry::set_deferral`].
    pub fn set_deferral(&self, deferral: Deferral) -> Result<(), RegistryError> {
        self.core()
            .set_deferral(Some((self.agent(), self.instance())), deferral)
    }

    /// Loads deferred tools into this scope's tool list; see [`ToolRegistry::load_tools`].
    pub fn load_tools<I, S>(&self, names: I) -> Result<Vec<String>, RegistryError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let names = names_of(names);
        let names: Vec<&str> = names.iter().map(AsRef::as_ref).collect();
        self.core()
            .load(Some(self.agent()), Some(self.instance()), &names, true)
    }

    /// Forgets the tools this scope loaded; see [`ToolRegistry::unload_tools`].
    pub fn unload_tools(&self) -> Result<bool, RegistryError> {
        self.core()
            .unload_all(Some(self.agent()), Some(self.instance()))
    }

    /// Searches this scope's deferred tools without loading them; see
    /// [`ToolRegistry::search_tools`].
    pub fn search_tools(&self, query: &ToolSearchQuery) -> Result<Vec<ToolSearchHit>, ToolError> {
        self.core()
            .search_tools(Some(self.agent()), Some(self.instance()), query)
    }

    /// The schemas of this scope's deferred tools; see [`ToolRegistry::deferred_schemas`].
    pub fn deferred_schemas(&self) -> Vec<ToolSchema> {
        self.core()
            .deferred_schemas(Some(self.agent()), Some(self.instance()))
    }
}
