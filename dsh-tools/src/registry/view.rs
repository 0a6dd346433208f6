//! What one scope sees in one snapshot: which tool a name resolves to, which hooks apply to a
//! call and in which order, and the model-facing schemas.
//!
//! Resolution: the scope's own tools first, then its ancestors' (nearest first), then the global
//! layer if every restriction along the chain admits the name. Hooks apply in this order: the
//! global layer's, then each scope's from the farthest ancestor to the call's own, each layer in
//! registration order. Calls in the global layer (no agent, or an agent with no scope) see only
//! the global layer.

use std::collections::BTreeMap;
use std::sync::{Arc, PoisonError};

use crate::definition::{ToolDefinition, ToolSchema};
use crate::execution::AgentId;
use crate::pipeline::call_observer::CallObserver;
use crate::pipeline::chain::HookList;
use crate::pipeline::guard::ToolGuard;
use crate::pipeline::observer::ResultObserver;
use crate::pipeline::post_execute::PostExecuteHook;
use crate::pipeline::pre_execute::PreExecuteHook;
use crate::pipeline::wrapper::ExecuteLayer;
use crate::policy::approval::Approver;
use crate::registry::state::{HookSet, ScopeState, Snapshot};

/// The hooks of every kind that apply to one call (`None` where there are none), and the
/// approver.
#[derive(Default)]
pub(crate) struct HookPlan {
    pub(crate) pre_execute: Option<HookList<dyn PreExecuteHook>>,
    pub(crate) guards: Option<HookList<dyn ToolGuard>>,
    pub(crate) wrappers: Option<HookList<dyn ExecuteLayer>>,
    pub(crate) post_execute: Option<HookList<dyn PostExecuteHook>>,
    pub(crate) observers: Option<HookList<dyn ResultObserver>>,
    pub(crate) call_observers: Option<HookList<dyn CallObserver>>,
    pub(crate) approver: Option<Arc<dyn Approver>>,
}

impl HookPlan {
    /// Whether no hook at all applies (the approver only matters to a `pre-execute` ask).
    fn is_empty(&self) -> bool {
        self.pre_execute.is_none()
            && self.guards.is_none()
            && self.wrappers.is_none()
            && self.post_execute.is_none()
            && self.observers.is_none()
            && self.call_observers.is_none()
    }
}

/// A snapshot seen from one scope (or from the global layer).
pub(crate) struct View<'s> {
    snapshot: &'s Snapshot,
    /// Farthest ancestor first; empty for the global layer.
    chain: Vec<&'s ScopeState>,
}

impl<'s> View<'s> {
    #[inline]
    pub(crate) fn new(snapshot: &'s Snapshot, agent: Option<&AgentId>) -> Self {
        let chain = agent
            .and_then(|agent| snapshot.scopes.get(agent))
            .map(|scope| {
                scope
                    .chain
                    .iter()
                    .filter_map(|id| snapshot.scopes.get(id).map(|scope| &**scope))
                    .collect()
            })
            .unwrap_or_default();
        Self { snapshot, chain }
    }

    /// The definition `name` resolves to here.
    #[inline]
    pub(crate) fn resolve(&self, name: &str) -> Option<&'s Arc<dyn ToolDefinition>> {
        for scope in self.chain.iter().rev() {
            if let Some(entry) = scope.layer.tools.get(name) {
                return Some(&entry.definition);
            }
        }
        let entry = self.snapshot.global.tools.get(name)?;
        self.admits_global(name).then_some(&entry.definition)
    }

    #[inline]
    fn admits_global(&self, name: &str) -> bool {
        self.chain.iter().all(|scope| {
            scope
                .restrictions
                .iter()
                .all(|(_, restriction)| restriction.admits(name))
        })
    }

    /// The approver installed when the snapshot was taken.
    fn approver(&self) -> Option<&'s Arc<dyn Approver>> {
        self.snapshot.approver.as_ref()
    }

    /// The hooks of one kind that apply here, in order; `None` when there are none.
    fn hooks<T: ?Sized>(&self, pick: fn(&HookSet) -> &HookList<T>) -> Option<HookList<T>> {
        let global = pick(&self.snapshot.global.hooks);
        if self
            .chain
            .iter()
            .all(|scope| pick(&scope.layer.hooks).is_empty())
        {
            return (!global.is_empty()).then(|| Arc::clone(global));
        }
        let combined: HookList<T> = global
            .iter()
            .chain(
                self.chain
                    .iter()
                    .flat_map(|scope| pick(&scope.layer.hooks).iter()),
            )
            .cloned()
            .collect();
        Some(combined)
    }

    /// Every hook that applies here, resolved once for a call; `None` when no hook applies.
    #[inline]
    pub(crate) fn plan(&self) -> Option<HookPlan> {
        if self.chain.is_empty() && self.snapshot.global.hooks.is_empty() {
            return None;
        }
        let plan = HookPlan {
            pre_execute: self.hooks(|hooks| &hooks.pre_execute),
            guards: self.hooks(|hooks| &hooks.guards),
            wrappers: self.hooks(|hooks| &hooks.wrappers),
            post_execute: self.hooks(|hooks| &hooks.post_execute),
            observers: self.hooks(|hooks| &hooks.observers),
            call_observers: self.hooks(|hooks| &hooks.call_observers),
            approver: self.approver().cloned(),
        };
        (!plan.is_empty()).then_some(plan)
    }

    /// The model-facing schemas of every visible tool, sorted by name, cached per snapshot.
    pub(crate) fn schemas(&self) -> Arc<[ToolSchema]> {
        let cache = &self.snapshot.schemas;
        let Some(own) = self.chain.last() else {
            return Arc::clone(cache.global.get_or_init(|| self.compute_schemas()));
        };
        let agent = own.chain.last().cloned();
        let Some(agent) = agent else {
            return self.compute_schemas();
        };
        let mut scoped = cache.scoped.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(
            scoped
                .entry(agent)
                .or_insert_with(|| self.compute_schemas()),
        )
    }

    fn compute_schemas(&self) -> Arc<[ToolSchema]> {
        let mut visible: BTreeMap<&str, &Arc<dyn ToolDefinition>> = BTreeMap::new();
        for (name, entry) in &self.snapshot.global.tools {
            if self.admits_global(name) {
                visible.insert(name, &entry.definition);
            }
        }
        // Farther scopes first so that nearer ones overwrite them: nearest wins, as in `resolve`.
        for scope in &self.chain {
            for (name, entry) in &scope.layer.tools {
                visible.insert(name, &entry.definition);
            }
        }
        visible
            .into_values()
            .map(|definition| ToolSchema {
                name: definition.name().to_owned(),
                description: definition.description().to_owned(),
                parameters: definition.parameters().clone(),
            })
            .collect()
    }
}
