//! Served tasks on the call store (feature `durable`): what a server whose registry has a
//! [`Durability`](crate::durable::Durability) writes about the tasks it runs, and how any
//! server sharing the store answers for a task it does not run.
//!
//! - The server running a task (its owner, `<place> server <random id>`, one per
//!   [`McpServer`](crate::mcp::McpServer)) records it, `working`, before the client gets the
//!   task; records its outcome when it settles; and renews its heartbeat meanwhile. Every write
//!   is a compare and set on the record's revision: when it fails, someone else wrote the record
//!   — a cancel request, which the owner then carries out as a local `tasks/cancel`; answers to
//!   the task's questions, which it hands to the waiting call as a local `tasks/update`; or the
//!   task's end, settled by another server that found the owner silent too long, which the owner
//!   takes as final (it stops writing, cancels the call and reports the same failure).
//! - When the call asks (`task_approval.rs`), the owner notices within a short interval (a
//!   quarter poll, 10 to 250 ms) and records `input_required` with the questions; while they
//!   wait it reads the record at that interval, so answers given elsewhere reach the call
//!   promptly rather than at the next heartbeat.
//! - Another server answers `tasks/get` from the record (`input_required` with the same
//!   questions as the owner shows). A task whose owner's heartbeat is older than the owner
//!   timeout is `failed`, saying the process running it stopped and nothing was recorded after:
//!   the store cannot know more, and "unknown task" would be false. The server that finds it so
//!   rewrites the record `failed` (compare and set: one server does, and the owner, were it only
//!   slow, cannot overwrite it). A task past its TTL is `failed` as expired, as the owner would
//!   say; a settled task is forgotten one TTL after it settled, as the owner forgets it.
//! - `tasks/cancel` through another server sets the record's cancel request; `tasks/update`
//!   writes the answers into it, for the owner to pick up (while the questions wait, within the
//!   short interval; otherwise at its next heartbeat, whose compare and set then fails). The
//!   owner hands them to the call as a local `tasks/update` does, so answers to questions nobody
//!   waits for are acknowledged and ignored, as the extension says.
//!
//! - The call's progress shows as the task's status message (`task_life.rs`): the owner records
//!   the latest with its next write, at the latest its next heartbeat (no write of its own, so
//!   a task that reports often costs the store nothing more), and every server shows it.
//!   `notifications/progress` themselves go only to the connection that made the call.
//!
//! The local task, when there is one, always answers first (`tasks.rs`).

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model as mcp;
use rmcp::task_manager::TaskManager;
use serde_json::{Map, Value};
use tokio::sync::oneshot;

use crate::durable::clock::{format_time, now_ms};
use crate::durable::record::{TaskRecord, TaskState};
use crate::durable::store::{CallStore, StoreError};
use crate::mcp::serving::task_life::{
    DEFAULT_TASK_POLL_INTERVAL, EXPIRED_MESSAGE, Settled, TaskSettings,
};

/// How many polls of the suggested interval an owner may stay silent before its task is
/// reported failed, unless set.
const OWNER_TIMEOUT_POLLS: u32 = 5;

/// The least owner timeout unless set: a store slower than a short poll interval must not make
/// a running task look dead.
const MIN_OWNER_TIMEOUT: Duration = Duration::from_secs(1);

/// How many times a write tries again when another process moved the record on meanwhile.
const RACES: usize = 8;

/// What an owner's compare-and-replace of its task's record found.
enum Replaced {
    /// Its record was written.
    Written,
    /// Another server wrote first: what the record says now.
    Moved(Box<TaskRecord>),
    /// The record is gone.
    Gone,
    /// The store failed (logged).
    Failed,
}

/// The bounds of how often an owner looks for a question its call asks and, while one waits,
/// for answers in the record: short, since a client polls for the question and waits for the
/// call to go on, but not so short that a waiting task keeps the store busy.
const LEAST_INPUT_WATCH: Duration = Duration::from_millis(10);
const MOST_INPUT_WATCH: Duration = Duration::from_millis(250);

