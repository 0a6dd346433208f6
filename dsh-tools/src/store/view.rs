//! What one scope sees of the registry at one moment: which tool a name resolves to, which hooks
//! apply to a call and in which order, and the model-facing schemas.
//!
//! Resolution: the nearest layer that has the name decides — the scope's own, then its
//! ancestors' (nearest first), then the global layer — and the tool is visible if every
//! restriction of the scopes below that layer admits the name (see `restriction.rs`). Hooks
//! apply in this order: the global layer's, then each scope's from the farthest ancestor to the
//! call's own, each layer in registration order. A tool a name guard denies here stays
//! resolvable (its call is denied with the guard's reason) but is not offered: the view's
//! listings, searches and loads leave it out. Calls in the global layer (no agent, or an agent
//! with no scope) see only the global layer.

use std::collections::HashMap;
use std::sync::Arc;

use crate::call::definition::{ToolDefinition, ToolSchema};
use crate::call::tool_search::TOOL_SEARCH;
use crate::hooks::HookSet;
use crate::hooks::approval::Approver;
use crate::ids::AgentId;
use crate::name_hash::NameHash;
use crate::store::code_mode::decide;
use crate::store::code_mode::kept::is_run_code;
use crate::store::deferral::{Deferral, LoadedTools};
use crate::store::state::{Layer, RegistryState, ScopeState, TOOL_SEARCH_ENTRY, ToolEntry};

/// The hooks of every kind that apply to one call, and the approver.
#[derive(Default)]
pub(crate) struct HookPlan {
    pub(crate) hooks: HookSet,
    pub(crate) approver: Option<Arc<dyn Approver>>,
}

/// Why no view of a scope could be opened: scopes fail closed, so nothing is answered from a
/// wider view instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Closed {
    /// The scope the handle was made for (or an ancestor of it) was disposed.
    Disposed,
    /// The agent has no live scope, and unscoped agents do not see the global layer.
    UnknownAgent,
}

impl Closed {
    /// The error a registry operation through the closed view is refused with.
    pub(crate) fn registry_error(self, agent: &AgentId) -> crate::store::error::RegistryError {
        match self {
            Self::Disposed => crate::store::error::RegistryError::scope_disposed(agent.as_str()),
            Self::UnknownAgent => crate::store::error::RegistryError::unknown_agent(agent.as_str()),
        }
    }

    /// The error a call through the closed view ends with.
    pub(crate) fn error(self, agent: &AgentId) -> crate::errors::tool_error::ToolError {
        match self {
            Self::Disposed => crate::errors::tool_error::ToolError::scope_disposed(agent.as_str()),
            Self::UnknownAgent => {
                crate::errors::tool_error::ToolError::unknown_agent(agent.as_str())
            }
        }
    }
}

/// The registry seen from one scope (or from the global layer).
pub(crate) struct View<'s> {
    state: &'s RegistryState,
    /// Farthest ancestor first; empty for the global layer.
    chain: Vec<&'s ScopeState>,
}

impl<'s> View<'s> {
    #[inline]
    pub(crate) fn new(state: &'s RegistryState, agent: Option<&AgentId>) -> Self {
        let chain = agent
            .and_then(|agent| state.scopes.get(agent))
            .map(|scope| {
                scope
                    .chain
                    .iter()
                    .filter_map(|id| state.scopes.get(id))
                    .collect()
            })
            .unwrap_or_default();
        Self { state, chain }
    }

    /// The view of `agent`'s scope — of the scope instance `instance` when a scope handle asks —
    /// or of the global layer without an agent; refused when that scope is gone. Always inlined:
    /// the global layer's view, what most calls open, is then built in place, not in a call.
    #[inline(always)]
    pub(crate) fn open(
        state: &'s RegistryState,
        agent: Option<&AgentId>,
        instance: Option<u64>,
    ) -> Result<Self, Closed> {
        match agent {
            None => Ok(Self {
                state,
                chain: Vec::new(),
            }),
            Some(agent) => Self::open_scope(state, agent, instance),
        }
    }

    /// [`open`](Self::open) with an agent.
    fn open_scope(
        state: &'s RegistryState,
        agent: &AgentId,
        instance: Option<u64>,
    ) -> Result<Self, Closed> {
        match state.scopes.get(agent) {
            Some(scope) if instance.is_none_or(|instance| instance == scope.instance) => {
                Ok(Self::new(state, Some(agent)))
            }
            // The handle's scope is gone (another scope of the same agent may exist now).
            Some(_) => Err(Closed::Disposed),
            None if instance.is_some() => Err(Closed::Disposed),
            None if state.unscoped_agents_see_global => Ok(Self::new(state, None)),
            None => Err(Closed::UnknownAgent),
        }
    }

