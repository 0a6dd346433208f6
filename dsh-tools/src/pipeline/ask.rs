//! Where a `pre-execute` `ask` goes: to the call's own approver if its input carries one, else to
//! the registry's [`Approver`]; its outcome becomes an allow, a denial with a fixed reason, an
//! abort, or a pending approval (answered by a later attempt of the call); without an approver,
//! a denial.

use std::sync::Arc;

use crate::call::definition::ToolDefinition;
use crate::call::execution::ToolExecution;
use crate::error::ToolError;
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
}

/// Routes an `ask` to the call's own approver, or else to the registry's `approver`; an `Err`
/// ends the call (the approver failed or panicked).
pub(crate) async fn resolve_ask(
    approver: Option<Arc<dyn Approver>>,
    execution: &ToolExecution,
    definition: Option<Arc<dyn ToolDefinition>>,
    reason: Option<String>,
) -> Result<AskVerdict, ToolError> {
    let name = execution.name();
    let Some(approver) = call_approver(execution).or(approver) else {
        policy_events::approval_resolved("no_approver");
        return Ok(AskVerdict::Deny(reason.unwrap_or_else(|| {
            format!("tool \"{name}\" requires approval, but no approver is installed")
        })));
    };
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
        ApprovalOutcome::Unavailable => AskVerdict::Deny(format!(
            "tool \"{name}\" requires approval, but no approval channel is available"
        )),
        ApprovalOutcome::Pending => AskVerdict::Pending,
    })
}
