//! Random but repeatable tool texts for the search index's differential tests: a small
//! deterministic generator and the words it picks from, shared by the index's own tests and the
//! registry's (`store/search_cache.rs`).

/// A small deterministic generator (xorshift), so the sequences the tests make are random but
/// the same on every run.
pub(crate) struct Random(pub(crate) u64);

impl Random {
    /// A number below `bound`.
    pub(crate) fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }

    /// One of [`WORDS`].
    pub(crate) fn word(&mut self) -> &'static str {
        WORDS[self.below(WORDS.len())]
    }
}

/// The words tool texts are made of: few enough that documents share terms.
pub(crate) const WORDS: &[&str] = &[
    "send",
    "email",
    "read",
    "file",
    "list",
    "events",
    "calendar",
    "delete",
    "booking",
    "hotel",
    "invoice",
    "customer",
    "scale",
    "deployment",
    "weather",
    "city",
    "create",
    "update",
    "message",
    "channel",
    "issue",
    "ticket",
    "query",
    "table",
];
