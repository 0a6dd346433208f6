//! Served calls as tasks (MCP's tasks extension, `io.modelcontextprotocol/tasks`): which
//! `tools/call` becomes a task, running it in the background, and `tasks/get`, `tasks/update`,
//! `tasks/cancel` and expiry.
//!
//! - A call becomes a task when the client declared the extension (at `initialize` or in the
//!   request's `_meta`) and the tool's [`TaskSupport`] is optional or required. The reply is the
//!   task at once (`resultType: "task"`, `working`); the call runs through the pipeline exactly
//!   as a plain one does (`session.rs` hands over its `run_call`: same call id, progress to the
//!   request's progress token) and its `tools/call` result is the task's `result` once it is
//!   `completed` — an error outcome too, with `isError`, as the spec's `completed` covers. Over
//!   the per-request protocol its `ask` goes into the task (`input_required`, answered with
//!   `tasks/update`; `task_approval.rs`).
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
//!   cancelled (or dropped, when a poll notices the expiry first) and the task settles `failed`
//!   with the error `task expired: TTL elapsed before completion`; a settled task stays readable
//!   for one more TTL, then `tasks/get` answers `-32602` (unknown task).
//!
//! Task state lives in rmcp's [`TaskManager`], one per [`McpServer`](crate::mcp::McpServer) so
//! that a client may poll from another connection of the same server (over HTTP, each request
//! may be one); task ids are random UUIDs. This file knows nothing of the server or the session:
//! `session.rs` hands it the store and the call to run.

use std::future::{Future, pending};
use std::pin::pin;
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model as mcp;
use rmcp::service::{RequestContext, RoleServer};
use rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use tokio_util::sync::CancellationToken;

use crate::call::definition::TaskSupport;

/// How long a served task lives from its creation unless changed (five minutes).
pub const DEFAULT_TASK_TTL: Duration = Duration::from_secs(300);

/// How often a client is asked to poll a served task unless changed (one second).
pub const DEFAULT_TASK_POLL_INTERVAL: Duration = Duration::from_secs(1);

/// Why an expired task failed: the words of rmcp's store, which fails a task it finds expired
/// before its call noticed.
const EXPIRED_MESSAGE: &str = "task expired: TTL elapsed before completion";

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

/// Starts a call as a task in `store` and returns the task as the reply; the task can be read
/// with `tasks/get` before this returns. `call` starts the call with the signal that cancels it
/// and the task it runs as, through which it may ask its client for input (`session.rs` runs
/// it through the pipeline).
pub(crate) fn start_task<F, Fut>(
    store: &TaskManager,
    settings: TaskSettings,
    call: F,
) -> mcp::CreateTaskResult
where
    F: FnOnce(CancellationToken, TaskContext) -> Fut,
    Fut: Future<Output = mcp::CallToolResult> + Send + 'static,
{
    let options = TaskOptions::new()
        .with_ttl_ms(settings.ttl.map(duration_ms))
        .with_poll_interval_ms(duration_ms(settings.poll_interval));
    let signal = CancellationToken::new();
    let task = store.spawn(options, move |task| {
        let call = call(signal.clone(), task.clone());
        Box::pin(run_task(call, signal, settings.ttl, task))
    });
    mcp::CreateTaskResult::new(task)
}

/// `tasks/get`: the task's state, with the call's result once it completed.
pub(crate) fn get_task(
    store: &TaskManager,
    task_id: &str,
) -> Result<mcp::GetTaskResult, ErrorData> {
    store.get_task(task_id).map(mcp::GetTaskResult::new)
}

/// `tasks/update`: the client's answers to what a task asked (`task_approval.rs`); responses no
/// request is waiting for are acknowledged and ignored, as the extension says.
pub(crate) fn update_task(
    store: &TaskManager,
    request: mcp::UpdateTaskParams,
) -> Result<(), ErrorData> {
    store.update_task(&request.task_id, request.input_responses)
}

/// `tasks/cancel`: asks the running call to stop (see the module docs for how it settles).
pub(crate) fn cancel_task(store: &TaskManager, task_id: &str) -> Result<(), ErrorData> {
    store.cancel_task(task_id)
}

/// A new, empty task store.
pub(crate) fn task_store() -> TaskManager {
    TaskManager::new()
}

/// Why a task's call was cut short.
enum CutShort {
    Cancelled,
    Expired,
}

/// Runs `call` (cancelled by `signal`) as `task`, which lives for `ttl`.
async fn run_task(
    call: impl Future<Output = mcp::CallToolResult>,
    signal: CancellationToken,
    ttl: Option<Duration>,
    task: TaskContext,
) -> Result<mcp::CallToolResult, TaskExit> {
    // The store drops the future of a task that expired while nobody waited on it; the call's
    // body stops then too.
    let _cancel_on_drop = signal.clone().drop_guard();
    let mut call = pin!(call);
    let expired = async {
        match ttl {
            Some(ttl) => tokio::time::sleep(ttl).await,
            None => pending().await,
        }
    };
    let cut_short = tokio::select! {
        result = &mut call => return Ok(result),
        () = task.cancelled() => CutShort::Cancelled,
        () = expired => CutShort::Expired,
    };
    signal.cancel();
    // The pipeline answers a cancelled signal promptly (`ABORTED`, or `TOOL_TIMEOUT`'s grace
    // for a body that ignores it), so waiting for its result is bounded.
    let result = call.await;
    match cut_short {
        // A success after cancellation is already `ABORTED`; an error is how the body answered
        // the cancellation.
        CutShort::Cancelled if result.is_error == Some(true) => {
            task.set_status_message(result_text(&result));
            Err(TaskExit::Cancelled)
        }
        CutShort::Cancelled => Ok(result),
        // rmcp's store fails an expired task the same way when a poll notices first.
        CutShort::Expired => Err(TaskExit::Error(ErrorData::internal_error(
            EXPIRED_MESSAGE,
            None,
        ))),
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
