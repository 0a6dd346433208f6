//! Searching and loading deferred tools: the store's side of `tool_search` and of
//! [`ToolScope::load_tools`](crate::ToolScope::load_tools).
//!
//! A search reads one view under the read lock: its deferred tools (only what the view can
//! call: restrictions apply before anything is ranked), through the view's cached
//! [`SearchIndex`], kept up to date across changes (`search_cache.rs`). Loading is an edit that re-checks each name against the view as it is then,
//! so a tool disposed or restricted between a search and its load is not loaded.
//!
//! With a [`HybridSearch`] installed, a keyword search also ranks by meaning (`embeddings.rs`
//! keeps the vectors); the keyword scores are taken under the read lock, the model is asked
//! after it is released.
//!
//! An index is shared by the views that see the same deferred tools, but name guards
//! (`hooks/name_guard.rs`) differ between such views; so every document is ranked, and each
//! view drops what its name guards deny after ranking and keeps the query's count of the rest.

use std::collections::HashSet;
use std::sync::Arc;

use crate::errors::tool_error::ToolError;
use crate::ids::AgentId;
use crate::search::{
    HybridSearch, SearchIndex, ToolSearchAnswer, ToolSearchHit, ToolSearchMode, ToolSearchQuery,
};
use crate::store::core::Core;
use crate::store::deferral::Deferral;
use crate::store::error::RegistryError;
use crate::store::event::RegistryEvent;
use crate::store::search_cache::{Documents, SearchChange};
use crate::store::state::{RegistryState, ToolEntry};
use crate::store::view::View;

/// The agent a closed view was asked for (only an agent's view can be closed).
fn closed_agent(agent: Option<&AgentId>) -> AgentId {
    agent.cloned().unwrap_or_else(|| AgentId::from(""))
}

/// The index of `view`'s deferred tools, built on its first search, shared with the views that
/// see the same deferred tools (see [`View::search_owner`]), and brought up to date with the
/// tools changed since its last search (`search_cache.rs`).
pub(crate) fn index_of(state: &RegistryState, view: &View<'_>) -> Arc<SearchIndex> {
    let owner = view.search_owner();
    let owner_view = || View::new(state, owner);
    let document = |documents: &mut Documents, entry: &ToolEntry| {
        documents.get_or_make(entry.id, || entry.document())
    };
    let build = |documents: &mut Documents| {
        let taken = owner_view()
            .deferred_entries()
            .into_iter()
            .map(|entry| document(documents, entry))
            .collect();
        SearchIndex::new(taken)
    };
    let refresh = |index: &mut SearchIndex, names: &[Arc<str>], documents: &mut Documents| {
        let view = owner_view();
        for name in names {
            match view.deferred_tool(name) {
                Some(entry) => {
                    if index
                        .get(name)
                        .is_none_or(|document| document.id != entry.id)
                    {
                        index.insert(document(documents, entry));
                    }
                }
                None => {
                    index.remove(name);
                }
            }
        }
        index.settle();
    };
    state.searches.get(owner, build, refresh)
}

/// The order of two positions of `index` when their scores tie: by name.
fn by_name(index: &SearchIndex) -> impl Fn(usize, usize) -> std::cmp::Ordering + '_ {
    |a, b| index.document(a).name.cmp(&index.document(b).name)
}

/// A hit for the document at `position`.
fn hit(index: &SearchIndex, position: usize) -> ToolSearchHit {
    let document = index.document(position);
    ToolSearchHit {
        name: document.name.clone(),
        description: document.summary.clone(),
    }
}

impl Core {
    /// The deferred tools of `agent`'s view (of scope instance `instance` when a scope handle
    /// asks) that best match `query`, best first.
    pub(crate) fn search_tools(
        &self,
        agent: Option<&AgentId>,
        instance: Option<u64>,
        query: &ToolSearchQuery,
    ) -> Result<Vec<ToolSearchHit>, ToolError> {
        if query.mode == ToolSearchMode::Keywords
            && let Some(hybrid) = self.embeddings.hybrid()
        {
            return self.search_hybrid(agent, instance, query, &hybrid);
        }
        let state = self.read();
        let view = View::open(&state, agent, instance)
            .map_err(|closed| closed.error(&closed_agent(agent)))?;
        let index = index_of(&state, &view);
        if !view.has_name_guards() {
            let positions = index
                .search(query)
                .map_err(ToolError::invalid_arguments_text)?;
            return Ok(positions
                .into_iter()
                .map(|position| hit(&index, position))
                .collect());
        }
        // Everything is ranked, so that what the guards leave out does not shorten the answer.
        let positions = index
            .search_up_to(query, index.documents().len().max(1))
            .map_err(ToolError::invalid_arguments_text)?;
        Ok(positions
            .into_iter()
            .filter(|&position| !view.hides(&index.document(position).name))
            .take(query.limit())
            .map(|position| hit(&index, position))
            .collect())
    }

