//! [`SharedState`]: values provided to the registry once (a database pool, an HTTP client, a
//! workspace root) and reached by tool bodies by type.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// Shared state provided to the registry once and reached by tools through [`ToolRun::state`](crate::ToolRun::state),
/// keyed by type (a database pool, an HTTP client, a workspace root).
#[derive(Clone, Default)]
pub struct SharedState {
    entries: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
}

impl SharedState {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// Stores `value`, replacing any earlier value of the same type.
    pub fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        self.entries.insert(TypeId::of::<T>(), Arc::new(value));
    }

    /// The value of type `T`, if one was stored.
    pub fn get<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.entries
            .get(&TypeId::of::<T>())
            .and_then(|value| value.downcast_ref::<T>())
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl fmt::Debug for SharedState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SharedState")
            .field("entries", &self.entries.len())
            .finish()
    }
}
