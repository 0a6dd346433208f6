//! Approval inside a served task over the per-request protocol (2026-07-28): a task's call
//! whose `pre-execute` hook answers `ask` puts the question in the task itself. The task reports
//! `input_required` with one elicitation input request (the question and the form of
//! `client_approval.rs`: tool, reason, arguments excerpt; `decision`: `approve` or `deny`), the
//! client's `tasks/update` answers it, and the answer maps as it does everywhere: accept with
//! `approve` → allowed once; accept with anything else, an answer that is no elicitation result,
//! or decline → rejected; cancel → cancelled. `tasks/cancel` while the question waits cancels
//! the call (`ABORTED_BEFORE_DISPATCH`), as a cancelled caller does.
//!
//! When the served registry has a call store, the question is recorded with the task and the
//! answer may come through any replica sharing the store (`task_book.rs`); the approver here
//! sees no difference.
//!
//! A task lives on between the client's polls, so unlike a plain call's multi-round-trip
//! approval the call waits for the answer and nothing runs twice. Each question a task asks has a
//! key of its own (`approval`, then `approval-2`, …), as the extension requires.
//!
//! Over a session (2025-11-25) a task's call asks with `elicitation/create` instead, as a plain
//! call does (`client_approval.rs`).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rmcp::model as mcp;
use rmcp::task_manager::{TaskContext, TaskExit};

use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::hooks::approval::{ApprovalOutcome, ApprovalRequest, Approver};
use crate::mcp::serving::client_approval::{approval_message, decision_form, outcome_of_response};
use crate::mcp::serving::round_trip_approval::APPROVAL_INPUT;

/// Asks the client of one served task about the calls the task makes.
pub(crate) struct TaskApprover {
    task: TaskContext,
    /// Questions asked so far: each gets a key of its own.
    asked: Arc<AtomicUsize>,
}

impl TaskApprover {
    pub(crate) fn new(task: TaskContext) -> Self {
        Self {
            task,
            asked: Arc::default(),
        }
    }
}

impl Approver for TaskApprover {
    fn approve(
        &self,
        request: ApprovalRequest,
    ) -> BoxFuture<'static, Result<ApprovalOutcome, ToolError>> {
        let task = self.task.clone();
        let number = self.asked.fetch_add(1, Ordering::Relaxed) + 1;
        Box::pin(async move {
            let key = match number {
                1 => APPROVAL_INPUT.to_owned(),
                n => format!("{APPROVAL_INPUT}-{n}"),
            };
            let params = mcp::ElicitRequestParams::FormElicitationParams {
                meta: None,
                message: approval_message(&request),
                requested_schema: decision_form(),
            };
            let question = mcp::InputRequest::Elicitation(mcp::ElicitRequest::new(params));
            let tool = request.execution.name();
            let signal = request.execution.signal().clone();
            let answer = tokio::select! {
                answer = task.request_input(key, question) => answer,
                // The call was cancelled (`tasks/cancel`, expiry): no one waits any more.
                () = signal.cancelled() => return Ok(ApprovalOutcome::Cancelled),
            };
            Ok(match answer {
                Ok(response) => outcome_of_response(tool, &response),
                Err(TaskExit::Cancelled) => {
                    if task.is_cancel_requested() {
                        // `tasks/cancel` dropped the question: the task cancels the call's
                        // signal next, and the call then ends as cancelled, not as a refusal.
                        signal.cancelled().await;
                    }
                    ApprovalOutcome::Cancelled
                }
                Err(error) => {
                    tracing::warn!(tool, "the task could not ask its client: {error:?}");
                    ApprovalOutcome::Unavailable
                }
            })
        })
    }
}
