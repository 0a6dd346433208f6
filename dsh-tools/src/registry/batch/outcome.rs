//! What a batch is made of and makes: each call's [`ExecutionMode`] and the [`BatchOutcome`].

use crate::content::ContentBlock;
use crate::result::ToolExecutionResult;

/// How a call may be scheduled within a batch: the scheduler's reading of a tool's
/// [`is_concurrency_safe`](crate::ToolDefinition::is_concurrency_safe), which users ask directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ExecutionMode {
    /// May run concurrently with neighbouring parallel calls.
    Parallel,
    /// Runs alone: everything before it finishes first, nothing after it starts before it ends.
    Exclusive,
}

/// What a batch produced: one result per call, in the model's order, and every additional
/// context of the batch, in the same order, to append after the results.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct BatchOutcome {
    /// The results (their own additional contexts moved into `additional_contexts`).
    pub results: Vec<ToolExecutionResult>,
    /// Context for the model's next request, released after all results.
    pub additional_contexts: Vec<ContentBlock>,
}
