//! Served calls as tasks (MCP's tasks extension, `io.modelcontextprotocol/tasks`): which
//! `tools/call` becomes a task, running it in the background, and `tasks/get`, `tasks/update`,
//! `tasks/cancel` and expiry.
//!
//! - A call becomes a task when the client declared the extension (at `initialize` or in the
//!   request's `_meta`) and the tool's [`TaskSupport`] is optional or required. The reply is the
//!   task at once (`resultType: "task"`, `working`); the call runs through the pipeline exactly
//!   as a plain one does (`session.rs`'s `run_call`: same call id, progress to the request's
//!   progress token) and its `tools/call` result is the task's `result` once it is `completed` —
//!   an error outcome too, with `isError`, as the spec's `completed` covers.
//! - A tool whose support is forbidden answers a client that speaks tasks with an ordinary
//!   result, which the extension allows. A tool whose support is required refuses a client that
//!   does not speak tasks with the spec's JSON-RPC error `-32021` (missing required client
//!   capability, naming the extension), since it would otherwise hold a plain request open for
//!   as long as a task may run.
//! - `tasks/cancel` cancels the call's signal, so the pipeline ends it as `ABORTED` (or with the
//!   error the body answered the cancellation with); the task then settles `cancelled`, with the
//!   pipeline's text as its `statusMessage`. A call that ends well anyway — a result that was
//!   already on its way — settles `completed` (cancellation is cooperative).
//! - A task lives for the server's TTL from its creation: a call still running then is
//!   cancelled and the task settles `failed` with an error saying it expired; a settled task
//!   stays readable for one more TTL, then `tasks/get` answers `-32602` (unknown task).
//!
//! Task state lives in rmcp's [`TaskManager`], one per [`McpServer`] so that a client may poll
//! from another connection of the same server (over HTTP, each request may be one); task ids are
//! random UUIDs.

use std::future::pending;
use std::pin::pin;
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model as mcp;
use rmcp::service::{Peer, RequestContext, RoleServer};
use rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use tokio_util::sync::CancellationToken;

use crate::call::definition::TaskSupport;
use crate::mcp::server::McpServer;
use crate::mcp::session::run_call;

/// How long a served task lives from its creation unless changed (five minutes).
pub const DEFAULT_TASK_TTL: Duration = Duration::from_secs(300);

/// How often a client is asked to poll a served task unless changed (one second).
pub const DEFAULT_TASK_POLL_INTERVAL: Duration = Duration::from_secs(1);

/// How the served tasks of one server live: their time to live (`None`: until the server is
/// dropped) and the poll interval suggested to clients.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TaskSettings {
    pub(crate) ttl: Option<Duration>,
    pub(crate) poll_interval: Duration,
}

impl Default for TaskSettings {
    fn default() -> Self {
        Self {
            ttl: Some(DEFAULT_TASK_TTL),
            poll_interval: DEFAULT_TASK_POLL_INTERVAL,
        }
    }
}

/// How one `tools/call` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CallMode {
    /// Answered with the call's result.
    Plain,
    /// Answered with a task at once; the result is read from the task.
    Task,
}

/// How a call of a tool with `support` runs for a client that does (`client_speaks_tasks`) or
/// does not speak tasks; a required task the client cannot poll is the spec's `-32021`.
pub(crate) fn call_mode(
    support: TaskSupport,
    client_speaks_tasks: bool,
) -> Result<CallMode, ErrorData> {
    match (support, client_speaks_tasks) {
        (TaskSupport::Optional | TaskSupport::Required, true) => Ok(CallMode::Task),
        (TaskSupport::Required, false) => Err(ErrorData::missing_required_client_capability(
            mcp::ClientCapabilities::builder().enable_tasks().build(),
        )),
        _ => Ok(CallMode::Plain),
    }
}

/// Whether the client of `context` declared the tasks extension.
pub(crate) fn client_speaks_tasks(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.supports_tasks())
}

