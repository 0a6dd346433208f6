//! Served tasks on the call store (feature `durable`): what a server whose registry has a
//! [`Durability`](crate::durable::Durability) writes about the tasks it runs, and how any
//! server sharing the store answers for a task it does not run.
//!
//! - The server running a task (its owner, `<place> server <random id>`, one per
//!   [`McpServer`](crate::mcp::McpServer)) records it, `working`, before the client gets the
//!   task; records its outcome when it settles; and renews its heartbeat meanwhile. Each
//!   heartbeat is a compare and set on the record's revision: when it fails, someone else wrote
//!   the record — a cancel request, which the owner then carries out as a local `tasks/cancel`.
//! - Another server answers `tasks/get` from the record. A `working` task whose owner's
//!   heartbeat is older than the owner timeout is reported `failed`, saying the process running
//!   it stopped and nothing was recorded after: the store cannot know more, and "unknown task"
//!   would be false. A task past its TTL is `failed` as expired, as the owner would say; a
//!   settled task is forgotten one TTL after it settled, as the owner forgets it.
//! - `tasks/cancel` through another server sets the record's cancel request; `tasks/update` is
//!   not forwarded: the owner alone holds the questions a task waits on, so another server
//!   answers that the input must go to the server running the task.
//!
//! The local task, when there is one, always answers first (`tasks.rs`): it knows what the
//! record does not (a task waiting for input).

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model as mcp;
use rmcp::task_manager::TaskManager;
use serde_json::Value;
use tokio::sync::oneshot;

use crate::durable::clock::{format_time, now_ms};
use crate::durable::record::{TaskRecord, TaskState};
use crate::durable::store::{CallStore, StoreError};
use crate::mcp::task_life::{DEFAULT_TASK_POLL_INTERVAL, EXPIRED_MESSAGE, Settled, TaskSettings};

/// How many polls of the suggested interval an owner may stay silent before its task is
/// reported failed, unless set.
const OWNER_TIMEOUT_POLLS: u32 = 5;

/// The least owner timeout unless set: a store slower than a short poll interval must not make
/// a running task look dead.
const MIN_OWNER_TIMEOUT: Duration = Duration::from_secs(1);

/// How many times a write tries again when another process moved the record on meanwhile.
const RACES: usize = 8;

/// The call store as the served tasks of one server use it (see the module docs).
#[derive(Clone)]
pub(crate) struct TaskBook {
    store: Arc<dyn CallStore>,
    owner: String,
    owner_timeout: Option<Duration>,
}

impl TaskBook {
    /// The tasks of the server named `owner` on `store`; a silent owner counts as stopped after
    /// `owner_timeout` (`None`: five poll intervals, at least a second).
    pub(crate) fn new(
        store: Arc<dyn CallStore>,
        owner: String,
        owner_timeout: Option<Duration>,
    ) -> Self {
        Self {
            store,
            owner,
            owner_timeout,
        }
    }

    /// How long the owner of a task polled every `poll_interval` may stay silent.
    fn owner_timeout(&self, poll_interval: Option<Duration>) -> Duration {
        self.owner_timeout.unwrap_or_else(|| {
            let poll = poll_interval.unwrap_or(DEFAULT_TASK_POLL_INTERVAL);
            poll.saturating_mul(OWNER_TIMEOUT_POLLS)
                .max(MIN_OWNER_TIMEOUT)
        })
    }

