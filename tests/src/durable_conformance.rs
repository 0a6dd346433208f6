//! The call store's conformance suite: what every [`CallStore`] backend must do, run against
//! each (memory, a SQLite file, a real PostgreSQL) by `tests/tests/it/durable/`. Each check
//! takes a fresh, empty store and panics, naming the rule, when the backend breaks it.
//!
//! The primitives first (insert unless taken, compare and set, reads, listings), then the
//! journal and approvals through [`Durability`] on that store, so a backend that passes runs the
//! same rules as every other.

use std::sync::Arc;
use std::time::Duration;

use dsh_tools::durable::{
    ApprovalKey, ApprovalRecord, ApprovalState, CallDecision, CallStore, Durability, JournalEntry,
    JournalState, RecordedOutcome, TaskRecord, TaskState,
};
use dsh_tools::{FnTool, ToolExecutionInput, ToolRegistry, errors::ErrorCode, json};

fn entry(key: &str, state: JournalState, attempt: u64) -> JournalEntry {
    serde_json::from_value(json!({
        "key": key,
        "tool": "charge",
        "agent": "billing",
        "state": state,
        "attempt": attempt,
        "started_at_ms": 1_000 + attempt,
        "place": "test pid 1",
    }))
    .expect("an entry")
}

fn approval(id: &str, state: ApprovalState) -> ApprovalRecord {
    approval_record(id, state, 1, 2)
}

/// An approval record as a store keeps it, asked at `asked` and expiring at `expires` (ms).
pub fn approval_record(id: &str, state: ApprovalState, asked: u64, expires: u64) -> ApprovalRecord {
    serde_json::from_value(json!({
        "id": id,
        "tool": "deploy",
        "arguments_digest": "00",
        "created_at_ms": asked,
        "expires_at_ms": expires,
        "state": state,
        "request_signature": "sig",
    }))
    .expect("an approval")
}

/// A served task's record as a store keeps it, at `revision`, last written at 1,000 +
/// `revision` ms.
pub fn task(id: &str, state: TaskState, revision: u64) -> TaskRecord {
    serde_json::from_value(json!({
        "id": id,
        "state": state,
        "revision": revision,
        "created_at_ms": 1_000,
        "updated_at_ms": 1_000 + revision,
        "ttl_ms": 60_000,
        "poll_interval_ms": 20,
        "owner": "test pid 1 server 00",
        "heartbeat_at_ms": 1_000 + revision,
    }))
    .expect("a task")
}

