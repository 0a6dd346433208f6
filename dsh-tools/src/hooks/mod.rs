//! The hook contracts: what a policy hook is and what it decides — `pre-execute` listeners
//! ([`PreToolDecision`], [`PreExecuteNext`]) and guards, the [`Approver`] for `ask`, `execute`
//! layers ([`ExecuteLayer`], [`Next`]), `post-execute` listeners ([`PostToolDecision`],
//! [`PostExecuteNext`]), result observers ([`ObserverReturn`]) and [`CallObserver`]s. They are
//! registered on a [`ToolScope`](crate::ToolScope) — the global layer's is the
//! [`ToolRegistry`](crate::ToolRegistry) itself.
//!
//! # Layer
//!
//! Above the call (hooks see the frozen execution), below the registry's store (which keeps the
//! hooks) and the pipeline (which runs them). This layer says what each hook kind receives and
//! returns; running the waterfalls in order is the pipeline's business.
//!
//! # Kinds
//!
//! Four contracts, one file each: `pre_execute.rs`, `wrapper.rs`, `post_execute.rs`,
//! `call_observer.rs`. Two more kinds are one of them in another shape, made by an adapter
//! rather than kept as contracts of their own: a guard is a deny-only `pre-execute` listener
//! (`guard.rs`; a name guard, `name_guard.rs`, is one that decides on the tool's name alone, so
//! views ask it too and it is also kept in a list of its own), a result observer a call observer
//! that only hears the result (`observer.rs`).
//! They keep lists of their own because they run at their own point of the pipeline's phase
//! table: guards after the whole `pre-execute` waterfall and approval, result observers before
//! the call observers.
//!
//! This file keeps what the store holds of every kind: a `Hook` on its way into a layer, and a
//! layer's `HookSet`, one list per kind. The store and the view handle them without knowing the
//! kinds, so a new kind is its contract's file, a variant and a list here, its registration
//! method (`registry/hooks.rs`) and its phase (`pipeline/mod.rs`).

pub(crate) mod approval;
pub(crate) mod call_observer;
pub(crate) mod chain;
pub(crate) mod guard;
pub(crate) mod name_guard;
pub(crate) mod observer;
pub(crate) mod post_execute;
pub(crate) mod pre_execute;
pub(crate) mod wrapper;

pub use self::approval::{ApprovalOutcome, ApprovalRequest, Approver, approver_fn};
pub use self::call_observer::{CallObserver, ObservedCall};
pub use self::observer::ObserverReturn;
pub use self::post_execute::{PostExecuteNext, PostToolDecision};
pub use self::pre_execute::{PreExecuteNext, PreToolDecision};
pub use self::wrapper::{DispatchRequest, ExecuteLayer, Next};

use std::any::Any;
use std::sync::Arc;

use self::chain::{HookList, appended, remove_entry};
use self::name_guard::NameGuard;
use self::post_execute::PostExecuteHook;
use self::pre_execute::PreExecuteHook;

/// A hook of any kind, on its way into a layer.
pub(crate) enum Hook {
    /// A `pre-execute` listener.
    PreExecute(Arc<dyn PreExecuteHook>),
    /// A guard: a `pre-execute` listener that can only deny (the adapter of `guard.rs`).
    Guard(Arc<dyn PreExecuteHook>),
    /// A name guard (`name_guard.rs`): a guard that the view can also ask without a call.
    NameGuard(Arc<NameGuard>),
    /// An `execute` layer.
    Execute(Arc<dyn ExecuteLayer>),
    /// A `post-execute` listener.
    PostExecute(Arc<dyn PostExecuteHook>),
    /// A result observer: a call observer that only hears the result (the adapter of
    /// `observer.rs`).
    ResultObserver(Arc<dyn CallObserver>),
    /// A call observer.
    CallObserver(Arc<dyn CallObserver>),
}

/// The hooks of one layer, or of every layer a call sees: each kind in the order it runs, `None`
/// where there are none (so a call with one kind of hook clones one list, not six). Each list is
/// shared with the calls that captured it, so an edit replaces the list instead of changing it.
#[derive(Clone, Default)]
pub(crate) struct HookSet {
    pub(crate) pre_execute: Option<HookList<dyn PreExecuteHook>>,
    pub(crate) guards: Option<HookList<dyn PreExecuteHook>>,
    /// The name guards, which are also in `guards` (where they run at call time): the view asks
    /// them without a call, to leave out of listings and searches what they deny.
    pub(crate) name_guards: Option<HookList<NameGuard>>,
    pub(crate) execute: Option<HookList<dyn ExecuteLayer>>,
    pub(crate) post_execute: Option<HookList<dyn PostExecuteHook>>,
    pub(crate) result_observers: Option<HookList<dyn CallObserver>>,
    pub(crate) call_observers: Option<HookList<dyn CallObserver>>,
}

