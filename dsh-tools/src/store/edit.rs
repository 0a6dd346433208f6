//! Every change the registry supports, as an in-place edit of its state under the write lock:
//! registering and disposing tools, hooks and restrictions, creating and disposing scopes,
//! installing the approver. Each costs what it touches — one map entry, one scope and its
//! descendants — never the size of the registry.

use std::collections::HashSet;
use std::convert::Infallible;
use std::sync::Arc;

use crate::call::definition::{ToolDefinition, ToolSchema};
use crate::call::tool_search::TOOL_SEARCH;
use crate::hooks::Hook;
use crate::hooks::approval::Approver;
use crate::ids::AgentId;
use crate::name_hash::NameHash;
use crate::state::SharedState;
use crate::store::code_mode::kept;
use crate::store::core::{ChangeListener, Changes, Core};
use crate::store::deferral::{Deferral, LoadedTools};
use crate::store::error::RegistryError;
use crate::store::event::RegistryEvent;
use crate::store::registration::{Item, Registration};
use crate::store::restriction::{CompiledRestriction, ToolRestriction};
use crate::store::search_cache::SearchChange;
use crate::store::state::{InheritedTools, Layer, Place, RegistryState, ScopeState, ToolEntry};
use dsh_tools_schema::Schema;

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

fn duplicate(place: &Place, name: &str) -> RegistryError {
    match place {
        Place::Global => RegistryError::duplicate_global(name),
        Place::Scope { .. } => RegistryError::duplicate_in_scope(name),
    }
}

/// A definition checked and projected for the model, ready to go into a layer. Everything the
/// registry asks a definition happens here, before the lock is taken.
struct Prepared {
    name: Arc<str>,
    entry: ToolEntry,
}

impl Prepared {
    /// `state`: the registry's shared state, which every required type must be in. It is fixed
    /// when the registry is built, so a check here holds for every later call.
    fn new(
        definition: Arc<dyn ToolDefinition>,
        state: &SharedState,
    ) -> Result<Self, RegistryError> {
        let name: Arc<str> = Arc::from(definition.name());
        if name.is_empty() {
            return Err(RegistryError::empty_name());
        }
        if &*name == TOOL_SEARCH {
            return Err(RegistryError::reserved_name(&name));
        }
        // Refused whether or not Code Mode is on, so that turning it on never shadows a tool.
        if let Some(reserved) = kept::reserved(&name) {
            return Err(reserved);
        }
        let options = definition.options();
        if options.timeout_ms == Some(0) {
            return Err(RegistryError::zero_timeout(&name));
        }
        if options.max_result_chars == Some(0) {
            return Err(RegistryError::zero_result_budget(&name));
        }
        if let Some(reason) = definition.definition_error() {
            return Err(RegistryError::unusable_definition(&name, &reason));
        }
        let required = definition.required_state();
        // The list of what is missing is built only when something is.
        if required.iter().any(|ty| !state.contains(*ty)) {
            let missing: Vec<&str> = required
                .iter()
                .filter(|ty| !state.contains(**ty))
                .map(|ty| ty.name)
                .collect();
            return Err(RegistryError::missing_state(&name, &missing));
        }
        let schema = ToolSchema {
            // `String::from` copies the text once; `to_string` on an `Arc<str>` goes through
            // `Display` and grows the string as it is written.
            name: String::from(&*name),
            description: definition.description().to_owned(),
            parameters: definition.shared_parameters(),
            input_examples: options.input_examples.clone(),
            settings: options.request_settings,
        };
        check_examples(&schema)?;
        let deferred = options.defer_loading;
        Ok(Self {
            name,
            entry: ToolEntry::new(0, definition, schema, deferred),
        })
    }
}

/// Refuses an input example its tool's parameters do not accept, naming its violations. A
/// parameter schema the engine cannot import (a remote reference) leaves the examples unchecked.
fn check_examples(schema: &ToolSchema) -> Result<(), RegistryError> {
    if schema.input_examples.is_empty() {
        return Ok(());
    }
    let Ok(parameters) = Schema::from_json_schema(&schema.parameters) else {
        tracing::debug!(
            tool = schema.name,
            "input examples left unchecked: the parameter schema does not import"
        );
        return Ok(());
    };
    for (index, example) in schema.input_examples.iter().enumerate() {
        if let Err(violations) = parameters.validate(example) {
            return Err(RegistryError::invalid_example(
                &schema.name,
                index,
                &violations.to_string(),
            ));
        }
    }
    Ok(())
}

/// Puts `tool` into `layer` under `id`; refuses a name the layer already has.
fn insert(
    layer: &mut Layer,
    place: &Place,
    id: u64,
    tool: Prepared,
    changes: &mut Changes,
) -> Result<(), RegistryError> {
    let Prepared { name, mut entry } = tool;
    match layer.tools.entry(name) {
        std::collections::hash_map::Entry::Occupied(taken) => Err(duplicate(place, taken.key())),
        std::collections::hash_map::Entry::Vacant(free) => {
            changes.announce(|| RegistryEvent::ToolRegistered {
                name: String::from(&**free.key()),
                agent: place.agent().cloned(),
            });
            entry.id = id;
            changes.search_tool(free.key());
            free.insert(entry);
            changes.changed = true;
            Ok(())
        }
    }
}

