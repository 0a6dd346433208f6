//! The base of the `execute` chain: runs the tool body for real.
//!
//! Resolves the tool again (it may have been disposed since the call started), refuses malformed
//! raw arguments, runs the body under a panic catcher and turns its value into a result through
//! the output contract. With a layer's replacement token, the body watches a child of the
//! caller's token that the replacement also cancels, so either one stops it. The body is never
//! raced or abandoned here: once started it runs to completion (a timeout layer outside may drop
//! it after its grace, which is that layer's decision).

use std::future::{Future, poll_fn};
use std::pin::{Pin, pin};
use std::task::{Context, Poll};

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::definition::ToolDefinition;
use crate::error::ToolError;
use crate::future::{BoxFuture, CatchUnwind};
use crate::pipeline::call::CallContext;
use crate::pipeline::failure::failed;
use crate::pipeline::output::rendered_success;
use crate::result::ToolExecutionResult;
use crate::run::ToolRun;

/// Dispatches with the caller's token.
pub(crate) async fn dispatch(call: &CallContext) -> ToolExecutionResult {
    let execution = call.execution();
    if execution.is_cancelled() {
        return failed(execution, ToolError::aborted_before_dispatch());
    }
    run_body(call, &call.run).await
}

/// Dispatches with a layer's `replacement` token, fused with the caller's.
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
    watching(run_body(call, &run), &replacement, &fused).await
}

/// Resolves the tool again and runs its body with `run`.
pub(crate) async fn run_body(call: &CallContext, run: &ToolRun) -> ToolExecutionResult {
    let execution = call.execution();
    let Some(definition) = call.resolve_now() else {
        return failed(execution, ToolError::unknown_tool(execution.name()));
    };
    if let Some(reason) = execution.malformed_arguments() {
        return failed(execution, ToolError::invalid_arguments_text(reason));
    }

    execution.mark_body_invoked();
    let outcome = CatchUnwind::new(Body::new(&**definition, run)).await;
    match outcome {
        Err(message) => {
            tracing::error!(
                tool = execution.name(),
                call_id = execution.call_id(),
                "tool body panicked: {message}"
            );
            failed(execution, ToolError::panicked(execution.name(), &message))
        }
        Ok(Err(error)) => failed(execution, error),
        Ok(Ok(_)) if run.is_cancelled() => failed(execution, ToolError::aborted()),
        Ok(Ok(value)) => rendered_success(&**definition, execution, value),
    }
}

/// A tool body that is started on its first poll, so that one panic catcher covers both the
/// definition's `execute` call and every poll of the future it returns.
struct Body<'a> {
    definition: &'a dyn ToolDefinition,
    run: &'a ToolRun,
    running: Option<BoxFuture<'a, Result<Value, ToolError>>>,
}

impl<'a> Body<'a> {
    fn new(definition: &'a dyn ToolDefinition, run: &'a ToolRun) -> Self {
        Self {
            definition,
            run,
            running: None,
        }
    }
}

impl Future for Body<'_> {
    type Output = Result<Value, ToolError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let Self {
            definition,
            run,
            running,
        } = &mut *self;
        running
            .get_or_insert_with(|| definition.execute(run.execution().arguments(), run))
            .as_mut()
            .poll(cx)
    }
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
