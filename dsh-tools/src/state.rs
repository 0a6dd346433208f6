//! [`SharedState`]: values provided to the registry once (a database pool, an HTTP client, a
//! workspace root) and reached by tool bodies by type; [`StateType`]: a type a tool says it
//! needs, so that the registry can refuse the tool when it was not given one.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// Shared state provided to the registry once and reached by tools through [`ToolRun::state`](crate::ToolRun::state),
/// keyed by type (a database pool, an HTTP client, a workspace root); `SharedState::default()` is
/// an empty one.
#[derive(Clone, Default)]
pub struct SharedState {
    entries: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
}

impl SharedState {
    /// Stores `value`, replacing any earlier value of the same type.
    pub fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        self.entries.insert(TypeId::of::<T>(), Arc::new(value));
    }

    /// The value of type `T`, if one was stored. Tools read it through
    /// [`ToolRun::state`](crate::ToolRun::state); code that builds the state keeps its own handle
    /// on what it inserts.
    pub(crate) fn get<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.entries
            .get(&TypeId::of::<T>())
            .and_then(|value| value.downcast_ref::<T>())
    }

    /// Whether a value of `ty` is stored: what registering a tool that needs `ty` checks.
    pub(crate) fn contains(&self, ty: StateType) -> bool {
        self.entries.contains_key(&ty.id)
    }
}

/// A type of shared state a tool needs, such as the type of a `#[state]` parameter (see
/// [`ToolDefinition::required_state`](crate::ToolDefinition::required_state)). Registering the
/// tool in a registry whose [`SharedState`] holds no value of this type is refused, naming the
/// type, so the mistake shows when the registry is built rather than on the model's first call.
/// Made with [`of`](Self::of); its name is read from its field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StateType {
    id: TypeId,
    /// The type's name, as [`std::any::type_name`] spells it (for messages).
    pub name: &'static str,
}

impl StateType {
    /// The state type `T` (a tool reaches it as `run.state::<T>()`).
    pub fn of<T: ?Sized + 'static>() -> Self {
        Self {
            id: TypeId::of::<T>(),
            name: std::any::type_name::<T>(),
        }
    }
}

impl fmt::Debug for SharedState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SharedState")
            .field("entries", &self.entries.len())
            .finish()
    }
}
