//! The short path: a call no hook applies to, with no span to record.
//!
//! Of the pipeline's phases only these can do anything for such a call: the pre-dispatch
//! cancellation check, dispatch, deferred contexts and cancellation superseding a success, and
//! the captured finalizer. They run here in the same order as on the full path
//! (`pipeline::run_phases`), written out straight so that the call's future holds little more
//! than the body's own future and its result is built once.

use std::future::Future;

use crate::error::ToolError;
use crate::future::CatchUnwind;
use crate::pipeline::Route;
use crate::pipeline::failure::failed;
use crate::pipeline::{dispatch, finalize, normalize};
use crate::result::ToolExecutionResult;

/// The future of a call: the short path, or the boxed full pipeline.
#[expect(
    clippy::manual_async_fn,
    reason = "an `async fn` would copy its arguments into a second slot of the future"
)]
pub(crate) fn run(mut route: Route) -> impl Future<Output = ToolExecutionResult> + Send + 'static {
    async move {
        let call = match &mut route {
            Route::Short(call) => &*call,
            Route::Hooked(hooked) => return hooked.await,
        };
        let execution = call.execution();
        let mut result = 'dispatched: {
            if execution.is_cancelled() {
                break 'dispatched failed(execution, ToolError::aborted_before_dispatch());
            }
            let definition = match dispatch::runnable_definition(call) {
                Ok(definition) => definition,
                Err(refused) => break 'dispatched refused,
            };
            let outcome = {
                let started = dispatch::start_body(&**definition, &call.run);
                match started {
                    Ok(body) => CatchUnwind::new(body),
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
            let mut result = dispatch::body_result(&**definition, &call.run, outcome);
            result.prepend_additional_contexts(execution.take_deferred());
            normalize::supersede_if_cancelled(call, &mut result);
            result
        };
        finalize::finalize(call.definition.as_ref(), execution, &mut result);
        result
    }
}
