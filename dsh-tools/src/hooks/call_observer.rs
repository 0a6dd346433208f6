//! Call observers: they follow each call from start to result — a UI or a protocol bridge showing
//! calls as they run. Observe-only, like result observers, and contained: a panic is logged and
//! the call goes on.
//!
//! - `on_start`: at the start of the pipeline (when the call is first polled), before anything
//!   else of the call runs — the pre-aborted check, `pre-execute`, approval — for every call,
//!   even one that ends before dispatch.
//! - `on_progress`: each report the body makes through
//!   [`ToolRun::report_progress`](crate::ToolRun::report_progress), after the caller's own sink;
//!   installing an observer gives every call it sees a sink.
//! - `on_result`: after the finalizer and the result observers.
//!
//! Each sees the definition the call resolved to when it started (the one whose finalizer runs),
//! so its cards stay consistent however the registry changes meanwhile. Like every hook, a call
//! observer moves the calls it applies to off the no-hook short path; without one, no call pays
//! anything for them (not even calls with other hooks). A result observer is this contract's
//! result-only shape (`observer.rs`), kept apart so that it neither hears starts nor gives calls a
//! progress sink.

use std::sync::Arc;

use crate::call::definition::ToolDefinition;
use crate::call::execution::ToolExecution;
use crate::call::execution::{ProgressSink, SharedSink};
use crate::future::catch_panic;
use crate::hooks::chain::{HookEntry, HookList};
use crate::present::{ToolCallView, ToolResultView};
use crate::progress::ToolProgress;
use crate::result::ToolExecutionResult;

/// Follows calls as they run (see [`ToolScope::observe`](crate::ToolScope::observe)).
/// Every method is optional and called synchronously on the call's task: hand the event on, do
/// not wait.
///
/// A call whose future is polled hears `on_start` once and `on_result` once. A future dropped
/// before it finishes ends the call without a result, so its observers hear no `on_result`: to
/// stop a call a UI is showing, cancel it through its signal
/// ([`ToolExecutionInput::with_signal`](crate::ToolExecutionInput::with_signal)) and let it end
/// as `ABORTED`.
pub trait CallObserver: Send + Sync + 'static {
    /// The call started: nothing of it has run yet.
    fn on_start(&self, call: &ObservedCall<'_>) {
        let _ = call;
    }

    /// The body reported progress.
    fn on_progress(&self, call: &ObservedCall<'_>, progress: &ToolProgress) {
        let _ = (call, progress);
    }

    /// The call ended with `result` (final: what the caller gets).
    fn on_result(&self, call: &ObservedCall<'_>, result: &ToolExecutionResult) {
        let _ = (call, result);
    }
}

/// One call as an observer sees it: the frozen execution and the definition it resolved to when
/// it started, read from its fields; the `present_*` methods build its cards.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct ObservedCall<'a> {
    /// The call.
    pub execution: &'a ToolExecution,
    /// The definition the call resolved to when it started (`None`: no such tool was visible).
    pub definition: Option<&'a dyn ToolDefinition>,
}

impl<'a> ObservedCall<'a> {
    pub(crate) fn new(
        execution: &'a ToolExecution,
        definition: Option<&'a Arc<dyn ToolDefinition>>,
    ) -> Self {
        Self {
            execution,
            definition: definition.map(|definition| &**definition),
        }
    }

    /// The call's pending card, from the definition it resolved to when it started, with the
    /// fallbacks of [`ToolScope::present_call`](crate::ToolScope::present_call).
    pub fn present_call(&self) -> ToolCallView {
        ToolCallView::present(
            self.definition,
            self.execution.name(),
            self.execution.arguments(),
        )
    }

    /// The card after a progress report: its progress presenter's card, else `pending`
    /// ([`present_call`](Self::present_call)'s card) unchanged.
    pub fn present_progress(
        &self,
        pending: &ToolCallView,
        progress: &ToolProgress,
    ) -> ToolCallView {
        ToolCallView::present_progress(
            self.definition,
            self.execution.arguments(),
            pending,
            progress,
        )
    }

    /// The result card, never blank, a failure's always showing its error text (as
    /// [`ToolScope::present_result`](crate::ToolScope::present_result)); `pending` is
    /// [`present_call`](Self::present_call)'s card.
    pub fn present_result(
        &self,
        pending: &ToolCallView,
        result: &ToolExecutionResult,
    ) -> ToolResultView {
        ToolResultView::present(self.definition, self.execution.arguments(), pending, result)
    }
}

impl std::fmt::Debug for ObservedCall<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ObservedCall")
            .field("execution", self.execution)
            .field("resolved", &self.definition.is_some())
            .finish()
    }
}

/// Tells every call observer that the call started, in order.
pub(crate) fn notify_start(observers: &[HookEntry<dyn CallObserver>], call: &ObservedCall<'_>) {
    for entry in observers {
        if let Err(message) = catch_panic(|| entry.hook.on_start(call)) {
            log_failure(call.execution, "on_start", &message);
        }
    }
}

/// Shows every call observer the call's final `result`, in order.
pub(crate) fn notify_result(
    observers: &[HookEntry<dyn CallObserver>],
    call: &ObservedCall<'_>,
    result: &ToolExecutionResult,
) {
    for entry in observers {
        if let Err(message) = catch_panic(|| entry.hook.on_result(call, result)) {
            log_failure(call.execution, "on_result", &message);
        }
    }
}

/// The progress sink of a call that call observers follow: the caller's own sink first, then
/// each observer, in order.
pub(crate) struct ObservedProgress {
    caller: Option<SharedSink>,
    observers: HookList<dyn CallObserver>,
    definition: Option<Arc<dyn ToolDefinition>>,
}

impl ObservedProgress {
    /// The sink of a call with the caller's `sink`, followed by `observers`.
    pub(crate) fn sink(
        caller: Option<SharedSink>,
        observers: &HookList<dyn CallObserver>,
        definition: Option<&Arc<dyn ToolDefinition>>,
    ) -> SharedSink {
        SharedSink(Arc::new(Self {
            caller,
            observers: Arc::clone(observers),
            definition: definition.cloned(),
        }))
    }
}

impl ProgressSink for ObservedProgress {
    fn report(&self, execution: &ToolExecution, progress: ToolProgress) {
        if let Some(caller) = &self.caller {
            caller.deliver(execution, progress.clone());
        }
        let call = ObservedCall::new(execution, self.definition.as_ref());
        for entry in self.observers.iter() {
            if let Err(message) = catch_panic(|| entry.hook.on_progress(&call, &progress)) {
                log_failure(execution, "on_progress", &message);
            }
        }
    }
}

fn log_failure(execution: &ToolExecution, method: &str, message: &str) {
    tracing::warn!(
        tool = execution.name(),
        call_id = execution.call_id(),
        "tool \"{}\" ({}): call observer {method} panicked: {message}",
        execution.name(),
        execution.call_id(),
    );
}
