//! The body of a call with a time budget, run under its deadline: the registry's default
//! timeout enforcement, innermost (inside every `execute` layer, around the body only).
//!
//! At the deadline the body's token is cancelled (cooperative); the body then has the grace of
//! the registry's [`CallLimits`](crate::policy::CallLimits) to wind down, after which its future is
//! dropped, so no call outlives its budget by more than the grace. The call fails with
//! `TOOL_TIMEOUT` when this deadline passed first, including when the body's value arrives after
//! it (a body that blocked its thread past the deadline is not a success). When the caller, or a
//! layer's token outside, cancelled before the deadline, their outcome passes through.
//!
//! What cannot be interrupted: a body running on the blocking pool (`#[tool(blocking)]`) keeps
//! its thread until it returns, though the call no longer waits for it; an `async` body that
//! blocks its executor thread cannot be preempted at all, and the call returns when it yields.

use std::future::{Future, poll_fn};
use std::pin::{Pin, pin};
use std::task::{Context, Poll};
use std::time::Duration;

use serde_json::Value;
use tokio::time::{Instant, Sleep};
use tokio_util::sync::{CancellationToken, WaitForCancellationFuture};

use crate::call::definition::ToolDefinition;
use crate::call::run::ToolRun;
use crate::errors::tool_error::ToolError;
use crate::future::{BoxFuture, CatchUnwind, catch_panic};
use crate::pipeline::body::{BodyOutcome, start_body};

/// Runs `definition`'s body for `run` within `budget_ms`, then the grace (`arguments` as for
/// [`start_body`]). The outcome is the
/// body's, or the error that replaces it (`TOOL_TIMEOUT`, `TIMER_UNAVAILABLE`, `ABORTED`); the
/// caller turns it into a result with `run`, as for any body.
///
/// Boxed: the timer and the second token live only in calls that have a budget, so the future of
/// every other call stays as small as it was.
pub(crate) fn run_within<'a>(
    definition: &'a dyn ToolDefinition,
    run: &'a ToolRun,
    budget_ms: u64,
    mut arguments: Option<Value>,
) -> BoxFuture<'a, BodyOutcome> {
    Box::pin(async move {
        let execution = run.execution();
        let Some(timer) = start_timer(Duration::from_millis(budget_ms)) else {
            return Ok(Err(ToolError::timer_unavailable(budget_ms)));
        };
        let mut timer = pin!(timer);
        let grace = definition
            .options()
            .timeout_grace
            .unwrap_or_else(|| execution.host().limits().timeout_grace());
        // The body watches a token of its own, which the deadline cancels; cancellation of the
        // token outside (the caller's, or a layer's) is forwarded to it while the body runs, so
        // the outer token still tells who cancelled first. A child token would do both, but
        // linking one into the caller's token tree costs more than most bodies take.
        let body_run = ToolRun::new(execution.clone(), Some(CancellationToken::new()));
        let deadline = body_run.signal();
        let mut body = CatchUnwind::new(start_body(definition, &body_run, &mut arguments)?);
        let mut outer = Forward::new(run, deadline);
        if let Some(outcome) = first_forwarding(&mut body, timer.as_mut(), &mut outer).await {
            // A value that arrives after the deadline (the body blocked its thread past it) is
            // late all the same.
            if Instant::now() > timer.deadline() && !run.is_cancelled() {
                return Ok(Err(ToolError::timed_out(budget_ms)));
            }
            return outcome;
        }
        // Ours only if nobody outside had cancelled already: then their outcome stands.
        let ours = !run.is_cancelled();
        deadline.cancel();
        timer.as_mut().reset(instant_after(grace));
        let settled = first(&mut body, timer.as_mut()).await;
        drop(body);
        match (ours, settled) {
            (true, _) => Ok(Err(ToolError::timed_out(budget_ms))),
            (false, Some(outcome)) => outcome,
            (false, None) => Ok(Err(ToolError::aborted())),
        }
    })
}

/// Forwards the cancellation of the token outside the body (the caller's, or a layer's) to the
/// body's own token. The outer token is watched only once the body has had to wait: most bodies
/// finish at their first poll, and watching costs a waiter (and, for a caller that gave no token,
/// the token itself).
struct Forward<'a> {
    run: &'a ToolRun,
    deadline: &'a CancellationToken,
    watch: Option<Pin<Box<WaitForCancellationFuture<'a>>>>,
}

impl<'a> Forward<'a> {
    fn new(run: &'a ToolRun, deadline: &'a CancellationToken) -> Self {
        Self {
            run,
            deadline,
            watch: None,
        }
    }

    /// Watches the outer token; cancels the body's once the outer one is cancelled.
    fn poll(&mut self, cx: &mut Context<'_>) {
        if self.deadline.is_cancelled() {
            return;
        }
        let run = self.run;
        let watch = self
            .watch
            .get_or_insert_with(|| Box::pin(run.signal().cancelled()));
        if watch.as_mut().poll(cx).is_ready() {
            self.deadline.cancel();
            self.watch = None;
        }
    }
}

/// [`first`], forwarding the outer token's cancellation to the body's while the body waits.
async fn first_forwarding<F: Future + Unpin>(
    future: &mut F,
    mut timer: Pin<&mut Sleep>,
    outer: &mut Forward<'_>,
) -> Option<F::Output> {
    poll_fn(|cx| {
        if let Poll::Ready(output) = Pin::new(&mut *future).poll(cx) {
            return Poll::Ready(Some(output));
        }
        outer.poll(cx);
        timer.as_mut().poll(cx).map(|()| None)
    })
    .await
}

/// A timer of `limit` on tokio's clock; `None` outside a tokio runtime or in one without time
/// enabled (where tokio would panic).
pub(crate) fn start_timer(limit: Duration) -> Option<Sleep> {
    tokio::runtime::Handle::try_current().ok()?;
    catch_panic(|| tokio::time::sleep(limit)).ok()
}

/// `now + after`, or a point decades away when that overflows.
pub(crate) fn instant_after(after: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(after)
        .unwrap_or_else(|| now + Duration::from_secs(30 * 365 * 86_400))
}

/// Polls `future` until it finishes (`Some`) or `timer` fires first (`None`). The future is
/// polled first, so one that is ready wins a tie.
pub(crate) async fn first<F: Future + Unpin>(
    future: &mut F,
    mut timer: Pin<&mut Sleep>,
) -> Option<F::Output> {
    poll_fn(|cx| {
        if let Poll::Ready(output) = Pin::new(&mut *future).poll(cx) {
            return Poll::Ready(Some(output));
        }
        timer.as_mut().poll(cx).map(|()| None)
    })
    .await
}
