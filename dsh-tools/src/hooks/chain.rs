//! The shape every waterfall shares: an ordered list of registered hooks and a cursor into it.
//!
//! A `next` handle of any waterfall is a [`Chain`] plus what that waterfall passes along; calling
//! it takes the hook under the cursor and hands the hook the rest of the chain. This file owns
//! only that bookkeeping, not what any waterfall decides.

use std::sync::Arc;

/// One registered hook and the registration that owns it.
pub(crate) struct HookEntry<T: ?Sized> {
    pub(crate) id: u64,
    pub(crate) hook: Arc<T>,
}

impl<T: ?Sized> Clone for HookEntry<T> {
    fn clone(&self) -> Self {
        Self {
            id: self.id,
            hook: Arc::clone(&self.hook),
        }
    }
}

/// The hooks of one kind that apply to a call, in the order they run.
pub(crate) type HookList<T> = Arc<[HookEntry<T>]>;

/// `list` with `hook` appended under `id` (lists are shared by snapshots, so edits copy).
pub(crate) fn appended<T: ?Sized>(list: &HookList<T>, id: u64, hook: Arc<T>) -> HookList<T> {
    list.iter()
        .cloned()
        .chain([HookEntry { id, hook }])
        .collect()
}

/// Removes the entry `id` from `list`; `false` when there was none.
pub(crate) fn remove_entry<T: ?Sized>(list: &mut HookList<T>, id: u64) -> bool {
    if !list.iter().any(|entry| entry.id == id) {
        return false;
    }
    *list = list
        .iter()
        .filter(|entry| entry.id != id)
        .cloned()
        .collect();
    true
}

/// A cursor into a [`HookList`].
pub(crate) struct Chain<T: ?Sized> {
    hooks: HookList<T>,
    index: usize,
}

impl<T: ?Sized> Clone for Chain<T> {
    fn clone(&self) -> Self {
        Self {
            hooks: Arc::clone(&self.hooks),
            index: self.index,
        }
    }
}

impl<T: ?Sized> Chain<T> {
    /// A cursor at the first hook of `hooks`.
    pub(crate) fn new(hooks: HookList<T>) -> Self {
        Self { hooks, index: 0 }
    }

    /// The hook under the cursor and a cursor at the one after it; `None` at the end.
    pub(crate) fn split(self) -> Option<(Arc<T>, Self)> {
        let hook = Arc::clone(&self.hooks.get(self.index)?.hook);
        Some((
            hook,
            Self {
                hooks: self.hooks,
                index: self.index + 1,
            },
        ))
    }
}
