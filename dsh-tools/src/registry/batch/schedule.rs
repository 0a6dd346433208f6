//! The batch schedule: which of a turn's calls may start now, given those running and those
//! still to come. Shared by [`execute_batch`](crate::ToolRegistry::execute_batch), which has
//! every call at once, and the [`BatchFeed`](crate::registry::BatchFeed) batch, which gets them
//! as the model finishes writing them.
//!
//! The rule is the same for both: calls start in the model's order; a parallel call starts as
//! soon as no exclusive call runs and fewer than the bound are in flight; an exclusive call
//! starts once everything before it has finished, and nothing after it starts until it has.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::call::execution::ToolExecutionInput;
use crate::future::BoxFuture;
use crate::registry::batch::outcome::{BatchOutcome, ExecutionMode};
use crate::registry::tool_registry::ToolRegistry;
use crate::result::ToolExecutionResult;

/// One call that has started.
struct Running {
    position: usize,
    exclusive: bool,
    call: BoxFuture<'static, ToolExecutionResult>,
}

/// A batch in progress: the calls waiting their turn (in the model's order), those running, and
/// the results so far by position.
pub(crate) struct Schedule {
    registry: ToolRegistry,
    bound: usize,
    waiting: VecDeque<(usize, ExecutionMode, ToolExecutionInput)>,
    running: Vec<Running>,
    results: Vec<Option<ToolExecutionResult>>,
}

impl Schedule {
    /// An empty batch running at most `max_concurrency` parallel calls at once (`0` counts as
    /// `1`).
    pub(crate) fn new(registry: ToolRegistry, max_concurrency: usize) -> Self {
        Self {
            registry,
            bound: max_concurrency.max(1),
            waiting: VecDeque::new(),
            running: Vec::new(),
            results: Vec::new(),
        }
    }

    /// The next call in the model's order; it starts as soon as the rule lets it.
    pub(crate) fn push(&mut self, input: ToolExecutionInput) {
        let position = self.results.len();
        self.results.push(None);
        let mode = self.registry.execution_mode(&input);
        self.waiting.push_back((position, mode, input));
        self.start_what_can();
    }

    /// Whether every call pushed so far has finished.
    pub(crate) fn is_idle(&self) -> bool {
        self.waiting.is_empty() && self.running.is_empty()
    }

    /// Polls the running calls, storing each finished result and starting what may start after
    /// it; ready once none is left running or waiting.
    pub(crate) fn poll_calls(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        loop {
            let finished = self
                .running
                .iter_mut()
                .enumerate()
                .find_map(
                    |(slot, running)| match Pin::new(&mut running.call).poll(cx) {
                        Poll::Ready(result) => Some((slot, result)),
                        Poll::Pending => None,
                    },
                );
            let Some((slot, result)) = finished else {
                return if self.is_idle() {
                    Poll::Ready(())
                } else {
                    Poll::Pending
                };
            };
            // Dropping the completed future releases its state at once.
            let done = self.running.swap_remove(slot);
            self.results[done.position] = Some(result);
            self.start_what_can();
        }
    }

    /// Starts the waiting calls the rule lets start, in order, stopping at the first that must
    /// wait.
    fn start_what_can(&mut self) {
        while let Some((_, mode, _)) = self.waiting.front() {
            let may_start = match mode {
                ExecutionMode::Parallel => {
                    self.running.len() < self.bound
                        && !self.running.iter().any(|running| running.exclusive)
                }
                ExecutionMode::Exclusive => self.running.is_empty(),
            };
            if !may_start {
                return;
            }
            let Some((position, mode, input)) = self.waiting.pop_front() else {
                return;
            };
            self.running.push(Running {
                position,
                exclusive: mode == ExecutionMode::Exclusive,
                call: Box::pin(self.registry.execute(input)),
            });
        }
    }

    /// The outcome, once idle: results in the model's order, their additional contexts moved
    /// after them.
    pub(crate) fn into_outcome(self) -> BatchOutcome {
        let mut additional_contexts = Vec::new();
        let results = self
            .results
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
}
