//! The base of the `execute` chain ([`dispatch`], [`dispatch_replaced`]): what the innermost
//! `execute` layer's `next` runs ([`INNERMOST`]), and what the full path runs when there is no
//! layer. With a layer's replacement token, the body watches a child of the caller's token that
//! the replacement also cancels, so either one stops it.

use std::future::{Future, poll_fn};
use std::pin::pin;

use tokio_util::sync::CancellationToken;

use crate::call::context::CallContext;
use crate::call::run::ToolRun;
use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::hooks::wrapper::{DispatchRequest, Innermost, LayerResult};
use crate::pipeline::failure::failed;
use crate::pipeline::phases;
use crate::result::ToolExecutionResult;

/// Dispatch as the innermost `execute` layer's `next` reaches it.
pub(crate) static INNERMOST: Innermost = Innermost {
    dispatch: dispatch_request,
    adopt: crate::pipeline::normalize::adopt,
};

/// Dispatches `request` with its token (the caller's, or a layer's replacement). Two futures
/// rather than one that can do both: the common one stays small.
fn dispatch_request(request: DispatchRequest) -> BoxFuture<'static, LayerResult> {
    match request.signal {
        None => Box::pin(async move { Ok(dispatch(&request.call).await) }),
        Some(replacement) => {
            Box::pin(async move { Ok(dispatch_replaced(&request.call, replacement).await) })
        }
    }
}

/// The base of the `execute` chain, with the caller's token: the pre-dispatch check again (a
/// layer may have waited), then [`phases::dispatch`].
pub(crate) async fn dispatch(call: &CallContext) -> ToolExecutionResult {
    if let Err(aborted) = phases::before_dispatch(call) {
        return aborted;
    }
    dispatch_through_journal(call, &call.run).await
}

/// Phase 9 ([`phases::dispatch`]), through the registry's call journal when it has one
/// (feature `durable`; the journaled future is boxed, so calls without one carry none of it).
#[cfg(feature = "durable")]
async fn dispatch_through_journal(call: &CallContext, run: &ToolRun) -> ToolExecutionResult {
    if let Some(durability) = &call.durability {
        return Box::pin(crate::pipeline::journal::dispatch(call, run, durability)).await;
    }
    phases::dispatch(call, run).await
}

/// Phase 9 ([`phases::dispatch`]): without the `durable` feature there is no journal.
#[cfg(not(feature = "durable"))]
#[inline(always)]
fn dispatch_through_journal<'a>(
    call: &'a CallContext,
    run: &'a ToolRun,
) -> impl Future<Output = ToolExecutionResult> + Send + 'a {
    phases::dispatch(call, run)
}

/// The base of the `execute` chain with a layer's `replacement` token, fused with the caller's.
pub(crate) async fn dispatch_replaced(
    call: &CallContext,
    replacement: CancellationToken,
) -> ToolExecutionResult {
    let execution = call.execution();
    let fused = execution.signal().child_token();
    if fused.is_cancelled() || replacement.is_cancelled() {
        return failed(execution, ToolError::aborted_before_dispatch());
    }
    let run = ToolRun::new(execution.clone(), Some(fused.clone()));
    let body = dispatch_through_journal(call, &run);
    watching(body, &replacement, &fused).await
}

/// Awaits `body`, cancelling `fused` as soon as `replacement` is cancelled, and keeps polling the
/// body until it finishes.
async fn watching<F: Future>(
    body: F,
    replacement: &CancellationToken,
    fused: &CancellationToken,
) -> F::Output {
    let mut body = pin!(body);
    let mut replaced = pin!(replacement.cancelled());
    let mut forwarded = false;
    poll_fn(|cx| {
        if !forwarded && replaced.as_mut().poll(cx).is_ready() {
            forwarded = true;
            fused.cancel();
        }
        body.as_mut().poll(cx)
    })
    .await
}
