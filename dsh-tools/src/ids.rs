//! The identities of calls and agents: the token the registry mints for each execution and the
//! name of an agent scope. Plain data, so results, events and cards can carry them.

use std::cell::Cell;
use std::fmt;
use std::num::NonZeroU64;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The opaque identity the registry assigns to one execution.
///
/// Only comparable: a nested call carries its enclosing call's token as `parent`, so observers can
/// relate the two without holding the live execution.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ToolExecutionToken(NonZeroU64);

impl ToolExecutionToken {
    /// Mints a token no other execution in this process has.
    #[inline]
    pub(crate) fn mint() -> Self {
        // Each thread reserves a block of ids at a time, so minting is a thread-local increment
        // rather than a contended atomic on every call.
        const BLOCK: u64 = 1024;
        static NEXT_BLOCK: AtomicU64 = AtomicU64::new(1);
        thread_local! {
            static RANGE: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
        }
        let raw = RANGE.with(|range| {
            let (mut next, mut end) = range.get();
            if next == end {
                next = NEXT_BLOCK.fetch_add(BLOCK, Ordering::Relaxed);
                end = next + BLOCK;
            }
            range.set((next + 1, end));
            next
        });
        Self(NonZeroU64::new(raw).unwrap_or(NonZeroU64::MIN))
    }
}

impl fmt::Debug for ToolExecutionToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ToolExecutionToken(#{})", self.0)
    }
}

/// The name of an agent scope. Calls made on an agent's behalf carry it, and the registry resolves
/// tools, hooks, guards and restrictions through that scope's chain. Made from its text with
/// `From` (`AgentId::from("planner")`, or `"planner".into()`).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AgentId(Arc<str>);

impl AgentId {
    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for AgentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AgentId({:?})", &*self.0)
    }
}

impl fmt::Display for AgentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for AgentId {
    fn from(id: &str) -> Self {
        Self(Arc::from(id))
    }
}

impl From<String> for AgentId {
    fn from(id: String) -> Self {
        Self(Arc::from(id))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::ToolExecutionToken;

    #[test]
    fn tokens_minted_on_many_threads_are_all_distinct() {
        let per_thread = 3_000;
        let threads: Vec<_> = (0..4)
            .map(|_| {
                std::thread::spawn(move || {
                    (0..per_thread)
                        .map(|_| ToolExecutionToken::mint())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut seen = HashSet::new();
        for thread in threads {
            for token in thread.join().expect("minting does not panic") {
                assert!(seen.insert(token), "{token:?} minted twice");
            }
        }
        assert_eq!(seen.len(), 4 * per_thread);
    }
}
