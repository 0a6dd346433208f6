//! The base of the `execute` chain: runs the tool body for real.
//!
//! Fuses the caller's token with a layer's replacement, resolves the tool again (it may have been
//! disposed since the call started), refuses malformed raw arguments, runs the body under a panic
//! catcher and turns its value into a result through the output contract. The body is never
//! raced or abandoned here: once started it runs to completion (a timeout layer outside may drop
//! it after its grace, which is that layer's decision).

use std::future::{Future, poll_fn};
use std::pin::pin;

use tokio_util::sync::CancellationToken;

use crate::error::ToolError;
use crate::future::{CatchUnwind, catch_panic};
use crate::pipeline::call::CallContext;
use crate::pipeline::output::rendered_success;
use crate::result::ToolExecutionResult;
use crate::run::ToolRun;

/// Runs the body of `call`; `signal` is a layer's replacement for the body's token.
pub(crate) async fn dispatch(
    call: &CallContext,
    signal: Option<CancellationToken>,
) -> ToolExecutionResult {
    let execution = call.execution();
    let token = execution.token();
    let failed = |error: ToolError| ToolExecutionResult::failure(error).stamped(token);

    // With a replacement, the body watches a child of the caller's token that the replacement
    // also cancels: either one stops the body.
    let fused = signal.map(|replacement| (execution.signal().child_token(), replacement));
    let cancelled = match &fused {
        Some((body, replacement)) => body.is_cancelled() || replacement.is_cancelled(),
        None => execution.is_cancelled(),
    };
    if cancelled {
        return failed(ToolError::aborted_before_dispatch());
    }
    let Some(definition) = call.resolve_now() else {
        return failed(ToolError::unknown_tool(execution.name()));
    };
    if let Some(reason) = execution.malformed_arguments() {
        return failed(ToolError::invalid_arguments_text(reason));
    }

    execution.mark_body_invoked();
    let replaced_run;
    let run = match &fused {
        None => &call.run,
        Some((body, _)) => {
            replaced_run = ToolRun::new(execution.clone(), Some(body.clone()));
            &replaced_run
        }
    };
    let outcome = match catch_panic(|| definition.execute(execution.arguments(), run)) {
        Ok(body) => match &fused {
            None => CatchUnwind::new(body).await,
            // Boxed: the watcher's state would otherwise enlarge every dispatch's future.
            Some((body_signal, replacement)) => {
                Box::pin(watching(CatchUnwind::new(body), replacement, body_signal)).await
            }
        },
        Err(message) => Err(message),
    };
    match outcome {
        Err(message) => {
            tracing::error!(
                tool = execution.name(),
                call_id = execution.call_id(),
                "tool body panicked: {message}"
            );
            failed(ToolError::panicked(execution.name(), &message))
        }
        Ok(Err(error)) => failed(error),
        Ok(Ok(_)) if run.is_cancelled() => failed(ToolError::aborted()),
        Ok(Ok(value)) => rendered_success(&**definition, execution, value),
    }
}

/// Awaits `body`, cancelling `fused` as soon as `replacement` is cancelled, and keeps polling the
/// body until it finishes.
async fn watching<F: Future + Unpin>(
    mut body: F,
    replacement: &CancellationToken,
    fused: &CancellationToken,
) -> F::Output {
    let mut replaced = pin!(replacement.cancelled());
    let mut forwarded = false;
    poll_fn(|cx| {
        if !forwarded && replaced.as_mut().poll(cx).is_ready() {
            forwarded = true;
            fused.cancel();
        }
        std::pin::Pin::new(&mut body).poll(cx)
    })
    .await
}
