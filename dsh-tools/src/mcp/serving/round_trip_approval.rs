//! Approval through the client over multi-round-trip requests: the 2026-07-28 way of asking the
//! user of a client that declared form elicitation, on a protocol where the server sends the
//! client no requests of its own.
//!
//! A served call whose `pre-execute` hook answers `ask` and that carries no answer yet ends this
//! attempt without running: the call's own approver ([`RoundTripApprover`]) answers
//! [`ApprovalOutcome::Pending`], the pipeline ends the attempt as `APPROVAL_PENDING` (no body,
//! no denial, no `post-execute`), and the session answers the `tools/call` with an
//! `InputRequiredResult` instead of that result: one elicitation input request, under the key
//! [`APPROVAL_INPUT`], with the question and the form of `client_approval.rs` (tool, reason,
//! arguments excerpt; `decision`: `approve` or `deny`), and a `requestState`. The client asks
//! its user and retries the call with the answer in `inputResponses` and the state echoed; that
//! attempt runs the pipeline again, and its `ask` is answered from the retry with the mapping of
//! `client_approval.rs`: accept with `approve` → allowed once; accept with anything else, or
//! decline → rejected; cancel → cancelled.
//!
//! The retry is untrusted. Its answer counts only when its `requestState` is the state of this
//! very call (`request_state.rs`: a keyed digest of the tool, the served agent and the canonical
//! arguments under the server's secret). A retry without a state, with a forged one, or with
//! the state of another call (a different tool or different arguments) carries no answer: its
//! `ask` is asked again, about the call it actually makes, with a fresh state. It is never
//! approved, and an honest client whose arguments changed between attempts still gets a
//! question it can answer rather than a denial. A retry with this call's state whose answer is
//! not a readable elicitation result is rejected, as a form filled wrongly is.
//!
//! Only the served call itself is asked this way. An `ask` of a call it makes (a `run_code`
//! program's nested call) cannot wait for a later attempt without the program running again
//! from its start, so it is answered `Unavailable`: the documented denial, or, on a registry
//! whose call store keeps approvals, an approval that waits there and pauses the run until
//! someone decides it (the run's retry then resumes the program from the journal).

use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model as mcp;
use serde_json::Value;

use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::hooks::approval::{ApprovalOutcome, ApprovalRequest, Approver};
use crate::mcp::serving::client_approval::{approval_message, decision_form, outcome_of_response};
use crate::mcp::serving::request_state::RequestStateKey;
use crate::mcp::serving::revision::RequestClient;

/// The key of the approval question in `inputRequests`, and of its answer in `inputResponses`.
pub(crate) const APPROVAL_INPUT: &str = "approval";

/// One attempt of a served call whose client answers approvals through multi-round-trip
/// requests.
pub(crate) struct RoundTripApproval {
    tool: String,
    /// The state of this call, sent with the question.
    state: String,
    /// The answer this attempt carries, when its state is this call's.
    answer: Option<ApprovalOutcome>,
    /// The question this attempt left open, for the `InputRequiredResult`.
    asked: Arc<Mutex<Option<String>>>,
}

impl RoundTripApproval {
    /// The approval of the call `request` makes, when its client (`client`) can be asked this
    /// way: it speaks 2026-07-28 (or later) and declared form elicitation. `key` is the server's
    /// secret (none: no client is asked this way) and `agent` the served scope's agent.
    pub(crate) fn for_request(
        client: RequestClient,
        request: &mcp::CallToolRequestParams,
        key: Option<&RequestStateKey>,
        agent: Option<&str>,
    ) -> Option<Self> {
        if !client.per_request || !client.answers_forms {
            return None;
        }
        let key = key?;
        let tool = request.name.to_string();
        let arguments = Value::Object(request.arguments.clone().unwrap_or_default());
        let answer = match request.request_state.as_deref() {
            None => None,
            Some(state) if key.opens(state, &tool, agent, &arguments) => {
                answer_of(&tool, request.input_responses.as_ref())
            }
            Some(_) => {
                tracing::info!(
                    tool = tool.as_str(),
                    "the requestState of a tools/call retry is not this call's (another call's, \
                     or forged): its answer is ignored and the approval asked again"
                );
                None
            }
        };
        Some(Self {
            state: key.seal(&tool, agent, &arguments),
            tool,
            answer,
            asked: Arc::default(),
        })
    }

