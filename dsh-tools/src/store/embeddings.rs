//! [`Embeddings`]: the hybrid search a registry has installed and the vectors its embedding
//! model gave the tools, kept by registration id outside the registry's lock, so the model is
//! asked once per tool and never while a lock is held.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use crate::search::{HybridSearch, SearchIndex};

/// The hybrid search a registry has installed, and the vectors of the tools its model
/// embedded, by registration id.
#[derive(Default)]
pub(crate) struct Embeddings {
    hybrid: RwLock<Option<HybridSearch>>,
    vectors: Mutex<HashMap<u64, Option<Arc<[f32]>>>>,
}

impl Embeddings {
    /// Installs `hybrid` (or none), forgetting the vectors of the model it replaces.
    pub(crate) fn set(&self, hybrid: Option<HybridSearch>) {
        let old = {
            let mut slot = self.hybrid.write().unwrap_or_else(PoisonError::into_inner);
            std::mem::replace(&mut *slot, hybrid)
        };
        let stale =
            std::mem::take(&mut *self.vectors.lock().unwrap_or_else(PoisonError::into_inner));
        drop((old, stale));
    }

    /// The hybrid search installed, if any.
    pub(crate) fn hybrid(&self) -> Option<HybridSearch> {
        self.hybrid
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The vector of each document of `index` (`None`: the model gave none), embedding in one
    /// batch those not embedded yet. Vectors of tools no longer in the index are forgotten once
    /// they outnumber it.
    pub(crate) fn vectors_of(
        &self,
        hybrid: &HybridSearch,
        index: &SearchIndex,
    ) -> Vec<Option<Arc<[f32]>>> {
        let documents = index.documents();
        let missing: Vec<usize> = {
            let vectors = self.vectors.lock().unwrap_or_else(PoisonError::into_inner);
            (0..documents.len())
                .filter(|&position| !vectors.contains_key(&documents[position].id))
                .collect()
        };
        if !missing.is_empty() {
            let texts: Vec<&str> = missing
                .iter()
                .map(|&position| documents[position].text.as_str())
                .collect();
            let embedded = crate::future::catch_panic(|| hybrid.embedder.embed(&texts))
                .unwrap_or_else(|message| {
                    tracing::warn!("tool embedder panicked: {message}");
                    Vec::new()
                });
            let mut embedded = embedded.into_iter();
            let mut vectors = self.vectors.lock().unwrap_or_else(PoisonError::into_inner);
            for &position in &missing {
                let vector = embedded.next().map(Arc::<[f32]>::from);
                vectors.insert(documents[position].id, vector);
            }
            if vectors.len() > 2 * documents.len() + 64 {
                let live: HashSet<u64> = documents.iter().map(|document| document.id).collect();
                vectors.retain(|id, _| live.contains(id));
            }
        }
        let vectors = self.vectors.lock().unwrap_or_else(PoisonError::into_inner);
        documents
            .iter()
            .map(|document| vectors.get(&document.id).cloned().flatten())
            .collect()
    }
}
