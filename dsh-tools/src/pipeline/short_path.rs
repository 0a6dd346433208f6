//! The future every call returns, and the short path it runs for a call no hook applies to and
//! with no span to record.
//!
//! Such a call runs the phases of `phases.rs` that can do anything for it — the pre-dispatch
//! cancellation check, dispatch, deferred contexts and cancellation superseding a success, the
//! finalizer and the result budget — back to back, through the same functions as the full path
//! (`pipeline::run_phases`), which runs its hooks between them. What is left here is what makes
//! the path short: the route is decided when the call is made, the call is dispatched as the only
//! one that can see its execution (so a body that takes its arguments by value is handed them),
//! and the whole call is one future holding little more than the body's own. Calls with hooks run
//! the full pipeline, boxed, inside the same future.

use std::future::Future;

use crate::call::context::CallContext;
use crate::future::BoxFuture;
use crate::pipeline::phases;
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
        // A labelled block rather than a `match` on the check: the scrutinee of a `match` would
        // stay in the future across the `await` in its arm.
        let mut result = 'dispatched: {
            if let Err(aborted) = phases::before_dispatch(call) {
                break 'dispatched aborted;
            }
            // A journaled call goes through the journal, which reads the arguments for the
            // call's key and then may hand them to the body, as below. The store in memory
            // decides at once, and its attempt waits in the call's execution while the body runs
            // here; any other store's is waited for in a future of its own (boxed: calls
            // without a store carry none of it; the store is shared, so the call can be lent
            // mutably).
            #[cfg(feature = "durable")]
            if let Some(durability) = &call.durability {
                use crate::pipeline::journal::{self, Admitted};
                // Decided in a statement of its own: nothing it holds (a result) stays in the
                // future across the wait below.
                let waited = match journal::admitted_now(call, durability) {
                    Some(Admitted::Run(attempt)) => {
                        call.execution().keep_attempt(attempt);
                        false
                    }
                    Some(Admitted::Unjournaled) => false,
                    Some(Admitted::Ended(mut result)) => {
                        phases::after_dispatch(call, &mut result);
                        break 'dispatched result;
                    }
                    None => true,
                };
                if waited && let Some(durability) = call.durability.clone() {
                    let journaled = journal::dispatch_short(call, &durability);
                    let mut result = Box::pin(journaled).await;
                    phases::after_dispatch(call, &mut result);
                    break 'dispatched result;
                }
            }
            // Nothing watches this call (no hook, observer or span): a definition that reads
            // nothing of the execution's arguments may take them (the journal has read them).
            let mut result = phases::dispatch_steps!(
                &*call,
                &call.run,
                give_up_arguments: call.run.execution_mut().take_arguments()
            );
            #[cfg(feature = "durable")]
            if let Some(durability) = &call.durability {
                crate::pipeline::journal::recorded_now(call, durability, &result);
            }
            phases::after_dispatch(call, &mut result);
            result
        };
        phases::finish(call, &mut result);
        result
    }
}
