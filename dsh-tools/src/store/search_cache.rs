//! [`SearchCache`]: the search index of each view's deferred tools, built on the view's first
//! search and then kept up to date across changes, so that a registration costs the next search
//! what the tools of that name cost, not a rebuild of the whole index.
//!
//! An index is kept under the view it was built from (the global layer, or one agent's scope:
//! see [`View::search_owner`](crate::store::view::View::search_owner)). A change says what it did
//! to the views' deferred tools ([`SearchChange`]):
//!
//! - tools registered or removed: their names go into a log, and each index, on its next search,
//!   looks those names up in its view again and takes in, replaces or drops their documents (a
//!   view's deferred tool of a name is decided by that name alone, so this leaves the index as a
//!   fresh build would);
//! - a scope's restrictions or deferral policy: the indexes of that scope and its descendants go;
//! - disposed scopes: their indexes go;
//! - a load, a hook, a new scope: nothing (name guards apply after ranking, `search.rs`);
//! - anything else (the global deferral policy, a change that says nothing): every index goes.
//!
//! The log is bounded: an index that falls too far behind it goes too, and is rebuilt on its
//! next search, as it is when catching up would take longer than a rebuild.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::ids::AgentId;
use crate::search::{SearchDocument, SearchIndex};

/// What a change removed, dropped once the registry's lock is released (`state.rs`'s
/// `Garbage`).
type Garbage = Vec<Box<dyn Any>>;

/// How many changed names the log holds before the indexes furthest behind are dropped.
const LOG_LIMIT: usize = 1_024;

/// How a change of the registry leaves the views' deferred tools.
#[derive(Debug)]
pub(crate) enum SearchChange {
    /// Every view's may have changed: every index goes (also what a change that says nothing
    /// does).
    Unknown,
    /// No view's deferred tools changed.
    Kept,
    /// The tool of this name was registered into or removed from some layer.
    Tool(Arc<str>),
    /// The tools of these names were.
    Tools(Vec<Arc<str>>),
    /// The restrictions or the deferral policy of this agent's scope changed: what it and its
    /// descendants see.
    Scope(AgentId),
    /// Scopes were disposed, with everything that only their views saw.
    Disposed,
}

impl SearchChange {
    /// What two parts of one change do together.
    pub(crate) fn and(self, other: Self) -> Self {
        match (self, other) {
            (Self::Kept, other) | (other, Self::Kept) => other,
            (Self::Tool(first), Self::Tool(second)) => Self::Tools(vec![first, second]),
            (Self::Tools(mut names), Self::Tool(name)) => {
                names.push(name);
                Self::Tools(names)
            }
            (Self::Disposed, Self::Disposed) => Self::Disposed,
            (Self::Scope(a), Self::Scope(b)) if a == b => Self::Scope(a),
            _ => Self::Unknown,
        }
    }
}

/// The search indexes of the views that searched, and the names changed since.
#[derive(Default)]
pub(crate) struct SearchCache {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    global: Option<Kept>,
    scoped: HashMap<AgentId, Kept>,
    documents: Documents,
    /// The names whose tools changed, oldest first: `changed[0]` is change number `first`.
    changed: Vec<Arc<str>>,
    first: u64,
}

/// One view's index, and how many changes it has taken in.
struct Kept {
    index: Arc<SearchIndex>,
    seen: u64,
}

/// The search documents of the tools the indexes took, by registration id, so that a rebuilt
/// index, or a scope's index of tools another index has, splits no text again. Documents of
/// tools no index holds any more are forgotten once they outnumber the largest index.
#[derive(Default)]
pub(crate) struct Documents {
    by_id: HashMap<u64, Arc<SearchDocument>>,
}

impl Documents {
    /// The document of the tool registered as `id`, made with `make` the first time.
    pub(crate) fn get_or_make(
        &mut self,
        id: u64,
        make: impl FnOnce() -> SearchDocument,
    ) -> Arc<SearchDocument> {
        Arc::clone(self.by_id.entry(id).or_insert_with(|| Arc::new(make())))
    }
}

impl Inner {
    /// Forgets the documents no index holds, once they outnumber the largest index.
    fn prune_documents(&mut self) {
        let indexes = || self.global.iter().chain(self.scoped.values());
        let largest = indexes().map(|kept| kept.index.len()).max().unwrap_or(0);
        if self.documents.by_id.len() <= 2 * largest + 64 {
            return;
        }
        let held: std::collections::HashSet<u64> = indexes()
            .flat_map(|kept| kept.index.documents().iter().map(|document| document.id))
            .collect();
        self.documents.by_id.retain(|id, _| held.contains(id));
    }

    fn end(&self) -> u64 {
        self.first + self.changed.len() as u64
    }

    /// With no index kept, nothing reads the log: it starts again with the next index.
    fn restart_log(&mut self) {
        if !self.changed.is_empty() {
            self.first = self.end();
            self.changed.clear();
        }
    }

    fn is_empty(&self) -> bool {
        self.global.is_none() && self.scoped.is_empty()
    }

