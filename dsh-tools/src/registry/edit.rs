//! Every change the registry supports, as an edit of a snapshot copy: registering and disposing
//! tools, hooks and restrictions, creating and disposing scopes, installing the approver.

use std::convert::Infallible;
use std::sync::Arc;

use crate::definition::ToolDefinition;
use crate::execution::AgentId;
use crate::policy::approval::Approver;
use crate::registry::core::{ChangeListener, Changes, Core};
use crate::registry::error::RegistryError;
use crate::registry::event::RegistryEvent;
use crate::registry::registration::{Item, Registration};
use crate::registry::restriction::{CompiledRestriction, ToolRestriction};
use crate::registry::state::{AnyHook, Layer, Place, ScopeState, Snapshot, ToolEntry};

/// The value of an edit that cannot fail.
fn infallible<T>(result: Result<T, Infallible>) -> T {
    match result {
        Ok(value) => value,
        Err(never) => match never {},
    }
}

fn gone(place: &Place) -> RegistryError {
    RegistryError::scope_disposed(place.agent().map_or("", AgentId::as_str))
}

impl Core {
    pub(crate) fn register_tool(
        self: &Arc<Self>,
        place: Place,
        definition: Arc<dyn ToolDefinition>,
    ) -> Result<Registration, RegistryError> {
        let name: Arc<str> = Arc::from(definition.name());
        if name.is_empty() {
            return Err(RegistryError::empty_name());
        }
        if definition.timeout_ms() == Some(0) {
            return Err(RegistryError::zero_timeout(&name));
        }
        if let Some(reason) = definition.definition_error() {
            return Err(RegistryError::unusable_definition(&name, &reason));
        }
        let id = self.next_id();
        self.update(|snapshot, changes| {
            let layer = snapshot.layer_mut(&place).ok_or_else(|| gone(&place))?;
            if layer.tools.contains_key(&name) {
                return Err(match place {
                    Place::Global => RegistryError::duplicate_global(&name),
                    Place::Scope { .. } => RegistryError::duplicate_in_scope(&name),
                });
            }
            layer
                .tools
                .insert(Arc::clone(&name), ToolEntry { id, definition });
            changes.changed = true;
            changes.events.push(RegistryEvent::ToolRegistered {
                name: name.to_string(),
                agent: place.agent().cloned(),
            });
            Ok(())
        })?;
        Ok(Registration::new(self, place, id, Item::Tool(name)))
    }

    pub(crate) fn add_hook(
        self: &Arc<Self>,
        place: Place,
        hook: AnyHook,
    ) -> Result<Registration, RegistryError> {
        let id = self.next_id();
        self.update(|snapshot, changes| {
            let layer = snapshot.layer_mut(&place).ok_or_else(|| gone(&place))?;
            layer.hooks.add(id, hook);
            changes.changed = true;
            Ok(())
        })?;
        Ok(Registration::new(self, place, id, Item::Hook))
    }

    pub(crate) fn add_listener_registration(
        self: &Arc<Self>,
        listener: Arc<ChangeListener>,
    ) -> Registration {
        let id = self.next_id();
        self.add_listener(id, listener);
        Registration::new(self, Place::Global, id, Item::Listener)
    }

    pub(crate) fn restrict(
        self: &Arc<Self>,
        agent: &AgentId,
        instance: u64,
        restriction: ToolRestriction,
    ) -> Result<Registration, RegistryError> {
        let id = self.next_id();
        let place = Place::Scope {
            agent: agent.clone(),
            instance,
        };
        self.update(|snapshot, changes| {
            let compiled = {
                let known = snapshot.global.sorted_names();
                CompiledRestriction::compile(restriction, &known)?
            };
            let scope = snapshot
                .scope_mut(agent, instance)
                .ok_or_else(|| gone(&place))?;
            scope.restrictions.push((id, compiled));
            changes.changed = true;
            Ok(())
        })?;
        Ok(Registration::new(self, place, id, Item::Restriction))
    }

    pub(crate) fn set_approver(&self, approver: Option<Arc<dyn Approver>>) {
        infallible(self.update(|snapshot, changes| {
            snapshot.approver = approver;
            changes.changed = true;
            Ok(())
        }));
    }

    /// Adds a hook to the global layer, which always exists.
    pub(crate) fn add_global_hook(self: &Arc<Self>, hook: AnyHook) -> Registration {
        let id = self.next_id();
        infallible(self.update(|snapshot, changes| {
            Arc::make_mut(&mut snapshot.global).hooks.add(id, hook);
            changes.changed = true;
            Ok(())
        }));
        Registration::new(self, Place::Global, id, Item::Hook)
    }