    /// Runs the call `run` of task `task_id` as its owner: records the task (and says on
    /// `ready` whether it could, before the call starts), renews the heartbeat while the call
    /// runs, carries out a cancel request another server recorded by cancelling the task in
    /// `local`, and records the outcome.
    pub(crate) async fn run_owned(
        self,
        task_id: String,
        settings: TaskSettings,
        local: TaskManager,
        ready: oneshot::Sender<Result<(), ErrorData>>,
        run: impl Future<Output = Settled>,
    ) -> Settled {
        let now = now_ms();
        let mut record = TaskRecord {
            id: task_id,
            state: TaskState::Working,
            revision: 1,
            status_message: None,
            result: None,
            error: None,
            created_at_ms: now,
            updated_at_ms: now,
            ttl_ms: settings.ttl.map(duration_ms),
            poll_interval_ms: Some(duration_ms(settings.poll_interval)),
            owner: self.owner.clone(),
            heartbeat_at_ms: now,
            cancel_requested: false,
        };
        let inserted = match self.store.insert_task(&record).await {
            Ok(None) => Ok(()),
            Ok(Some(_)) => Err(format!("task id {} is taken", record.id)),
            Err(error) => Err(error.to_string()),
        };
        if let Err(why) = inserted {
            let message = format!("the call store could not record the task: {why}");
            let _ = ready.send(Err(ErrorData::internal_error(message.clone(), None)));
            return Settled::Failed(message);
        }
        // The receiver only goes away when the request did; the task runs regardless, as a
        // local task whose reply was lost does.
        let _ = ready.send(Ok(()));
        let every = self
            .owner_timeout(Some(settings.poll_interval))
            .checked_div(4)
            .unwrap_or_default()
            .min(settings.poll_interval)
            .max(Duration::from_millis(1));
        let mut beat = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut run = pin!(run);
        let settled = loop {
            tokio::select! {
                settled = &mut run => break settled,
                _ = beat.tick() => self.heartbeat(&mut record, &local).await,
            }
        };
        self.settle(record, &settled).await;
        settled
    }

    /// Renews the heartbeat of `record`, noticing a cancel request written meanwhile.
    async fn heartbeat(&self, record: &mut TaskRecord, local: &TaskManager) {
        for _ in 0..RACES {
            let mut next = record.clone();
            next.revision = record.revision.saturating_add(1);
            next.heartbeat_at_ms = now_ms();
            match self.store.replace_task(record.revision, &next).await {
                Ok(true) => {
                    *record = next;
                    return;
                }
                // Someone else wrote the record: see what, then try again from there.
                Ok(false) => match self.store.task(&record.id).await {
                    Ok(Some(current)) => {
                        if current.cancel_requested && !record.cancel_requested {
                            // As a `tasks/cancel` to this server would (the task may have
                            // settled meanwhile, which the cancel then leaves alone).
                            let _ = local.cancel_task(&current.id);
                        }
                        let settled = current.state.is_final();
                        *record = current;
                        if settled {
                            return;
                        }
                    }
                    Ok(None) => return,
                    Err(error) => return warn_store(&record.id, "renew the heartbeat of", &error),
                },
                Err(error) => return warn_store(&record.id, "renew the heartbeat of", &error),
            }
        }
    }

    /// Records how the task of `record` settled.
    async fn settle(&self, mut record: TaskRecord, settled: &Settled) {
        for _ in 0..RACES {
            let mut next = record.clone();
            next.revision = record.revision.saturating_add(1);
            let now = now_ms();
            next.updated_at_ms = now;
            next.heartbeat_at_ms = now;
            match settled {
                Settled::Completed(result) => {
                    next.state = TaskState::Completed;
                    next.result = serde_json::to_value(result).ok();
                }
                Settled::Cancelled(message) => {
                    next.state = TaskState::Cancelled;
                    next.status_message = Some(message.clone());
                }
                Settled::Failed(message) => {
                    next.state = TaskState::Failed;
                    next.error = Some(Value::Object(error_object(message)));
                }
            }
            match self.store.replace_task(record.revision, &next).await {
                Ok(true) => return,
                Ok(false) => match self.store.task(&record.id).await {
                    Ok(Some(current)) if !current.state.is_final() => record = current,
                    Ok(_) => return,
                    Err(error) => return warn_store(&record.id, "record the outcome of", &error),
                },
                Err(error) => return warn_store(&record.id, "record the outcome of", &error),
            }
        }
    }

    /// `tasks/get` of a task this server does not run: what its record says (`None`: no record,
    /// or one forgotten).
    pub(crate) async fn get(&self, task_id: &str) -> Result<Option<mcp::DetailedTask>, ErrorData> {
        let record = self.store.task(task_id).await.map_err(store_failed)?;
        Ok(record.and_then(|record| self.view(record, now_ms())))
    }

    /// `tasks/cancel` of a task this server does not run: records the request for its owner
    /// (nothing to do once it settled); `false` when there is no such task.
    pub(crate) async fn cancel(&self, task_id: &str) -> Result<bool, ErrorData> {
        for _ in 0..RACES {
            let Some(record) = self.store.task(task_id).await.map_err(store_failed)? else {
                return Ok(false);
            };
            if record.state.is_final() || record.cancel_requested {
                return Ok(true);
            }
            let mut next = record.clone();
            next.revision = record.revision.saturating_add(1);
            next.cancel_requested = true;
            next.updated_at_ms = now_ms();
            if self
                .store
                .replace_task(record.revision, &next)
                .await
                .map_err(store_failed)?
            {
                return Ok(true);
            }
        }
        Err(ErrorData::internal_error(
            format!("the cancel request of task {task_id} kept losing races in the call store"),
            None,
        ))
    }

