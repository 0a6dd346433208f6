//! An imported server's requests for input: the `inputRequests` of an `InputRequiredResult` (a
//! server on multi-round-trip requests answering `tools/call` with what it needs first) and of a
//! task whose status is `input_required`.
//!
//! Each elicitation request goes to the client's elicitation handler (`elicitation.rs`; none
//! installed: declined, with a log line), and its answer is the response under the same key. A
//! server that asks for what this client does not answer — sampling (`sampling/createMessage`)
//! or roots (`roots/list`), which it does not declare — ends the call as `MCP_TRANSPORT` saying
//! so, before the user is asked anything. How often a call answers is bounded
//! ([`MAX_INPUT_ROUNDS`]), so a server that keeps asking cannot hold it forever.

use std::time::Duration;

use rmcp::model as mcp;
use serde_json::Value;

use crate::errors::tool_error::ToolError;
use crate::mcp::importing::elicitation::ElicitationSlot;

/// How many times one imported call answers a server's requests for input before it gives up
/// (`MCP_TRANSPORT`): rmcp's default for its own client, the other SDKs' too.
pub(crate) const MAX_INPUT_ROUNDS: usize = mcp::DEFAULT_MRTR_MAX_ROUNDS;

/// The wait before retrying after an `InputRequiredResult` that asks nothing (only a
/// `requestState`: the server is not ready yet), doubling to [`LONGEST_STATE_ONLY_WAIT`]; what
/// rmcp's and the Python SDK's clients wait.
pub(crate) const FIRST_STATE_ONLY_WAIT: Duration = Duration::from_millis(50);
pub(crate) const LONGEST_STATE_ONLY_WAIT: Duration = Duration::from_millis(250);

/// Answers `requests` of `server` (for tool `tool`, for messages) with the handler in `slot`.
pub(crate) async fn answer_input_requests(
    slot: &ElicitationSlot,
    server: &str,
    tool: &str,
    requests: mcp::InputRequests,
) -> Result<mcp::InputResponses, ToolError> {
    // Refused before anything is asked, so no user answers a question that cannot count.
    for request in requests.values() {
        let what = match request {
            mcp::InputRequest::Elicitation(_) => continue,
            mcp::InputRequest::CreateMessage(_) => "sampling (sampling/createMessage)",
            mcp::InputRequest::ListRoots(_) => "roots (roots/list)",
            _ => "input of a kind this client does not know",
        };
        return Err(ToolError::mcp_transport(format!(
            "MCP server \"{server}\" asked for {what} to complete tools/call \"{tool}\", which \
             this client does not answer"
        )));
    }
    let mut responses = mcp::InputResponses::new();
    for (key, request) in requests {
        let mcp::InputRequest::Elicitation(request) = request else {
            continue;
        };
        let answer = slot.answer(server, request.params).await;
        // An elicitation result always serializes.
        let answer = serde_json::to_value(answer).unwrap_or(Value::Null);
        responses.insert(key, answer);
    }
    Ok(responses)
}

/// The error of a call whose server still asked for input after [`MAX_INPUT_ROUNDS`] answers.
pub(crate) fn too_many_rounds(server: &str, tool: &str) -> ToolError {
    ToolError::mcp_transport(format!(
        "MCP server \"{server}\" still asked for input after {MAX_INPUT_ROUNDS} rounds of \
         tools/call \"{tool}\""
    ))
}
