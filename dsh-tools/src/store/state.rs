//! The registry's data: every layer, edited in place under the registry's lock.
//!
//! A call reads what it needs — the definition its name resolves to, the hooks that apply, the
//! restrictions along its scope chain — under one read lock, so everything it sees is from one
//! moment; a change takes the write lock and edits only what it touches, so registering,
//! disposing and changing scopes cost the same however many tools there are. Nothing here calls
//! code of the host while the lock is held: what a change removes is handed back to be dropped
//! after the lock is released (a definition's or hook's `Drop` may use the registry). This file
//! owns the data and its edits; what a call sees through it is `view.rs`.

use std::any::Any;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, LazyLock};

use crate::call::definition::{ToolDefinition, ToolSchema};
use crate::hooks::HookSet;
use crate::hooks::approval::Approver;
use crate::ids::AgentId;
use crate::name_hash::NameHash;
use crate::search::SearchDocument;
use crate::store::code_mode::kept;
use crate::store::deferral::{Deferral, LoadedTools};
use crate::store::restriction::{CompiledRestriction, InheritedNames};
use crate::store::scoped_cache::ScopedCache;
use crate::store::search_cache::SearchCache;

/// Whatever an edit removed, dropped once the lock is released.
pub(crate) type Garbage = Vec<Box<dyn Any>>;

/// One registered tool, with its model-facing schema built once at registration.
pub(crate) struct ToolEntry {
    pub(crate) id: u64,
    pub(crate) definition: Arc<dyn ToolDefinition>,
    pub(crate) schema: ToolSchema,
    /// Whether it was registered deferred (a scope's [`Deferral`] may defer it too).
    pub(crate) deferred: bool,
    /// Who may call it, read once at registration.
    #[cfg_attr(
        not(feature = "code-mode"),
        allow(dead_code, reason = "read only by Code Mode")
    )]
    pub(crate) callers: kept::Callers,
}

/// The built-in `tool_search`, present in a view that has deferred tools: one for every
/// registry (it holds no state; its calls reach their own registry through their host).
pub(crate) static TOOL_SEARCH_ENTRY: LazyLock<ToolEntry> = LazyLock::new(|| {
    let definition = crate::call::tool_search::definition();
    let schema = definition.schema();
    ToolEntry::new(0, definition, schema, false)
});

impl ToolEntry {
    pub(crate) fn new(
        id: u64,
        definition: Arc<dyn ToolDefinition>,
        schema: ToolSchema,
        deferred: bool,
    ) -> Self {
        Self {
            id,
            callers: kept::callers_of(&*definition),
            definition,
            schema,
            deferred,
        }
    }

    /// What a search reads of this tool.
    pub(crate) fn document(&self) -> SearchDocument {
        SearchDocument::new(
            self.id,
            &self.schema.name,
            &self.schema.description,
            &self.schema.parameters,
        )
    }
}

/// The tools and hooks of one layer (the global layer or one scope).
#[derive(Default)]
pub(crate) struct Layer {
    pub(crate) tools: HashMap<Arc<str>, ToolEntry, NameHash>,
    pub(crate) hooks: HookSet,
}

impl Layer {
    /// The tool names of this layer, sorted.
    pub(crate) fn sorted_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.tools.keys().map(|name| &**name).collect();
        names.sort_unstable();
        names
    }
}

/// One agent scope.
pub(crate) struct ScopeState {
    /// Tells this scope from an earlier one of the same agent that was disposed.
    pub(crate) instance: u64,
    /// The scope's agent and its ancestors, farthest ancestor first, this agent last.
    pub(crate) chain: Arc<[AgentId]>,
    /// The scopes created inside this one, which go when it goes.
    pub(crate) children: HashSet<AgentId>,
    pub(crate) layer: Layer,
    pub(crate) restrictions: Vec<(u64, CompiledRestriction)>,
    pub(crate) deferral: Deferral,
    pub(crate) loaded: LoadedTools,
    /// `None`: as the parent scope (the global layer for a root scope).
    #[cfg_attr(
        not(feature = "code-mode"),
        allow(dead_code, reason = "read only by Code Mode")
    )]
    pub(crate) code_mode: kept::ScopeMode,
}

impl ScopeState {
    pub(crate) fn parent(&self) -> Option<&AgentId> {
        self.chain
            .len()
            .checked_sub(2)
            .map(|index| &self.chain[index])
    }
}

/// Where a registration lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    Global,
    Scope { agent: AgentId, instance: u64 },
}

impl Place {
    pub(crate) fn agent(&self) -> Option<&AgentId> {
        match self {
            Self::Global => None,
            Self::Scope { agent, .. } => Some(agent),
        }
    }

    /// The scope instance a handle on this place was made for; `None` for the global layer.
    pub(crate) fn instance(&self) -> Option<u64> {
        match self {
            Self::Global => None,
            Self::Scope { instance, .. } => Some(*instance),
        }
    }