/// Why a task settled by another server failed, when its record does not say.
const SETTLED_ELSEWHERE: &str = "another server replica settled this task";

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
    /// runs, records the questions the call asks and hands it the answers recorded by other
    /// servers, carries out a cancel request another server recorded by cancelling the task in
    /// `local`, and records the outcome. A task another server settled meanwhile (its owner
    /// looked dead) ends as that server says.
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
            input_requests: Map::new(),
            input_responses: Map::new(),
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
        let watch_every = input_watch(settings.poll_interval);
        let mut watch =
            tokio::time::interval_at(tokio::time::Instant::now() + watch_every, watch_every);
        watch.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut run = pin!(run);
        let mut ours = true;
        let settled = loop {
            if !ours {
                // Settled by another server: the call's outcome can no longer count, so it is
                // cancelled, and this server reports what the record says once the call ended.
                tracing::warn!(
                    "task {} was settled by another server replica while this one ran it",
                    record.id
                );
                let _ = local.cancel_task(&record.id);
                let _ = run.await;
                return Settled::Failed(settled_elsewhere(&record));
            }
            tokio::select! {
                settled = &mut run => break settled,
                _ = beat.tick() => ours = self.sync(&mut record, &local, true).await,
                _ = watch.tick() => ours = self.sync(&mut record, &local, false).await,
            }
        };
        // The call's last progress too, so that the settled record says what the local task
        // says (the outcome's own words, for a cancelled task, replace it).
        record.status_message = local_task(&local, &record.id).status_message;
        // The local task ends as the record does, so the owner and the other servers agree.
        match self.settle(record, &settled).await {
            Some(message) => Settled::Failed(message),
            None => settled,
        }
    }

    /// Brings `record` and the local task in line: records the questions the call waits on
    /// (or that it no longer does), hands answers found in the record to the call, carries out
    /// a cancel request, and renews the heartbeat when `renew` (or when it writes anyway).
    /// `false` once another server settled the task: the record is no longer this server's.
    async fn sync(&self, record: &mut TaskRecord, local: &TaskManager, renew: bool) -> bool {
        if record.state == TaskState::InputRequired {
            // Answers given through other servers arrive in the record: read it while the
            // questions wait.
            match self.store.task(&record.id).await {
                Ok(Some(current)) => {
                    if !take_in(record, current, local) {
                        return false;
                    }
                }
                Ok(None) => return true,
                Err(error) => {
                    warn_store(&record.id, "read the answers of", &error);
                    return true;
                }
            }
        }
        for _ in 0..RACES {
            let LocalTask {
                requests,
                status_message,
            } = local_task(local, &record.id);
            let changed = requests != record.input_requests || !record.input_responses.is_empty();
            // Progress alone waits for the heartbeat: a task reporting often costs the store no
            // more writes than a silent one.
            let progressed = status_message != record.status_message;
            if !changed && !renew {
                return true;
            }
            let mut next = record.clone();
            next.revision = record.revision.saturating_add(1);
            next.state = if requests.is_empty() {
                TaskState::Working
            } else {
                TaskState::InputRequired
            };
            next.input_requests = requests;
            next.status_message = status_message;
            // Handed to the call already (`take_in`).
            next.input_responses = Map::new();
            let now = now_ms();
            next.heartbeat_at_ms = now;
            if changed || progressed {
                next.updated_at_ms = now;
            }
            match self
                .replace_owned(record.revision, &next, "renew the heartbeat of")
                .await
            {
                Replaced::Written => {
                    *record = next;
                    return true;
                }
                // Someone else wrote the record: see what, then try again from there.
                Replaced::Moved(current) => {
                    if !take_in(record, *current, local) {
                        return false;
                    }
                }
                Replaced::Gone | Replaced::Failed => return true,
            }
        }
        true
    }

    /// Records how the task of `record` settled; when another server settled it first, why
    /// that one says it failed.
    async fn settle(&self, mut record: TaskRecord, settled: &Settled) -> Option<String> {
        for _ in 0..RACES {
            let mut next = record.clone();
            next.revision = record.revision.saturating_add(1);
            let now = now_ms();
            next.updated_at_ms = now;
            next.heartbeat_at_ms = now;
            next.input_requests = Map::new();
            next.input_responses = Map::new();
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
            match self
                .replace_owned(record.revision, &next, "record the outcome of")
                .await
            {
                Replaced::Moved(current) if !current.state.is_final() => record = *current,
                // Another server settled it first (it found this one silent too long): that
                // end stands.
                Replaced::Moved(current) => return Some(settled_elsewhere(&current)),
                Replaced::Written | Replaced::Gone | Replaced::Failed => return None,
            }
        }
        None
    }

    /// Writes the owner's `next` over the record at `revision`, and when another server wrote
    /// first, reads what it wrote. A store that fails is logged as failing to do `doing`: the
    /// owner's call goes on whatever its record says.
    async fn replace_owned(&self, revision: u64, next: &TaskRecord, doing: &str) -> Replaced {
        let failed = |error: StoreError| {
            warn_store(&next.id, doing, &error);
            Replaced::Failed
        };
        match self.store.replace_task(revision, next).await {
            Ok(true) => Replaced::Written,
            Ok(false) => match self.store.task(&next.id).await {
                Ok(Some(current)) => Replaced::Moved(Box::new(current)),
                Ok(None) => Replaced::Gone,
                Err(error) => failed(error),
            },
            Err(error) => failed(error),
        }
    }

    /// `tasks/get` of a task this server does not run: what its record says (`None`: no record,
    /// or one forgotten). A task whose owner stopped is rewritten `failed` on the way.
    pub(crate) async fn get(&self, task_id: &str) -> Result<Option<mcp::DetailedTask>, ErrorData> {
        for _ in 0..RACES {
            let Some(record) = self.store.task(task_id).await.map_err(store_failed)? else {
                return Ok(None);
            };
            let now = now_ms();
            let Some(message) = self.stopped_owner(&record, now) else {
                return Ok(self.view(record, now));
            };
            // Settled in the store, so that every reader, a listing and the owner itself (were
            // it only slow) see the same end; the revision makes one reader the one that does.
            let mut next = record.clone();
            next.revision = record.revision.saturating_add(1);
            next.state = TaskState::Failed;
            next.error = Some(Value::Object(error_object(&message)));
            next.status_message = Some(message);
            next.updated_at_ms = now;
            next.input_requests = Map::new();
            next.input_responses = Map::new();
            match self.store.replace_task(record.revision, &next).await {
                Ok(true) => return Ok(self.view(next, now)),
                // Someone wrote it meanwhile (the owner renewed, another reader settled it):
                // read again.
                Ok(false) => {}
                Err(error) => {
                    warn_store(task_id, "record the stopped owner of", &error);
                    return Ok(self.view(record, now));
                }
            }
        }
        Err(races(task_id, "the read"))
    }

    /// Why the task of `record` failed at `now` because its owner went silent, if it did: a task
    /// still running whose heartbeat is older than the owner timeout (and not yet expired,
    /// which says so instead).
    fn stopped_owner(&self, record: &TaskRecord, now: u64) -> Option<String> {
        if record.state.is_final() {
            return None;
        }
        let expires_at = record
            .ttl_ms
            .map(|ttl| record.created_at_ms.saturating_add(ttl));
        if expires_at.is_some_and(|at| now >= at) {
            return None;
        }
        let poll = record.poll_interval_ms.map(Duration::from_millis);
        let timeout = duration_ms(self.owner_timeout(poll));
        (now.saturating_sub(record.heartbeat_at_ms) > timeout).then(|| {
            format!(
                "the process running this task ({}) stopped: its last heartbeat was at {}, and \
                 nothing was recorded after",
                record.owner,
                format_time(record.heartbeat_at_ms)
            )
        })
    }

    /// `tasks/cancel` of a task this server does not run: records the request for its owner
    /// (nothing to do once it settled); `false` when there is no such task.
    pub(crate) async fn cancel(&self, task_id: &str) -> Result<bool, ErrorData> {
        self.edit(task_id, "the cancel request", |record| {
            if record.state.is_final() || record.cancel_requested {
                return None;
            }
            let mut next = record.clone();
            next.cancel_requested = true;
            Some(next)
        })
        .await
    }

    /// `tasks/update` of a task this server does not run: while it runs, the answers are written
    /// into the record for the owner to hand to the call, which ignores those nobody waits for;
    /// once it settled they are acknowledged and ignored here, as the extension says. `false`
    /// when there is no such task.
    ///
    /// Answers are kept even for a question the record does not show yet: a client may have
    /// read it from the owner itself before the owner recorded it, and its answer must not be
    /// lost for that.
    pub(crate) async fn update(
        &self,
        task_id: &str,
        responses: &mcp::InputResponses,
    ) -> Result<bool, ErrorData> {
        self.edit(task_id, "the input", |record| {
            let fresh: Vec<_> = responses
                .iter()
                .filter(|(key, response)| record.input_responses.get(*key) != Some(*response))
                .collect();
            if record.state.is_final() || fresh.is_empty() {
                return None;
            }
            let mut next = record.clone();
            for (key, response) in fresh {
                next.input_responses.insert(key.clone(), response.clone());
            }
            Some(next)
        })
        .await
    }

    /// Writes what `change` makes of the task's record over it, compare-and-replace, reading
    /// again when another server wrote first; `change` answering `None` leaves the record as it
    /// is. `false` when there is no such task; an error names `what` when the writes of others
    /// keep winning.
    async fn edit(
        &self,
        task_id: &str,
        what: &str,
        mut change: impl FnMut(&TaskRecord) -> Option<TaskRecord>,
    ) -> Result<bool, ErrorData> {
        for _ in 0..RACES {
            let Some(record) = self.store.task(task_id).await.map_err(store_failed)? else {
                return Ok(false);
            };
            let Some(mut next) = change(&record) else {
                return Ok(true);
            };
            next.revision = record.revision.saturating_add(1);
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
        Err(races(task_id, what))
    }

    /// The task `record` describes at `now`, as its owner would show it; `None` once forgotten.
    fn view(&self, record: TaskRecord, now: u64) -> Option<mcp::DetailedTask> {
        let ttl = record.ttl_ms;
        let expires_at = ttl.map(|ttl| record.created_at_ms.saturating_add(ttl));
        let running = !record.state.is_final();
        let (payload, message, updated_at) = match record.state {
            _ if running && expires_at.is_some_and(|at| now >= at) => {
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
            _ if running => {
                if let Some(message) = self.stopped_owner(&record, now) {
                    let poll = record.poll_interval_ms.map(Duration::from_millis);
                    let timeout = duration_ms(self.owner_timeout(poll));
                    let payload = mcp::TaskPayload::Failed {
                        error: error_object(&message),
                    };
                    let stopped_at = record.heartbeat_at_ms.saturating_add(timeout);
                    (payload, Some(message), stopped_at)
                } else {
                    let message = if record.cancel_requested {
                        Some("cancellation requested".to_owned())
                    } else {
                        record.status_message
                    };
                    let questions = (record.state == TaskState::InputRequired)
                        .then(|| {
                            serde_json::from_value(Value::Object(record.input_requests.clone()))
                                .ok()
                        })
                        .flatten();
                    let payload = match questions {
                        Some(input_requests) => mcp::TaskPayload::InputRequired { input_requests },
                        // Questions this build cannot read (a newer one wrote them) show as
                        // `working`: the task runs on, and its owner still shows them.
                        None => mcp::TaskPayload::Working,
                    };
                    (payload, message, record.updated_at_ms)
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

/// What the owner records of its local task while it runs.
#[derive(Default)]
struct LocalTask {
    /// The questions it waits on, by key, as JSON (none: not waiting).
    requests: Map<String, Value>,
    /// What it says of itself: its call's latest progress (`task_life.rs`).
    status_message: Option<String>,
}

/// The local task `task_id` as its record shows it (nothing, when there is no such task).
fn local_task(local: &TaskManager, task_id: &str) -> LocalTask {
    let Ok(task) = local.get_task(task_id) else {
        return LocalTask::default();
    };
    let requests = match task.payload {
        mcp::TaskPayload::InputRequired { input_requests } => input_requests
            .into_iter()
            .filter_map(|(key, request)| Some((key, serde_json::to_value(request).ok()?)))
            .collect(),
        _ => Map::new(),
    };
    LocalTask {
        requests,
        status_message: task.task.status_message,
    }
}

/// Takes in the record `current`, written by someone else after `record`: carries out a new
/// cancel request and hands answers found in it to the call, as a local `tasks/cancel` and
/// `tasks/update` would (rmcp ignores answers it was given already). `false` when another
/// server settled the task.
fn take_in(record: &mut TaskRecord, current: TaskRecord, local: &TaskManager) -> bool {
    let settled = current.state.is_final();
    if !settled {
        if current.cancel_requested && !record.cancel_requested {
            // The task may have settled meanwhile, which the cancel then leaves alone.
            let _ = local.cancel_task(&current.id);
        }
        if !current.input_responses.is_empty() {
            let answers = current.input_responses.clone();
            let _ = local.update_task(&current.id, answers);
        }
    }
    *record = current;
    !settled
}

/// Why the task of `record`, settled by another server, failed.
fn settled_elsewhere(record: &TaskRecord) -> String {
    record
        .status_message
        .clone()
        .unwrap_or_else(|| SETTLED_ELSEWHERE.to_owned())
}

/// How often the owner of a task polled every `poll_interval` looks for questions and answers.
fn input_watch(poll_interval: Duration) -> Duration {
    (poll_interval / 4).clamp(LEAST_INPUT_WATCH, MOST_INPUT_WATCH)
}

/// A write of `what` about task `task_id` that kept losing compare and set races.
fn races(task_id: &str, what: &str) -> ErrorData {
    ErrorData::internal_error(
        format!("{what} of task {task_id} kept losing races in the call store"),
        None,
    )
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
    use crate::durable::clock::now_ms;
    use crate::durable::memory::MemoryStore;
    use crate::durable::record::{TaskRecord, TaskState};
    use crate::durable::store::CallStore;
    use crate::mcp::serving::task_life::{EXPIRED_MESSAGE, TaskSettings};

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

    /// The task `id` of `local` once it is terminal (`expect`: what must have happened by then,
    /// within 10 s).
    async fn until_terminal(
        local: &rmcp::task_manager::TaskManager,
        id: &str,
        expect: &str,
    ) -> mcp::DetailedTask {
        tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                let task = local.get_task(id).expect("known");
                if task.status().is_terminal() {
                    return task;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        })
        .await
        .expect(expect)
    }

    fn book(timeout: Option<Duration>) -> (TaskBook, Arc<MemoryStore>) {
        let store = Arc::new(MemoryStore::default());
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
    async fn a_cancel_and_answers_are_recorded_for_a_task_run_elsewhere() {
        let (book, store) = book(Some(Duration::from_secs(3_600)));
        let answers: mcp::InputResponses = [
            ("approval".to_owned(), json!({"action": "accept"})),
            ("stale".to_owned(), json!({"action": "decline"})),
        ]
        .into_iter()
        .collect();
        assert!(!book.cancel("t1").await.expect("answers"), "no such task");
        assert!(
            !book.update("t1", &answers).await.expect("answers"),
            "no such task"
        );
        let mut asking = record(TaskState::InputRequired);
        asking.heartbeat_at_ms = now_ms();
        asking.ttl_ms = None;
        let question = mcp::ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: "Allow?".to_owned(),
            requested_schema: crate::mcp::serving::client_approval::decision_form(),
        };
        let question = mcp::InputRequest::Elicitation(mcp::ElicitRequest::new(question));
        asking.input_requests.insert(
            "approval".to_owned(),
            serde_json::to_value(question).expect("serializes"),
        );
        store.insert_task(&asking).await.expect("inserts");
        let shown = book.get("t1").await.expect("answers").expect("known");
        let mcp::TaskPayload::InputRequired { input_requests } = &shown.payload else {
            panic!("input_required: {shown:?}")
        };
        assert_eq!(input_requests.keys().collect::<Vec<_>>(), ["approval"]);

        assert!(book.update("t1", &answers).await.expect("answers"));
        let stored = store.task("t1").await.expect("reads").expect("the task");
        assert_eq!(stored.revision, 2);
        assert_eq!(
            serde_json::Value::Object(stored.input_responses),
            json!({"approval": {"action": "accept"}, "stale": {"action": "decline"}}),
            "for the owner, which ignores what nobody waits for"
        );
        assert!(book.update("t1", &answers).await.expect("answers"));
        let stored = store.task("t1").await.expect("reads").expect("the task");
        assert_eq!(stored.revision, 2, "the same answers again write nothing");
        assert!(book.cancel("t1").await.expect("answers"));
        let stored = store.task("t1").await.expect("reads").expect("the task");
        assert!(stored.cancel_requested);
        assert_eq!(stored.revision, 3);
    }

    #[tokio::test]
    async fn the_reader_that_finds_the_owner_stopped_settles_the_record_once() {
        let (book, store) = book(Some(Duration::from_millis(500)));
        let mut silent = record(TaskState::Working);
        silent.ttl_ms = None;
        store.insert_task(&silent).await.expect("inserts");
        let read = book.get("t1").await.expect("answers").expect("known");
        assert_eq!(read.status(), mcp::TaskStatus::Failed);
        let stored = store.task("t1").await.expect("reads").expect("the task");
        assert_eq!(stored.state, TaskState::Failed);
        assert_eq!(stored.revision, 2);
        assert_eq!(stored.status_message, read.task.status_message);
        // Read again: already settled, nothing more is written.
        let again = book.get("t1").await.expect("answers").expect("known");
        assert_eq!(again.task.status_message, read.task.status_message);
        let stored = store.task("t1").await.expect("reads").expect("the task");
        assert_eq!(stored.revision, 2);
    }

    #[tokio::test]
    async fn an_owner_that_finds_its_task_settled_elsewhere_takes_it_as_final() {
        let (book, store) = book(None);
        let local = crate::mcp::serving::tasks::task_store();
        let settings = TaskSettings {
            ttl: None,
            poll_interval: Duration::from_millis(20),
            owner_timeout: None,
        };
        let created =
            crate::mcp::serving::tasks::start_task(&local, settings, Some(book), |signal, _| {
                async move {
                    // Runs until cancelled, as a call whose owner only looked dead.
                    signal.cancelled().await;
                    mcp::CallToolResult::success(vec![mcp::ContentBlock::text("ran on")])
                }
            })
            .await
            .expect("starts");
        let id = created.task.task_id;
        let mut record = store.task(&id).await.expect("reads").expect("recorded");
        let said = "the process running this task (me) stopped";
        record.revision += 1;
        record.state = TaskState::Failed;
        record.status_message = Some(said.to_owned());
        let settled_elsewhere = record.clone();
        assert!(
            store
                .replace_task(record.revision - 1, &record)
                .await
                .expect("writes")
        );
        let local_view = until_terminal(&local, &id, "the owner notices").await;
        let mcp::TaskPayload::Failed { error } = &local_view.payload else {
            panic!("failed as the record says: {local_view:?}")
        };
        assert_eq!(error.get("message"), Some(&json!(said)));
        // Beats go by: the owner writes nothing more over the settled record.
        tokio::time::sleep(Duration::from_millis(200)).await;
        let stored = store.task(&id).await.expect("reads").expect("the task");
        assert_eq!(stored, settled_elsewhere);
    }

    #[tokio::test]
    async fn an_outcome_after_the_task_was_settled_elsewhere_is_not_recorded() {
        let (book, store) = book(None);
        let local = crate::mcp::serving::tasks::task_store();
        // Long polls: no heartbeat falls within the test, so the owner meets the settled
        // record only when it records the outcome.
        let settings = TaskSettings {
            ttl: None,
            poll_interval: Duration::from_secs(60),
            owner_timeout: None,
        };
        let (finish, finished) = tokio::sync::oneshot::channel::<()>();
        let created = crate::mcp::serving::tasks::start_task(
            &local,
            settings,
            Some(book),
            |_, _| async move {
                let _ = finished.await;
                mcp::CallToolResult::success(vec![mcp::ContentBlock::text("done late")])
            },
        )
        .await
        .expect("starts");
        let id = created.task.task_id;
        let mut record = store.task(&id).await.expect("reads").expect("recorded");
        record.revision += 1;
        record.state = TaskState::Failed;
        record.status_message = Some("stopped, said another".to_owned());
        let settled_elsewhere = record.clone();
        assert!(store.replace_task(1, &record).await.expect("writes"));
        let _ = finish.send(());
        let local_view = until_terminal(&local, &id, "the call ends").await;
        assert_eq!(
            local_view.status(),
            mcp::TaskStatus::Failed,
            "{local_view:?}"
        );
        let stored = store.task(&id).await.expect("reads").expect("the task");
        assert_eq!(stored, settled_elsewhere);
    }
}
