//! [`TimeoutPolicy`]: an `execute` layer that gives everything inside it — inner layers, retries,
//! the dispatch — one budget of its own.
//!
//! Each tool's declared budget is enforced by the registry without any layer (innermost, around
//! the body only; see [`CallLimits`](crate::policy::CallLimits)). This layer is the second, outer budget
//! a user chooses: a cap on a whole call with its retries, or a budget for a scope's calls
//! (install it with [`ToolScope::wrap`](crate::ToolScope::wrap)). Both deadlines work the same
//! way: when the budget runs out the layer cancels the token of what it wraps (cooperative) and
//! waits a bounded grace for it to wind down; after the grace it drops the inner future, so no
//! call outlives the budget by more than the grace. The call then fails with `TOOL_TIMEOUT` — but
//! only when this layer's own deadline fired first: if the caller (or a deadline further out)
//! cancelled before, the inner result passes through unchanged.
//!
//! Uses tokio's timer: outside a tokio runtime with time enabled, calls fail with
//! `TIMER_UNAVAILABLE`.

use std::pin::pin;
use std::time::Duration;

use tokio::time::Instant;

use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::hooks::wrapper::{DispatchRequest, ExecuteLayer, LayerResult, Next};
use crate::limits::CallLimits;
use crate::pipeline::deadline::{first, instant_after, start_timer};
use crate::result::ToolExecutionResult;

/// The outer timeout layer: every call through it gets `budget_ms`. Install it with
/// [`ToolScope::wrap`](crate::ToolScope::wrap); layers registered before it (outer ones)
/// see its `TOOL_TIMEOUT` result.
///
/// ```
/// use dsh_tools::{ToolRegistry, policy::TimeoutPolicy};
///
/// let registry = ToolRegistry::new();
/// // No call, retries included, takes more than two minutes (plus the grace).
/// let _outer = registry.wrap(TimeoutPolicy::new(120_000));
/// ```
///
/// A plain value: `TimeoutPolicy { grace: Duration::ZERO, ..TimeoutPolicy::new(500) }` drops
/// what it wraps at the deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeoutPolicy {
    /// The budget of every call through the layer, in milliseconds. Zero times every call out
    /// at once.
    pub budget_ms: u64,
    /// The grace after the deadline before the inner future is dropped, for what the layer
    /// wraps to keep running after its token was cancelled.
    pub grace: Duration,
}

impl TimeoutPolicy {
    /// A layer giving every call `budget_ms` milliseconds, with the registry's default grace
    /// (one second, as [`CallLimits::default`]'s) for what the layer wraps to keep running after
    /// its token was cancelled. A zero budget times every call out at once.
    pub const fn new(budget_ms: u64) -> Self {
        Self {
            budget_ms,
            grace: CallLimits::DEFAULT_TIMEOUT_GRACE,
        }
    }
}

impl ExecuteLayer for TimeoutPolicy {
    fn call(&self, mut request: DispatchRequest, next: Next) -> BoxFuture<'static, LayerResult> {
        let Self { budget_ms, grace } = *self;
        Box::pin(async move {
            let Some(timer) = start_timer(Duration::from_millis(budget_ms)) else {
                return Ok(ToolExecutionResult::failure(ToolError::timer_unavailable(
                    budget_ms,
                )));
            };
            let mut timer = pin!(timer);
            let outer = request.signal().clone();
            let deadline = outer.child_token();
            request.signal = Some(deadline.clone());
            let mut inner = next.run(request);
            if let Some(result) = first(&mut inner, timer.as_mut()).await {
                // A result that arrives after the deadline (something blocked its thread past
                // it) is late all the same.
                if Instant::now() > timer.deadline() && !outer.is_cancelled() {
                    return Ok(ToolExecutionResult::failure(ToolError::timed_out(
                        budget_ms,
                    )));
                }
                return result;
            }
            // Ours only if nobody outside had cancelled already: then their outcome stands.
            let ours = !outer.is_cancelled();
            deadline.cancel();
            timer.as_mut().reset(instant_after(grace));
            let settled = first(&mut inner, timer.as_mut()).await;
            drop(inner);
            match (ours, settled) {
                (true, _) => Ok(ToolExecutionResult::failure(ToolError::timed_out(
                    budget_ms,
                ))),
                (false, Some(result)) => result,
                (false, None) => Ok(ToolExecutionResult::failure(ToolError::aborted())),
            }
        })
    }
}
