//! The registry's shared core: the current snapshot, how changes are published, and change
//! listeners.
//!
//! Every change runs under one write lock: copy the snapshot shallowly, edit the touched layer,
//! publish the new `Arc<Snapshot>` and bump the generation counter, then (outside the lock) tell
//! the change listeners. Readers only take the read lock long enough to clone an `Arc`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

use crate::definition::ToolDefinition;
use crate::execution::AgentId;
use crate::future::catch_panic;
use crate::limits::{CallLimits, LimitsCell};
use crate::pipeline::chain::{HookList, appended, remove_entry};
use crate::registry::event::RegistryEvent;
use crate::registry::state::Snapshot;
use crate::registry::view::View;
use crate::run::SharedState;

/// A change listener.
pub(crate) type ChangeListener = dyn Fn(&RegistryEvent) + Send + Sync;

/// What an edit did, collected while the write lock is held.
#[derive(Default)]
pub(crate) struct Changes {
    pub(crate) changed: bool,
    pub(crate) events: Vec<RegistryEvent>,
}

pub(crate) struct Core {
    current: RwLock<Arc<Snapshot>>,
    /// Mirrors the current snapshot's generation, so dispatch can tell without locking whether
    /// anything changed since its call started.
    generation: AtomicU64,
    next_id: AtomicU64,
    state: SharedState,
    listeners: RwLock<HookList<ChangeListener>>,
    /// The bounds every call runs under (timeouts, result budget).
    limits: LimitsCell,
}

impl Core {
    pub(crate) fn new(state: SharedState) -> Self {
        Self {
            current: RwLock::new(Arc::new(Snapshot::empty())),
            generation: AtomicU64::new(0),
            next_id: AtomicU64::new(1),
            state,
            listeners: RwLock::new(HookList::default()),
            limits: LimitsCell::new(CallLimits::new()),
        }
    }

    pub(crate) fn snapshot(&self) -> Arc<Snapshot> {
        Arc::clone(&self.current.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Runs `read` on the current snapshot under the read lock, without taking a reference to
    /// it: a call captures what it needs this way.
    #[inline]
    pub(crate) fn with_snapshot<R>(&self, read: impl FnOnce(&Snapshot) -> R) -> R {
        read(&self.current.read().unwrap_or_else(PoisonError::into_inner))
    }

    #[inline]
    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    #[inline]
    pub(crate) fn state(&self) -> &SharedState {
        &self.state
    }

    #[inline]
    pub(crate) fn limits(&self) -> &LimitsCell {
        &self.limits
    }

    /// A registration id no other registration of this registry has.
    pub(crate) fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// The definition `name` resolves to for `agent` right now.
    pub(crate) fn resolve(
        &self,
        name: &str,
        agent: Option<&AgentId>,
    ) -> Option<Arc<dyn ToolDefinition>> {
        let snapshot = self.snapshot();
        View::new(&snapshot, agent).resolve(name).cloned()
    }

    /// Runs `edit` on a copy of the current snapshot and publishes it if the edit changed
    /// anything; then tells the change listeners.
    pub(crate) fn update<R, E>(
        &self,
        edit: impl FnOnce(&mut Snapshot, &mut Changes) -> Result<R, E>,
    ) -> Result<R, E> {
        let mut changes = Changes::default();
        let value = {
            let mut current = self.current.write().unwrap_or_else(PoisonError::into_inner);
            let mut next = current.to_edit();
            let value = edit(&mut next, &mut changes)?;
            if changes.changed {
                let generation = next.generation;
                *current = Arc::new(next);
                self.generation.store(generation, Ordering::Release);
            }
            value
        };
        self.emit(&changes.events);
        Ok(value)
    }

    pub(crate) fn add_listener(&self, id: u64, listener: Arc<ChangeListener>) {
        let mut listeners = self
            .listeners
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        *listeners = appended(&listeners, id, listener);
    }

    pub(crate) fn remove_listener(&self, id: u64) -> bool {
        let mut listeners = self
            .listeners
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        remove_entry(&mut listeners, id)
    }

    /// Tells every listener about `events`; a panicking listener is logged and the others still
    /// hear about it.
    fn emit(&self, events: &[RegistryEvent]) {
        if events.is_empty() {
            return;
        }
        let listeners = Arc::clone(
            &self
                .listeners
                .read()
                .unwrap_or_else(PoisonError::into_inner),
        );
        for event in events {
            for entry in listeners.iter() {
                if let Err(message) = catch_panic(|| (entry.hook)(event)) {
                    tracing::warn!(?event, "registry change listener panicked: {message}");
                }
            }
        }
    }
}
