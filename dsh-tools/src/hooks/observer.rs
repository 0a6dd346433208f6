//! Result observers: the shape of a call observer that only hears a call's final result. They
//! see it exactly once, as the model will, and cannot change it; a failing or panicking observer
//! is logged and contained, and the others still run.
//!
//! [`OnResult`] adapts a closure to [`CallObserver`], whose `on_result` it implements. Result
//! observers are kept in a list of their own, which the pipeline tells before the call
//! observers, and which neither hears calls start nor gives calls a progress sink.

use crate::call::execution::ToolExecution;
use crate::errors::tool_error::ToolError;
use crate::future::catch_panic;
use crate::hooks::call_observer::{CallObserver, ObservedCall};
use crate::result::ToolExecutionResult;

/// What an observer closure may return: nothing, or `Result<(), ToolError>` to report a failure
/// (which is logged, never propagated). Those two are its only impls: the registry reads the
/// outcome, a closure only returns it.
pub trait ObserverReturn {
    /// The observer's outcome. Not API: the registry's side of the trait.
    #[doc(hidden)]
    fn into_outcome(self) -> Result<(), ToolError>;
}

impl ObserverReturn for () {
    fn into_outcome(self) -> Result<(), ToolError> {
        Ok(())
    }
}

impl ObserverReturn for Result<(), ToolError> {
    fn into_outcome(self) -> Result<(), ToolError> {
        self
    }
}

/// A result observer closure as a [`CallObserver`].
pub(crate) struct OnResult<F>(pub(crate) F);

impl<F, R> CallObserver for OnResult<F>
where
    F: Fn(&ToolExecution, &ToolExecutionResult) -> R + Send + Sync + 'static,
    R: ObserverReturn,
{
    fn on_result(&self, call: &ObservedCall<'_>, result: &ToolExecutionResult) {
        let execution = call.execution;
        let failure = match catch_panic(|| (self.0)(execution, result).into_outcome()) {
            Ok(Ok(())) => return,
            Ok(Err(error)) => error.to_string(),
            Err(panic) => format!("panicked: {panic}"),
        };
        tracing::warn!(
            tool = execution.name(),
            call_id = execution.call_id(),
            "tool \"{}\" ({}): result observer failed: {failure}",
            execution.name(),
            execution.call_id(),
        );
    }
}
