//! [`ToolEmbedder`]: ranking tools by meaning with the embedding model an application already
//! runs, fused with the keyword ranking ([`HybridSearch`]).
//!
//! Plain algorithms over vectors: the trait the application implements, cosine similarity, and
//! the fusion of two rankings. Which tools are embedded when, and where the vectors are kept, is
//! the store's concern (`store/search.rs`).

use std::sync::Arc;

/// An embedding model, as the application runs it: turns texts into vectors whose cosine
/// similarity says how close their meanings are. The registry embeds each deferred tool's name
/// and description once (on the first search that sees it, in batches) and each keyword query,
/// then fuses the two rankings (see [`HybridSearch`]).
///
/// `embed` is called on the thread that searches (inside a `tool_search` call, on the async
/// runtime's thread), never under the registry's lock; a model reached over the network should
/// answer from a cache or be called through a blocking-aware adapter.
///
/// ```
/// use dsh_tools::registry::{HybridSearch, ToolEmbedder};
///
/// /// A stand-in for a real model: counts letters (a real one calls the model here).
/// struct LetterCounts;
///
/// impl ToolEmbedder for LetterCounts {
///     fn embed(&self, texts: &[&str]) -> Vec<Vec<f32>> {
///         texts
///             .iter()
///             .map(|text| {
///                 let mut counts = vec![0.0; 26];
///                 for byte in text.bytes().filter(u8::is_ascii_lowercase) {
///                     counts[usize::from(byte - b'a')] += 1.0;
///                 }
///                 counts
///             })
///             .collect()
///     }
/// }
///
/// let registry = dsh_tools::ToolRegistry::new();
/// registry.set_tool_embedder(Some(HybridSearch::new(LetterCounts, 0.5)));
/// ```
pub trait ToolEmbedder: Send + Sync + 'static {
    /// One vector per text, in the order given, all of one length. A vector of another length
    /// (or an answer with fewer vectors) leaves its text ranked by keywords alone.
    fn embed(&self, texts: &[&str]) -> Vec<Vec<f32>>;
}

/// How keyword and embedding rankings are fused: each tool scores
/// `w / (k + keyword rank) + (1 − w) / (k + embedding rank)` (reciprocal-rank fusion, `k` =
/// 60), so neither score needs calibrating against the other; a tool no keyword matched gets
/// only the embedding half.
#[derive(Clone)]
pub struct HybridSearch {
    pub(crate) embedder: Arc<dyn ToolEmbedder>,
    pub(crate) keyword_weight: f32,
}

impl std::fmt::Debug for HybridSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HybridSearch")
            .field("keyword_weight", &self.keyword_weight)
            .finish_non_exhaustive()
    }
}

impl HybridSearch {
    /// The weight of the keyword ranking for a NaN: both rankings count the same.
    const EVEN_KEYWORD_WEIGHT: f32 = 0.5;

    /// Hybrid search over `embedder`, the keyword ranking weighted `keyword_weight` (`w`, in
    /// `0.0..=1.0`, clamped; `1.0`: keywords only, `0.0`: embeddings only, 0.5: both the same,
    /// as for a NaN).
    pub fn new(embedder: impl ToolEmbedder, keyword_weight: f32) -> Self {
        Self {
            embedder: Arc::new(embedder),
            keyword_weight: if keyword_weight.is_nan() {
                Self::EVEN_KEYWORD_WEIGHT
            } else {
                keyword_weight.clamp(0.0, 1.0)
            },
        }
    }
}

/// The reciprocal-rank fusion constant.
const FUSION_K: f32 = 60.0;

/// The cosine similarity of two vectors; `None` when their lengths differ or one is zero.
pub(crate) fn cosine(a: &[f32], b: &[f32]) -> Option<f32> {
    if a.len() != b.len() {
        return None;
    }
    let (mut dot, mut norm_a, mut norm_b) = (0.0_f32, 0.0_f32, 0.0_f32);
    for (x, y) in a.iter().zip(b) {
        dot += x * y;
        norm_a += x * x;
        norm_b += y * y;
    }
    let norm = (norm_a * norm_b).sqrt();
    (norm > 0.0).then(|| dot / norm)
}

/// The best `limit` documents by the fusion of `keyword` scores (zero: no match) and
/// `similarity` (`None`: no vector), best first; ties by `tie` (a total order of positions: the
/// documents' names, so that a ranking does not depend on where a document sits in its index).
pub(crate) fn fuse(
    keyword: &[f32],
    similarity: &[Option<f32>],
    keyword_weight: f32,
    limit: usize,
    tie: impl Fn(usize, usize) -> std::cmp::Ordering,
) -> Vec<usize> {
    let ranks = |values: Vec<(usize, f32)>| {
        let mut values = values;
        values.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then_with(|| tie(a.0, b.0)));
        values
    };
    let mut fused = vec![0.0_f32; keyword.len()];
    let keyword_ranked = ranks(
        keyword
            .iter()
            .enumerate()
            .filter(|(_, score)| **score > 0.0)
            .map(|(position, score)| (position, *score))
            .collect(),
    );
    for (rank, (position, _)) in keyword_ranked.into_iter().enumerate() {
        fused[position] += keyword_weight / (FUSION_K + rank as f32 + 1.0);
    }
    let similarity_ranked = ranks(
        similarity
            .iter()
            .enumerate()
            .filter_map(|(position, value)| value.map(|value| (position, value)))
            .collect(),
    );
    for (rank, (position, _)) in similarity_ranked.into_iter().enumerate() {
        fused[position] += (1.0 - keyword_weight) / (FUSION_K + rank as f32 + 1.0);
    }
    let mut found: Vec<usize> = (0..fused.len()).filter(|&p| fused[p] > 0.0).collect();
    found.sort_unstable_by(|a, b| fused[*b].total_cmp(&fused[*a]).then_with(|| tie(*a, *b)));
    found.truncate(limit);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosine_compares_directions_and_refuses_mismatched_lengths() {
        assert_eq!(cosine(&[1.0, 0.0], &[2.0, 0.0]), Some(1.0));
        assert_eq!(cosine(&[1.0, 0.0], &[0.0, 3.0]), Some(0.0));
        assert_eq!(cosine(&[1.0], &[1.0, 0.0]), None);
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 0.0]), None);
    }

    #[test]
    fn fusion_weighs_both_rankings_and_keeps_embedding_only_finds() {
        let keyword = [3.0, 0.0, 1.0];
        let similarity = [Some(0.1), Some(0.9), None];
        let fuse = |weight, limit| fuse(&keyword, &similarity, weight, limit, |a, b| a.cmp(&b));
        // Keywords only: 0 then 2; embeddings only: 1 then 0.
        assert_eq!(fuse(1.0, 3), [0, 2]);
        assert_eq!(fuse(0.0, 3), [1, 0]);
        // Both: 0 is first by keywords and second by meaning.
        assert_eq!(fuse(0.5, 3), [0, 1, 2]);
        assert_eq!(fuse(0.5, 1), [0]);
    }

    #[test]
    fn fusion_breaks_ties_by_the_order_given() {
        // Equal scores everywhere: the tie order decides, whatever the positions.
        let keyword = [1.0, 1.0, 1.0];
        let similarity = [None, None, None];
        let reversed = fuse(&keyword, &similarity, 1.0, 3, |a, b| b.cmp(&a));
        assert_eq!(reversed, [2, 1, 0]);
    }
}