    /// The scope's agent and instance; `None` for the global layer.
    pub(crate) fn scope(&self) -> Option<(&AgentId, u64)> {
        match self {
            Self::Global => None,
            Self::Scope { agent, instance } => Some((agent, *instance)),
        }
    }
}

/// Everything the registry holds.
pub(crate) struct RegistryState {
    /// Bumped by every change; a call remembers the one it started in.
    pub(crate) generation: u64,
    pub(crate) global: Layer,
    pub(crate) scopes: HashMap<AgentId, ScopeState>,
    /// The approver with the id of its registration, so that a disposed handle of an approver
    /// since replaced leaves its successor alone.
    pub(crate) approver: Option<(u64, Arc<dyn Approver>)>,
    /// The call store and journal every call goes through, when there is one.
    #[cfg(feature = "durable")]
    pub(crate) durability: Option<Arc<crate::durable::journal::Durability>>,
    /// Whether a call naming an agent without a live scope sees the global layer (otherwise it
    /// is refused as `UNKNOWN_AGENT`).
    pub(crate) unscoped_agents_see_global: bool,
    /// Emptied by every change.
    pub(crate) schemas: SchemaCache,
    /// The global layer's deferral policy (`Inherit` means as registered).
    pub(crate) deferral: Deferral,
    /// The deferred tools loaded for calls in the global layer.
    pub(crate) loaded: LoadedTools,
    /// The search indexes, kept up to date across changes of tools (`search_cache.rs`).
    pub(crate) searches: SearchCache,
    /// The global layer's Code Mode and the bounds of every program.
    #[cfg_attr(
        not(feature = "code-mode"),
        allow(dead_code, reason = "read only by Code Mode")
    )]
    pub(crate) code: kept::CodeState,
}

/// Model-facing schemas computed since the last change, per view.
pub(crate) type SchemaCache = ScopedCache<[ToolSchema]>;

impl RegistryState {
    pub(crate) fn empty() -> Self {
        Self {
            generation: 0,
            global: Layer::default(),
            scopes: HashMap::new(),
            approver: None,
            #[cfg(feature = "durable")]
            durability: None,
            unscoped_agents_see_global: false,
            schemas: SchemaCache::default(),
            deferral: Deferral::Inherit,
            loaded: LoadedTools::default(),
            searches: SearchCache::default(),
            code: kept::CodeState::default(),
        }
    }

    /// The scope of `agent`, if it is still instance `instance`.
    pub(crate) fn scope_mut(&mut self, agent: &AgentId, instance: u64) -> Option<&mut ScopeState> {
        self.scopes
            .get_mut(agent)
            .filter(|scope| scope.instance == instance)
    }

    /// The layer at `place`, if it still exists.
    pub(crate) fn layer_mut(&mut self, place: &Place) -> Option<&mut Layer> {
        match place {
            Place::Global => Some(&mut self.global),
            Place::Scope { agent, instance } => self
                .scope_mut(agent, *instance)
                .map(|scope| &mut scope.layer),
        }
    }

    /// The layer at `place` and, for a scope, the scope, if it still exists.
    pub(crate) fn layer(&self, place: &Place) -> Option<(&Layer, Option<&ScopeState>)> {
        match place {
            Place::Global => Some((&self.global, None)),
            Place::Scope { agent, instance } => self
                .scopes
                .get(agent)
                .filter(|scope| scope.instance == *instance)
                .map(|scope| (&scope.layer, Some(scope))),
        }
    }

    /// Whether `place` still exists.
    pub(crate) fn has_place(&self, place: &Place) -> bool {
        self.layer(place).is_some()
    }
}

/// The tools a scope inherits: the global layer's and each ancestor scope's own.
pub(crate) struct InheritedTools<'s> {
    layers: Vec<&'s Layer>,
}

impl<'s> InheritedTools<'s> {
    pub(crate) fn of(state: &'s RegistryState, scope: &ScopeState) -> Self {
        let ancestors = &scope.chain[..scope.chain.len().saturating_sub(1)];
        let layers = std::iter::once(&state.global)
            .chain(
                ancestors
                    .iter()
                    .filter_map(|agent| state.scopes.get(agent))
                    .map(|ancestor| &ancestor.layer),
            )
            .collect();
        Self { layers }
    }

    fn contains_name(&self, name: &str) -> bool {
        self.layers
            .iter()
            .any(|layer| layer.tools.contains_key(name))
    }

    fn names_sorted(&self) -> Vec<&'s str> {
        let mut names: Vec<&str> = self
            .layers
            .iter()
            .flat_map(|layer| layer.tools.keys().map(|name| &**name))
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }
}

impl InheritedNames for InheritedTools<'_> {
    fn contains(&self, name: &str) -> bool {
        self.contains_name(name)
    }

    fn sorted_names(&self) -> Vec<&str> {
        self.names_sorted()
    }
}
