//! The registry's shared core: its state behind one lock, how changes are applied and
//! announced, and change listeners.
//!
//! Every change runs under the write lock and edits the state in place (a hash-map insert or
//! removal, not a copy of the layer), bumps the generation counter, and empties the schema cache;
//! then, outside the lock, what the change removed is dropped and the change listeners are told.
//! Readers hold the read lock only while they look something up, clone an `Arc` or build the
//! schema list of a view; no code of the host runs under either lock.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, PoisonError, RwLock, RwLockReadGuard};

use crate::call::definition::ToolDefinition;
use crate::future::catch_panic;
use crate::hooks::chain::{HookList, appended, remove_entry};
use crate::ids::AgentId;
use crate::limits::{CallLimits, LimitsCell};
use crate::state::SharedState;
use crate::store::event::RegistryEvent;
use crate::store::search_cache::SearchChange;
use crate::store::state::{Garbage, RegistryState};
use crate::store::view::View;

/// A change listener.
pub(crate) type ChangeListener = dyn Fn(&RegistryEvent) + Send + Sync;

/// What an edit did, collected while the write lock is held.
#[derive(Default)]
pub(crate) struct Changes {
    pub(crate) changed: bool,
    /// What the change did to the views' deferred tools, for the search indexes
    /// (`search_cache.rs`); a change that says nothing drops them all.
    searches: Option<SearchChange>,
    /// Whether any search index is kept (if not, what a change did to them is not recorded).
    tracks_searches: bool,
    /// Whether anyone listens for events (if not, none are built).
    report: bool,
    events: Vec<RegistryEvent>,
    /// What the edit took out of the state, dropped after the lock is released.
    pub(crate) garbage: Garbage,
}

impl Changes {
    /// Records what (this part of) the change did to the views' deferred tools.
    pub(crate) fn searches(&mut self, change: SearchChange) {
        if !self.tracks_searches {
            return;
        }
        self.searches = Some(match self.searches.take() {
            None => change,
            Some(before) => before.and(change),
        });
    }

    /// Records that the tool named `name` changed, for the search indexes: the name is copied
    /// only when an index is kept.
    #[inline]
    pub(crate) fn search_tool(&mut self, name: &Arc<str>) {
        if self.tracks_searches {
            self.searches(SearchChange::Tool(Arc::clone(name)));
        }
    }

    /// Records the event `make` builds, if anyone listens.
    pub(crate) fn announce(&mut self, make: impl FnOnce() -> RegistryEvent) {
        if self.report {
            self.events.push(make());
        }
    }
}

pub(crate) struct Core {
    data: RwLock<RegistryState>,
    /// Mirrors the state's generation, so dispatch can tell without locking whether anything
    /// changed since its call started.
    generation: AtomicU64,
    next_id: AtomicU64,
    state: SharedState,
    /// How many change listeners there are: changes build their events only when someone
    /// listens.
    listener_count: AtomicUsize,
    listeners: RwLock<HookList<ChangeListener>>,
    /// The bounds every call runs under (timeouts, result budget).
    limits: LimitsCell,
    /// The engines kept warm for this registry's `run_code` programs.
    #[cfg_attr(
        not(feature = "code-mode"),
        allow(dead_code, reason = "read only by Code Mode")
    )]
    pub(super) engines: crate::store::code_mode::kept::Engines,
    /// The hybrid search installed, and the vectors of the tools it embedded.
    pub(crate) embeddings: crate::store::embeddings::Embeddings,
    /// What calls record beyond their span (`telemetry.rs`).
    #[cfg(feature = "otel")]
    telemetry: RwLock<Option<Arc<crate::telemetry::Telemetry>>>,
    /// Whether the telemetry records metrics: read on every call without the lock, so that a
    /// call nothing listens to stays on its short path.
    #[cfg(feature = "otel")]
    records_metrics: std::sync::atomic::AtomicBool,
}