/// Every check of the suite, in order, each on a fresh store from `fresh`.
pub async fn run_all<F, Fut>(fresh: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Arc<dyn CallStore>>,
{
    entries_insert_once_and_compare_and_set(fresh().await).await;
    entries_list_by_state_in_key_order(fresh().await).await;
    positions_keep_what_they_asked(fresh().await).await;
    answers_are_the_latest_completed(fresh().await).await;
    approvals_insert_once_and_compare_and_set(fresh().await).await;
    tasks_insert_once_compare_and_set_and_list(fresh().await).await;
    journal_replays_a_completed_call(fresh().await).await;
    journal_reports_a_call_in_doubt_and_takes_decisions(fresh().await).await;
    approvals_wait_and_are_used_once(fresh().await).await;
    concurrent_calls_lose_and_double_nothing(fresh().await).await;
}

/// Inserting a taken key answers what is there and changes nothing; a replace happens only
/// from the attempt and state it names.
pub async fn entries_insert_once_and_compare_and_set(store: Arc<dyn CallStore>) {
    let first = entry("idem-a", JournalState::Started, 1);
    assert_eq!(store.insert_entry(&first).await.expect("insert"), None);
    let again = entry("idem-a", JournalState::Failed, 9);
    assert_eq!(
        store.insert_entry(&again).await.expect("insert"),
        Some(first.clone()),
        "a second insert answers the first entry"
    );
    let mut done = first.clone();
    done.state = JournalState::Completed;
    done.finished_at_ms = Some(5_000);
    done.outcome = Some(RecordedOutcome::success(json!({"ok": true}), Vec::new()));
    assert!(
        !store
            .replace_entry(2, JournalState::Started, done.clone())
            .await
            .expect("replace"),
        "a replace from another attempt changes nothing"
    );
    assert!(
        !store
            .replace_entry(1, JournalState::Failed, done.clone())
            .await
            .expect("replace"),
        "a replace from another state changes nothing"
    );
    assert!(
        store
            .replace_entry(1, JournalState::Started, done.clone())
            .await
            .expect("replace")
    );
    assert_eq!(
        store.entry("idem-a").await.expect("read"),
        Some(done.clone())
    );
    assert!(
        !store
            .replace_entry(1, JournalState::Started, done.clone())
            .await
            .expect("replace"),
        "the same replace twice happens once"
    );
    assert_eq!(store.entry("idem-missing").await.expect("read"), None);
}

/// A Code Mode run's nested call is keyed by the run's key and its position and keeps the digest
/// of what it asked there: both come back as they went in.
pub async fn positions_keep_what_they_asked(store: Arc<dyn CallStore>) {
    let mut position = entry("idem-run/2", JournalState::Completed, 1);
    position.call_digest = Some(dsh_tools::durable::arguments_digest(&json!({"cents": 500})));
    assert_eq!(store.insert_entry(&position).await.expect("insert"), None);
    assert_eq!(
        store.entry("idem-run/2").await.expect("read"),
        Some(position)
    );
    assert_eq!(store.entry("idem-run").await.expect("read"), None);
}

/// Listings filter by state and come in key order.
pub async fn entries_list_by_state_in_key_order(store: Arc<dyn CallStore>) {
    for (key, state) in [
        ("idem-c", JournalState::Started),
        ("idem-a", JournalState::Started),
        ("idem-b", JournalState::Failed),
    ] {
        store
            .insert_entry(&entry(key, state, 1))
            .await
            .expect("insert");
    }
    let keys = |entries: Vec<JournalEntry>| -> Vec<String> {
        entries.into_iter().map(|entry| entry.key).collect()
    };
    assert_eq!(
        keys(store.entries(None).await.expect("list")),
        ["idem-a", "idem-b", "idem-c"]
    );
    assert_eq!(
        keys(
            store
                .entries(Some(JournalState::Started))
                .await
                .expect("list")
        ),
        ["idem-a", "idem-c"]
    );
    assert!(
        store
            .entries(Some(JournalState::Completed))
            .await
            .expect("list")
            .is_empty()
    );
}

/// A read-only answer is the latest completed entry with the digest.
pub async fn answers_are_the_latest_completed(store: Arc<dyn CallStore>) {
    for (key, state, finished) in [
        ("idem-1", JournalState::Completed, 10),
        ("idem-2", JournalState::Completed, 30),
        ("idem-3", JournalState::Started, 40),
        ("idem-4", JournalState::Completed, 20),
    ] {
        let mut record = entry(key, state, 1);
        record.arguments_digest = Some("digest".to_owned());
        record.finished_at_ms = Some(finished);
        store.insert_entry(&record).await.expect("insert");
    }
    let answer = store.answer("digest").await.expect("answer");
    assert_eq!(answer.map(|entry| entry.key).as_deref(), Some("idem-2"));
    assert_eq!(store.answer("other").await.expect("answer"), None);
}

/// Served tasks: inserted once, replaced only from the revision named (a heartbeat and a cancel
/// request racing: one wins, the other sees it lost), read back whole (result and error JSON,
/// input requests and responses included), listed by state in id order.
pub async fn tasks_insert_once_compare_and_set_and_list(store: Arc<dyn CallStore>) {
    let working = task("task-b", TaskState::Working, 1);
    assert_eq!(store.insert_task(&working).await.expect("insert"), None);
    assert_eq!(
        store
            .insert_task(&task("task-b", TaskState::Failed, 7))
            .await
            .expect("insert"),
        Some(working.clone()),
        "a second insert answers the first task"
    );
    store
        .insert_task(&task("task-a", TaskState::Working, 1))
        .await
        .expect("insert");
    store
        .insert_task(&task("task-c", TaskState::Cancelled, 3))
        .await
        .expect("insert");
    let ids =
        |tasks: Vec<TaskRecord>| -> Vec<String> { tasks.into_iter().map(|task| task.id).collect() };
    let mut heartbeat = working.clone();
    heartbeat.revision = 2;
    heartbeat.heartbeat_at_ms = 5_000;
    let mut cancel = working.clone();
    cancel.revision = 2;
    cancel.cancel_requested = true;
    assert!(
        store.replace_task(1, &heartbeat).await.expect("replace"),
        "a replace from the revision read happens"
    );
    assert!(
        !store.replace_task(1, &cancel).await.expect("replace"),
        "a replace from a revision that moved on changes nothing"
    );
    assert_eq!(
        store.task("task-b").await.expect("read"),
        Some(heartbeat.clone())
    );
    let mut asking = heartbeat.clone();
    asking.revision = 3;
    asking.state = TaskState::InputRequired;
    asking.input_requests.insert(
        "approval".to_owned(),
        json!({"method": "elicitation/create", "params": {"message": "Allow?"}}),
    );
    asking
        .input_responses
        .insert("approval".to_owned(), json!({"action": "accept"}));
    assert!(store.replace_task(2, &asking).await.expect("replace"));
    assert_eq!(
        store.task("task-b").await.expect("read"),
        Some(asking.clone())
    );
    assert_eq!(
        ids(store
            .tasks(Some(TaskState::InputRequired))
            .await
            .expect("list")),
        ["task-b"]
    );
    let mut done = heartbeat.clone();
    done.revision = 4;
    done.state = TaskState::Completed;
    done.status_message = Some("done".to_owned());
    done.result = Some(json!({"content": [{"type": "text", "text": "ok"}], "isError": false}));
    assert!(store.replace_task(3, &done).await.expect("replace"));
    assert_eq!(
        store.task("task-b").await.expect("read"),
        Some(done.clone())
    );
    let mut failed = task("task-a", TaskState::Failed, 2);
    failed.error = Some(json!({"code": -32603, "message": "expired"}));
    assert!(store.replace_task(1, &failed).await.expect("replace"));
    assert_eq!(store.task("task-a").await.expect("read"), Some(failed));
    assert_eq!(store.task("task-missing").await.expect("read"), None);
    assert_eq!(
        ids(store.tasks(None).await.expect("list")),
        ["task-a", "task-b", "task-c"]
    );
    assert_eq!(
        ids(store.tasks(Some(TaskState::Completed)).await.expect("list")),
        ["task-b"]
    );
    assert!(
        store
            .tasks(Some(TaskState::Working))
            .await
            .expect("list")
            .is_empty()
    );
}

/// Approvals: inserted once, replaced only from the state named, listed by state in id order.
pub async fn approvals_insert_once_and_compare_and_set(store: Arc<dyn CallStore>) {
    let pending = approval("appr-b", ApprovalState::Pending);
    assert_eq!(store.insert_approval(&pending).await.expect("insert"), None);
    assert_eq!(
        store
            .insert_approval(&approval("appr-b", ApprovalState::Used))
            .await
            .expect("insert"),
        Some(pending.clone())
    );
    store
        .insert_approval(&approval("appr-a", ApprovalState::Pending))
        .await
        .expect("insert");
    let approved = approval("appr-b", ApprovalState::Approved);
    assert!(
        !store
            .replace_approval(ApprovalState::Approved, &approved)
            .await
            .expect("replace")
    );
    assert!(
        store
            .replace_approval(ApprovalState::Pending, &approved)
            .await
            .expect("replace")
    );
    assert!(
        !store
            .replace_approval(ApprovalState::Pending, &approved)
            .await
            .expect("replace"),
        "a decision is taken once"
    );
    assert_eq!(
        store.approval("appr-b").await.expect("read"),
        Some(approved)
    );
    let ids = |approvals: Vec<ApprovalRecord>| -> Vec<String> {
        approvals.into_iter().map(|approval| approval.id).collect()
    };
    assert_eq!(
        ids(store.approvals(None).await.expect("list")),
        ["appr-a", "appr-b"]
    );
    assert_eq!(
        ids(store
            .approvals(Some(ApprovalState::Pending))
            .await
            .expect("list")),
        ["appr-a"]
    );
}

/// A registry on `store` with a counting `charge` tool (neither idempotent nor read-only) and
/// the count of its body's runs.
pub fn counting_registry(
    store: Arc<dyn CallStore>,
) -> (ToolRegistry, Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let registry = ToolRegistry::new();
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&runs);
    let _ = registry
        .register(
            FnTool::builder("charge", "Charges a card.")
                .raw_parameters(json!({"type": "object"}))
                .handler(move |args, _| {
                    let counted = Arc::clone(&counted);
                    async move {
                        let run = counted.fetch_add(1, Ordering::SeqCst) + 1;
                        Ok(json!({"charged": args["cents"], "run": run}))
                    }
                }),
        )
        .expect("register");
    registry.set_durability(
        Durability::new(store)
            .with_place("conformance")
            .with_approvals(ApprovalKey::new(
                b"a test key of thirty-two bytes!!".to_vec(),
                Duration::from_secs(3_600),
            )),
    );
    (registry, runs)
}

