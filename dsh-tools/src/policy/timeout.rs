//! [`TimeoutPolicy`]: an `execute` layer that gives each call the budget its definition declares
//! ([`ToolDefinition::timeout_ms`](crate::ToolDefinition::timeout_ms)).
//!
//! When the budget runs out, the layer cancels the body's token (cooperative) and waits a bounded
//! grace for the body to wind down; after the grace it drops the body's future, so no call
//! outlives its budget by more than the grace. The call then fails with `TOOL_TIMEOUT` — but only
//! when this layer's own deadline fired first: if the caller (or an outer deadline) cancelled
//! before, the result passes through unchanged (`ABORTED`, or the outer layer's timeout).
//!
//! Uses tokio's timer: the runtime must have time enabled.

use std::future::{Future, poll_fn};
use std::pin::{Pin, pin};
use std::task::Poll;
use std::time::Duration;

use crate::error::ToolError;
use crate::future::BoxFuture;
use crate::pipeline::wrapper::{DispatchRequest, ExecuteLayer, LayerResult, Next};
use crate::result::ToolExecutionResult;

/// The timeout layer. Install it with [`ToolRegistry::wrap`](crate::ToolRegistry::wrap); layers
/// registered before it (outer ones) see its `TOOL_TIMEOUT` result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeoutPolicy {
    grace: Duration,
}

impl TimeoutPolicy {
    /// How long a body may keep running after its token was cancelled, unless changed.
    pub const DEFAULT_GRACE: Duration = Duration::from_secs(1);

    /// The policy with [`DEFAULT_GRACE`](Self::DEFAULT_GRACE).
    pub fn new() -> Self {
        Self {
            grace: Self::DEFAULT_GRACE,
        }
    }

    /// Sets the grace after the deadline before the body's future is dropped.
    #[must_use]
    pub fn with_grace(mut self, grace: Duration) -> Self {
        self.grace = grace;
        self
    }

    /// The grace.
    pub fn grace(&self) -> Duration {
        self.grace
    }
}

impl Default for TimeoutPolicy {
    fn default() -> Self {
        Self::new()
    }
}

impl ExecuteLayer for TimeoutPolicy {
    fn call(&self, mut request: DispatchRequest, next: Next) -> BoxFuture<'static, LayerResult> {
        let Some(budget_ms) = request
            .definition()
            .and_then(|definition| definition.timeout_ms())
        else {
            return next.run(request);
        };
        let grace = self.grace;
        Box::pin(async move {
            let outer = request.signal().clone();
            let deadline = outer.child_token();
            request.set_signal(deadline.clone());
            let mut inner = next.run(request);
            let budget = Duration::from_millis(budget_ms);
            if let Some(result) = settle_within(&mut inner, budget).await {
                return result;
            }
            // Ours only if nobody outside had cancelled already: then their outcome stands.
            let ours = !outer.is_cancelled();
            deadline.cancel();
            let settled = settle_within(&mut inner, grace).await;
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

/// Polls `future` until it finishes or `limit` passes (`None`).
async fn settle_within<F: Future + Unpin>(future: &mut F, limit: Duration) -> Option<F::Output> {
    let mut timer = pin!(tokio::time::sleep(limit));
    poll_fn(|cx| {
        if let Poll::Ready(output) = Pin::new(&mut *future).poll(cx) {
            return Poll::Ready(Some(output));
        }
        timer.as_mut().poll(cx).map(|()| None)
    })
    .await
}