    /// `tasks/update` of a task this server does not run: refused while it runs elsewhere
    /// (the owner alone holds what it waits on), acknowledged once it settled; `false` when there
    /// is no such task.
    pub(crate) async fn update(&self, task_id: &str) -> Result<bool, ErrorData> {
        let Some(record) = self.store.task(task_id).await.map_err(store_failed)? else {
            return Ok(false);
        };
        if record.state.is_final() {
            return Ok(true);
        }
        Err(ErrorData::invalid_params(
            format!(
                "task {task_id} runs on another server replica ({}); its input must go to the \
                 replica running it (tasks/update is not forwarded between replicas)",
                record.owner
            ),
            None,
        ))
    }

    /// The task `record` describes at `now`, as its owner would show it; `None` once forgotten.
    fn view(&self, record: TaskRecord, now: u64) -> Option<mcp::DetailedTask> {
        let ttl = record.ttl_ms;
        let expires_at = ttl.map(|ttl| record.created_at_ms.saturating_add(ttl));
        let (payload, message, updated_at) = match record.state {
            TaskState::Working if expires_at.is_some_and(|at| now >= at) => {
                // Forgotten one TTL after it expired, as a settled task is.
                let expired_at = expires_at.unwrap_or(now);
                if ttl.is_some_and(|ttl| now >= expired_at.saturating_add(ttl)) {
                    return None;
                }
                let payload = mcp::TaskPayload::Failed {
                    error: error_object(EXPIRED_MESSAGE),
                };
                (payload, None, expired_at)
            }
            TaskState::Working => {
                let poll = record.poll_interval_ms.map(Duration::from_millis);
                let silent_since = record.heartbeat_at_ms;
                let timeout = duration_ms(self.owner_timeout(poll));
                if now.saturating_sub(silent_since) > timeout {
                    let message = format!(
                        "the process running this task ({}) stopped: its last heartbeat was at \
                         {}, and nothing was recorded after",
                        record.owner,
                        format_time(silent_since)
                    );
                    let payload = mcp::TaskPayload::Failed {
                        error: error_object(&message),
                    };
                    (payload, Some(message), silent_since.saturating_add(timeout))
                } else {
                    let message = record
                        .cancel_requested
                        .then(|| "cancellation requested".to_owned());
                    (mcp::TaskPayload::Working, message, record.updated_at_ms)
                }
            }
            settled => {
                if ttl.is_some_and(|ttl| now >= record.updated_at_ms.saturating_add(ttl)) {
                    return None;
                }
                let payload = match settled {
                    TaskState::Completed => mcp::TaskPayload::Completed {
                        result: match record.result {
                            Some(Value::Object(result)) => result,
                            _ => mcp::JsonObject::new(),
                        },
                    },
                    TaskState::Cancelled => mcp::TaskPayload::Cancelled,
                    _ => mcp::TaskPayload::Failed {
                        error: match record.error {
                            Some(Value::Object(error)) => error,
                            _ => error_object("the task failed"),
                        },
                    },
                };
                (payload, record.status_message, record.updated_at_ms)
            }
        };
        let mut task = mcp::Task::new(
            record.id,
            mcp::TaskStatus::Working,
            format_time(record.created_at_ms),
            format_time(updated_at),
        );
        task.status_message = message;
        task.ttl_ms = ttl;
        task.poll_interval_ms = record.poll_interval_ms;
        Some(mcp::DetailedTask::new(task, payload))
    }
}

/// The JSON-RPC error object of a task that failed for `message` (as rmcp's store writes one).
fn error_object(message: &str) -> mcp::JsonObject {
    match serde_json::to_value(ErrorData::internal_error(message.to_owned(), None)) {
        Ok(Value::Object(error)) => error,
        _ => mcp::JsonObject::new(),
    }
}

/// A request the store could not answer: an internal error naming the store's failure.
fn store_failed(error: StoreError) -> ErrorData {
    ErrorData::internal_error(format!("the call store failed: {error}"), None)
}