fn charge(call_id: &str, cents: u64) -> ToolExecutionInput {
    ToolExecutionInput::new(call_id.to_owned(), "charge", json!({"cents": cents}))
}

/// The idempotency key of an input with no agent.
trait Key {
    fn key(&self) -> String;
}

impl Key for ToolExecutionInput {
    fn key(&self) -> String {
        dsh_tools::durable::idempotency_key(&self.call_id, &self.name, None, &self.arguments)
    }
}

/// A retried completed call is replayed: the body runs once, the result says so.
pub async fn journal_replays_a_completed_call(store: Arc<dyn CallStore>) {
    use std::sync::atomic::Ordering;
    let (registry, runs) = counting_registry(store);
    let first = registry.execute(charge("call-1", 500)).await;
    assert!(!first.is_error(), "{}", first.text());
    assert!(!first.is_replayed());
    let again = registry.execute(charge("call-1", 500)).await;
    assert!(again.is_replayed(), "a retry is replayed: {again:?}");
    assert_eq!(again.value(), first.value());
    assert_eq!(again.text(), first.text());
    assert_eq!(runs.load(Ordering::SeqCst), 1, "the body ran once");
    let other = registry.execute(charge("call-2", 500)).await;
    assert!(!other.is_replayed(), "another call id is another call");
    assert_eq!(runs.load(Ordering::SeqCst), 2);
}

