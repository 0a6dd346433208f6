//! Approval through the connected client: when a served call's `pre-execute` hook answers `ask`
//! and the client declared form elicitation, the session sets a [`ClientApprover`] as the call's
//! own approver ([`ToolExecutionInput::with_approver`](crate::ToolExecutionInput::with_approver)),
//! which asks the client's user with an `elicitation/create` request.
//!
//! The request names the tool, says why approval is needed, quotes the arguments (at most
//! [`MAX_ARGUMENTS_EXCERPT_CHARS`] characters of their JSON, with a marker saying how much was
//! cut) and asks for one field, `decision`, `approve` or `deny`. The answer maps onto the
//! approval seam's outcomes: accept with `approve` → allowed once; accept with `deny` (or with
//! anything else: a form the client filled wrongly never approves), or decline → rejected;
//! cancel → cancelled; a client that fails the request or goes away → unavailable. Each becomes
//! the pipeline's documented result (`DENIED` with its fixed reason, or
//! `ABORTED_BEFORE_DISPATCH` when the call itself was cancelled while waiting).
//!
//! Only a client that can be asked gets one. Over the per-request protocol (2026-07-28), which
//! forbids server-to-client requests, the same question and the same mapping go through
//! multi-round-trip requests instead (`round_trip_approval.rs`); for a client without the
//! capability, the call's `ask` goes to the registry's approver as for any other caller.

use rmcp::model as mcp;
use rmcp::service::{Peer, RequestContext, RoleServer};

use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::hooks::approval::{ApprovalOutcome, ApprovalRequest, Approver};
use crate::mcp::serving::revision::RequestClient;
use dsh_tools_schema::text_bounds::push_cut_marker;

/// The most characters of a call's arguments (as JSON) an approval request quotes.
pub(crate) const MAX_ARGUMENTS_EXCERPT_CHARS: usize = 512;

/// The form field the client's user answers.
const DECISION: &str = "decision";
const APPROVE: &str = "approve";
const DENY: &str = "deny";

/// Asks one client's user about the calls it made.
pub(crate) struct ClientApprover {
    peer: Peer<RoleServer>,
}

impl ClientApprover {
    /// The approver for the call of `context`, when its client (`client`) can be asked: it
    /// declared form elicitation and speaks a protocol that lets the server send it requests.
    pub(crate) fn for_request(
        context: &RequestContext<RoleServer>,
        client: RequestClient,
    ) -> Option<Self> {
        if client.per_request || !client.answers_forms {
            return None;
        }
        Some(Self {
            peer: context.peer.clone(),
        })
    }
}

impl Approver for ClientApprover {
    fn approve(
        &self,
        request: ApprovalRequest,
    ) -> BoxFuture<'static, Result<ApprovalOutcome, ToolError>> {
        let peer = self.peer.clone();
        Box::pin(async move {
            let params = mcp::ElicitRequestParams::FormElicitationParams {
                meta: None,
                message: approval_message(&request),
                requested_schema: decision_form(),
            };
            let signal = request.execution.signal().clone();
            let answer = tokio::select! {
                answer = peer.create_elicitation(params) => answer,
                // The caller gave up: no one waits for the answer any more.
                () = signal.cancelled() => return Ok(ApprovalOutcome::Cancelled),
            };
            Ok(match answer {
                Ok(answer) => outcome_of(&answer),
                Err(error) => {
                    tracing::warn!(
                        tool = request.execution.name(),
                        "the MCP client did not answer the approval request: {error}"
                    );
                    ApprovalOutcome::Unavailable
                }
            })
        })
    }
}

/// The client's answer as an approval outcome.
pub(crate) fn outcome_of(answer: &mcp::ElicitResult) -> ApprovalOutcome {
    match answer.action {
        mcp::ElicitationAction::Accept => {
            let decision = answer
                .content
                .as_ref()
                .and_then(|content| content.get(DECISION));
            match decision.and_then(serde_json::Value::as_str) {
                Some(APPROVE) => ApprovalOutcome::AllowedOnce,
                _ => ApprovalOutcome::Rejected,
            }
        }
        mcp::ElicitationAction::Decline => ApprovalOutcome::Rejected,
        mcp::ElicitationAction::Cancel => ApprovalOutcome::Cancelled,
        // An answer of a later revision that this one cannot read never approves.
        _ => ApprovalOutcome::Rejected,
    }
}

