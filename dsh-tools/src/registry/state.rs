//! The registry's data: an immutable [`Snapshot`] of every layer, replaced as a whole on each
//! change.
//!
//! Readers take an `Arc<Snapshot>` and never lock again for the rest of a call, so a call sees one
//! consistent state. A change clones the snapshot shallowly (each layer sits behind its own `Arc`)
//! and copies only the layer it touches. This file owns the data and its copy-on-write edits;
//! what a call sees through it is `view.rs`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::definition::{ToolDefinition, ToolSchema};
use crate::execution::AgentId;
use crate::pipeline::call_observer::CallObserver;
use crate::pipeline::chain::{HookList, appended, remove_entry};
use crate::pipeline::guard::ToolGuard;
use crate::pipeline::observer::ResultObserver;
use crate::pipeline::post_execute::PostExecuteHook;
use crate::pipeline::pre_execute::PreExecuteHook;
use crate::pipeline::wrapper::ExecuteLayer;
use crate::policy::approval::Approver;
use crate::registry::name_hash::NameHash;
use crate::registry::restriction::CompiledRestriction;

/// One registered tool.
#[derive(Clone)]
pub(crate) struct ToolEntry {
    pub(crate) id: u64,
    pub(crate) definition: Arc<dyn ToolDefinition>,
}

/// A hook of any kind, on its way into a layer.
pub(crate) enum AnyHook {
    PreExecute(Arc<dyn PreExecuteHook>),
    Guard(Arc<dyn ToolGuard>),
    Wrapper(Arc<dyn ExecuteLayer>),
    PostExecute(Arc<dyn PostExecuteHook>),
    Observer(Arc<dyn ResultObserver>),
    CallObserver(Arc<dyn CallObserver>),
}

/// The hooks of one layer, each kind in registration order.
#[derive(Clone, Default)]
pub(crate) struct HookSet {
    pub(crate) pre_execute: HookList<dyn PreExecuteHook>,
    pub(crate) guards: HookList<dyn ToolGuard>,
    pub(crate) wrappers: HookList<dyn ExecuteLayer>,
    pub(crate) post_execute: HookList<dyn PostExecuteHook>,
    pub(crate) observers: HookList<dyn ResultObserver>,
    pub(crate) call_observers: HookList<dyn CallObserver>,
}

impl HookSet {
    pub(crate) fn add(&mut self, id: u64, hook: AnyHook) {
        match hook {
            AnyHook::PreExecute(hook) => self.pre_execute = appended(&self.pre_execute, id, hook),
            AnyHook::Guard(hook) => self.guards = appended(&self.guards, id, hook),
            AnyHook::Wrapper(hook) => self.wrappers = appended(&self.wrappers, id, hook),
            AnyHook::PostExecute(hook) => {
                self.post_execute = appended(&self.post_execute, id, hook);
            }
            AnyHook::Observer(hook) => self.observers = appended(&self.observers, id, hook),
            AnyHook::CallObserver(hook) => {
                self.call_observers = appended(&self.call_observers, id, hook);
            }
        }
    }

    /// Removes the hook registered as `id`, whatever its kind.
    pub(crate) fn remove(&mut self, id: u64) -> bool {
        remove_entry(&mut self.pre_execute, id)
            || remove_entry(&mut self.guards, id)
            || remove_entry(&mut self.wrappers, id)
            || remove_entry(&mut self.post_execute, id)
            || remove_entry(&mut self.observers, id)
            || remove_entry(&mut self.call_observers, id)
    }

    /// Whether no hook of any kind is registered.
    pub(crate) fn is_empty(&self) -> bool {
        self.pre_execute.is_empty()
            && self.guards.is_empty()
            && self.wrappers.is_empty()
            && self.post_execute.is_empty()
            && self.observers.is_empty()
            && self.call_observers.is_empty()
    }

    pub(crate) fn has(&self, id: u64) -> bool {
        let mut ids = self
            .pre_execute
            .iter()
            .map(|entry| entry.id)
            .chain(self.guards.iter().map(|entry| entry.id))
            .chain(self.wrappers.iter().map(|entry| entry.id))
            .chain(self.post_execute.iter().map(|entry| entry.id))
            .chain(self.observers.iter().map(|entry| entry.id))
            .chain(self.call_observers.iter().map(|entry| entry.id));
        ids.any(|entry| entry == id)
    }
}

/// The tools and hooks of one layer (the global layer or one scope).
#[derive(Clone, Default)]
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
#[derive(Clone)]
pub(crate) struct ScopeState {
    /// Tells this scope from an earlier one of the same agent that was disposed.
    pub(crate) instance: u64,
    /// The scope's agent and its ancestors, farthest ancestor first, this agent last.
    pub(crate) chain: Arc<[AgentId]>,
    pub(crate) layer: Layer,
    pub(crate) restrictions: Vec<(u64, CompiledRestriction)>,
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
}

/// Everything the registry holds at one moment.
pub(crate) struct Snapshot {
    pub(crate) generation: u64,
    pub(crate) global: Arc<Layer>,
    pub(crate) scopes: HashMap<AgentId, Arc<ScopeState>>,
    pub(crate) approver: Option<Arc<dyn Approver>>,
    pub(crate) schemas: SchemaCache,
}

/// Model-facing schemas computed from one snapshot, per scope.
#[derive(Default)]
pub(crate) struct SchemaCache {
    pub(crate) global: OnceLock<Arc<[ToolSchema]>>,
    pub(crate) scoped: Mutex<HashMap<AgentId, Arc<[ToolSchema]>>>,
}

impl Snapshot {
    pub(crate) fn empty() -> Self {
        Self {
            generation: 0,
            global: Arc::default(),
            scopes: HashMap::new(),
            approver: None,
            schemas: SchemaCache::default(),
        }
    }

    /// A copy to edit: layers are shared until touched, caches start empty.
    pub(crate) fn to_edit(&self) -> Self {
        Self {
            generation: self.generation + 1,
            global: Arc::clone(&self.global),
            scopes: self.scopes.clone(),
            approver: self.approver.clone(),
            schemas: SchemaCache::default(),
        }
    }

    /// The scope at `place`, if it is still the same scope.
    pub(crate) fn scope_mut(&mut self, agent: &AgentId, instance: u64) -> Option<&mut ScopeState> {
        let scope = self.scopes.get_mut(agent)?;
        if scope.instance != instance {
            return None;
        }
        Some(Arc::make_mut(scope))
    }

    /// The layer at `place`, if it still exists.
    pub(crate) fn layer_mut(&mut self, place: &Place) -> Option<&mut Layer> {
        match place {
            Place::Global => Some(Arc::make_mut(&mut self.global)),
            Place::Scope { agent, instance } => self
                .scope_mut(agent, *instance)
                .map(|scope| &mut scope.layer),
        }
    }

    /// Whether `place` still exists.
    pub(crate) fn has_place(&self, place: &Place) -> bool {
        match place {
            Place::Global => true,
            Place::Scope { agent, instance } => self
                .scopes
                .get(agent)
                .is_some_and(|scope| scope.instance == *instance),
        }
    }
}
