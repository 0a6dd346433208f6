//! The future every call returns, and the short path it runs for a call no hook applies to and
//! with no span to record.
//!
//! Of the pipeline's phases only these can do anything for such a call: the pre-dispatch
//! cancellation check, dispatch (under its deadline when the tool has a time budget), deferred
//! contexts and cancellation superseding a success, the captured finalizer and the result
//! budget. They run here in the same order as on the full path
//! (`pipeline::run_phases`), with dispatch's steps (`dispatch::run_body`) written out rather than
//! awaited as a nested future: the call's future then holds little more than the body's own, and
//! the result is not handed up through one more `Poll` on its way to the caller. Calls with hooks
//! run the full pipeline, boxed, inside the same future.

use std::borrow::Cow;
use std::future::Future;

use crate::call::context::CallContext;
use crate::error::ToolError;
use crate::future::BoxFuture;
use crate::pipeline::failure::failed;
use crate::pipeline::{dispatch, finalize, normalize, result_budget};
use crate::result::ToolExecutionResult;

/// Which path a call takes, decided when it is captured.
pub(crate) enum Route {
    /// No hook applies and no span records: the short path below.
    Short(CallContext),
    /// The full pipeline (`pipeline::run_hooked`).
    Hooked(BoxFuture<'static, ToolExecutionResult>),
}

/// The future of a call. The route is only borrowed: moving it out of the future's captures
/// would copy it into a second slot of the future.
#[expect(
    clippy::manual_async_fn,
    reason = "an `async fn` would copy its arguments into a second slot of the future"
)]
pub(crate) fn run(mut route: Route) -> impl Future<Output = ToolExecutionResult> + Send + 'static {
    async move {
        let call = match &mut route {
            Route::Short(call) => call,
            Route::Hooked(hooked) => return hooked.await,
        };
        let mut result = 'dispatched: {
            if call.execution().is_cancelled() {
                break 'dispatched failed(call.execution(), ToolError::aborted_before_dispatch());
            }
            // The definition captured at the start when nothing changed since, else a fresh one:
            // only the captured one, which this call alone can see, is handed the arguments.
            let (fresh, by_value) = match dispatch::runnable_definition(call) {
                Ok(Cow::Borrowed(definition)) => (None, definition.takes_arguments_by_value()),
                Ok(Cow::Owned(definition)) => (Some(definition), false),
                Err(refused) => break 'dispatched refused,
            };
            // Nothing watches this call (no hook, observer or span) and the definition reads
            // nothing of the execution's arguments: the conversion may take them.
            let arguments = if by_value {
                call.run.execution_mut().take_arguments()
            } else {
                None
            };
            let call = &*call;
            let Some(definition) = fresh.as_ref().or(call.definition.as_ref()) else {
                break 'dispatched dispatch::unknown_tool_result(call);
            };
            let outcome = {
                let started = dispatch::start(&**definition, &call.run, arguments);
                match started {
                    Ok(body) => body,
                    Err(message) => {
                        break 'dispatched dispatch::body_result(
                            &**definition,
                            &call.run,
                            Err(message),
                        );
                    }
                }
            }
            .await;
            let execution = call.execution();
            let mut result = dispatch::body_result(&**definition, &call.run, outcome);
            if execution.has_deferred() {
                result.prepend_additional_contexts(execution.take_deferred());
            }
            normalize::supersede_if_cancelled(call, &mut result);
            result
        };
        let call = &*call;
        let execution = call.execution();
        finalize::finalize(call.definition.as_ref(), execution, &mut result);
        result_budget::apply(call.definition.as_deref(), execution, &mut result);
        result
    }
}