impl Core {
    pub(crate) fn register_tool(
        self: &Arc<Self>,
        place: Place,
        definition: Arc<dyn ToolDefinition>,
    ) -> Result<Registration, RegistryError> {
        let tool = Prepared::new(definition, self.state())?;
        let name = Arc::clone(&tool.name);
        let id = self.next_id();
        self.update(|state, changes| {
            let layer = state.layer_mut(&place).ok_or_else(|| gone(&place))?;
            insert(layer, &place, id, tool, changes)
        })?;
        Ok(Registration::new(self, place, id, Item::Tool(name)))
    }

    /// Registers every tool of `definitions` in one change, or none of them.
    pub(crate) fn register_tools(
        self: &Arc<Self>,
        place: Place,
        definitions: Vec<Arc<dyn ToolDefinition>>,
    ) -> Result<Vec<Registration>, RegistryError> {
        let tools: Vec<Prepared> = definitions
            .into_iter()
            .map(|definition| Prepared::new(definition, self.state()))
            .collect::<Result<_, _>>()?;
        let mut seen: HashSet<&str, NameHash> =
            HashSet::with_capacity_and_hasher(tools.len(), NameHash::default());
        if let Some(twice) = tools.iter().find(|tool| !seen.insert(&tool.name)) {
            return Err(duplicate(&place, &twice.name));
        }
        drop(seen);
        let names: Vec<Arc<str>> = tools.iter().map(|tool| Arc::clone(&tool.name)).collect();
        let first = self.next_ids(tools.len() as u64);
        self.update(|state, changes| {
            let layer = state.layer_mut(&place).ok_or_else(|| gone(&place))?;
            if let Some(taken) = tools
                .iter()
                .find(|tool| layer.tools.contains_key(&tool.name))
            {
                return Err(duplicate(&place, &taken.name));
            }
            layer.tools.reserve(tools.len());
            for (id, tool) in (first..).zip(tools) {
                insert(layer, &place, id, tool, changes)?;
            }
            Ok(())
        })?;
        Ok((first..)
            .zip(names)
            .map(|(id, name)| Registration::new(self, place.clone(), id, Item::Tool(name)))
            .collect())
    }

