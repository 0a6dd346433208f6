//! Deferred tools in the store: which visible tools a scope lists only once loaded
//! ([`Deferral`]) and which it has loaded and in what order ([`LoadedTools`]); the search
//! indexes of the deferred tools are `search_cache.rs`'s.
//!
//! A tool is deferred in a view when it was registered deferred
//! ([`ToolOptions::defer_loading`](crate::call::ToolOptions::defer_loading)) or when the
//! nearest [`Deferral`] of the view's chain (the scope's own, then its ancestors', then the
//! global layer's) defers every tool but some. Loading is per scope: an agent's searches load
//! tools into its own list only.

use std::collections::{BTreeSet, HashSet};
use std::sync::Arc;

use crate::name_hash::NameHash;

/// Which tools a scope (or the global layer) lists only once they are loaded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Deferral {
    /// What the parent scope says (for the global layer: [`AsRegistered`](Self::AsRegistered)).
    #[default]
    Inherit,
    /// Only the tools registered deferred are deferred.
    AsRegistered,
    /// Every tool is deferred except the ones named: "defer all but these".
    AllExcept(BTreeSet<String>),
}

impl Deferral {
    /// Whether this policy defers a tool named `name` that was registered `registered_deferred`.
    pub(crate) fn defers(&self, name: &str, registered_deferred: bool) -> bool {
        match self {
            Self::Inherit | Self::AsRegistered => registered_deferred,
            Self::AllExcept(kept) => registered_deferred || !kept.contains(name),
        }
    }
}

/// The deferred tools one scope has loaded, in the order it loaded them: that order is where
/// they come in its tool list, after every tool that is not deferred, so loading one more tool
/// leaves the list before it unchanged (and a provider's cached request prefix valid).
#[derive(Clone, Debug, Default)]
pub(crate) struct LoadedTools {
    order: Vec<Arc<str>>,
    names: HashSet<Arc<str>, NameHash>,
}

impl LoadedTools {
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    /// The loaded names, first loaded first.
    pub(crate) fn in_order(&self) -> &[Arc<str>] {
        &self.order
    }

    /// Adds `name`; `false` if it was loaded already.
    pub(crate) fn insert(&mut self, name: &str) -> bool {
        if self.names.contains(name) {
            return false;
        }
        let name: Arc<str> = Arc::from(name);
        self.names.insert(Arc::clone(&name));
        self.order.push(name);
        true
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Forgets `name` (its tool went away: a tool registered later under the name is loaded
    /// only when something loads it).
    pub(crate) fn remove(&mut self, name: &str) {
        // Most lists are empty, and removing from an empty set still hashes the name.
        if !self.names.is_empty() && self.names.remove(name) {
            self.order.retain(|loaded| &**loaded != name);
        }
    }

    /// Forgets every loaded tool.
    pub(crate) fn clear(&mut self) {
        self.order.clear();
        self.names.clear();
    }
}
