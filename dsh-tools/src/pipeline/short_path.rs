//! The short path: a call no hook applies to, with no span to record.
//!
//! Of the pipeline's phases only these can do anything for such a call: the pre-dispatch
//! cancellation check, dispatch, deferred contexts and cancellation superseding a success, and
//! the captured finalizer. They run here in the same order as on the full path
//! (`pipeline::run_phases`), written out straight so that the call's future holds little more
//! than the body's own future and its result is built once.

use std::future::Future;

use crate::error::ToolError;
use crate::pipeline::call::CallContext;
use crate::pipeline::failure::failed;
use crate::pipeline::{dispatch, finalize, normalize};
use crate::result::ToolExecutionResult;

/// Runs a call no hook applies to. An `async` block rather than an `async fn`, so that the
/// borrowed call is not copied into a second slot of the future.
pub(crate) fn run(call: &CallContext) -> impl Future<Output = ToolExecutionResult> + Send + '_ {
    async move {
        let execution = call.execution();
        let mut result = if execution.is_cancelled() {
            failed(execution, ToolError::aborted_before_dispatch())
        } else {
            let mut result = dispatch::run_body(call, &call.run).await;
            result.prepend_additional_contexts(call.execution().take_deferred());
            normalize::supersede_if_cancelled(call, &mut result);
            result
        };
        finalize::finalize(call.definition.as_ref(), call.execution(), &mut result);
        result
    }
}
