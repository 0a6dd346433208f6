//! The phases both paths run, each defined once: the full pipeline (`pipeline::run_phases`) and
//! the short path of a call no hook applies to (`short_path::run`) call these functions, in this
//! order, and nothing else does their work.
//!
//! | function | phase (`pipeline` table) | what it does |
//! |---|---|---|
//! | [`before_dispatch`] | 3 (and 7) | a caller that has already cancelled gets `ABORTED_BEFORE_DISPATCH` |
//! | [`validate_before_policy`] | 3b (full path only) | invalid arguments of a known tool end the call `INVALID_ARGS` before any hook |
//! | [`dispatch_steps`] ([`dispatch`]) | 9 | re-resolves the tool, runs the body under its deadline, turns its outcome into a result (the steps: `dispatch.rs`, `deadline.rs`) |
//! | [`after_dispatch`] | 10 | the contexts the body deferred go first; cancellation supersedes a success |
//! | [`finish`] | 12, 13 | the captured finalizer, then the result budget |
//!
//! The full path runs its hooks between them (pre-execute, guards and `execute` layers before
//! dispatch, post-execute after `after_dispatch`, observers after `finish`); the short path runs
//! them back to back. A result that ends the call before dispatch skips `after_dispatch` on both.
//! The only difference in what they do: on the short path nothing else can see the call, so a
//! body that takes its arguments by value is handed them.

use std::future::Future;

use crate::call::context::CallContext;
use crate::call::execution::ToolExecution;
use crate::call::run::ToolRun;
use crate::errors::tool_error::ToolError;
use crate::future::catch_panic;
use crate::pipeline::failure::failed;
use crate::pipeline::{finalize, normalize, result_budget};
use crate::result::ToolExecutionResult;

/// Phase 3: `Err(ABORTED_BEFORE_DISPATCH)` when the caller has already cancelled. The full path
/// asks again after its pre-execute decision and guards (phase 7), and at the base of the
/// `execute` chain.
#[inline(always)]
pub(crate) fn before_dispatch(call: &CallContext) -> Result<(), ToolExecutionResult> {
    let execution = call.execution();
    if execution.is_cancelled() {
        return Err(aborted_before_dispatch(execution));
    }
    Ok(())
}

/// Phase 3b, validate before policy: the arguments of a call to a tool visible when it started
/// are checked against that definition's schema ([`ToolDefinition::validate_arguments`], and
/// malformed raw arguments), so that an invalid call ends `INVALID_ARGS` before any hook — no
/// person approves a call that is then refused — and every hook sees arguments the body
/// accepts. An unknown tool is not checked: it travels the pipeline and fails at dispatch.
///
/// Only the full path runs it: on the short path nothing runs between here and dispatch, whose
/// own check gives the same result.
///
/// [`ToolDefinition::validate_arguments`]: crate::call::definition::ToolDefinition::validate_arguments
pub(crate) fn validate_before_policy(call: &CallContext) -> Result<(), ToolExecutionResult> {
    let Some(definition) = &call.definition else {
        return Ok(());
    };
    let execution = call.execution();
    if let Some(reason) = execution.malformed_arguments() {
        let error = ToolError::invalid_arguments_text(reason);
        return Err(failed(execution, error));
    }
    match catch_panic(|| definition.validate_arguments(execution.arguments())) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(invalid)) => Err(failed(execution, invalid)),
        Err(panic) => Err(failed(
            execution,
            ToolError::panicked(execution.name(), &panic),
        )),
    }
}

#[cold]
#[inline(never)]
fn aborted_before_dispatch(execution: &ToolExecution) -> ToolExecutionResult {
    failed(execution, ToolError::aborted_before_dispatch())
}