    /// The approver of this attempt, to set as the call's own.
    pub(crate) fn approver(&self) -> RoundTripApprover {
        RoundTripApprover {
            answer: self.answer,
            asked: Arc::clone(&self.asked),
        }
    }

    /// The `InputRequiredResult` to answer with when this attempt's `ask` is waiting for the
    /// client's user; `None` when the attempt ended otherwise (its result is the answer).
    pub(crate) fn input_required(&self) -> Option<mcp::InputRequiredResult> {
        let message = self
            .asked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()?;
        tracing::debug!(
            tool = self.tool.as_str(),
            "the call waits for its client's approval (InputRequiredResult)"
        );
        let params = mcp::ElicitRequestParams::FormElicitationParams {
            meta: None,
            message,
            requested_schema: decision_form(),
        };
        let mut requests = mcp::InputRequests::new();
        requests.insert(
            APPROVAL_INPUT.to_owned(),
            mcp::InputRequest::Elicitation(mcp::ElicitRequest::new(params)),
        );
        Some(mcp::InputRequiredResult::new(
            Some(requests),
            Some(self.state.clone()),
        ))
    }
}

/// The answer to the approval question in a retry's `inputResponses` (whose state is the call's
/// own): `None` when there is none, rejected when it is not an elicitation result.
fn answer_of(tool: &str, responses: Option<&mcp::InputResponses>) -> Option<ApprovalOutcome> {
    let response = responses?.get(APPROVAL_INPUT)?;
    Some(outcome_of_response(tool, response))
}

/// Answers the `ask` of one attempt of a served call: with the client's answer it carries, or
/// [`ApprovalOutcome::Pending`], leaving the question for the `InputRequiredResult`.
pub(crate) struct RoundTripApprover {
    answer: Option<ApprovalOutcome>,
    asked: Arc<Mutex<Option<String>>>,
}

impl Approver for RoundTripApprover {
    fn approve(
        &self,
        request: ApprovalRequest,
    ) -> BoxFuture<'static, Result<ApprovalOutcome, ToolError>> {
        let outcome = if request.execution.parent().is_some() {
            // A nested call cannot wait for a later attempt of the served one.
            ApprovalOutcome::Unavailable
        } else if let Some(answer) = self.answer {
            answer
        } else {
            *self.asked.lock().unwrap_or_else(PoisonError::into_inner) =
                Some(approval_message(&request));
            ApprovalOutcome::Pending
        };
        Box::pin(std::future::ready(Ok(outcome)))
    }
}

#[cfg(test)]
mod tests {
    use super::{APPROVAL_INPUT, answer_of};
    use crate::hooks::approval::ApprovalOutcome;
    use rmcp::model as mcp;
    use serde_json::json;

    fn responses(answer: serde_json::Value) -> mcp::InputResponses {
        [(APPROVAL_INPUT.to_owned(), answer)].into_iter().collect()
    }

    #[test]
    fn a_retry_answers_with_the_mapping_of_the_elicitation_answer() {
        let cases = [
            (
                json!({"action": "accept", "content": {"decision": "approve"}}),
                Some(ApprovalOutcome::AllowedOnce),
            ),
            (
                json!({"action": "accept", "content": {"decision": "deny"}}),
                Some(ApprovalOutcome::Rejected),
            ),
            (
                json!({"action": "decline"}),
                Some(ApprovalOutcome::Rejected),
            ),
            (
                json!({"action": "cancel"}),
                Some(ApprovalOutcome::Cancelled),
            ),
            // Not an elicitation result: never an approval.
            (
                json!({"decision": "approve"}),
                Some(ApprovalOutcome::Rejected),
            ),
            (json!("approve"), Some(ApprovalOutcome::Rejected)),
        ];
        for (answer, outcome) in cases {
            assert_eq!(
                answer_of("write", Some(&responses(answer.clone()))),
                outcome,
                "{answer}"
            );
        }
        // No answer under the question's key, or none at all: nothing answered yet.
        let elsewhere: mcp::InputResponses = [(
            "other".to_owned(),
            json!({"action": "accept", "content": {"decision": "approve"}}),
        )]
        .into_iter()
        .collect();
        assert_eq!(answer_of("write", Some(&elsewhere)), None);
        assert_eq!(answer_of("write", None), None);
    }
}
