//! The execution pipeline: every call runs these phases, in this order.
//!
//! | # | phase | what happens | a failure here |
//! |---|---|---|---|
//! | 1 | capture | when `execute` is called: freeze the input under a fresh token (arguments are a `serde_json::Value`, lossless by construction); resolve the visible definition once (its finalizer and result budget are captured now) and the hooks that apply; when a call observer applies, the body's progress reports go to it too, after the caller's sink | — |
//! | 2 | call start | call observers hear the call start (observe-only; every call, even one that ends before dispatch) | contained, logged |
//! | 3 | pre-aborted check | caller already cancelled → `ABORTED_BEFORE_DISPATCH` | final (no other hook runs) |
//! | 3b | validate before policy | a tool visible at the start checks the arguments (`ToolDefinition::validate_arguments`, malformed raw arguments): invalid → `INVALID_ARGS`, so no one approves a call that is then refused and hooks see valid arguments; an unknown tool is not checked | final (no other hook runs) |
//! | 4 | `pre-execute` | waterfall of listeners: allow / deny / ask; `ask` goes to the approver; an approval answered by a later attempt of the call ends this one as `APPROVAL_PENDING`, final | `HOOK_FAILED`, final |
//! | 5 | guards | for allowed calls only: a waterfall of deny-only listeners (`hooks/guard.rs`), over at once; the first reason denies | `HOOK_FAILED`, final |
//! | 6 | denial | any denial becomes `Error: <reason>` (`DENIED`), which still goes through post-execute | — |
//! | 7 | cancellation | cancelled meanwhile → `ABORTED_BEFORE_DISPATCH` (through post-execute) | — |
//! | 8 | `execute` layers | around dispatch, first registered outermost; an authored uncoded failure is `TOOL_ERROR` | `HOOK_FAILED`, final |
//! | 9 | dispatch | re-resolve the tool (`UNKNOWN_TOOL`), refuse malformed raw arguments (`INVALID_ARGS`), run the body — under its deadline when it has a time budget (`TOOL_TIMEOUT`, innermost: inside every layer) — catch its panic (`TOOL_PANICKED`), code its uncoded error (`TOOL_ERROR`), check and render its value (`INVALID_TOOL_OUTPUT`) | — |
//! | 10 | contexts, cancellation | contexts the body deferred go first; caller cancellation supersedes a success (`ABORTED`) | — |
//! | 11 | `post-execute` | waterfall: accept, replace content or value, block (`BLOCKED`); cancellation supersedes a success again | `HOOK_FAILED` |
//! | 12 | finalizer | the captured definition's `finalize_content`, exactly once on every outcome | `FINALIZER_FAILED` |
//! | 13 | result budget | the content's text is cut to the tool's (or the registry's) budget with a marker; the value and error stay whole | — |
//! | 14 | observers | result observers see the result exactly as the model will, then call observers (`on_result`); their failures are contained | logged |
//!
//! A failing or panicking listener, approver, guard or layer ends the call with a final error
//! that skips post-execute (the finalizer, the result budget and observers still run). Every
//! error result carries a code: the error's own `{name, code}`, else the code of what failed.
//!
//! This file owns the order and the hook phases (2, 4 to 8, 11, 14); each phase's work lives in
//! its own module. The phases a call runs whether or not hooks apply — 3, 9, 10, and 12 with 13 —
//! are the functions of `phases.rs`, which both this path and the short path call in this order;
//! 3b is there too, run by this path alone (on the short path nothing runs before dispatch, whose
//! own check gives the same result).
//! A call no hook applies to (and with no span to record) takes the short path (`short_path.rs`),
//! which runs those functions back to back; any other call runs `run_phases`, boxed.

pub(crate) mod ask;
pub(crate) mod body;
pub(crate) mod deadline;
pub(crate) mod dispatch;
pub(crate) mod failure;
pub(crate) mod finalize;
pub(crate) mod host;
pub(crate) mod innermost;
#[cfg(feature = "durable")]
pub(crate) mod journal;
pub(crate) mod normalize;
pub(crate) mod output;
pub(crate) mod phases;
pub(crate) mod policy_events;
pub(crate) mod post_execute;
#[cfg(feature = "mcp")]
pub(crate) mod resolved;
pub(crate) mod result_budget;
pub(crate) mod short_path;
pub(crate) mod trace;

use std::future::Future;
use std::sync::Arc;

use tracing::Instrument;

