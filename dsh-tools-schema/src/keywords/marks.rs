//! What `unevaluatedProperties` and `unevaluatedItems` read: which properties (by position in
//! the object) or items of one value the schemas applied to it in place have evaluated.
//!
//! One bit per property or item; up to 64 fit in one word, so the objects and arrays of most
//! payloads are marked without allocating. This file owns only the bit set, not when a schema
//! marks.

use serde_json::Value;

/// Bits in a word of [`Marks`].
const WORD: usize = u64::BITS as usize;

/// The evaluated properties or items of one value (an object's or an array's; nothing for
/// other values).
pub(super) struct Marks {
    words: Words,
}

enum Words {
    /// A value of at most 64 properties or items.
    Inline(u64),
    Heap(Box<[u64]>),
}

impl Marks {
    /// None marked yet, for `value`'s properties or items.
    pub(super) fn for_value(value: &Value) -> Self {
        let len = match value {
            Value::Object(map) => map.len(),
            Value::Array(items) => items.len(),
            _ => 0,
        };
        let words = if len <= WORD {
            Words::Inline(0)
        } else {
            Words::Heap(vec![0; len.div_ceil(WORD)].into_boxed_slice())
        };
        Self { words }
    }

    fn words(&self) -> &[u64] {
        match &self.words {
            Words::Inline(word) => std::slice::from_ref(word),
            Words::Heap(words) => words,
        }
    }

    fn words_mut(&mut self) -> &mut [u64] {
        match &mut self.words {
            Words::Inline(word) => std::slice::from_mut(word),
            Words::Heap(words) => words,
        }
    }

    /// Marks the property or item at `index` evaluated.
    pub(super) fn mark(&mut self, index: usize) {
        if let Some(word) = self.words_mut().get_mut(index / WORD) {
            *word |= 1 << (index % WORD);
        }
    }

    /// Whether the property or item at `index` was evaluated.
    pub(super) fn is_marked(&self, index: usize) -> bool {
        self.words()
            .get(index / WORD)
            .is_some_and(|word| word & (1 << (index % WORD)) != 0)
    }

    /// Marks what `other`, of the same value, marked.
    pub(super) fn merge(&mut self, other: &Marks) {
        for (word, other) in self.words_mut().iter_mut().zip(other.words()) {
            *word |= *other;
        }
    }

    /// Marks every property or item (`unevaluated*` evaluated the rest).
    pub(super) fn mark_all(&mut self) {
        self.words_mut().fill(u64::MAX);
    }
}