/// Phase 9, written out where it is used: resolves the tool again (gone → `UNKNOWN_TOOL`),
/// refuses malformed raw arguments (`INVALID_ARGS`), starts the body (under its deadline when it
/// has a time budget), awaits it, and turns its outcome into a result (`TOOL_PANICKED`,
/// `TOOL_ERROR`, `INVALID_TOOL_OUTPUT`, `ABORTED`); an expression of type `ToolExecutionResult`,
/// for an `async` context.
///
/// `$call` (`&CallContext`) and `$run` (`&ToolRun`, the one the body gets) are evaluated where
/// they are needed, so that `give_up_arguments: $take` can borrow the call mutably in between:
/// `$take` (an `Option<Value>`) is evaluated only for the definition captured at the start
/// (which this call alone can see) and only when it takes its arguments by value. Without it,
/// the arguments stay in the execution, where hooks and observers read them.
///
/// A macro rather than a function returning a future: the short path then awaits the body's own
/// future directly, and its result is not handed up through one more future (measured on the
/// short path: about 40 instructions a call, of some 2,150); [`dispatch`] wraps it for the full
/// path.
macro_rules! dispatch_steps {
    ($call:expr, $run:expr) => {
        'dispatch: {
            let definition = match $crate::pipeline::dispatch::runnable_definition($call) {
                Ok(definition) => definition,
                Err(refused) => break 'dispatch refused,
            };
            $crate::pipeline::phases::dispatch_steps!(@body 'dispatch, &**definition, $run, None)
        }
    };
    ($call:expr, $run:expr, give_up_arguments: $take:expr) => {
        'dispatch: {
            // The resolved definition is kept as a fresh one or a flag about the captured one, so
            // that `$take` can borrow the call mutably; then the definition is borrowed again.
            let (fresh, by_value) = match $crate::pipeline::dispatch::runnable_definition($call) {
                Ok(::std::borrow::Cow::Borrowed(definition)) => {
                    (None, definition.takes_arguments_by_value())
                }
                Ok(::std::borrow::Cow::Owned(definition)) => (Some(definition), false),
                Err(refused) => break 'dispatch refused,
            };
            let arguments = if by_value { $take } else { None };
            let Some(definition) = fresh.as_ref().or($call.definition.as_ref()) else {
                break 'dispatch $crate::pipeline::dispatch::unknown_tool_result($call);
            };
            $crate::pipeline::phases::dispatch_steps!(@body 'dispatch, &**definition, $run, arguments)
        }
    };
    (@body $dispatch:lifetime, $definition:expr, $run:expr, $arguments:expr) => {{
        use $crate::pipeline::dispatch::{body_result, start};
        let outcome = {
            // Lent to the start rather than moved into it (a copy of an `Option<Value>` a call),
            // and dropped before the body is awaited, so that the call's future has no slot
            // for it.
            let mut arguments = $arguments;
            let started = start($definition, $run, &mut arguments);
            drop(arguments);
            match started {
                Ok(body) => body,
                Err(message) => break $dispatch body_result($definition, $run, Err(message)),
            }
        }
        .await;
        body_result($definition, $run, outcome)
    }};
}
pub(crate) use dispatch_steps;

/// Phase 9 as a future, for the full path (the base of the `execute` chain): [`dispatch_steps`]
/// with `run` (the call's own, or one with a layer's replacement token), the arguments left in
/// the execution.
///
/// A function returning an `async` block rather than an `async fn`, with nothing but the
/// definition and the body's own future alive across the `await`: an `async fn` would copy its
/// arguments into a second slot.
#[expect(
    clippy::manual_async_fn,
    reason = "an `async fn` would copy its arguments into a second slot of the future"
)]
pub(crate) fn dispatch<'a>(
    call: &'a CallContext,
    run: &'a ToolRun,
) -> impl Future<Output = ToolExecutionResult> + Send + 'a {
    async move { dispatch_steps!(call, run) }
}

/// Phase 10, for a result that went through dispatch (or stands in for it: a denial, a layer's):
/// the contexts the body deferred go before the result's own, and the caller's cancellation
/// supersedes a success. Always inlined: both paths call it once per call, and what it does
/// when nothing was deferred costs less than the call.
#[inline(always)]
pub(crate) fn after_dispatch(call: &CallContext, result: &mut ToolExecutionResult) {
    let execution = call.execution();
    if execution.has_deferred() {
        result.prepend_additional_contexts(execution.take_deferred());
    }
    normalize::supersede_if_cancelled(call, result);
}

/// Phases 12 and 13, on every outcome: the finalizer of the definition captured at the start,
/// then the result budget.
#[inline]
pub(crate) fn finish(call: &CallContext, result: &mut ToolExecutionResult) {
    let execution = call.execution();
    finalize::finalize(call.definition.as_ref(), execution, result);
    result_budget::apply(call.definition.as_deref(), execution, result);
}
