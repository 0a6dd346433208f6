//! The approval seam: where a `pre-execute` `ask` goes.
//!
//! An [`Approver`] (a UI prompt, a policy service) answers with one of four outcomes. Only
//! [`ApprovalOutcome::AllowedOnce`] lets the call go on (guards still apply); every other outcome,
//! and the absence of an approver, is a denial with a fixed reason. An approval that was cancelled
//! because the caller cancelled ends the call as `ABORTED_BEFORE_DISPATCH`. Calls without an
//! agent are routed too; an approver that cannot place them answers `Unavailable`.

use std::future::Future;
use std::sync::Arc;

use crate::definition::ToolDefinition;
use crate::error::ToolError;
use crate::execution::ToolExecution;
use crate::future::{BoxFuture, CatchUnwind};
use crate::pipeline::failure::{HookPhase, hook_panicked};

/// How an approval request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ApprovalOutcome {
    /// Run this call (and only this one).
    AllowedOnce,
    /// The user said no.
    Rejected,
    /// The request was withdrawn before anyone answered.
    Cancelled,
    /// No one can answer right now (no UI attached, channel closed).
    Unavailable,
}

/// What an approver is asked about.
#[derive(Clone)]
pub struct ApprovalRequest {
    execution: ToolExecution,
    reason: Option<String>,
    definition: Option<Arc<dyn ToolDefinition>>,
}

impl ApprovalRequest {
    /// The call awaiting approval (its [`signal`](ToolExecution::signal) says when the caller gives up).
    pub fn execution(&self) -> &ToolExecution {
        &self.execution
    }

    /// Why the `pre-execute` listener asked.
    pub fn reason(&self) -> Option<&str> {
        self.reason.as_deref()
    }

    /// The tool's definition, when the name resolves (for its annotations and presenters).
    pub fn definition(&self) -> Option<&Arc<dyn ToolDefinition>> {
        self.definition.as_ref()
    }
}

impl std::fmt::Debug for ApprovalRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApprovalRequest")
            .field("execution", &self.execution)
            .field("reason", &self.reason)
            .finish_non_exhaustive()
    }
}

/// Answers `ask` decisions. An error or a panic ends the call with a final error result.
pub trait Approver: Send + Sync + 'static {
    /// Decides about one call.
    fn approve(
        &self,
        request: ApprovalRequest,
    ) -> BoxFuture<'static, Result<ApprovalOutcome, ToolError>>;
}

/// An [`Approver`] made from a closure; see [`approver_fn`].
#[derive(Clone, Copy, Debug)]
pub struct ApproverFn<F>(F);

/// Makes an [`Approver`] from `f(request)`.
pub fn approver_fn<F, Fut>(f: F) -> ApproverFn<F>
where
    F: Fn(ApprovalRequest) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<ApprovalOutcome, ToolError>> + Send + 'static,
{
    ApproverFn(f)
}

impl<F, Fut> Approver for ApproverFn<F>
where
    F: Fn(ApprovalRequest) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<ApprovalOutcome, ToolError>> + Send + 'static,
{
    fn approve(
        &self,
        request: ApprovalRequest,
    ) -> BoxFuture<'static, Result<ApprovalOutcome, ToolError>> {
        Box::pin((self.0)(request))
    }
}

/// What an `ask` turned into.
#[derive(Debug)]
pub(crate) enum AskVerdict {
    Allow,
    Deny(String),
    AbortedBeforeDispatch,
}

/// Routes an `ask` to `approver`; an `Err` ends the call (the approver failed or panicked).
pub(crate) async fn resolve_ask(
    approver: Option<Arc<dyn Approver>>,
    execution: &ToolExecution,
    definition: Option<Arc<dyn ToolDefinition>>,
    reason: Option<String>,
) -> Result<AskVerdict, ToolError> {
    let name = execution.name();
    let Some(approver) = approver else {
        return Ok(AskVerdict::Deny(reason.unwrap_or_else(|| {
            format!("tool \"{name}\" requires approval, but no approver is installed")
        })));
    };
    let request = ApprovalRequest {
        execution: execution.clone(),
        reason,
        definition,
    };
    // Called inside the future so that a panic in the call itself is caught too.
    let asking: BoxFuture<'static, _> = Box::pin(async move { approver.approve(request).await });
    let outcome = match CatchUnwind::new(asking).await {
        Ok(outcome) => outcome?,
        Err(message) => return Err(hook_panicked(HookPhase::Approver, &message)),
    };
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
    })
}