/// Starts `request` as a task of `server` and returns the task as the reply; the task can be
/// read with `tasks/get` before this returns.
pub(crate) fn start_task(
    server: &McpServer,
    request: mcp::CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> mcp::CreateTaskResult {
    let settings = server.task_settings();
    let options = TaskOptions::new()
        .with_ttl_ms(settings.ttl.map(duration_ms))
        .with_poll_interval_ms(duration_ms(settings.poll_interval));
    let call = TaskCall {
        server: server.clone(),
        request,
        call_id: context.id.to_string(),
        progress: context
            .meta
            .get_progress_token()
            .map(|token| (context.peer.clone(), token)),
        ttl: settings.ttl,
    };
    let task = server
        .tasks()
        .spawn(options, move |task| Box::pin(call.run(task)));
    mcp::CreateTaskResult::new(task)
}

/// `tasks/get`: the task's state, with the call's result once it completed.
pub(crate) fn get_task(server: &McpServer, task_id: &str) -> Result<mcp::GetTaskResult, ErrorData> {
    server
        .tasks()
        .get_task(task_id)
        .map(mcp::GetTaskResult::new)
}

/// `tasks/update`: served calls never ask for input mid-task, so responses are acknowledged and
/// ignored, as the extension says of responses no request is waiting for.
pub(crate) fn update_task(
    server: &McpServer,
    request: mcp::UpdateTaskParams,
) -> Result<(), ErrorData> {
    server
        .tasks()
        .update_task(&request.task_id, request.input_responses)
}

/// `tasks/cancel`: asks the running call to stop (see the module docs for how it settles).
pub(crate) fn cancel_task(server: &McpServer, task_id: &str) -> Result<(), ErrorData> {
    server.tasks().cancel_task(task_id)
}

/// A new, empty task store.
pub(crate) fn task_store() -> TaskManager {
    TaskManager::new()
}

/// Why a task's call was cut short.
enum CutShort {
    Cancelled,
    Expired(Duration),
}

/// One call running as a task.
struct TaskCall {
    server: McpServer,
    request: mcp::CallToolRequestParams,
    call_id: String,
    progress: Option<(Peer<RoleServer>, mcp::ProgressToken)>,
    ttl: Option<Duration>,
}

impl TaskCall {
    async fn run(self, task: TaskContext) -> Result<mcp::CallToolResult, TaskExit> {
        let signal = CancellationToken::new();
        // The store drops the future of a task that expired while nobody waited on it; the
        // call's body stops then too.
        let _cancel_on_drop = signal.clone().drop_guard();
        let ttl = self.ttl;
        let mut call = pin!(run_call(
            &self.server,
            self.request,
            self.call_id,
            signal.clone(),
            self.progress,
        ));
        let expired = async {
            match ttl {
                Some(ttl) => tokio::time::sleep(ttl).await,
                None => pending().await,
            }
        };
        let cut_short = tokio::select! {
            result = &mut call => return Ok(result),
            () = task.cancelled() => CutShort::Cancelled,
            () = expired => CutShort::Expired(ttl.unwrap_or_default()),
        };
        signal.cancel();
        // The pipeline answers a cancelled signal promptly (`ABORTED`, or `TOOL_TIMEOUT`'s
        // grace for a body that ignores it), so waiting for its result is bounded.
        let result = call.await;
        match cut_short {
            // A success after cancellation is already `ABORTED`; an error is how the body
            // answered the cancellation.
            CutShort::Cancelled if result.is_error == Some(true) => {
                task.set_status_message(result_text(&result));
                Err(TaskExit::Cancelled)
            }
            CutShort::Cancelled => Ok(result),
            CutShort::Expired(ttl) => Err(TaskExit::Error(ErrorData::internal_error(
                format!(
                    "task expired: its time to live of {} ms elapsed before the call finished",
                    duration_ms(ttl)
                ),
                None,
            ))),
        }
    }
}

/// The text of `result`'s content.
fn result_text(result: &mcp::CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(mcp::ContentBlock::as_text)
        .map(|text| text.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// `duration` in whole milliseconds, saturating.
fn duration_ms(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::{CallMode, call_mode};
    use crate::call::definition::TaskSupport;

    #[test]
    fn a_call_is_a_task_only_when_both_sides_want_it() {
        assert_eq!(call_mode(TaskSupport::Forbidden, true), Ok(CallMode::Plain));
        assert_eq!(
            call_mode(TaskSupport::Forbidden, false),
            Ok(CallMode::Plain)
        );
        assert_eq!(call_mode(TaskSupport::Optional, true), Ok(CallMode::Task));
        assert_eq!(call_mode(TaskSupport::Optional, false), Ok(CallMode::Plain));
        assert_eq!(call_mode(TaskSupport::Required, true), Ok(CallMode::Task));
        let refused = call_mode(TaskSupport::Required, false).unwrap_err();
        assert_eq!(refused.code.0, -32021);
    }
}