/// A client's answer that came as JSON (a retry's `inputResponses`, a task's `tasks/update`) as
/// an approval outcome: an answer that is not an elicitation result is rejected, as a form
/// filled wrongly is.
pub(crate) fn outcome_of_response(tool: &str, response: &serde_json::Value) -> ApprovalOutcome {
    match serde_json::from_value::<mcp::ElicitResult>(response.clone()) {
        Ok(answer) => outcome_of(&answer),
        Err(error) => {
            tracing::info!(
                tool,
                "the client's answer to an approval is not an elicitation result ({error}); \
                 the call is rejected"
            );
            ApprovalOutcome::Rejected
        }
    }
}

/// `Allow tool "<name>" to run?`, the reason, and an excerpt of the arguments.
pub(crate) fn approval_message(request: &ApprovalRequest) -> String {
    let execution = &request.execution;
    let mut message = format!("Allow tool \"{}\" to run?", execution.name());
    if let Some(reason) = request.reason.as_deref() {
        message.push_str("\nReason: ");
        message.push_str(reason);
    }
    message.push_str("\nArguments: ");
    push_excerpt(&mut message, &execution.arguments().to_string());
    message
}

/// Appends `text`, or its first [`MAX_ARGUMENTS_EXCERPT_CHARS`] characters and a cut marker.
fn push_excerpt(out: &mut String, text: &str) {
    match text.char_indices().nth(MAX_ARGUMENTS_EXCERPT_CHARS) {
        None => out.push_str(text),
        Some((end, _)) => {
            out.push_str(&text[..end]);
            push_cut_marker(out, text[end..].chars().count());
        }
    }
}

/// One required field: `decision`, `approve` or `deny`.
pub(crate) fn decision_form() -> mcp::ElicitationSchema {
    let choices = mcp::EnumSchema::builder(vec![APPROVE.to_owned(), DENY.to_owned()])
        .title("Decision")
        .build();
    mcp::ElicitationSchema::builder()
        .required_enum_schema(DECISION, choices)
        .build()
        // A form of one enum field always builds; an empty one would still ask for a decision.
        .unwrap_or_else(|_| mcp::ElicitationSchema::new(Default::default()))
}

#[cfg(test)]
mod tests {
    use super::{MAX_ARGUMENTS_EXCERPT_CHARS, outcome_of, push_excerpt};
    use crate::hooks::approval::ApprovalOutcome;
    use rmcp::model as mcp;
    use serde_json::json;

    fn answer(
        action: mcp::ElicitationAction,
        content: Option<serde_json::Value>,
    ) -> mcp::ElicitResult {
        let mut answer = mcp::ElicitResult::new(action);
        answer.content = content;
        answer
    }

    #[test]
    fn only_an_accepted_approve_allows_the_call() {
        use mcp::ElicitationAction::{Accept, Cancel, Decline};
        let cases = [
            (
                answer(Accept, Some(json!({"decision": "approve"}))),
                ApprovalOutcome::AllowedOnce,
            ),
            (
                answer(Accept, Some(json!({"decision": "deny"}))),
                ApprovalOutcome::Rejected,
            ),
            (
                answer(Accept, Some(json!({"decision": true}))),
                ApprovalOutcome::Rejected,
            ),
            (answer(Accept, Some(json!({}))), ApprovalOutcome::Rejected),
            (answer(Accept, None), ApprovalOutcome::Rejected),
            (answer(Decline, None), ApprovalOutcome::Rejected),
            (
                answer(Cancel, Some(json!({"decision": "approve"}))),
                ApprovalOutcome::Cancelled,
            ),
        ];
        for (answer, outcome) in cases {
            assert_eq!(outcome_of(&answer), outcome, "{answer:?}");
        }
    }

    #[test]
    fn the_arguments_excerpt_is_bounded_with_a_marker() {
        let mut short = String::new();
        push_excerpt(&mut short, r#"{"path":"a"}"#);
        assert_eq!(short, r#"{"path":"a"}"#);
        let long = "é".repeat(MAX_ARGUMENTS_EXCERPT_CHARS + 1000);
        let mut cut = String::new();
        push_excerpt(&mut cut, &long);
        assert_eq!(
            cut,
            format!(
                "{}…[+1,000 characters]",
                "é".repeat(MAX_ARGUMENTS_EXCERPT_CHARS)
            )
        );
    }
}
