//! The parallel batch runner: runs one model turn's tool calls.
//!
//! A call is [`ExecutionMode::Parallel`] only when its tool's concurrency classifier says so
//! ([`ToolDefinition::is_concurrency_safe`](crate::ToolDefinition::is_concurrency_safe));
//! everything else (unknown tools, malformed arguments, a classifier that panics) is exclusive.
//! Consecutive parallel calls run concurrently, at most `max_concurrency` at a time; an exclusive
//! call waits for everything before it and runs alone. Results come back in the model's order,
//! and additional contexts are released only after every result of the batch, so a provider's
//! tool-call/tool-result adjacency is never broken.

use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::task::Poll;

use crate::call::execution::ToolExecutionInput;
use crate::content::ContentBlock;
use crate::future::{BoxFuture, catch_panic};
use crate::registry::tool_registry::ToolRegistry;
use crate::result::ToolExecutionResult;

/// How a call may be scheduled within a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExecutionMode {
    /// May run concurrently with neighbouring parallel calls.
    Parallel,
    /// Runs alone: everything before it finishes first, nothing after it starts before it ends.
    Exclusive,
}

/// What a batch produced: one result per call, in the model's order, and every additional
/// context of the batch, in the same order, to append after the results.
#[derive(Clone, Debug, PartialEq)]
pub struct BatchOutcome {
    /// The results (their own additional contexts moved into `additional_contexts`).
    pub results: Vec<ToolExecutionResult>,
    /// Context for the model's next request, released after all results.
    pub additional_contexts: Vec<ContentBlock>,
}

impl ToolRegistry {
    /// How `input` may be scheduled: parallel only when the tool it resolves to says its call
    /// is concurrency-safe.
    pub fn execution_mode(&self, input: &ToolExecutionInput) -> ExecutionMode {
        let Some(definition) = self.get(&input.name, input.agent.as_ref()) else {
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
    pub async fn execute_batch(
        &self,
        inputs: Vec<ToolExecutionInput>,
        max_concurrency: usize,
    ) -> BatchOutcome {
        let bound = max_concurrency.max(1);
        let mut results: Vec<Option<ToolExecutionResult>> = Vec::new();
        results.resize_with(inputs.len(), || None);
        let mut group: Vec<(usize, ToolExecutionInput)> = Vec::new();
        for (index, input) in inputs.into_iter().enumerate() {
            match self.execution_mode(&input) {
                ExecutionMode::Parallel => group.push((index, input)),
                ExecutionMode::Exclusive => {
                    self.run_concurrently(std::mem::take(&mut group), bound, &mut results)
                        .await;
                    results[index] = Some(self.execute(input).await);
                }
            }
        }
        self.run_concurrently(group, bound, &mut results).await;

        let mut additional_contexts = Vec::new();
        let results = results
            .into_iter()
            .flatten()
            .map(|mut result| {
                additional_contexts.extend(result.take_additional_contexts());
                result
            })
            .collect();
        BatchOutcome {
            results,
            additional_contexts,
        }
    }

    /// Runs `group` with at most `bound` calls in flight, storing each result at its index.
    async fn run_concurrently(
        &self,
        group: Vec<(usize, ToolExecutionInput)>,
        bound: usize,
        results: &mut [Option<ToolExecutionResult>],
    ) {
        let mut waiting = group.into_iter();
        let mut running: Vec<(usize, BoxFuture<'static, ToolExecutionResult>)> = Vec::new();
        loop {
            while running.len() < bound {
                let Some((index, input)) = waiting.next() else {
                    break;
                };
                running.push((index, Box::pin(self.execute(input))));
            }
            if running.is_empty() {
                return;
            }
            let (slot, index, result) = poll_fn(|cx| {
                for (slot, (index, call)) in running.iter_mut().enumerate() {
                    if let Poll::Ready(result) = Pin::new(call).poll(cx) {
                        return Poll::Ready((slot, *index, result));
                    }
                }
                Poll::Pending
            })
            .await;
            // The finished call; dropping a completed future releases its state.
            drop(running.swap_remove(slot));
            results[index] = Some(result);
        }
    }
}