use crate::call::context::CallContext;
use crate::call::definition::ToolDefinition;
use crate::call::execution::CallHost;
use crate::call::execution::{ToolExecution, ToolExecutionInput};
use crate::call::run::ToolRun;
use crate::errors::tool_error::ToolError;
use crate::future::{BoxFuture, CatchUnwind, catch_panic};
use crate::hooks::call_observer::ObservedProgress;
use crate::hooks::call_observer::{self, ObservedCall};
use crate::hooks::chain::HookList;
use crate::hooks::guard;
use crate::hooks::post_execute::{PostExecuteHook, PostExecuteNext};
use crate::hooks::pre_execute::{PreExecuteNext, PreToolDecision};
use crate::hooks::wrapper::{DispatchRequest, Next};
use crate::ids::AgentId;
use crate::pipeline::ask::{AskVerdict, resolve_ask};
use crate::pipeline::failure::{
    HookPhase, approval_pending, denied, failed, hook_failed, hook_failed_result, hook_panicked,
};
#[cfg(feature = "mcp")]
use crate::pipeline::resolved::ResolvedTool;
use crate::pipeline::short_path::Route;
use crate::pipeline::trace::CallSpan;
use crate::result::ToolExecutionResult;
use crate::store::core::Core;
use crate::store::view::{HookPlan, View};

/// Where a result goes next.
enum Stage {
    /// Straight to the finalizer and observers.
    Final(ToolExecutionResult),
    /// Through post-execute first.
    Post(ToolExecutionResult),
}

/// Phase 1, done when the call is made (not when its future is first polled): freeze the input
/// and capture, under the read lock, the definition and hooks the call will see. Doing it here
/// also keeps the input out of the call's future, which is moved around while it is awaited.
///
/// `scope` is the scope instance a [`ToolScope`](crate::ToolScope) handle was made for: a call
/// through a disposed scope, or naming an agent with no live scope, is refused here
/// (`SCOPE_DISPOSED`, `UNKNOWN_AGENT`) before any hook, never answered from a wider view.
pub(crate) fn execute(
    core: &Arc<Core>,
    input: ToolExecutionInput,
    scope: Option<u64>,
) -> impl Future<Output = ToolExecutionResult> + Send + 'static + use<> {
    short_path::run(capture(core, input, scope, |view, execution, _| {
        view.resolve_call(execution.name(), execution.is_program_call())
            .map(Option::<&Arc<dyn ToolDefinition>>::cloned)
    }))
}

/// [`execute`] for a call whose tool its caller already looked up in the same layer
/// (`tools/call` served over MCP reads what the tool declares before it makes the call): that
/// lookup stands for the capture's while nothing in the registry changed since, so the name is
/// not resolved a second time. A change in between, or a call a program makes, resolves the
/// name again as [`execute`] does.
#[cfg(feature = "mcp")]
pub(crate) fn execute_resolved(
    core: &Arc<Core>,
    input: ToolExecutionInput,
    scope: Option<u64>,
    resolved: ResolvedTool,
) -> impl Future<Output = ToolExecutionResult> + Send + 'static + use<> {
    short_path::run(capture(
        core,
        input,
        scope,
        |view, execution, generation| resolved.for_call(view, execution, generation),
    ))
}