/// `list` with `hook` appended under `id`.
fn append<T: ?Sized>(list: &mut Option<HookList<T>>, id: u64, hook: Arc<T>) {
    *list = Some(match list {
        None => Arc::from([chain::HookEntry { id, hook }]),
        Some(list) => appended(list, id, hook),
    });
}

/// Removes `id` from `list`, keeping the old list (and so the removed hook) in `garbage`, to be
/// dropped after the registry's lock is released.
fn remove<T: ?Sized + Send + Sync + 'static>(
    list: &mut Option<HookList<T>>,
    id: u64,
    garbage: &mut Vec<Box<dyn Any>>,
) -> bool {
    let Some(current) = list else {
        return false;
    };
    let old = Arc::clone(current);
    if !remove_entry(current, id) {
        return false;
    }
    if current.is_empty() {
        *list = None;
    }
    garbage.push(Box::new(old));
    true
}

fn holds<T: ?Sized>(list: Option<&HookList<T>>, id: u64) -> bool {
    list.is_some_and(|list| list.iter().any(|entry| entry.id == id))
}

/// The `lists`, in order, as one: shared when only one set has hooks of the kind.
fn join_lists<'s, T: ?Sized + 's>(
    lists: impl Iterator<Item = &'s Option<HookList<T>>>,
) -> Option<HookList<T>> {
    let mut present = lists.flatten();
    let first = present.next()?;
    let Some(second) = present.next() else {
        return Some(Arc::clone(first));
    };
    Some(
        first
            .iter()
            .chain(second.iter())
            .chain(present.flat_map(|list| list.iter()))
            .cloned()
            .collect(),
    )
}

impl HookSet {
    /// Adds `hook` under `id` to its kind's list.
    pub(crate) fn add(&mut self, id: u64, hook: Hook) {
        match hook {
            Hook::PreExecute(hook) => append(&mut self.pre_execute, id, hook),
            Hook::Guard(hook) => append(&mut self.guards, id, hook),
            Hook::NameGuard(hook) => {
                // One registration in two lists: it runs with the guards and is asked by views.
                append(
                    &mut self.guards,
                    id,
                    Arc::clone(&hook) as Arc<dyn PreExecuteHook>,
                );
                append(&mut self.name_guards, id, hook);
            }
            Hook::Execute(hook) => append(&mut self.execute, id, hook),
            Hook::PostExecute(hook) => append(&mut self.post_execute, id, hook),
            Hook::ResultObserver(hook) => append(&mut self.result_observers, id, hook),
            Hook::CallObserver(hook) => append(&mut self.call_observers, id, hook),
        }
    }

    /// Removes the hook registered as `id`, whatever its kind; what it removed goes to
    /// `garbage`.
    pub(crate) fn remove(&mut self, id: u64, garbage: &mut Vec<Box<dyn Any>>) -> bool {
        // A name guard is in two lists; it is removed from both, so this is not short-circuited.
        let named = remove(&mut self.name_guards, id, garbage);
        let any = remove(&mut self.pre_execute, id, garbage)
            || remove(&mut self.guards, id, garbage)
            || remove(&mut self.execute, id, garbage)
            || remove(&mut self.post_execute, id, garbage)
            || remove(&mut self.result_observers, id, garbage)
            || remove(&mut self.call_observers, id, garbage);
        named || any
    }

    /// Whether the hook registered as `id` is here.
    pub(crate) fn has(&self, id: u64) -> bool {
        holds(self.pre_execute.as_ref(), id)
            || holds(self.guards.as_ref(), id)
            || holds(self.execute.as_ref(), id)
            || holds(self.post_execute.as_ref(), id)
            || holds(self.result_observers.as_ref(), id)
            || holds(self.call_observers.as_ref(), id)
    }

    /// Whether no hook of any kind is here.
    pub(crate) fn is_empty(&self) -> bool {
        self.pre_execute.is_none()
            && self.guards.is_none()
            && self.execute.is_none()
            && self.post_execute.is_none()
            && self.result_observers.is_none()
            && self.call_observers.is_none()
    }

    /// The hooks of `sets` together, each kind's lists one after the other in the order given.
    pub(crate) fn joined<'s>(sets: impl Iterator<Item = &'s HookSet> + Clone) -> Self {
        Self {
            pre_execute: join_lists(sets.clone().map(|set| &set.pre_execute)),
            guards: join_lists(sets.clone().map(|set| &set.guards)),
            name_guards: join_lists(sets.clone().map(|set| &set.name_guards)),
            execute: join_lists(sets.clone().map(|set| &set.execute)),
            post_execute: join_lists(sets.clone().map(|set| &set.post_execute)),
            result_observers: join_lists(sets.clone().map(|set| &set.result_observers)),
            call_observers: join_lists(sets.map(|set| &set.call_observers)),
        }
    }
}
