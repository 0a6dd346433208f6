//! Synchronous tool bodies (`#[tool(blocking)]`, [`FnToolBuilder::blocking_handler`]): run on
//! tokio's blocking pool, so a body that blocks its thread (file or process I/O, a sync client)
//! never stalls the executor, and a deadline can end the call while the thread finishes.
//!
//! What cannot be interrupted: the thread itself. Past its deadline and grace the call returns
//! `TOOL_TIMEOUT` and the body's result is discarded, but the thread runs until the body returns;
//! a body that can stop early watches [`ToolRun::is_cancelled`](crate::ToolRun::is_cancelled),
//! which turns true at the deadline or when the caller cancels. A panic in the body is reported
//! like any body's panic (`TOOL_PANICKED`).
//!
//! [`FnToolBuilder::blocking_handler`]: crate::call::FnToolBuilder::blocking_handler

use crate::errors::tool_error::ToolError;

/// Runs `body` on tokio's blocking pool and waits for it. A panic in `body` is resumed here, so
/// the pipeline reports it as the body's panic; outside a tokio runtime the call fails (there is
/// no pool to run on). Not API: what `#[tool(blocking)]`'s generated code (through
/// `__private`) and [`FnToolBuilder::blocking_handler`] run a body with.
#[doc(hidden)]
pub async fn run_blocking<T, F>(body: F) -> Result<T, ToolError>
where
    F: FnOnce() -> Result<T, ToolError> + Send + 'static,
    T: Send + 'static,
{
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return Err(ToolError::new(
            "a blocking tool body runs on tokio's blocking pool: call it from within a tokio runtime",
        ));
    };
    match runtime.spawn_blocking(body).await {
        Ok(output) => output,
        Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
        // The runtime is shutting down and dropped the task before it ran.
        Err(_) => Err(ToolError::aborted()),
    }
}