/// Phase 1 with `resolve` giving the definition a call of this view resolves to, or the refusal
/// that ends it before any policy (under the read lock, with the registry's generation). Always
/// inlined: each caller then builds its route where its future takes it, as one function did
/// before there were two callers.
#[inline(always)]
fn capture(
    core: &Arc<Core>,
    input: ToolExecutionInput,
    scope: Option<u64>,
    resolve: impl FnOnce(
        &View<'_>,
        &ToolExecution,
        u64,
    ) -> Result<Option<Arc<dyn ToolDefinition>>, ToolError>,
) -> Route {
    let host: Arc<dyn CallHost> = Arc::<Core>::clone(core);
    let mut execution = ToolExecution::from_input(input, host);
    let span = CallSpan::start(&execution, core);
    // Under the read lock, held as a guard rather than through a closure: what is captured
    // then stays where it is read, rather than travelling out of the closure in a `Result`
    // that also has room for a refusal.
    let snapshot = core.read();
    let view = match View::open(&snapshot, execution.agent(), scope) {
        Ok(view) => view,
        Err(closed) => {
            drop(snapshot);
            let agent = execution
                .agent()
                .cloned()
                .unwrap_or_else(|| AgentId::from(""));
            return refused(&execution, span, closed.error(&agent));
        }
    };
    execution.set_view(view.call_view());
    // Code Mode: a call its caller may not make is refused here, before any policy.
    let definition = match resolve(&view, &execution, snapshot.generation) {
        Ok(definition) => definition,
        Err(refusal) => {
            drop(view);
            drop(snapshot);
            let error = if execution.is_cancelled() {
                ToolError::aborted_before_dispatch()
            } else {
                refusal
            };
            return refused(&execution, span, error);
        }
    };
    let generation = snapshot.generation;
    #[cfg(feature = "durable")]
    let durability = snapshot.durability.clone();
    let plan = view.plan();
    drop(view);
    drop(snapshot);
    if let Some(span) = &span {
        span.describe(definition.as_deref());
    }
    // A call no hook applies to (and with no span to record) takes the short path, whose future
    // is small; everything else runs boxed, so the common case neither carries nor moves the
    // hook machinery.
    match plan {
        None if span.is_none() => Route::Short(CallContext {
            run: ToolRun::new(execution, None),
            // On the short path the call store serves only the journal: a call whose tool is
            // not journaled carries none.
            #[cfg(feature = "durable")]
            durability: durability.filter(|_| {
                definition
                    .as_ref()
                    .is_some_and(|definition| definition.options().journal.enabled)
            }),
            definition,
            generation,
            tools: Arc::<Core>::clone(core),
        }),
        plan => {
            let plan = plan.unwrap_or_default();
            if let Some(observers) = &plan.hooks.call_observers {
                execution.reroute_progress(|caller| {
                    ObservedProgress::sink(caller, observers, definition.as_ref())
                });
            }
            let call = CallContext {
                run: ToolRun::new(execution, None),
                definition,
                generation,
                tools: Arc::<Core>::clone(core),
                #[cfg(feature = "durable")]
                durability,
            };
            Route::Hooked(Box::pin(run_hooked(call, plan, span)))
        }
    }
}

/// The route of a call refused before any policy (its scope is gone, its agent unknown, or its
/// caller may not make it): the refusal as its result, recorded on the call's span.
#[cold]
#[inline(never)]
fn refused(execution: &ToolExecution, span: Option<CallSpan>, error: ToolError) -> Route {
    let result = failed(execution, error);
    if let Some(span) = span {
        span.finish(execution, &result);
    }
    Route::Hooked(Box::pin(std::future::ready(result)))
}

/// Phases 2 to 14 of a call with hooks or a recorded span. An `async` block rather than an
/// `async fn`, whose arguments would take a second slot in this (boxed, moved once) future.
#[expect(
    clippy::manual_async_fn,
    reason = "an `async fn` would copy its arguments into a second slot of the future"
)]
fn run_hooked(
    call: CallContext,
    plan: HookPlan,
    span: Option<CallSpan>,
) -> impl Future<Output = ToolExecutionResult> + Send + 'static {
    async move {
        // Only a recorded span is worth entering on every poll.
        let Some(span) = span else {
            return run_phases(&call, &plan).await;
        };
        let result = run_phases(&call, &plan).instrument(span.span.clone()).await;
        span.finish(call.execution(), &result);
        result
    }
}

/// Phases 2 to 14 for a call with hooks.
async fn run_phases(call: &CallContext, plan: &HookPlan) -> ToolExecutionResult {
    let execution = call.execution();
    if let Some(observers) = &plan.hooks.call_observers {
        let observed = ObservedCall::new(execution, call.definition.as_ref());
        call_observer::notify_start(observers, &observed);
    }
    let mut result = match decide_and_dispatch(call, plan).await {
        Stage::Final(result) => result,
        Stage::Post(mut result) => {
            phases::after_dispatch(call, &mut result);
            if let Some(hooks) = &plan.hooks.post_execute {
                result = match post_execute(call, Arc::clone(hooks), result).await {
                    Ok(result) => result,
                    Err(error) => failed(execution, hook_failed(error)),
                };
                normalize::supersede_if_cancelled(call, &mut result);
            }
            result
        }
    };
    phases::finish(call, &mut result);
    let observed = ObservedCall::new(execution, call.definition.as_ref());
    if let Some(observers) = &plan.hooks.result_observers {
        call_observer::notify_result(observers, &observed, &result);
    }
    if let Some(observers) = &plan.hooks.call_observers {
        call_observer::notify_result(observers, &observed, &result);
    }
    result
}