    pub(crate) fn add_hook(
        self: &Arc<Self>,
        place: Place,
        hook: Hook,
    ) -> Result<Registration, RegistryError> {
        let id = self.next_id();
        self.update(|state, changes| {
            let layer = state.layer_mut(&place).ok_or_else(|| gone(&place))?;
            layer.hooks.add(id, hook);
            changes.changed = true;
            // Name guards apply after ranking (`store/search.rs`): the indexes hold.
            changes.searches(SearchChange::Kept);
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
        self.update(|state, changes| {
            let compiled = {
                let (_, scope) = state.layer(&place).ok_or_else(|| gone(&place))?;
                let scope = scope.ok_or_else(|| gone(&place))?;
                let inherited = InheritedTools::of(state, scope);
                CompiledRestriction::compile(restriction, &inherited)?
            };
            let scope = state
                .scope_mut(agent, instance)
                .ok_or_else(|| gone(&place))?;
            scope.restrictions.push((id, compiled));
            changes.changed = true;
            changes.searches(SearchChange::Scope(agent.clone()));
            Ok(())
        })?;
        Ok(Registration::new(self, place, id, Item::Restriction))
    }

    #[cfg(feature = "durable")]
    pub(crate) fn set_durability(
        &self,
        durability: Option<Arc<crate::durable::journal::Durability>>,
    ) {
        infallible(self.update(|state, changes| {
            if let Some(old) = std::mem::replace(&mut state.durability, durability) {
                changes.garbage.push(Box::new(old));
            }
            changes.changed = true;
            changes.searches(SearchChange::Kept);
            Ok(())
        }));
    }

    /// Installs the approver every `ask` goes to, replacing any earlier one; disposing the
    /// handle removes it (and only it: not an approver installed after it).
    pub(crate) fn set_approver(self: &Arc<Self>, approver: Arc<dyn Approver>) -> Registration {
        let id = self.next_id();
        infallible(self.update(|state, changes| {
            if let Some((_, old)) = state.approver.replace((id, approver)) {
                changes.garbage.push(Box::new(old));
            }
            changes.changed = true;
            changes.searches(SearchChange::Kept);
            Ok(())
        }));
        Registration::new(self, Place::Global, id, Item::Approver)
    }

    /// Creates the scope of `agent` under `parent`; returns its instance number.
    pub(crate) fn create_scope(
        &self,
        agent: &AgentId,
        parent: Option<&AgentId>,
    ) -> Result<u64, RegistryError> {
        let instance = self.next_id();
        self.update(|state, changes| {
            if state.scopes.contains_key(agent) {
                return Err(RegistryError::scope_exists(agent.as_str()));
            }
            let chain: Arc<[AgentId]> = match parent {
                None => Arc::from([agent.clone()]),
                Some(parent) => {
                    let parent_scope = state
                        .scopes
                        .get_mut(parent)
                        .ok_or_else(|| RegistryError::unknown_parent(parent.as_str()))?;
                    parent_scope.children.insert(agent.clone());
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
                children: HashSet::new(),
                layer: Layer::default(),
                restrictions: Vec::new(),
                deferral: Deferral::Inherit,
                loaded: LoadedTools::default(),
                code_mode: kept::ScopeMode::default(),
            };
            state.scopes.insert(agent.clone(), scope);
            changes.changed = true;
            // A new scope sees what its parent sees, and no other view changes.
            changes.searches(SearchChange::Kept);
            Ok(instance)
        })
    }

    /// Disposes the scope of `agent` (if it is still instance `instance`) and every descendant
    /// scope, with all their tools, hooks and restrictions. Disposal events come scope by scope,
    /// the disposed scope first and then its descendants depth first (children in name order),
    /// each scope's tools in name order.
    pub(crate) fn dispose_scope(&self, agent: &AgentId, instance: u64) -> bool {
        infallible(self.update(|state, changes| {
            let Some(scope) = state.scope_mut(agent, instance) else {
                return Ok(false);
            };
            let parent = scope.parent().cloned();
            if let Some(parent) = parent.and_then(|parent| state.scopes.get_mut(&parent)) {
                parent.children.remove(agent);
            }
            let mut doomed = vec![agent.clone()];
            while let Some(id) = doomed.pop() {
                let Some(scope) = state.scopes.remove(&id) else {
                    continue;
                };
                for name in scope.layer.sorted_names() {
                    changes.announce(|| RegistryEvent::ToolDisposed {
                        name: name.to_owned(),
                        agent: Some(id.clone()),
                    });
                }
                let mut children: Vec<&AgentId> = scope.children.iter().collect();
                // Popped last-in first-out: push the names in reverse for name order.
                children.sort_unstable_by(|a, b| b.cmp(a));
                doomed.extend(children.into_iter().cloned());
                changes.garbage.push(Box::new(scope));
            }
            changes.changed = true;
            changes.searches(SearchChange::Disposed);
            Ok(true)
        }))
    }

    /// Removes one registration.
    pub(crate) fn dispose(&self, place: &Place, id: u64, item: &Item) -> bool {
        if let Item::Listener = item {
            return self.remove_listener(id);
        }
        infallible(self.update(|state, changes| {
            let removed = remove_from(state, place, id, item, changes);
            changes.changed = removed;
            Ok(removed)
        }))
    }

    /// Whether one registration is still there.
    pub(crate) fn is_registered(&self, place: &Place, id: u64, item: &Item) -> bool {
        let state = self.read();
        let Some((layer, scope)) = state.layer(place) else {
            return false;
        };
        match item {
            Item::Tool(name) => layer.tools.get(name).is_some_and(|entry| entry.id == id),
            Item::Hook => layer.hooks.has(id),
            Item::Restriction => {
                scope.is_some_and(|scope| scope.restrictions.iter().any(|(entry, _)| *entry == id))
            }
            Item::Approver => state.approver.as_ref().is_some_and(|(kept, _)| *kept == id),
            Item::Listener => false,
        }
    }
}

fn remove_from(
    state: &mut RegistryState,
    place: &Place,
    id: u64,
    item: &Item,
    changes: &mut Changes,
) -> bool {
    match item {
        Item::Tool(name) => {
            let Some(layer) = state.layer_mut(place) else {
                return false;
            };
            // One lookup: the entry is taken out, and put back in the rare case that the name
            // now belongs to a later registration.
            let Some((key, entry)) = layer.tools.remove_entry(name) else {
                return false;
            };
            if entry.id != id {
                layer.tools.insert(key, entry);
                return false;
            }
            changes.garbage.push(Box::new(entry));
            // Loaded means loaded by someone: a tool registered later under this name starts
            // deferred again in every list that had it.
            state.loaded.remove(name);
            for scope in state.scopes.values_mut() {
                scope.loaded.remove(name);
            }
            changes.search_tool(name);
            changes.announce(|| RegistryEvent::ToolDisposed {
                name: String::from(&**name),
                agent: place.agent().cloned(),
            });
            true
        }
        Item::Hook => {
            changes.searches(SearchChange::Kept);
            state
                .layer_mut(place)
                .is_some_and(|layer| layer.hooks.remove(id, &mut changes.garbage))
        }
        Item::Restriction => {
            let Place::Scope { agent, instance } = place else {
                return false;
            };
            let Some(scope) = state.scope_mut(agent, *instance) else {
                return false;
            };
            let Some(index) = scope
                .restrictions
                .iter()
                .position(|(entry, _)| *entry == id)
            else {
                return false;
            };
            scope.restrictions.remove(index);
            changes.searches(SearchChange::Scope(agent.clone()));
            true
        }
        Item::Approver => {
            let Some((_, old)) = state.approver.take_if(|(kept, _)| *kept == id) else {
                return false;
            };
            changes.garbage.push(Box::new(old));
            changes.searches(SearchChange::Kept);
            true
        }
        Item::Listener => false,
    }
}
