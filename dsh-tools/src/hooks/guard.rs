//! Guards: the synchronous, deny-only shape of a `pre-execute` listener.
//!
//! A guard is a closure that looks at a call and may give a reason to deny it. [`Guard`] adapts
//! it to the `pre-execute` contract — deny with the reason, or hand the call on to the next
//! guard — so guards are kept and run as a `pre-execute` waterfall of their own, which the
//! pipeline starts only after the whole `pre-execute` waterfall (and approval) allowed the call.
//! Every guard decides synchronously, so the guards' waterfall is over as soon as it is started.
//! A guard can only narrow: it cannot allow what the listeners denied (it never sees such a
//! call), and nothing that runs later can turn its denial back into an allow, because nothing
//! later runs for a denied call.

use crate::call::execution::ToolExecution;
use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::hooks::pre_execute::{PreExecuteHook, PreExecuteNext, PreToolDecision};

/// A guard closure (`Some(reason)` denies the call) as a `pre-execute` listener.
pub(crate) struct Guard<F>(pub(crate) F);

impl<F> PreExecuteHook for Guard<F>
where
    F: Fn(&ToolExecution) -> Option<String> + Send + Sync + 'static,
{
    fn call(
        &self,
        execution: ToolExecution,
        next: PreExecuteNext,
    ) -> BoxFuture<'static, Result<PreToolDecision, ToolError>> {
        decided((self.0)(&execution), next)
    }
}

/// A guard's answer as the `pre-execute` contract has it: deny with the reason, or hand the
/// call on to the next guard. Shared by every kind of guard (`name_guard.rs` too).
pub(crate) fn decided(
    reason: Option<String>,
    next: PreExecuteNext,
) -> BoxFuture<'static, Result<PreToolDecision, ToolError>> {
    match reason {
        Some(reason) => Box::pin(std::future::ready(Ok(PreToolDecision::Deny { reason }))),
        None => next.run(),
    }
}

/// What the guards' waterfall decided, as a denial: guards only deny or hand a call on, so any
/// decision but `Allow` refuses it (a guard never widens what the listeners allowed).
pub(crate) fn denial(decision: PreToolDecision) -> Option<String> {
    match decision {
        PreToolDecision::Allow => None,
        PreToolDecision::Deny { reason } => Some(reason),
        PreToolDecision::Ask { reason } => Some(reason.unwrap_or_default()),
    }
}