    /// A keyword search fused with the embedding model's ranking: the keyword scores are taken
    /// under the read lock, the model is asked after it is released.
    fn search_hybrid(
        &self,
        agent: Option<&AgentId>,
        instance: Option<u64>,
        query: &ToolSearchQuery,
        hybrid: &HybridSearch,
    ) -> Result<Vec<ToolSearchHit>, ToolError> {
        crate::search::check_length(query).map_err(ToolError::invalid_arguments_text)?;
        let (index, keyword, hidden) = {
            let state = self.read();
            let view = View::open(&state, agent, instance)
                .map_err(|closed| closed.error(&closed_agent(agent)))?;
            let index = index_of(&state, &view);
            let keyword = index.scores(&query.text);
            // The view's name guards are asked under the lock, where the view is; what they
            // deny is dropped after the fusion ranked everything.
            let hidden: Option<Vec<bool>> = view.has_name_guards().then(|| {
                index
                    .documents()
                    .iter()
                    .map(|document| view.hides(&document.name))
                    .collect()
            });
            (index, keyword, hidden)
        };
        let vectors = self.embeddings.vectors_of(hybrid, &index);
        let query_vector = crate::future::catch_panic(|| {
            hybrid
                .embedder
                .embed(&[query.text.as_str()])
                .into_iter()
                .next()
        })
        .ok()
        .flatten();
        let similarity: Vec<Option<f32>> = vectors
            .iter()
            .map(|vector| {
                let (query_vector, vector) = (query_vector.as_deref()?, vector.as_deref()?);
                crate::search::cosine(query_vector, vector)
            })
            .collect();
        let Some(hidden) = hidden else {
            let positions = crate::search::fuse(
                &keyword,
                &similarity,
                hybrid.keyword_weight,
                query.limit(),
                by_name(&index),
            );
            return Ok(positions
                .into_iter()
                .map(|position| hit(&index, position))
                .collect());
        };
        let everything = index.documents().len().max(1);
        let positions = crate::search::fuse(
            &keyword,
            &similarity,
            hybrid.keyword_weight,
            everything,
            by_name(&index),
        );
        Ok(positions
            .into_iter()
            .filter(|&position| !hidden.get(position).copied().unwrap_or(true))
            .take(query.limit())
            .map(|position| hit(&index, position))
            .collect())
    }

    /// Searches, then loads what was found and not loaded yet: `tool_search`'s body.
    pub(crate) fn search_and_load(
        &self,
        agent: Option<&AgentId>,
        instance: Option<u64>,
        query: &ToolSearchQuery,
    ) -> Result<ToolSearchAnswer, ToolError> {
        let tools = self.search_tools(agent, instance, query)?;
        let names: Vec<&str> = tools.iter().map(|hit| hit.name.as_str()).collect();
        // What went away since the search is not loaded; what is left still is.
        let loaded = self
            .load(agent, instance, &names, false)
            .unwrap_or_default();
        Ok(ToolSearchAnswer { tools, loaded })
    }