/// An attempt that started and recorded nothing is in doubt; decisions move it on, once.
pub async fn journal_reports_a_call_in_doubt_and_takes_decisions(store: Arc<dyn CallStore>) {
    use std::sync::atomic::Ordering;
    let (registry, runs) = counting_registry(Arc::clone(&store));
    let input = charge("call-9", 700);
    let key = input.key();
    // An earlier process began this call and died: its intent is all there is.
    let mut started = entry(&key, JournalState::Started, 1);
    started.place = "replica-a pid 42".to_owned();
    started.started_at_ms = 1_796_563_275_001;
    store.insert_entry(&started).await.expect("insert");

    let doubt = registry.execute(input.clone()).await;
    assert_eq!(doubt.error_code(), Some(ErrorCode::CallInDoubt.as_str()));
    assert_eq!(
        doubt.text(),
        "Error: an earlier attempt of this call started at 2026-12-06T13:21:15.001Z \
         on replica-a pid 42 and its outcome is unknown; it was not run again"
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    let in_doubt = registry.calls_in_doubt().await.expect("list");
    assert_eq!(in_doubt.len(), 1);
    assert_eq!(in_doubt[0].key, key);

    // Recorded by hand: every retry replays it.
    let outcome = RecordedOutcome::success(json!({"charged": 700, "run": 0}), Vec::new());
    assert!(
        registry
            .decide_call(&key, CallDecision::Record(outcome))
            .await
            .expect("decide")
    );
    assert!(
        !registry
            .decide_call(&key, CallDecision::RunAgain)
            .await
            .expect("decide"),
        "a call no longer in doubt takes no decision"
    );
    let replayed = registry.execute(input).await;
    assert!(replayed.is_replayed());
    assert_eq!(replayed.value(), Some(&json!({"charged": 700, "run": 0})));
    assert_eq!(
        replayed.text(),
        r#"{"charged":700,"run":0}"#,
        "shown as the value's text"
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);

    // Run again: the next attempt runs the body, once.
    let second = charge("call-10", 1);
    let key = second.key();
    store
        .insert_entry(&entry(&key, JournalState::Started, 1))
        .await
        .expect("insert");
    assert!(
        registry
            .decide_call(&key, CallDecision::RunAgain)
            .await
            .expect("decide")
    );
    let ran = registry.execute(second.clone()).await;
    assert!(!ran.is_error() && !ran.is_replayed(), "{}", ran.text());
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    assert_eq!(
        store
            .entry(&key)
            .await
            .expect("read")
            .map(|entry| (entry.state, entry.attempt)),
        Some((JournalState::Completed, 2))
    );

    // Given up: every retry ends in doubt with the reason, and nothing runs.
    let third = charge("call-11", 2);
    let key = third.key();
    store
        .insert_entry(&entry(&key, JournalState::Started, 1))
        .await
        .expect("insert");
    let reason = "refunded by hand".to_owned();
    assert!(
        registry
            .decide_call(&key, CallDecision::GiveUp { reason })
            .await
            .expect("decide")
    );
    let given_up = registry.execute(third).await;
    assert_eq!(given_up.error_code(), Some(ErrorCode::CallInDoubt.as_str()));
    assert!(
        given_up
            .text()
            .ends_with("it was given up: refunded by hand"),
        "{}",
        given_up.text()
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

/// An `ask` nobody answers waits, signed; a decision is used once, for the same arguments only.
pub async fn approvals_wait_and_are_used_once(store: Arc<dyn CallStore>) {
    use std::sync::atomic::Ordering;
    let (registry, runs) = counting_registry(Arc::clone(&store));
    let _ = registry
        .on_pre_execute(|_execution, _next| async {
            Ok(dsh_tools::PreToolDecision::Ask {
                reason: Some("charging a card needs a person".to_owned()),
            })
        })
        .expect("hook");
    let input = charge("call-a", 900);
    let waiting = registry.execute(input.clone()).await;
    assert_eq!(
        waiting.error_code(),
        Some(ErrorCode::ApprovalPending.as_str())
    );
    let pending = registry.pending_approvals().await.expect("list");
    assert_eq!(pending.len(), 1);
    let id = pending[0].id.clone();
    assert!(waiting.text().contains(&id), "{}", waiting.text());
    assert_eq!(
        pending[0].reason.as_deref(),
        Some("charging a card needs a person")
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);

    // A record altered in the store (other arguments) never approves.
    let mut forged = pending[0].clone();
    forged.arguments_digest = dsh_tools::durable::arguments_digest(&json!({"cents": 1}));
    assert!(
        store
            .replace_approval(ApprovalState::Pending, &forged)
            .await
            .expect("replace")
    );
    assert!(
        !registry
            .decide_approval(&id, true, "mallory")
            .await
            .expect("decide"),
        "an altered record takes no decision"
    );
    assert!(
        store
            .replace_approval(ApprovalState::Pending, &pending[0])
            .await
            .expect("replace")
    );

    assert!(
        registry
            .decide_approval(&id, true, "alice")
            .await
            .expect("decide")
    );
    assert!(
        !registry
            .decide_approval(&id, false, "bob")
            .await
            .expect("decide"),
        "a decision is taken once"
    );
    let approved = registry.execute(input.clone()).await;
    assert!(!approved.is_error(), "{}", approved.text());
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    // The approval was used: the retry of the completed call is replayed, never asked again.
    let again = registry.execute(input).await;
    assert!(again.is_replayed(), "{}", again.text());
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    assert_eq!(
        store
            .approval(&id)
            .await
            .expect("read")
            .map(|approval| approval.state),
        Some(ApprovalState::Used)
    );

    // A rejection is a denial naming who decided.
    let rejected_call = charge("call-b", 5);
    let waiting = registry.execute(rejected_call.clone()).await;
    assert_eq!(
        waiting.error_code(),
        Some(ErrorCode::ApprovalPending.as_str())
    );
    let id = registry.pending_approvals().await.expect("list")[0]
        .id
        .clone();
    assert!(
        registry
            .decide_approval(&id, false, "carol")
            .await
            .expect("decide")
    );
    let denied = registry.execute(rejected_call).await;
    assert_eq!(denied.error_code(), Some(ErrorCode::Denied.as_str()));
    assert_eq!(
        denied.text(),
        format!("Error: approval {id} was rejected by carol")
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

/// 1,000 journaled calls from 8 tasks, each made twice: every call runs once and is replayed
/// once; no record is lost or doubled.
pub async fn concurrent_calls_lose_and_double_nothing(store: Arc<dyn CallStore>) {
    use std::sync::atomic::Ordering;
    let (registry, runs) = counting_registry(Arc::clone(&store));
    let mut tasks = Vec::new();
    for task in 0..8u64 {
        let registry = registry.clone();
        tasks.push(tokio::spawn(async move {
            let mut replays = 0;
            for index in 0..125u64 {
                let call_id = format!("load-{task}-{index}");
                let first = registry.execute(charge(&call_id, index)).await;
                assert!(!first.is_error(), "{}", first.text());
                let second = registry.execute(charge(&call_id, index)).await;
                replays += usize::from(second.is_replayed());
            }
            replays
        }));
    }
    let mut replays = 0;
    for task in tasks {
        replays += task.await.expect("task");
    }
    assert_eq!(runs.load(Ordering::SeqCst), 1_000, "every call ran once");
    assert_eq!(replays, 1_000, "every retry was replayed");
    let completed = store
        .entries(Some(JournalState::Completed))
        .await
        .expect("list");
    assert_eq!(completed.len(), 1_000, "one record per call");
    assert!(completed.iter().all(|entry| entry.attempt == 1));
}
