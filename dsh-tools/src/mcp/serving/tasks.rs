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
//! may be one); task ids are random UUIDs. When the served registry has a call store (feature
//! `durable`), each task is also recorded there, so that every server sharing the store answers
//! for it and its result outlives the process (`task_book.rs`); the local task answers first.
//! This file knows nothing of the server or the session: `session.rs` hands it the stores and
//! the call to run.

use std::future::{Future, pending};
use std::pin::pin;
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model as mcp;
use rmcp::task_manager::{TaskContext, TaskManager, TaskOptions};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use crate::call::options::TaskSupport;
#[cfg(feature = "durable")]
use crate::mcp::serving::task_book::TaskBook;
use crate::mcp::serving::task_life::{EXPIRED_MESSAGE, Settled, TaskSettings};

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

/// Starts a call as a task in `store` and returns the task as the reply; the task can be read
/// with `tasks/get` before this returns (on every server sharing `book`'s call store, when there
/// is one: the task is recorded there before the call starts, and a store that cannot record it
/// refuses the call with an internal error). `call` starts the call with the signal that cancels
/// it and the task it runs as, through which it may ask its client for input (`session.rs` runs
/// it through the pipeline).
pub(crate) async fn start_task<F, Fut>(
    store: &TaskManager,
    settings: TaskSettings,
    book: Option<TaskBook>,
    call: F,
) -> Result<mcp::CreateTaskResult, ErrorData>
where
    F: FnOnce(CancellationToken, TaskContext) -> Fut,
    Fut: Future<Output = mcp::CallToolResult> + Send + 'static,
{
    let options = TaskOptions::new()
        .with_ttl_ms(settings.ttl.map(duration_ms))
        .with_poll_interval_ms(duration_ms(settings.poll_interval));
    let signal = CancellationToken::new();
    let local = store.clone();
    let (ready, recorded) = oneshot::channel();
    let durable = book.is_some();
    let task = store.spawn(options, move |task| {
        let call = call(signal.clone(), task.clone());
        let run = run_task(call, signal, settings.ttl, task.clone());
        Box::pin(async move {
            let settled = match book {
                Some(book) => {
                    let id = task.task_id().to_owned();
                    book.run_owned(id, settings, local, ready, run).await
                }
                None => run.await,
            };
            settled.exit(&task)
        })
    });
    if durable {
        // The task is on the store (or could not be) before the client hears of it, so that
        // a poll through any replica finds it.
        match recorded.await {
            Ok(Ok(())) => {}
            Ok(Err(error)) => return Err(error),
            Err(_) => {
                return Err(ErrorData::internal_error(
                    "the task ended before it was recorded",
                    None,
                ));
            }
        }
    }
    Ok(mcp::CreateTaskResult::new(task))
}

/// `tasks/get`: the task's state, with the call's result once it completed; a task this server
/// does not run is read from `book`'s call store.
pub(crate) async fn get_task(
    store: &TaskManager,
    book: Option<&TaskBook>,
    task_id: &str,
) -> Result<mcp::GetTaskResult, ErrorData> {
    let unknown = match store.get_task(task_id) {
        Ok(task) => return Ok(mcp::GetTaskResult::new(task)),
        Err(unknown) => unknown,
    };
    match book {
        Some(book) => book
            .get(task_id)
            .await?
            .map(mcp::GetTaskResult::new)
            .ok_or(unknown),
        None => Err(unknown),
    }
}

/// `tasks/update`: the client's answers to what a task asked (`task_approval.rs`); responses no
/// request is waiting for are acknowledged and ignored, as the extension says. Answers for a
/// task another server runs go into its record, where its owner picks them up (`task_book.rs`).
pub(crate) async fn update_task(
    store: &TaskManager,
    book: Option<&TaskBook>,
    request: mcp::UpdateTaskParams,
) -> Result<(), ErrorData> {
    let unknown = match store.update_task(&request.task_id, request.input_responses.clone()) {
        Ok(()) => return Ok(()),
        Err(unknown) => unknown,
    };
    match book {
        Some(book)
            if book
                .update(&request.task_id, &request.input_responses)
                .await? =>
        {
            Ok(())
        }
        _ => Err(unknown),
    }
}

/// `tasks/cancel`: asks the running call to stop (see the module docs for how it settles); a
/// task another server runs gets the request through `book`'s call store.
pub(crate) async fn cancel_task(
    store: &TaskManager,
    book: Option<&TaskBook>,
    task_id: &str,
) -> Result<(), ErrorData> {
    let unknown = match store.cancel_task(task_id) {
        Ok(()) => return Ok(()),
        Err(unknown) => unknown,
    };
    match book {
        Some(book) if book.cancel(task_id).await? => Ok(()),
        _ => Err(unknown),
    }
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
) -> Settled {
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
        result = &mut call => return Settled::Completed(result),
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
            Settled::Cancelled(result_text(&result))
        }
        CutShort::Cancelled => Settled::Completed(result),
        // rmcp's store fails an expired task the same way when a poll notices first.
        CutShort::Expired => Settled::Failed(EXPIRED_MESSAGE.to_owned()),
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

/// Without feature `durable` there is no call store to keep tasks in: a book that cannot exist,
/// so every `Option<TaskBook>` is `None` and tasks live in the server's memory only.
#[cfg(not(feature = "durable"))]
mod no_book {
    use std::future::Future;

    use rmcp::ErrorData;
    use rmcp::model as mcp;
    use rmcp::task_manager::TaskManager;
    use tokio::sync::oneshot;

    use crate::mcp::serving::task_life::{Settled, TaskSettings};

    #[derive(Clone)]
    pub(crate) enum TaskBook {}

    impl TaskBook {
        pub(crate) async fn run_owned(
            self,
            _task_id: String,
            _settings: TaskSettings,
            _local: TaskManager,
            _ready: oneshot::Sender<Result<(), ErrorData>>,
            _run: impl Future<Output = Settled>,
        ) -> Settled {
            match self {}
        }

        pub(crate) async fn get(&self, _: &str) -> Result<Option<mcp::DetailedTask>, ErrorData> {
            match *self {}
        }

        pub(crate) async fn cancel(&self, _: &str) -> Result<bool, ErrorData> {
            match *self {}
        }

        pub(crate) async fn update(
            &self,
            _: &str,
            _: &mcp::InputResponses,
        ) -> Result<bool, ErrorData> {
            match *self {}
        }
    }
}
#[cfg(not(feature = "durable"))]
pub(crate) use no_book::TaskBook;

#[cfg(test)]
mod tests {
    use super::{CallMode, call_mode};
    use crate::call::options::TaskSupport;

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
