//! Following a task: when an imported tool's server answers `tools/call` with a task (MCP's
//! tasks extension, which an import declares), the call polls `tasks/get` until the task settles
//! and our caller sees an ordinary call.
//!
//! - Polls are spaced by the interval the server suggests (`pollIntervalMs`, re-read from every
//!   answer; [`FALLBACK_POLL_INTERVAL`] without one).
//! - `completed` carries the `tools/call` result, which `imported.rs` maps as it maps a plain
//!   one; progress keeps flowing to the call's run meanwhile (the request's progress route stays
//!   open while this polls).
//! - A running task's status message is progress too, for a caller that listens: each new one
//!   is reported to the run (counted 1, 2, … with the message), until the server sends the call
//!   a progress notification of its own, which then speaks alone. A server behind stateless
//!   replicas can say how far a task came only this way: the request that started it was
//!   answered with the task.
//! - The call's signal sends `tasks/cancel` and ends the call as `ABORTED`, without waiting for
//!   the server to settle the task.
//! - A task that asks for input mid-task (`input_required`) has its elicitation requests
//!   answered by the client's handler and the answers sent with `tasks/update`
//!   (`input_required.rs`; each request once, at most `MAX_INPUT_ROUNDS` rounds per task); a
//!   request this client does not answer (sampling, roots), or one round too many, cancels the
//!   task.
//! - `failed`, `cancelled` (by the server), input this client does not give, a poll the server
//!   answers with an error (an unknown task: its words and code, as received), and a broken
//!   connection are `MCP_TRANSPORT` results saying which.

use std::collections::HashSet;
use std::time::Duration;

use rmcp::model as mcp;
use rmcp::service::{Peer, RoleClient, ServiceError};
use serde_json::Value;

use crate::call::run::ToolRun;
use crate::errors::tool_error::ToolError;
use crate::mcp::importing::elicitation::ElicitationSlot;
use crate::mcp::importing::input_required::{
    MAX_INPUT_ROUNDS, answer_input_requests, too_many_rounds,
};
use crate::mcp::importing::progress_routes::ProgressRoute;
use crate::progress::ToolProgress;

/// A running task's status messages as progress reports of the call following it (see the
/// module docs).
struct StatusProgress<'a> {
    /// The call's progress route; `None` when its caller does not listen.
    route: Option<&'a ProgressRoute>,
    /// The last status message seen.
    last: Option<String>,
    /// How many were reported.
    reported: u32,
}

impl<'a> StatusProgress<'a> {
    fn new(route: Option<&'a ProgressRoute>) -> Self {
        Self {
            route,
            last: None,
            reported: 0,
        }
    }

    /// Reports `task`'s status message to `run` when it is new and the server has not spoken
    /// through notifications.
    fn saw(&mut self, task: &mcp::Task, run: &ToolRun) {
        let Some(route) = self.route else { return };
        let Some(message) = &task.status_message else {
            return;
        };
        if self.last.as_ref() == Some(message) || route.notified() {
            return;
        }
        self.reported += 1;
        run.report_progress(ToolProgress {
            message: Some(message.clone()),
            ..ToolProgress::from(f64::from(self.reported))
        });
        self.last = Some(message.clone());
    }
}

/// How long to wait between polls of a task whose server suggests no interval.
const FALLBACK_POLL_INTERVAL: Duration = Duration::from_millis(500);

/// Polls the task `created` on `peer` until it settles and returns the call's result; the
/// task's questions go to the handler in `elicitation`; `server` and `tool` (the server's name
/// of the tool) are for messages.
pub(crate) async fn follow_task(
    peer: &Peer<RoleClient>,
    server: &str,
    elicitation: &ElicitationSlot,
    tool: &str,
    created: mcp::CreateTaskResult,
    run: &ToolRun,
    route: Option<&ProgressRoute>,
) -> Result<mcp::CallToolResult, ToolError> {
    let mut status = StatusProgress::new(route);
    status.saw(&created.task, run);
    let task_id = created.task.task_id;
    let mut interval = poll_interval(created.task.poll_interval_ms);
    // Keys are unique over a task's life: one answered is never answered again.
    let mut answered: HashSet<String> = HashSet::new();
    let mut rounds = 0;
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
            // Only the server knows why (an unknown task, a task it forgot, a bad request): say
            // what it answered rather than guess.
            Err(ServiceError::McpError(error)) => {
                return Err(failed(format!(
                    "answered tasks/get with JSON-RPC error {}: {}",
                    error.code.0, error.message
                )));
            }
            Err(error) => return Err(failed(format!("could not be polled: {error}"))),
        };
        interval = poll_interval(detailed.task.poll_interval_ms);
        if !detailed.status().is_terminal() {
            status.saw(&detailed.task, run);
        }
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
            mcp::TaskPayload::InputRequired { input_requests } => {
                let open: mcp::InputRequests = input_requests
                    .into_iter()
                    .filter(|(key, _)| !answered.contains(key))
                    .collect();
                if open.is_empty() {
                    // Answered already; the server has not taken the answers in yet.
                    continue;
                }
                rounds += 1;
                if rounds > MAX_INPUT_ROUNDS {
                    cancel_in_background(peer, &task_id);
                    return Err(too_many_rounds(server, tool));
                }
                answered.extend(open.keys().cloned());
                let answering = answer_input_requests(elicitation, server, tool, open);
                let responses = tokio::select! {
                    responses = answering => responses,
                    () = run.cancelled() => {
                        cancel_in_background(peer, &task_id);
                        return Err(ToolError::aborted());
                    }
                };
                let responses = match responses {
                    Ok(responses) => responses,
                    Err(error) => {
                        cancel_in_background(peer, &task_id);
                        return Err(error);
                    }
                };
                let update = mcp::UpdateTaskParams::new(task_id.clone(), responses);
                if let Err(error) = peer.update_task(update).await {
                    return Err(failed(format!(
                        "did not take the answers to its input requests: {error}"
                    )));
                }
                // The task goes on with the answers: see where it is at once.
                interval = Duration::ZERO;
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