    /// The definition a call of `name` resolves to here (`nested`: the call has a parent), or,
    /// in Code Mode, why the call is refused before any policy (see `code_mode::refusal`).
    #[inline]
    pub(crate) fn resolve_call(
        &self,
        name: &str,
        nested: bool,
    ) -> Result<Option<&'s Arc<dyn ToolDefinition>>, crate::errors::tool_error::ToolError> {
        match self.lookup_call(name, nested) {
            (_, Some(refusal)) => Err(refusal),
            (definition, None) => Ok(definition),
        }
    }

    /// What `name` resolves to here (as [`resolve`](Self::resolve)) and, in Code Mode, why a
    /// call of it (`nested`: the call has a parent) is refused before any policy, both from one
    /// lookup: a caller that reads the definition before it makes the call keeps both. Always
    /// inlined, as the lookup it wraps: every call's capture makes it.
    #[inline(always)]
    pub(crate) fn lookup_call(
        &self,
        name: &str,
        nested: bool,
    ) -> (
        Option<&'s Arc<dyn ToolDefinition>>,
        Option<crate::errors::tool_error::ToolError>,
    ) {
        let entry = self.resolve_entry(name);
        let refusal = decide::refusal(name, nested, self.code_mode(), entry);
        (entry.map(|entry| &entry.definition), refusal)
    }

    /// The definition `name` resolves to here.
    #[inline]
    pub(crate) fn resolve(&self, name: &str) -> Option<&'s Arc<dyn ToolDefinition>> {
        self.resolve_entry(name).map(|entry| &entry.definition)
    }

    /// Always inlined: every call resolves its name once when it is made, and a call's worth
    /// of instructions went into entering and leaving this function.
    #[inline(always)]
    fn resolve_entry(&self, name: &str) -> Option<&'s ToolEntry> {
        if name == TOOL_SEARCH {
            return self.has_deferred().then_some(&*TOOL_SEARCH_ENTRY);
        }
        if is_run_code(name) {
            return self.run_code_entry();
        }
        for (depth, scope) in self.chain.iter().enumerate().rev() {
            if let Some(entry) = scope.layer.tools.get(name) {
                return self.admits(name, depth + 1).then_some(entry);
            }
        }
        let entry = self.state.global.tools.get(name)?;
        self.admits(name, 0).then_some(entry)
    }

    /// Whether the restrictions of the chain's scopes from `below` down to the call's own admit
    /// an inherited tool `name` (a tool of the layer just above `chain[below]`).
    #[inline]
    fn admits(&self, name: &str, below: usize) -> bool {
        self.chain[below..].iter().all(|scope| {
            scope
                .restrictions
                .iter()
                .all(|(_, restriction)| restriction.admits(name))
        })
    }

    /// Whether a name guard that applies here denies `name` (`hooks/name_guard.rs`): such a
    /// tool stays resolvable, so that its call is denied with the guard's reason, but listings,
    /// searches and loads of this view leave it out. The global layer's guards are asked first,
    /// then each scope's from the farthest ancestor, as at call time.
    #[inline]
    pub(crate) fn hides(&self, name: &str) -> bool {
        std::iter::once(&self.state.global.hooks)
            .chain(self.chain.iter().map(|scope| &scope.layer.hooks))
            .filter_map(|hooks| hooks.name_guards.as_ref())
            .flat_map(|list| list.iter())
            .any(|entry| entry.hook.hides(name))
    }

    /// Whether any name guard applies here, so that listings and searches must ask them.
    pub(crate) fn has_name_guards(&self) -> bool {
        self.state.global.hooks.name_guards.is_some()
            || self
                .chain
                .iter()
                .any(|scope| scope.layer.hooks.name_guards.is_some())
    }

    /// Whether this view shows `name`: a visible tool no name guard here denies.
    pub(crate) fn shows(&self, guarded: bool, name: &str) -> bool {
        !guarded || !self.hides(name)
    }

    /// The approver installed now.
    fn approver(&self) -> Option<&'s Arc<dyn Approver>> {
        self.state.approver.as_ref().map(|(_, approver)| approver)
    }

    /// Every hook that applies here, resolved once for a call; `None` when no hook applies.
    #[inline]
    pub(crate) fn plan(&self) -> Option<HookPlan> {
        if self.chain.is_empty() && self.state.global.hooks.is_empty() {
            return None;
        }
        let hooks = HookSet::joined(
            std::iter::once(&self.state.global.hooks)
                .chain(self.chain.iter().map(|scope| &scope.layer.hooks)),
        );
        (!hooks.is_empty()).then(|| HookPlan {
            hooks,
            approver: self.approver().cloned(),
        })
    }

    /// The model-facing schemas of every visible tool, sorted by name, cached until the next
    /// change.
    pub(crate) fn schemas(&self) -> Arc<[ToolSchema]> {
        self.state
            .schemas
            .get_or_build(self.owner(), || self.compute_schemas())
    }

    /// The schemas the model is shown: every visible tool that is not deferred, sorted by name
    /// (with `tool_search` among them when any visible tool is deferred), then the deferred tools
    /// this view has loaded, in the order they were loaded.
    fn compute_schemas(&self) -> Arc<[ToolSchema]> {
        let deferral = self.deferral();
        let loaded = self.loaded();
        let hint = self.state.global.tools.len()
            + self
                .chain
                .iter()
                .map(|scope| scope.layer.tools.len())
                .sum::<usize>();
        // One more for `tool_search`.
        let mut listed: Vec<&ToolSchema> = Vec::with_capacity(hint + 1);
        let mut loaded_here: HashMap<&str, &ToolSchema, NameHash> = HashMap::default();
        let mut any_deferred = false;
        let guarded = self.has_name_guards();
        self.for_each_visible(|name, entry| {
            // What a name guard denies here is not offered: the model would only be refused.
            if !self.shows(guarded, name) {
                return;
            }
            if deferral.defers(name, entry.deferred) {
                any_deferred = true;
                if loaded.contains(name) && decide::model_calls(entry) {
                    loaded_here.insert(name, &entry.schema);
                }
            } else {
                if decide::model_calls(entry) {
                    listed.push(&entry.schema);
                }
            }
        });
        if any_deferred {
            listed.push(&TOOL_SEARCH_ENTRY.schema);
        }
        let run_code = self.run_code_listing();
        if let Some((run_code, only)) = &run_code {
            if *only {
                // The model calls everything else from programs.
                listed.retain(|schema| schema.name == TOOL_SEARCH);
                loaded_here.clear();
            }
            listed.push(run_code);
        }
        listed.sort_unstable_by(|a, b| a.name.cmp(&b.name));
        if !loaded_here.is_empty() {
            listed.extend(
                loaded
                    .in_order()
                    .iter()
                    .filter_map(|name| loaded_here.get(&**name).copied()),
            );
        }
        listed.into_iter().cloned().collect()
    }

    /// The visible tools this view defers, loaded or not, sorted by name.
    pub(crate) fn deferred_entries(&self) -> Vec<&'s ToolEntry> {
        let deferral = self.deferral();
        let mut deferred: Vec<&ToolEntry> = Vec::new();
        self.for_each_visible(|name, entry| {
            if deferral.defers(name, entry.deferred) {
                deferred.push(entry);
            }
        });
        deferred.sort_unstable_by(|a, b| a.schema.name.cmp(&b.schema.name));
        deferred
    }

    /// The visible tools this view defers and shows (no name guard here denies them), loaded or
    /// not, sorted by name: what the view offers, unlike [`View::deferred_entries`], which a
    /// search index shared by several views is built from.
    pub(crate) fn shown_deferred_entries(&self) -> Vec<&'s ToolEntry> {
        let mut deferred = self.deferred_entries();
        if self.has_name_guards() {
            deferred.retain(|entry| !self.hides(&entry.schema.name));
        }
        deferred
    }

    /// The visible tool `name` if this view defers it and shows it (no name guard here denies
    /// it): what a load checks, one name at a time, without listing every deferred tool.
    pub(crate) fn deferred_entry(&self, name: &str) -> Option<&'s ToolEntry> {
        self.deferred_tool(name).filter(|_| !self.hides(name))
    }

    /// The visible tool `name` if this view defers it, whatever the name guards say: the one of
    /// [`View::deferred_entries`] named `name`, found without listing them (what a search index
    /// brought up to date takes for that name).
    pub(crate) fn deferred_tool(&self, name: &str) -> Option<&'s ToolEntry> {
        if name == TOOL_SEARCH {
            return None;
        }
        if is_run_code(name) {
            return None;
        }
        self.resolve_entry(name)
            .filter(|entry| self.deferral().defers(name, entry.deferred))
    }

    /// Whether any visible tool is deferred here (so `tool_search` is there).
    pub(crate) fn has_deferred(&self) -> bool {
        let deferral = self.deferral();
        let mut any = false;
        self.for_each_visible(|name, entry| any |= deferral.defers(name, entry.deferred));
        any
    }

    /// The deferral policy in force: the nearest scope's of the chain that sets one, else the
    /// global layer's.
    pub(crate) fn deferral(&self) -> &'s Deferral {
        self.chain
            .iter()
            .rev()
            .map(|scope| &scope.deferral)
            .find(|deferral| **deferral != Deferral::Inherit)
            .unwrap_or(&self.state.deferral)
    }

    /// The tools this view has loaded: its own scope's, or the global layer's.
    pub(crate) fn loaded(&self) -> &'s LoadedTools {
        self.chain
            .last()
            .map_or(&self.state.loaded, |scope| &scope.loaded)
    }

    /// The Code Mode in force here.
    pub(crate) fn code_mode(&self) -> decide::Mode {
        decide::mode_of(&self.chain, &self.state.code)
    }

    /// `run_code`'s entry when the mode here has it.
    fn run_code_entry(&self) -> Option<&'static ToolEntry> {
        decide::run_code_entry(self.code_mode())
    }

    /// `run_code`'s schema here, declaring the tools programs can call (visible, listed or
    /// loaded, taking program callers), and whether it is all the model calls besides
    /// `tool_search`; `None` when the mode has no `run_code`.
    fn run_code_listing(&self) -> Option<(ToolSchema, bool)> {
        let mode = self.code_mode();
        let entry = decide::run_code_entry(mode)?;
        let deferral = self.deferral();
        let loaded = self.loaded();
        let mut callable = Vec::new();
        let guarded = self.has_name_guards();
        self.for_each_visible(|name, tool| {
            if !self.shows(guarded, name) {
                return;
            }
            let listed = !deferral.defers(name, tool.deferred) || loaded.contains(name);
            if listed && decide::program_calls(tool) {
                callable.push(tool);
            }
        });
        Some(decide::run_code_listing(entry, callable, mode))
    }

    /// Which view this is, as a call records it: the global layer or one scope instance.
    pub(crate) fn call_view(&self) -> crate::call::execution::CallView {
        use crate::call::execution::CallView;
        self.chain
            .last()
            .map_or(CallView::Global, |scope| CallView::Scope(scope.instance))
    }

    /// The nearest view of this one's chain whose deferred tools are the same as this one's:
    /// scopes with no tools, restrictions or deferral policy of their own see what their parent
    /// sees, so they share its search index (`None`: the global layer's).
    pub(crate) fn search_owner(&self) -> Option<&'s AgentId> {
        self.chain
            .iter()
            .rev()
            .find(|scope| {
                !scope.layer.tools.is_empty()
                    || !scope.restrictions.is_empty()
                    || scope.deferral != Deferral::Inherit
            })
            .and_then(|scope| scope.chain.last())
    }

    /// The agent whose scope this view is, `None` for the global layer.
    pub(crate) fn owner(&self) -> Option<&'s AgentId> {
        self.chain.last().and_then(|scope| scope.chain.last())
    }

    /// Calls `visit` with every visible tool and its name, in no order: for each name, the
    /// nearest layer that has it decides, as in `resolve`.
    pub(crate) fn for_each_visible(&self, mut visit: impl FnMut(&'s str, &'s ToolEntry)) {
        if self.chain.is_empty() {
            for (name, entry) in &self.state.global.tools {
                visit(name, entry);
            }
            return;
        }
        let layers = self
            .chain
            .iter()
            .enumerate()
            .rev()
            .map(|(depth, scope)| (&scope.layer, depth + 1))
            .chain([(&self.state.global, 0)]);
        let mut decided: HashMap<&str, Option<&ToolEntry>, NameHash> = HashMap::default();
        for (layer, below) in layers {
            let layer: &'s Layer = layer;
            for (name, entry) in &layer.tools {
                decided
                    .entry(name)
                    .or_insert_with(|| self.admits(name, below).then_some(entry));
            }
        }
        for (name, entry) in decided {
            if let Some(entry) = entry {
                visit(name, entry);
            }
        }
    }
}