    /// Loads the deferred tools `names` into `agent`'s tool list, after those loaded already;
    /// returns the names newly loaded. `strict`: a name that is not a deferred tool of the view
    /// refuses the whole load; otherwise such names are skipped.
    pub(crate) fn load(
        &self,
        agent: Option<&AgentId>,
        instance: Option<u64>,
        names: &[&str],
        strict: bool,
    ) -> Result<Vec<String>, RegistryError> {
        self.update(|state, changes| {
            let (owner, fresh) = {
                let view = View::open(state, agent, instance)
                    .map_err(|closed| closed.registry_error(&closed_agent(agent)))?;
                // Each name is resolved on its own: a load costs what it names, not what the
                // view defers.
                let deferred: HashSet<&str> = names
                    .iter()
                    .copied()
                    .filter(|name| view.deferred_entry(name).is_some())
                    .collect();
                let unknown: Vec<&str> = names
                    .iter()
                    .copied()
                    .filter(|name| !deferred.contains(name))
                    .collect();
                if strict && !unknown.is_empty() {
                    return Err(RegistryError::not_deferred(&unknown));
                }
                let loaded = view.loaded();
                let mut fresh: Vec<String> = Vec::new();
                for name in names {
                    if deferred.contains(name)
                        && !loaded.contains(name)
                        && !fresh.iter().any(|seen| seen == name)
                    {
                        fresh.push((*name).to_owned());
                    }
                }
                (view.owner().cloned(), fresh)
            };
            if fresh.is_empty() {
                return Ok(fresh);
            }
            let loaded = match &owner {
                None => &mut state.loaded,
                Some(owner) => match state.scopes.get_mut(owner) {
                    Some(scope) => &mut scope.loaded,
                    None => return Ok(Vec::new()),
                },
            };
            for name in &fresh {
                loaded.insert(name);
            }
            changes.changed = true;
            changes.searches(SearchChange::Kept);
            changes.announce(|| RegistryEvent::ToolsLoaded {
                names: fresh.clone(),
                agent: owner.clone(),
            });
            Ok(fresh)
        })
    }

    /// Which of `names` `agent`'s view has loaded now (none once its scope is gone).
    pub(crate) fn loaded_among<'n>(
        &self,
        agent: Option<&AgentId>,
        names: &[&'n str],
    ) -> Vec<&'n str> {
        let state = self.read();
        View::open(&state, agent, None).map_or_else(
            |_| Vec::new(),
            |view| {
                let loaded = view.loaded();
                names
                    .iter()
                    .copied()
                    .filter(|name| loaded.contains(name))
                    .collect()
            },
        )
    }

    /// Forgets the tools `agent`'s view loaded (a new conversation starts from the short
    /// list again); returns whether any were loaded.
    pub(crate) fn unload_all(
        &self,
        agent: Option<&AgentId>,
        instance: Option<u64>,
    ) -> Result<bool, RegistryError> {
        self.update(|state, changes| {
            let owner = View::open(state, agent, instance)
                .map_err(|closed| closed.registry_error(&closed_agent(agent)))?
                .owner()
                .cloned();
            let loaded = match &owner {
                None => &mut state.loaded,
                Some(owner) => match state.scopes.get_mut(owner) {
                    Some(scope) => &mut scope.loaded,
                    None => return Ok(false),
                },
            };
            if loaded.is_empty() {
                return Ok(false);
            }
            loaded.clear();
            changes.changed = true;
            changes.searches(SearchChange::Kept);
            Ok(true)
        })
    }

    /// Sets the deferral policy of `agent`'s scope (instance `instance`), or of the global
    /// layer without an agent.
    pub(crate) fn set_deferral(
        &self,
        agent: Option<(&AgentId, u64)>,
        deferral: Deferral,
    ) -> Result<(), RegistryError> {
        self.update(|state, changes| {
            let slot = match agent {
                None => &mut state.deferral,
                Some((agent, instance)) => {
                    &mut state
                        .scope_mut(agent, instance)
                        .ok_or_else(|| RegistryError::scope_disposed(agent.as_str()))?
                        .deferral
                }
            };
            if *slot != deferral {
                *slot = deferral;
                changes.changed = true;
                // The global policy (no agent) is every view's: that change says nothing.
                if let Some((agent, _)) = agent {
                    changes.searches(SearchChange::Scope(agent.clone()));
                }
            }
            Ok(())
        })
    }

    /// The schemas of the deferred tools `agent` can call, loaded or not, sorted by name.
    pub(crate) fn deferred_schemas(
        &self,
        agent: Option<&AgentId>,
        instance: Option<u64>,
    ) -> Vec<crate::call::definition::ToolSchema> {
        let state = self.read();
        View::open(&state, agent, instance).map_or_else(
            |_| Vec::new(),
            |view| {
                view.shown_deferred_entries()
                    .into_iter()
                    .map(|entry| entry.schema.clone())
                    .collect()
            },
        )
    }
}