    /// Creates the scope of `agent` under `parent`; returns its instance number.
    pub(crate) fn create_scope(
        &self,
        agent: &AgentId,
        parent: Option<&AgentId>,
    ) -> Result<u64, RegistryError> {
        let instance = self.next_id();
        self.update(|snapshot, changes| {
            if snapshot.scopes.contains_key(agent) {
                return Err(RegistryError::scope_exists(agent.as_str()));
            }
            let chain: Arc<[AgentId]> = match parent {
                None => Arc::from([agent.clone()]),
                Some(parent) => {
                    let parent_scope = snapshot
                        .scopes
                        .get(parent)
                        .ok_or_else(|| RegistryError::unknown_parent(parent.as_str()))?;
                    parent_scope
                        .chain
                        .iter()
                        .cloned()
                        .chain([agent.clone()])
                        .collect()
                }
            };
            let scope = ScopeState {
                instance,
                chain,
                layer: Layer::default(),
                restrictions: Vec::new(),
            };
            snapshot.scopes.insert(agent.clone(), Arc::new(scope));
            changes.changed = true;
            Ok(instance)
        })
    }

    /// Disposes the scope of `agent` (if it is still instance `instance`) and every descendant
    /// scope, with all their tools, hooks and restrictions.
    pub(crate) fn dispose_scope(&self, agent: &AgentId, instance: u64) -> bool {
        infallible(self.update(|snapshot, changes| {
            if !snapshot.has_place(&Place::Scope {
                agent: agent.clone(),
                instance,
            }) {
                return Ok(false);
            }
            let doomed: Vec<AgentId> = snapshot
                .scopes
                .iter()
                .filter(|(_, scope)| scope.chain.contains(agent))
                .map(|(id, _)| id.clone())
                .collect();
            for id in doomed {
                if let Some(scope) = snapshot.scopes.remove(&id) {
                    let mut names: Vec<&Arc<str>> = scope.layer.tools.keys().collect();
                    names.sort_unstable();
                    changes.events.extend(names.into_iter().map(|name| {
                        RegistryEvent::ToolDisposed {
                            name: name.to_string(),
                            agent: Some(id.clone()),
                        }
                    }));
                }
            }
            changes.changed = true;
            Ok(true)
        }))
    }

    /// Removes one registration.
    pub(crate) fn dispose(&self, place: &Place, id: u64, item: &Item) -> bool {
        if let Item::Listener = item {
            return self.remove_listener(id);
        }
        infallible(self.update(|snapshot, changes| {
            let removed = remove_from(snapshot, place, id, item, changes);
            changes.changed = removed;
            Ok(removed)
        }))
    }

    /// Whether one registration is still there.
    pub(crate) fn is_registered(&self, place: &Place, id: u64, item: &Item) -> bool {
        let snapshot = self.snapshot();
        if !snapshot.has_place(place) {
            return false;
        }
        let (layer, scope) = match place {
            Place::Global => (&*snapshot.global, None),
            Place::Scope { agent, .. } => match snapshot.scopes.get(agent) {
                Some(scope) => (&scope.layer, Some(scope)),
                None => return false,
            },
        };
        match item {
            Item::Tool(name) => layer.tools.get(name).is_some_and(|entry| entry.id == id),
            Item::Hook => layer.hooks.has(id),
            Item::Restriction => {
                scope.is_some_and(|scope| scope.restrictions.iter().any(|(entry, _)| *entry == id))
            }
            Item::Listener => false,
        }
    }
}

fn remove_from(
    snapshot: &mut Snapshot,
    place: &Place,
    id: u64,
    item: &Item,
    changes: &mut Changes,
) -> bool {
    match item {
        Item::Tool(name) => {
            let Some(layer) = snapshot.layer_mut(place) else {
                return false;
            };
            if layer.tools.get(name).is_none_or(|entry| entry.id != id) {
                return false;
            }
            layer.tools.remove(name);
            changes.events.push(RegistryEvent::ToolDisposed {
                name: name.to_string(),
                agent: place.agent().cloned(),
            });
            true
        }
        Item::Hook => snapshot
            .layer_mut(place)
            .is_some_and(|layer| layer.hooks.remove(id)),
        Item::Restriction => {
            let Place::Scope { agent, instance } = place else {
                return false;
            };
            let Some(scope) = snapshot.scope_mut(agent, *instance) else {
                return false;
            };
            let before = scope.restrictions.len();
            scope.restrictions.retain(|(entry, _)| *entry != id);
            scope.restrictions.len() != before
        }
        Item::Listener => false,
    }
}
