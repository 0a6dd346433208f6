//! Result observers: they see every call's final result exactly once and cannot change it. A
//! failing or panicking observer is logged and contained; the others still run.

use crate::call::execution::ToolExecution;
use crate::error::ToolError;
use crate::future::catch_panic;
use crate::hooks::chain::HookEntry;
use crate::result::ToolExecutionResult;

/// What an observer closure may return: nothing, or `Result<(), ToolError>` to report a failure
/// (which is logged, never propagated).
pub trait ObserverReturn {
    /// The observer's outcome.
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

/// A registered observer (closures implement it).
pub(crate) trait ResultObserver: Send + Sync + 'static {
    fn observe(
        &self,
        execution: &ToolExecution,
        result: &ToolExecutionResult,
    ) -> Result<(), ToolError>;
}

impl<F, R> ResultObserver for F
where
    F: Fn(&ToolExecution, &ToolExecutionResult) -> R + Send + Sync + 'static,
    R: ObserverReturn,
{
    fn observe(
        &self,
        execution: &ToolExecution,
        result: &ToolExecutionResult,
    ) -> Result<(), ToolError> {
        self(execution, result).into_outcome()
    }
}

/// Shows `result` to every observer, in order.
pub(crate) fn notify(
    observers: &[HookEntry<dyn ResultObserver>],
    execution: &ToolExecution,
    result: &ToolExecutionResult,
) {
    for entry in observers {
        let failure = match catch_panic(|| entry.hook.observe(execution, result)) {
            Ok(Ok(())) => continue,
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