    /// Drops every index, into `garbage`, and the log with them.
    fn clear(&mut self, garbage: &mut Garbage) {
        self.clear_global(garbage);
        if !self.scoped.is_empty() {
            garbage.push(Box::new(std::mem::take(&mut self.scoped)));
        }
        self.first = self.end();
        self.changed.clear();
    }

    /// Drops the scoped indexes `drop` says of, into `garbage`.
    fn drop_scoped(&mut self, garbage: &mut Garbage, mut drop: impl FnMut(&AgentId) -> bool) {
        let doomed: Vec<AgentId> = self
            .scoped
            .keys()
            .filter(|agent| drop(agent))
            .cloned()
            .collect();
        for agent in doomed {
            if let Some(kept) = self.scoped.remove(&agent) {
                garbage.push(Box::new(kept.index));
            }
        }
    }

    /// Logs `names`; past [`LOG_LIMIT`], drops the indexes more than half of it behind and
    /// forgets what every index left has taken in.
    fn log(&mut self, names: Vec<Arc<str>>, garbage: &mut Garbage) {
        self.changed.extend(names);
        if self.changed.len() <= LOG_LIMIT {
            return;
        }
        let end = self.end();
        let behind = |kept: &Kept| end - kept.seen > (LOG_LIMIT / 2) as u64;
        if self.global.as_ref().is_some_and(behind) {
            self.clear_global(garbage);
        }
        let doomed: Vec<AgentId> = self
            .scoped
            .iter()
            .filter(|(_, kept)| behind(kept))
            .map(|(agent, _)| agent.clone())
            .collect();
        self.drop_scoped(garbage, |agent| doomed.contains(agent));
        let oldest = self
            .global
            .iter()
            .chain(self.scoped.values())
            .map(|kept| kept.seen)
            .min()
            .unwrap_or(end);
        self.changed.drain(..(oldest - self.first) as usize);
        self.first = oldest;
    }

    fn clear_global(&mut self, garbage: &mut Garbage) {
        if let Some(kept) = self.global.take() {
            garbage.push(Box::new(kept.index));
        }
    }
}