impl Core {
    pub(crate) fn new(state: SharedState) -> Self {
        Self {
            data: RwLock::new(RegistryState::empty()),
            generation: AtomicU64::new(0),
            next_id: AtomicU64::new(1),
            state,
            listener_count: AtomicUsize::new(0),
            listeners: RwLock::new(HookList::default()),
            limits: LimitsCell::new(CallLimits::new()),
            engines: Default::default(),
            embeddings: crate::store::embeddings::Embeddings::default(),
            #[cfg(feature = "otel")]
            telemetry: RwLock::new(None),
            #[cfg(feature = "otel")]
            records_metrics: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// The registry as it is now, until the guard is dropped. Do not call the host's code or
    /// the registry while holding it.
    pub(crate) fn read(&self) -> RwLockReadGuard<'_, RegistryState> {
        self.data.read().unwrap_or_else(PoisonError::into_inner)
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

    /// What calls record beyond their span, if anything was set.
    #[cfg(feature = "otel")]
    pub(crate) fn telemetry(&self) -> Option<Arc<crate::telemetry::Telemetry>> {
        self.telemetry
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Replaces what calls record beyond their span.
    #[cfg(feature = "otel")]
    pub(crate) fn set_telemetry(&self, telemetry: crate::telemetry::Telemetry) {
        let metrics = telemetry.tool_metrics().is_some();
        *self
            .telemetry
            .write()
            .unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(telemetry));
        self.records_metrics.store(metrics, Ordering::Release);
    }

    /// Whether calls record metrics (without taking the lock).
    #[cfg(feature = "otel")]
    #[inline]
    pub(crate) fn records_metrics(&self) -> bool {
        self.records_metrics.load(Ordering::Relaxed)
    }

    /// A registration id no other registration of this registry has.
    pub(crate) fn next_id(&self) -> u64 {
        self.next_ids(1)
    }

    /// The first of `count` consecutive registration ids no other registration has.
    pub(crate) fn next_ids(&self, count: u64) -> u64 {
        self.next_id.fetch_add(count, Ordering::Relaxed)
    }

    /// The definition `name` resolves to for `agent` right now.
    pub(crate) fn resolve(
        &self,
        name: &str,
        agent: Option<&AgentId>,
    ) -> Option<Arc<dyn ToolDefinition>> {
        let state = self.read();
        View::open(&state, agent, None).ok()?.resolve(name).cloned()
    }

    /// Runs `edit` on the state under the write lock; if it changed anything, bumps the
    /// generation and empties the schema cache. Then drops what the edit removed and tells the
    /// change listeners. An edit checks everything before it changes anything, so an `Err`
    /// leaves the state as it was.
    pub(crate) fn update<R, E>(
        &self,
        edit: impl FnOnce(&mut RegistryState, &mut Changes) -> Result<R, E>,
    ) -> Result<R, E> {
        let mut changes = Changes {
            report: self.listener_count.load(Ordering::Acquire) > 0,
            ..Changes::default()
        };
        let value = {
            let mut guard = self.data.write().unwrap_or_else(PoisonError::into_inner);
            let state = &mut *guard;
            changes.tracks_searches = state.searches.is_tracking();
            let value = edit(state, &mut changes);
            if changes.changed {
                state.generation += 1;
                if !state.schemas.is_empty() {
                    let stale = std::mem::take(&mut state.schemas);
                    changes.garbage.push(Box::new(stale));
                }
                // With no index kept before the edit there is nothing to bring up to date
                // (`is_tracking` restarted the log), and an edit makes none: indexes are made by
                // searches, under the read lock.
                debug_assert!(changes.tracks_searches || !state.searches.is_tracking());
                if changes.tracks_searches {
                    let searches = changes.searches.take().unwrap_or(SearchChange::Unknown);
                    let scopes = &state.scopes;
                    state.searches.apply(
                        searches,
                        |agent| scopes.get(agent).map(|scope| &*scope.chain),
                        &mut changes.garbage,
                    );
                }
                self.generation.store(state.generation, Ordering::Release);
            }
            value
        };
        drop(std::mem::take(&mut changes.garbage));
        // Most edits have no listener, so no events: no call.
        if !changes.events.is_empty() {
            self.emit(&changes.events);
        }
        value
    }

    pub(crate) fn add_listener(&self, id: u64, listener: Arc<ChangeListener>) {
        let mut listeners = self
            .listeners
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        *listeners = appended(&listeners, id, listener);
        self.listener_count.fetch_add(1, Ordering::AcqRel);
    }

    pub(crate) fn remove_listener(&self, id: u64) -> bool {
        let removed = {
            let mut listeners = self
                .listeners
                .write()
                .unwrap_or_else(PoisonError::into_inner);
            let old = Arc::clone(&listeners);
            let removed = remove_entry(&mut listeners, id).then_some(old);
            if removed.is_some() {
                self.listener_count.fetch_sub(1, Ordering::AcqRel);
            }
            removed
        };
        // The removed listener (if this held its last reference) is dropped outside the lock.
        removed.is_some()
    }

    /// Tells the change listeners about `event`, which reports a decision rather than a change of
    /// the state (an import's review of a tool definition), so nothing is edited or invalidated.
    #[cfg(feature = "mcp")]
    pub(crate) fn announce(&self, event: RegistryEvent) {
        if self.listener_count.load(Ordering::Acquire) > 0 {
            self.emit(std::slice::from_ref(&event));
        }
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