/// Phases 3 to 9 (3b included).
async fn decide_and_dispatch(call: &CallContext, plan: &HookPlan) -> Stage {
    let execution = call.execution();
    if let Err(aborted) = phases::before_dispatch(call) {
        return Stage::Final(aborted);
    }
    if let Err(invalid) = phases::validate_before_policy(call) {
        return Stage::Final(invalid);
    }

    let decision = match &plan.hooks.pre_execute {
        None => PreToolDecision::Allow,
        Some(hooks) => {
            let next = PreExecuteNext::new(Arc::clone(hooks), execution.clone());
            // The first listener is called inside the future, so that the catcher covers it.
            let waterfall: BoxFuture<'_, _> = Box::pin(async move { next.run().await });
            match CatchUnwind::new(waterfall).await {
                Ok(Ok(decision)) => decision,
                Ok(Err(error)) => return Stage::Final(hook_failed_result(execution, error)),
                Err(panic) => {
                    let error = hook_panicked(HookPhase::PreExecute, &panic);
                    return Stage::Final(failed(execution, error));
                }
            }
        }
    };
    match decision {
        PreToolDecision::Allow => {}
        PreToolDecision::Deny { reason } => {
            policy_events::hook_decided("pre_execute", "deny", Some(&reason));
            return Stage::Post(denied(execution, reason));
        }
        PreToolDecision::Ask { reason } => {
            policy_events::hook_decided("pre_execute", "ask", reason.as_deref());
            let approver = plan.approver.clone();
            match resolve_ask(approver, call, reason).await {
                Ok(AskVerdict::Allow) => {}
                Ok(AskVerdict::Deny(reason)) => return Stage::Post(denied(execution, reason)),
                Ok(AskVerdict::AbortedBeforeDispatch) => {
                    let error = ToolError::aborted_before_dispatch();
                    return Stage::Post(failed(execution, error));
                }
                // Not an outcome of the call yet: its later attempt has one, and that one goes
                // through post-execute.
                Ok(AskVerdict::Pending) => return Stage::Final(approval_pending(execution)),
                #[cfg(feature = "durable")]
                Ok(AskVerdict::Waiting(approval)) => {
                    return Stage::Final(crate::pipeline::failure::approval_waiting(
                        execution, &approval,
                    ));
                }
                Err(error) => return Stage::Final(hook_failed_result(execution, error)),
            }
        }
    }

    if let Some(guards) = &plan.hooks.guards {
        // Guards are deny-only listeners that decide at once (`hooks/guard.rs`): their whole
        // waterfall runs inside this first call, under the catcher.
        let waterfall = PreExecuteNext::new(Arc::clone(guards), execution.clone());
        let decided = match catch_panic(|| waterfall.run()) {
            Ok(decision) => CatchUnwind::new(decision).await,
            Err(panic) => Err(panic),
        };
        match decided {
            Ok(Ok(decision)) => {
                if let Some(reason) = guard::denial(decision) {
                    policy_events::guard_denied(&reason);
                    return Stage::Post(denied(execution, reason));
                }
            }
            Ok(Err(error)) => return Stage::Final(hook_failed_result(execution, error)),
            Err(panic) => {
                return Stage::Final(failed(execution, hook_panicked(HookPhase::Guard, &panic)));
            }
        }
    }

    if let Err(aborted) = phases::before_dispatch(call) {
        return Stage::Post(aborted);
    }

    match &plan.hooks.execute {
        None => Stage::Post(innermost::dispatch(call).await),
        Some(layers) => {
            let request = DispatchRequest::new(call.clone());
            match CatchUnwind::new(
                Next::new(Arc::clone(layers), &innermost::INNERMOST).run(request),
            )
            .await
            {
                Ok(Ok(result)) => Stage::Post(result),
                Ok(Err(error)) => Stage::Final(hook_failed_result(execution, error)),
                Err(panic) => {
                    Stage::Final(failed(execution, hook_panicked(HookPhase::Wrapper, &panic)))
                }
            }
        }
    }
}

/// Phase 11: the `post-execute` waterfall and its decision; an `Err` ends the call.
async fn post_execute(
    call: &CallContext,
    hooks: HookList<dyn PostExecuteHook>,
    result: ToolExecutionResult,
) -> Result<ToolExecutionResult, ToolError> {
    let shared = Arc::new(result);
    let next = PostExecuteNext::new(hooks, call.execution().clone(), Arc::clone(&shared));
    // The first listener is called inside the future, so that the catcher covers it.
    let waterfall: BoxFuture<'_, _> = Box::pin(async move { next.run().await });
    let decision = match CatchUnwind::new(waterfall).await {
        Ok(decision) => decision?,
        Err(panic) => return Err(hook_panicked(HookPhase::PostExecute, &panic)),
    };
    // Listeners may keep their `Arc`; then the result is copied once.
    let result = Arc::try_unwrap(shared).unwrap_or_else(|shared| (*shared).clone());
    post_execute::apply(call, result, decision)
}