/// A write of the owner's that failed: the task goes on (its client polls the owner, or sees it
/// stopped once the heartbeat is too old); an operator reads why here.
fn warn_store(task_id: &str, what: &str, error: &StoreError) {
    tracing::warn!("could not {what} task {task_id} in the call store: {error}");
}

/// `duration` in whole milliseconds, saturating.
fn duration_ms(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use rmcp::model as mcp;
    use serde_json::json;

    use super::TaskBook;
    use crate::durable::memory::MemoryStore;
    use crate::durable::record::{TaskRecord, TaskState};
    use crate::durable::store::CallStore;
    use crate::mcp::task_life::EXPIRED_MESSAGE;

    fn record(state: TaskState) -> TaskRecord {
        serde_json::from_value(json!({
            "id": "t1",
            "state": state,
            "revision": 1,
            "created_at_ms": 10_000,
            "updated_at_ms": 10_000,
            "ttl_ms": 60_000,
            "poll_interval_ms": 100,
            "owner": "host pid 1 server ab",
            "heartbeat_at_ms": 10_000,
        }))
        .expect("a record")
    }

    fn book(timeout: Option<Duration>) -> (TaskBook, Arc<MemoryStore>) {
        let store = Arc::new(MemoryStore::new());
        let shared: Arc<dyn CallStore> = store.clone();
        (TaskBook::new(shared, "me".to_owned(), timeout), store)
    }

    #[test]
    fn an_owner_is_silent_for_five_polls_at_least_a_second_unless_set() {
        let (default, _) = book(None);
        let poll = |ms| Some(Duration::from_millis(ms));
        assert_eq!(default.owner_timeout(poll(20)), Duration::from_secs(1));
        assert_eq!(default.owner_timeout(poll(1_000)), Duration::from_secs(5));
        let (set, _) = book(Some(Duration::from_millis(300)));
        assert_eq!(set.owner_timeout(poll(1_000)), Duration::from_millis(300));
    }

    #[test]
    fn a_working_task_is_working_until_its_owner_is_silent_too_long() {
        let (book, _) = book(Some(Duration::from_millis(500)));
        let fresh = book
            .view(record(TaskState::Working), 10_500)
            .expect("known");
        assert_eq!(fresh.payload, mcp::TaskPayload::Working);
        let stopped = book
            .view(record(TaskState::Working), 10_501)
            .expect("known");
        assert_eq!(stopped.status(), mcp::TaskStatus::Failed);
        assert_eq!(
            stopped.task.status_message.as_deref(),
            Some(
                "the process running this task (host pid 1 server ab) stopped: its last \
                 heartbeat was at 1970-01-01T00:00:10.000Z, and nothing was recorded after"
            )
        );
    }

    #[test]
    fn past_its_ttl_a_task_is_expired_then_forgotten() {
        let (book, _) = book(None);
        let expired = book
            .view(record(TaskState::Working), 70_000)
            .expect("known");
        let mcp::TaskPayload::Failed { error } = expired.payload else {
            panic!("failed: {expired:?}")
        };
        assert_eq!(error.get("message"), Some(&json!(EXPIRED_MESSAGE)));
        assert!(book.view(record(TaskState::Working), 130_000).is_none());
        let mut done = record(TaskState::Completed);
        done.result = Some(json!({"content": [], "isError": false}));
        assert!(book.view(done.clone(), 69_999).is_some());
        assert!(
            book.view(done, 70_000).is_none(),
            "one TTL after it settled"
        );
    }

    #[tokio::test]
    async fn a_cancel_is_recorded_and_input_is_refused_for_a_task_run_elsewhere() {
        let (book, store) = book(None);
        assert!(!book.cancel("t1").await.expect("answers"), "no such task");
        assert!(!book.update("t1").await.expect("answers"), "no such task");
        store
            .insert_task(&record(TaskState::Working))
            .await
            .expect("inserts");
        assert!(book.cancel("t1").await.expect("answers"));
        let stored = store.task("t1").await.expect("reads").expect("the task");
        assert!(stored.cancel_requested);
        assert_eq!(stored.revision, 2);
        let refused = book.update("t1").await.expect_err("refused");
        assert!(
            refused
                .message
                .contains("runs on another server replica (host pid 1 server ab)"),
            "{}",
            refused.message
        );
    }
}
