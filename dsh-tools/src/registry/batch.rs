//! The parallel batch runner: runs one model turn's tool calls.
//!
//! A call is parallel only when its tool's concurrency classifier says so
//! ([`ToolDefinition::is_concurrency_safe`](crate::ToolDefinition::is_concurrency_safe));
//! everything else (unknown tools, malformed arguments, a classifier that panics) is exclusive.
//! Consecutive parallel calls run concurrently, at most `max_concurrency` at a time; an exclusive
//! call waits for everything before it and runs alone. Results come back in the model's order,
//! and additional contexts are released only after every result of the batch, so a provider's
//! tool-call/tool-result adjacency is never broken.
//!
//! `batch/schedule.rs` holds that rule, once, for both batches: this one, with every call at
//! once, and `batch/feed.rs`'s, fed the calls as a streamed response finishes them.

mod feed;
mod outcome;
mod schedule;

pub use self::feed::{BatchFeed, FedBatch};
pub use self::outcome::BatchOutcome;
pub(crate) use self::outcome::ExecutionMode;

use self::schedule::Schedule;
use crate::call::execution::ToolExecutionInput;
use crate::future::catch_panic;
use crate::registry::tool_registry::ToolRegistry;

impl ToolRegistry {
    /// How `input` may be scheduled: parallel only when the tool it resolves to says its call
    /// is concurrency-safe.
    pub(crate) fn execution_mode(&self, input: &ToolExecutionInput) -> ExecutionMode {
        let Some(definition) = self.core().resolve(&input.name, input.agent()) else {
            return ExecutionMode::Exclusive;
        };
        if input.is_malformed() {
            return ExecutionMode::Exclusive;
        }
        match catch_panic(|| definition.is_concurrency_safe(&input.arguments)) {
            Ok(true) => ExecutionMode::Parallel,
            Ok(false) | Err(_) => ExecutionMode::Exclusive,
        }
    }

    /// Runs one turn's calls: consecutive parallel calls concurrently (at most
    /// `max_concurrency` at once; `0` counts as `1`), exclusive calls alone, results in order.
    /// To start calls while the model's response is still streaming, use
    /// [`batch_feed`](Self::batch_feed).
    pub async fn execute_batch(
        &self,
        inputs: Vec<ToolExecutionInput>,
        max_concurrency: usize,
    ) -> BatchOutcome {
        let mut schedule = Schedule::new(self.clone(), max_concurrency);
        for input in inputs {
            schedule.push(input);
        }
        std::future::poll_fn(|cx| schedule.poll_calls(cx)).await;
        schedule.into_outcome()
    }
}
