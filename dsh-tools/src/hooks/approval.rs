//! The approval seam: where a `pre-execute` `ask` goes.
//!
//! An [`Approver`] (a UI prompt, a policy service) answers with one of five outcomes. Only
//! [`ApprovalOutcome::AllowedOnce`] lets the call go on (guards still apply); a rejection, a
//! cancellation, `Unavailable`, and the absence of an approver are denials with a fixed reason.
//! An approval that was cancelled because the caller cancelled ends the call as
//! `ABORTED_BEFORE_DISPATCH`. [`ApprovalOutcome::Pending`] is neither: the question went to
//! someone who answers with a later attempt of the same call (an MCP client on multi-round-trip
//! requests), so this attempt ends before dispatch as `APPROVAL_PENDING`, without a denial. Calls
//! without an agent are routed too; an approver that cannot place them answers `Unavailable`.
//!
//! A call may carry an approver of its own ([`ToolExecutionInput::with_approver`]), which answers
//! its `ask`s instead of the registry's: a bridge that knows who is on the other end of one
//! call (an MCP client that can ask its user) routes that call's approval there, and every
//! other call still goes to the registry's approver.

use std::future::Future;
use std::sync::Arc;

use crate::call::definition::ToolDefinition;
use crate::call::execution::{ToolExecution, ToolExecutionInput};
use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;

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
    /// The question was handed to someone who answers with a later attempt of the same call:
    /// this attempt ends before dispatch, neither run nor denied, with `APPROVAL_PENDING`
    /// (`Error: tool "<name>" is waiting for approval`), which skips `post-execute`. Answer it
    /// only when the caller will make the call again with the answer, as the MCP bridge's
    /// approver does for a client on multi-round-trip requests (the client's retry carries its
    /// user's answer, which that attempt's approver then gives).
    Pending,
}

/// What an approver is asked about: data the registry hands over, read from its fields.
#[derive(Clone)]
#[non_exhaustive]
pub struct ApprovalRequest {
    /// The call awaiting approval (its [`signal`](ToolExecution::signal) says when the caller
    /// gives up).
    pub execution: ToolExecution,
    /// Why the `pre-execute` listener asked.
    pub reason: Option<String>,
    /// The tool's definition, when the name resolves (for its annotations and presenters).
    pub definition: Option<Arc<dyn ToolDefinition>>,
}

impl ApprovalRequest {
    pub(crate) fn new(
        execution: ToolExecution,
        reason: Option<String>,
        definition: Option<Arc<dyn ToolDefinition>>,
    ) -> Self {
        Self {
            execution,
            reason,
            definition,
        }
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

/// An approver shared by several calls or registries answers as itself.
impl<A: Approver + ?Sized> Approver for Arc<A> {
    fn approve(
        &self,
        request: ApprovalRequest,
    ) -> BoxFuture<'static, Result<ApprovalOutcome, ToolError>> {
        (**self).approve(request)
    }
}

/// An [`Approver`] made from a closure: what [`approver_fn`] returns. A wrapper rather than an
/// impl for every closure, which would overlap the impl for `Arc<A>`.
#[derive(Clone, Copy, Debug)]
struct ApproverFn<F>(F);

/// Makes an [`Approver`] from `f(request)`; share it between registries as an `Arc` of it.
pub fn approver_fn<F, Fut>(f: F) -> impl Approver
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

/// A call's own approver, in the slot the call layer keeps for it.
struct CallApprover(Arc<dyn Approver>);

impl ToolExecutionInput {
    /// Lets `approver` answer this call's `ask` decisions (and those of the calls it makes
    /// through [`ToolRun::call_tool`](crate::ToolRun::call_tool)) instead of the registry's
    /// approver ([`ToolRegistry::set_approver`](crate::ToolRegistry::set_approver)). The MCP
    /// bridge sets one on each call of a client that can ask its user. An approver shared by
    /// several calls is an `Arc` of one.
    #[must_use]
    pub fn with_approver(self, approver: impl Approver) -> Self {
        self.with_shared_approver(Arc::new(approver))
    }

    /// Like [`with_approver`](Self::with_approver), with an approver already shared: set as
    /// it is, not wrapped once more.
    #[must_use]
    pub(crate) fn with_shared_approver(mut self, approver: Arc<dyn Approver>) -> Self {
        self.set_approver_slot(Arc::new(CallApprover(approver)));
        self
    }
}

/// The approver `execution` carries of its own, if any.
pub(crate) fn call_approver(execution: &ToolExecution) -> Option<Arc<dyn Approver>> {
    let slot = execution.approver_slot()?;
    slot.downcast_ref::<CallApprover>()
        .map(|own| Arc::clone(&own.0))
}
