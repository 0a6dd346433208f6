//! Where a `pre-execute` `ask` goes: to the call's own approver if its input carries one, else to
//! the registry's [`Approver`]; its outcome becomes an allow, a denial with a fixed reason, an
//! abort, or a pending approval (answered by a later attempt of the call); without an approver,
//! a denial — unless the registry keeps approvals in its call store (feature `durable`): then an
//! `ask` that no approver answers now (none installed, or it answers `Unavailable`) waits there
//! as a signed approval any process may decide, and the call's retry uses the decision.

use std::sync::Arc;

use crate::call::context::CallContext;
use crate::errors::tool_error::ToolError;
use crate::future::{BoxFuture, CatchUnwind};
use crate::hooks::approval::{ApprovalOutcome, ApprovalRequest, Approver, call_approver};
use crate::pipeline::failure::{HookPhase, hook_panicked};
use crate::pipeline::policy_events;

/// What an `ask` turned into.
#[derive(Debug)]
pub(crate) enum AskVerdict {
    Allow,
    Deny(String),
    AbortedBeforeDispatch,
    /// The answer comes with a later attempt of the call.
    Pending,
    /// The approval waits in the call store for someone to decide it.
    #[cfg(feature = "durable")]
    Waiting(crate::durable::record::ApprovalRecord),
}

/// Routes an `ask` to the call's own approver, or else to the registry's `approver`; an `Err`
/// ends the call (the approver failed or panicked).
pub(crate) async fn resolve_ask(
    approver: Option<Arc<dyn Approver>>,
    call: &CallContext,
    reason: Option<String>,
) -> Result<AskVerdict, ToolError> {
    let execution = call.execution();
    let definition = call.definition.clone();
    let name = execution.name();
    let Some(approver) = call_approver(execution).or(approver) else {
        #[cfg(feature = "durable")]
        if let Some(verdict) = wait_in_store(call, reason.as_deref()).await {
            return verdict;
        }
        policy_events::approval_resolved("no_approver");
        return Ok(AskVerdict::Deny(reason.unwrap_or_else(|| {
            format!("tool \"{name}\" requires approval, but no approver is installed")
        })));
    };
    #[cfg(feature = "durable")]
    let kept_reason = reason.clone();
    let request = ApprovalRequest::new(execution.clone(), reason, definition);
    // Called inside the future so that a panic in the call itself is caught too.
    let asking: BoxFuture<'static, _> = Box::pin(async move { approver.approve(request).await });
    let outcome = match CatchUnwind::new(asking).await {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(error)) => {
            policy_events::approval_resolved("failed");
            return Err(error);
        }
        Err(message) => {
            policy_events::approval_resolved("failed");
            return Err(hook_panicked(HookPhase::Approver, &message));
        }
    };
    policy_events::approval_resolved(match outcome {
        ApprovalOutcome::AllowedOnce => "allowed_once",
        ApprovalOutcome::Rejected => "rejected",
        ApprovalOutcome::Cancelled => "cancelled",
        ApprovalOutcome::Unavailable => "unavailable",
        ApprovalOutcome::Pending => "pending",
    });
    Ok(match outcome {
        ApprovalOutcome::AllowedOnce => AskVerdict::Allow,
        ApprovalOutcome::Rejected => AskVerdict::Deny(format!("the user rejected tool \"{name}\"")),
        ApprovalOutcome::Cancelled if execution.is_cancelled() => AskVerdict::AbortedBeforeDispatch,
        ApprovalOutcome::Cancelled => {
            AskVerdict::Deny(format!("approval for tool \"{name}\" was cancelled"))
        }
        #[cfg(feature = "durable")]
        ApprovalOutcome::Unavailable if kept(call) => {
            return wait_in_store(call, kept_reason.as_deref())
                .await
                .unwrap_or_else(|| unreachable!("the store keeps approvals"));
        }
        ApprovalOutcome::Unavailable => AskVerdict::Deny(format!(
            "tool \"{name}\" requires approval, but no approval channel is available"
        )),
        ApprovalOutcome::Pending => AskVerdict::Pending,
    })
}

/// Whether the registry keeps approvals in its call store.
#[cfg(feature = "durable")]
fn kept(call: &CallContext) -> bool {
    call.durability
        .as_ref()
        .is_some_and(|durability| durability.keeps_approvals())
}

/// The call's approval waiting in the store, when the registry keeps approvals there (`None`
/// otherwise): recorded the first time, then used once decided.
#[cfg(feature = "durable")]
async fn wait_in_store(
    call: &CallContext,
    reason: Option<&str>,
) -> Option<Result<AskVerdict, ToolError>> {
    use crate::durable::approval::{Asking, Waiting};
    let durability = call.durability.as_ref().filter(|_| kept(call))?;
    let execution = call.execution();
    let key = execution.idempotency_key();
    let asking = Asking {
        key: &key,
        tool: execution.name(),
        agent: execution.agent().map(crate::ids::AgentId::as_str),
        arguments: execution.arguments(),
        reason,
    };
    let mut waiting = durability.wait_for_approval(&asking).await;
    if matches!(waiting, Ok(Waiting::Used)) && journaled(call) {
        // An approval allows one run of the body. The journal answers a later attempt of a
        // journaled call without running it (replayed, or in doubt); an attempt it would run
        // again (the one that used the approval failed, say) asks anew.
        let rerunnable = call.definition.as_ref().is_some_and(|definition| {
            crate::pipeline::journal::may_run_again(
                &definition.options().annotations,
                crate::store::code_mode::kept::is_run_code(execution.name()),
            )
        });
        waiting = match durability.answers_without_body(&key, rerunnable).await {
            Ok(true) => Ok(Waiting::Allowed),
            Ok(false) => durability.ask_again(&asking).await,
            Err(error) => Err(error),
        };
    }
    Some(match waiting {
        Ok(Waiting::Pending(approval)) => Ok(AskVerdict::Waiting(approval)),
        Ok(Waiting::Allowed) => Ok(AskVerdict::Allow),
        Ok(Waiting::Used) => Ok(AskVerdict::Deny(format!(
            "approval {} was already used by an earlier attempt of this call",
            crate::durable::approval::approval_id(&key)
        ))),
        Ok(Waiting::Denied(reason)) => Ok(AskVerdict::Deny(reason)),
        Err(error) => Err(ToolError::store_failed(error.message())),
    })
}

/// Whether the call's tool is journaled, so that the journal decides whether a later attempt
/// runs its body again.
#[cfg(feature = "durable")]
fn journaled(call: &CallContext) -> bool {
    call.definition
        .as_ref()
        .is_some_and(|definition| definition.options().journal.enabled)
}
