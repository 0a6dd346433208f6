//! Following a task: when an imported tool's server answers `tools/call` with a task (MCP's
//! tasks extension, which an import declares), the call polls `tasks/get` until the task settles
//! and our caller sees an ordinary call.
//!
//! - Polls are spaced by the interval the server suggests (`pollIntervalMs`, re-read from every
//!   answer; [`FALLBACK_POLL_INTERVAL`] without one).
//! - `completed` carries the `tools/call` result, which `imported.rs` maps as it maps a plain
//!   one; progress keeps flowing to the call's run meanwhile (the request's progress route stays
//!   open while this polls).
//! - The call's signal sends `tasks/cancel` and ends the call as `ABORTED`, without waiting for
//!   the server to settle the task.
//! - `failed`, `cancelled` (by the server), a task that asks for input mid-task (which an import
//!   does not answer; it cancels the task), one the server no longer knows (expired), and a
//!   broken connection are `MCP_TRANSPORT` results saying which.

use std::time::Duration;

use rmcp::model as mcp;
use rmcp::service::{Peer, RoleClient, ServiceError};
use serde_json::Value;

use crate::call::run::ToolRun;
use crate::error::ToolError;

/// How long to wait between polls of a task whose server suggests no interval.
const FALLBACK_POLL_INTERVAL: Duration = Duration::from_millis(500);

/// Polls the task `created` on `peer` until it settles and returns the call's result; `server`
/// and `tool` (the server's name of the tool) are for messages.
pub(crate) async fn follow_task(
    peer: &Peer<RoleClient>,
    server: &str,
    tool: &str,
    created: mcp::CreateTaskResult,
    run: &ToolRun,
) -> Result<mcp::CallToolResult, ToolError> {
    let task_id = created.task.task_id;
    let mut interval = poll_interval(created.task.poll_interval_ms);
    let failed = |what: String| {
        ToolError::mcp_transport(format!(
            "MCP server \"{server}\" {what} (task \"{task_id}\" of tools/call \"{tool}\")"
        ))
    };
    loop {
        tokio::select! {
            () = tokio::time::sleep(interval) => {}
            () = run.cancelled() => {
                cancel_in_background(peer, &task_id);
                return Err(ToolError::aborted());
            }
        }
        let polled = tokio::select! {
            polled = peer.get_task(mcp::GetTaskParams::new(task_id.clone())) => polled,
            () = run.cancelled() => {
                cancel_in_background(peer, &task_id);
                return Err(ToolError::aborted());
            }
        };
        let detailed = match polled {
            Ok(answer) => answer.task,
            Err(ServiceError::McpError(error)) => {
                return Err(failed(format!(
                    "no longer knows the task (expired?): {} (JSON-RPC error {})",
                    error.message, error.code.0
                )));
            }
            Err(error) => return Err(failed(format!("could not be polled: {error}"))),
        };
        interval = poll_interval(detailed.task.poll_interval_ms);
        match detailed.payload {
            mcp::TaskPayload::Working => {}
            mcp::TaskPayload::Completed { result } => {
                return serde_json::from_value(Value::Object(result)).map_err(|error| {
                    failed(format!(
                        "completed the task with a malformed tool result: {error}"
                    ))
                });
            }
            mcp::TaskPayload::Failed { error } => {
                let message = error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("no reason given");
                return Err(failed(format!("failed the task: {message}")));
            }
            mcp::TaskPayload::Cancelled => {
                let why = detailed
                    .task
                    .status_message
                    .map_or_else(String::new, |message| format!(": {message}"));
                return Err(failed(format!("cancelled the task{why}")));
            }
            mcp::TaskPayload::InputRequired { .. } => {
                cancel_in_background(peer, &task_id);
                return Err(failed(
                    "asked for input mid-task, which an imported call cannot give; the task was cancelled"
                        .to_owned(),
                ));
            }
            // A status this version does not know is not final: keep polling.
            _ => {}
        }
    }
}

/// The wait before the next poll: the server's suggestion, or [`FALLBACK_POLL_INTERVAL`].
fn poll_interval(suggested_ms: Option<u64>) -> Duration {
    suggested_ms.map_or(FALLBACK_POLL_INTERVAL, Duration::from_millis)
}

/// Sends `tasks/cancel` without waiting for the answer: the call has ended for our caller, and
/// a server that is gone needs no cancellation.
fn cancel_in_background(peer: &Peer<RoleClient>, task_id: &str) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    let peer = peer.clone();
    let params = mcp::CancelTaskParams::new(task_id.to_owned());
    runtime.spawn(async move {
        let _ = peer.cancel_task(params).await;
    });
}