impl SearchCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        match self.inner.lock() {
            Ok(inner) => inner,
            // A panic while an index was being updated may have left it half done: start over.
            Err(poisoned) => {
                let mut inner = poisoned.into_inner();
                *inner = Inner::default();
                self.inner.clear_poison();
                inner
            }
        }
    }

    /// The index of the view `owner` names (`None`: the global layer): the one kept, after
    /// `refresh` took in the names changed since it last did, or a new one from `build` when
    /// none is kept or catching up would cost more than a rebuild. Runs under the cache's lock,
    /// so two callers never build or refresh an index twice.
    pub(crate) fn get(
        &self,
        owner: Option<&AgentId>,
        build: impl FnOnce(&mut Documents) -> SearchIndex,
        refresh: impl FnOnce(&mut SearchIndex, &[Arc<str>], &mut Documents),
    ) -> Arc<SearchIndex> {
        let mut inner = self.lock();
        let inner = &mut *inner;
        let end = inner.end();
        let kept = match owner {
            None => inner.global.as_mut(),
            Some(owner) => inner.scoped.get_mut(owner),
        };
        if let Some(kept) = kept {
            if kept.seen < end {
                let pending = &inner.changed[(kept.seen - inner.first) as usize..];
                if pending.len() > 32 + kept.index.len() / 8 {
                    kept.index = Arc::new(build(&mut inner.documents));
                } else {
                    // In place, unless a search still holds it (then it keeps its copy).
                    let index = Arc::make_mut(&mut kept.index);
                    refresh(index, pending, &mut inner.documents);
                }
                kept.seen = end;
                let index = Arc::clone(&kept.index);
                inner.prune_documents();
                return index;
            }
            return Arc::clone(&kept.index);
        }
        let index = Arc::new(build(&mut inner.documents));
        let kept = Kept {
            index: Arc::clone(&index),
            seen: end,
        };
        match owner {
            None => inner.global = Some(kept),
            Some(owner) => {
                inner.scoped.insert(owner.clone(), kept);
            }
        }
        inner.prune_documents();
        index
    }

    /// Whether any index is kept (if not, a change has none to tell, and the log of changes,
    /// which no index will read, starts again).
    pub(crate) fn is_tracking(&mut self) -> bool {
        let inner = self.inner.get_mut().unwrap_or_else(PoisonError::into_inner);
        if !inner.is_empty() {
            return true;
        }
        inner.restart_log();
        false
    }

    /// Applies what a change did (`chain_of`: the chain of a live scope after it, farthest
    /// ancestor first, the scope's own agent last); what it drops goes into `garbage`, dropped
    /// once the registry's lock is released.
    pub(crate) fn apply<'s>(
        &mut self,
        change: SearchChange,
        chain_of: impl Fn(&AgentId) -> Option<&'s [AgentId]>,
        garbage: &mut Garbage,
    ) {
        let inner = self.inner.get_mut().unwrap_or_else(PoisonError::into_inner);
        if inner.is_empty() {
            inner.restart_log();
            return;
        }
        match change {
            SearchChange::Kept => {}
            SearchChange::Tool(name) => inner.log(vec![name], garbage),
            SearchChange::Tools(names) => inner.log(names, garbage),
            SearchChange::Scope(agent) => inner.drop_scoped(garbage, |owner| {
                chain_of(owner).is_none_or(|chain| chain.contains(&agent))
            }),
            SearchChange::Disposed => {
                inner.drop_scoped(garbage, |owner| chain_of(owner).is_none());
            }
            SearchChange::Unknown => inner.clear(garbage),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::Arc;

    use crate::search::SearchIndex;
    use crate::search::random_words::Random;
    use crate::store::deferral::Deferral;
    use crate::store::registration::Registration;
    use crate::store::restriction::ToolRestriction;
    use crate::store::search::index_of;
    use crate::store::view::View;
    use crate::{FnTool, ToolRegistry, ToolScope, json};

    fn tool(random: &mut Random, name: &str) -> FnTool {
        let description: Vec<&str> = (0..1 + random.below(8)).map(|_| random.word()).collect();
        FnTool::builder(name, description.join(" "))
            .options(crate::call::ToolOptions {
                defer_loading: random.below(4) != 0,
                ..crate::call::ToolOptions::default()
            })
            .handler(|_, _| async { Ok(json!("ok")) })
    }

    const QUERIES: &[&str] = &[
        "send an email",
        "delete booking",
        "hotel",
        "list events file",
    ];

    /// Every document's score for one query, by name, as bits.
    type ScoreBits = Vec<(String, u32)>;

    /// What a search reads of an index: its documents by name (with the registration they are
    /// of) and every score to the last bit, for each query.
    fn contents(index: &SearchIndex) -> (Vec<(String, u64)>, Vec<ScoreBits>) {
        let mut documents: Vec<(String, u64)> = index
            .documents()
            .iter()
            .map(|document| (document.name.clone(), document.id))
            .collect();
        documents.sort_unstable();
        let scores = QUERIES
            .iter()
            .map(|query| {
                let scores = index.scores(query);
                let mut by_name: Vec<(String, u32)> = index
                    .documents()
                    .iter()
                    .zip(scores)
                    .map(|(document, score)| (document.name.clone(), score.to_bits()))
                    .collect();
                by_name.sort_unstable();
                by_name
            })
            .collect();
        (documents, scores)
    }

    /// Random registrations and removals across the global layer and scopes (a restriction, a
    /// deferral policy of a scope's own, shadowing, a scope that shares its parent's index): after
    /// each, every view's kept index, brought up to date in place, holds and scores exactly what
    /// an index built afresh from the view does.
    #[test]
    fn indexes_kept_up_to_date_equal_indexes_built_afresh() {
        for seed in 1..=4_u64 {
            let mut random = Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let registry = ToolRegistry::new();
            let mut handles: HashMap<(usize, String), Registration> = HashMap::new();
            for base in ["t0", "t1"] {
                let handle = registry.register(tool(&mut random, base)).expect("free");
                handles.insert((0, base.to_owned()), handle);
            }
            let a = registry.create_scope("a", None).expect("new");
            let _restriction = a
                .restrict(ToolRestriction::deny(["t0"]))
                .expect("inherited");
            let b = a.create_child("b").expect("new");
            b.set_deferral(Deferral::AllExcept(["t5".to_owned()].into()))
                .expect("live");
            let _c = a.create_child("c").expect("new");
            let layers: [&ToolScope; 3] = [&registry, &a, &b];
            let core = Arc::clone(registry.core());
            let views = [None, Some("a"), Some("b"), Some("c")].map(|agent| agent.map(Into::into));
            let mut kept: Vec<Option<*const SearchIndex>> = vec![None; views.len()];
            for step in 0..300 {
                let layer = random.below(layers.len());
                let name = format!("t{}", random.below(24));
                match handles.remove(&(layer, name.clone())) {
                    Some(handle) if random.below(2) == 0 => assert!(handle.dispose()),
                    Some(handle) => {
                        handles.insert((layer, name), handle);
                    }
                    None => {
                        let handle = layers[layer]
                            .register(tool(&mut random, &name))
                            .expect("free in its layer");
                        handles.insert((layer, name), handle);
                    }
                }
                let state = core.read();
                for (agent, kept) in views.iter().zip(&mut kept) {
                    let view = View::open(&state, agent.as_ref(), None).expect("live");
                    let index = index_of(&state, &view);
                    let fresh = SearchIndex::new(
                        View::new(&state, view.search_owner())
                            .deferred_entries()
                            .into_iter()
                            .map(|entry| Arc::new(entry.document()))
                            .collect(),
                    );
                    assert_eq!(
                        contents(&index),
                        contents(&fresh),
                        "seed {seed}, step {step}, view {agent:?}"
                    );
                    // Updated in place: the same index, not a rebuild.
                    let address = Arc::as_ptr(&index);
                    assert!(
                        kept.is_none_or(|before| before == address),
                        "rebuilt: seed {seed}, step {step}, view {agent:?}"
                    );
                    *kept = Some(address);
                }
            }
        }
    }
}
