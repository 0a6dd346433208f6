//! [`ScopedCache`]: a value derived from the registry's state once per view — the global layer,
//! or one agent's scope — and kept until a change makes it stale. The model-facing schemas are
//! kept this way (the search indexes, which outlive changes, in `search_cache.rs`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::ids::AgentId;

/// One value per view, built on first use. A change of the registry replaces the whole cache
/// (`core.rs`), so an entry never needs invalidating on its own.
pub(crate) struct ScopedCache<T: ?Sized> {
    global: OnceLock<Arc<T>>,
    scoped: Mutex<HashMap<AgentId, Arc<T>>>,
}

impl<T: ?Sized> Default for ScopedCache<T> {
    fn default() -> Self {
        Self {
            global: OnceLock::new(),
            scoped: Mutex::new(HashMap::new()),
        }
    }
}

impl<T: ?Sized> ScopedCache<T> {
    /// The value of the view `owner` names (`None`: the global layer), built with `build` when
    /// this cache has none yet. A scope's value is built under the cache's lock, so two callers
    /// never build it twice.
    pub(crate) fn get_or_build(
        &self,
        owner: Option<&AgentId>,
        build: impl FnOnce() -> Arc<T>,
    ) -> Arc<T> {
        let Some(owner) = owner else {
            return Arc::clone(self.global.get_or_init(build));
        };
        let mut scoped = self.scoped.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(value) = scoped.get(owner) {
            return Arc::clone(value);
        }
        let value = build();
        scoped.insert(owner.clone(), Arc::clone(&value));
        value
    }

    /// Whether nothing was built since the cache was made (then a change has nothing to drop).
    pub(crate) fn is_empty(&mut self) -> bool {
        self.global.get().is_none()
            && self
                .scoped
                .get_mut()
                .unwrap_or_else(PoisonError::into_inner)
                .is_empty()
    }
}
