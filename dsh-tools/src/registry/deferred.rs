//! Deferred tools on a layer ([`ToolScope`], the registry's global layer included): the policy
//! that defers tools, loading them into the layer's tool list, searching them, and listing them
//! for a provider's native search.
//!
//! A deferred tool is callable but left out of `schemas()` until it is loaded for the scope
//! that lists it. A view with deferred tools lists the built-in `tool_search`
//! ([`TOOL_SEARCH`](crate::registry::TOOL_SEARCH)), which the model calls to find and load
//! them. `schemas()` lists the tools that are not deferred sorted by name, then the loaded ones
//! in the order they were loaded, so a load only appends to the list: the request prefix a
//! provider caches stays the same.

use crate::call::definition::ToolSchema;
use crate::errors::tool_error::ToolError;
use crate::registry::scope::ToolScope;
use crate::search::{ToolSearchHit, ToolSearchQuery};
use crate::store::deferral::Deferral;
use crate::store::error::RegistryError;

impl ToolScope {
    /// Sets which tools this layer defers (scopes that set none inherit it from their parent,
    /// root scopes from the global layer): [`Deferral::AllExcept`] defers every tool but the ones
    /// named; tools registered deferred
    /// ([`ToolOptions::defer_loading`](crate::call::ToolOptions::defer_loading)) stay deferred
    /// whatever the policy. Fails only through a disposed scope.
    pub fn set_deferral(&self, deferral: Deferral) -> Result<(), RegistryError> {
        self.core().set_deferral(self.place().scope(), deferral)
    }

    /// Loads the deferred tools `names` into this layer's tool list, after the ones loaded
    /// before; returns the names newly loaded. A name that is not a deferred tool this layer can
    /// call refuses the whole load, naming it.
    pub fn load_tools<I, S>(&self, names: I) -> Result<Vec<String>, RegistryError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let names: Vec<S> = names.into_iter().collect();
        let names: Vec<&str> = names.iter().map(AsRef::as_ref).collect();
        self.core()
            .load(self.agent(), self.place().instance(), &names, true)
    }

    /// Forgets the tools this layer loaded (a new conversation starts from the short list);
    /// returns whether any were loaded.
    pub fn unload_tools(&self) -> Result<bool, RegistryError> {
        self.core()
            .unload_all(self.agent(), self.place().instance())
    }

    /// The deferred tools this layer can call that best match `query`, best first, without
    /// loading them. Fails as the `tool_search` call would: an invalid regular expression or a
    /// query too long is `INVALID_ARGS`, a disposed scope `SCOPE_DISPOSED`.
    pub fn search_tools(&self, query: &ToolSearchQuery) -> Result<Vec<ToolSearchHit>, ToolError> {
        self.core()
            .search_tools(self.agent(), self.place().instance(), query)
    }

    /// The schemas of the deferred tools this layer can call, loaded or not, sorted by name:
    /// what a provider's native tool search is sent (see [`providers`](crate::providers)); none
    /// once the scope is disposed.
    pub fn deferred_schemas(&self) -> Vec<ToolSchema> {
        self.core()
            .deferred_schemas(self.agent(), self.place().instance())
    }
}
