//! The journal's per-tool policy and edges, on the in-memory store: `#[tool(journal = false)]`,
//! a read-only answer within a time to live, a body that timed out leaving its call in doubt, a
//! store that fails, and a registry without a store, which never replays.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use dsh_tools::durable::{
    ApprovalRecord, ApprovalState, CallStore, Durability, JournalEntry, JournalPolicy,
    JournalState, MemoryStore, StoreError, TaskRecord, TaskState,
};
use dsh_tools::{
    FnTool, ToolDefinition, ToolExecutionInput, ToolRegistry, call::BoxFuture, errors::ErrorCode,
    json, tool,
};
use dsh_tools_tests::durable_conformance::{approval_record, task};

static PRICE_RUNS: AtomicUsize = AtomicUsize::new(0);
static NOTE_RUNS: AtomicUsize = AtomicUsize::new(0);

/// Looks up a price.
#[tool(read_only, journal_ttl_ms = 60_000)]
async fn price(item: String) -> String {
    PRICE_RUNS.fetch_add(1, Ordering::SeqCst);
    format!("{item}: 3")
}

/// Sends a note.
#[tool(journal = false)]
async fn note(text: String) -> String {
    NOTE_RUNS.fetch_add(1, Ordering::SeqCst);
    format!("sent {text}")
}

#[test]
fn the_macros_set_the_journal_policy() {
    assert_eq!(
        PriceTool.options().journal,
        JournalPolicy {
            enabled: true,
            answer_within_ms: Some(60_000),
        }
    );
    assert_eq!(
        NoteTool.options().journal,
        JournalPolicy {
            enabled: false,
            answer_within_ms: None,
        }
    );
}

#[tokio::test]
async fn policies_answer_within_a_time_to_live_or_opt_out() {
    let registry = ToolRegistry::new();
    let _ = registry.register(PriceTool).expect("price");
    let _ = registry.register(NoteTool).expect("note");
    registry.set_durability(Durability::new(MemoryStore::default()));

    let first = registry
        .execute(ToolExecutionInput::new(
            "p1",
            "price",
            json!({"item": "tea"}),
        ))
        .await;
    assert!(!first.is_replayed());
    // Another call id, the same tool and arguments: answered from the journal.
    let second = registry
        .execute(ToolExecutionInput::new(
            "p2",
            "price",
            json!({"item": "tea"}),
        ))
        .await;
    assert!(second.is_replayed(), "{second:?}");
    assert_eq!(second.text(), "tea: 3");
    let other = registry
        .execute(ToolExecutionInput::new(
            "p3",
            "price",
            json!({"item": "milk"}),
        ))
        .await;
    assert!(!other.is_replayed());
    assert_eq!(PRICE_RUNS.load(Ordering::SeqCst), 2);

    for _ in 0..2 {
        let sent = registry
            .execute(ToolExecutionInput::new("n1", "note", json!({"text": "hi"})))
            .await;
        assert!(!sent.is_replayed() && !sent.is_error(), "{}", sent.text());
    }
    assert_eq!(
        NOTE_RUNS.load(Ordering::SeqCst),
        2,
        "a tool out of the journal runs every time"
    );
}

fn counting(name: &'static str, runs: &Arc<AtomicUsize>) -> FnTool {
    let runs = Arc::clone(runs);
    FnTool::builder(name, "Counts its runs.")
        .raw_parameters(json!({"type": "object"}))
        .handler(move |_, _| {
            let runs = Arc::clone(&runs);
            async move { Ok(json!(runs.fetch_add(1, Ordering::SeqCst) + 1)) }
        })
}

#[tokio::test]
async fn without_a_store_nothing_is_replayed() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = ToolRegistry::new();
    let _ = registry.register(counting("count", &runs)).expect("count");
    for _ in 0..2 {
        let result = registry
            .execute(ToolExecutionInput::new("c1", "count", json!({})))
            .await;
        assert!(!result.is_replayed());
    }
    assert_eq!(runs.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_body_that_timed_out_leaves_its_call_in_doubt() {
    let registry = ToolRegistry::new();
    let hang = FnTool::builder("hang", "Never answers.")
        .raw_parameters(json!({"type": "object"}))
        .options(dsh_tools::call::ToolOptions {
            timeout_ms: Some(10),
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(|_, _| async {
            std::future::pending::<()>().await;
            Ok(json!(null))
        });
    let _ = registry.register(hang).expect("hang");
    registry.set_durability(Durability::new(MemoryStore::default()).with_place("here"));
    let input = ToolExecutionInput::new("h1", "hang", json!({}));
    let timed_out = registry.execute(input.clone()).await;
    assert_eq!(
        timed_out.error_code(),
        Some(ErrorCode::ToolTimeout.as_str())
    );
    let retry = registry.execute(input).await;
    assert_eq!(
        retry.error_code(),
        Some(ErrorCode::CallInDoubt.as_str()),
        "{}",
        retry.text()
    );
    assert!(retry.text().contains(" on here "), "{}", retry.text());
}

#[tokio::test]
async fn a_failed_body_runs_again_on_retry() {
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&runs);
    let registry = ToolRegistry::new();
    let flaky = FnTool::builder("flaky", "Fails the first time.")
        .raw_parameters(json!({"type": "object"}))
        .handler(move |_, _| {
            let counted = Arc::clone(&counted);
            async move {
                if counted.fetch_add(1, Ordering::SeqCst) == 0 {
                    Err(dsh_tools::ToolError::new("card declined"))
                } else {
                    Ok(json!("charged"))
                }
            }
        });
    let _ = registry.register(flaky).expect("flaky");
    registry.set_durability(Durability::new(MemoryStore::default()));
    let input = ToolExecutionInput::new("f1", "flaky", json!({}));
    assert!(registry.execute(input.clone()).await.is_error());
    let second = registry.execute(input.clone()).await;
    assert_eq!(second.text(), "charged");
    let third = registry.execute(input).await;
    assert!(third.is_replayed());
    assert_eq!(runs.load(Ordering::SeqCst), 2);
}

/// A store whose every operation fails.
struct Broken;

fn broken<T>() -> BoxFuture<'static, Result<T, StoreError>> {
    Box::pin(async { Err(StoreError::new("disk on fire")) })
}

impl CallStore for Broken {
    fn insert_entry<'a>(
        &'a self,
        _: &'a JournalEntry,
    ) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>> {
        broken()
    }
    fn replace_entry(
        &self,
        _: u64,
        _: JournalState,
        _: JournalEntry,
    ) -> BoxFuture<'_, Result<bool, StoreError>> {
        broken()
    }
    fn entry<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>> {
        broken()
    }
    fn entries(
        &self,
        _: Option<JournalState>,
    ) -> BoxFuture<'_, Result<Vec<JournalEntry>, StoreError>> {
        broken()
    }
    fn answer<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Option<JournalEntry>, StoreError>> {
        broken()
    }
    fn insert_approval<'a>(
        &'a self,
        _: &'a ApprovalRecord,
    ) -> BoxFuture<'a, Result<Option<ApprovalRecord>, StoreError>> {
        broken()
    }
    fn replace_approval<'a>(
        &'a self,
        _: ApprovalState,
        _: &'a ApprovalRecord,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        broken()
    }
    fn approval<'a>(
        &'a self,
        _: &'a str,
    ) -> BoxFuture<'a, Result<Option<ApprovalRecord>, StoreError>> {
        broken()
    }
    fn approvals(
        &self,
        _: Option<ApprovalState>,
    ) -> BoxFuture<'_, Result<Vec<ApprovalRecord>, StoreError>> {
        broken()
    }
    fn insert_task<'a>(
        &'a self,
        _: &'a TaskRecord,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        broken()
    }
    fn replace_task<'a>(
        &'a self,
        _: u64,
        _: &'a TaskRecord,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        broken()
    }
    fn task<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        broken()
    }
    fn tasks(&self, _: Option<TaskState>) -> BoxFuture<'_, Result<Vec<TaskRecord>, StoreError>> {
        broken()
    }
}

#[tokio::test]
async fn a_failing_store_runs_nothing() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = ToolRegistry::new();
    let _ = registry.register(counting("count", &runs)).expect("count");
    registry.set_durability(Durability::new(Broken));
    let result = registry
        .execute(ToolExecutionInput::new("s1", "count", json!({})))
        .await;
    assert_eq!(result.error_code(), Some(ErrorCode::StoreFailed.as_str()));
    assert_eq!(result.text(), "Error: the call store failed: disk on fire");
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

/// A tool that counts its runs, journaled (the default).
fn counted(runs: &Arc<AtomicUsize>) -> FnTool {
    let runs = Arc::clone(runs);
    FnTool::builder("charge", "Charges a card.").handler(move |_, _| {
        let runs = Arc::clone(&runs);
        async move {
            runs.fetch_add(1, Ordering::SeqCst);
            Ok(json!("charged"))
        }
    })
}

#[tokio::test]
async fn a_bounded_memory_store_forgets_the_oldest_finished_calls_first() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = ToolRegistry::new();
    let _ = registry.register(counted(&runs)).expect("charge");
    let store = Arc::new(MemoryStore::keeping_finished(2));
    registry.set_durability(Durability::new(Arc::clone(&store)));
    let call = |id: &'static str| ToolExecutionInput::new(id, "charge", json!({}));

    // A call in doubt (started, nothing recorded after) is kept however many calls finish.
    let first = registry.execute(call("c1")).await;
    assert!(
        !first.is_replayed() && !first.is_error(),
        "{}",
        first.text()
    );
    let mut in_doubt = store
        .entries(None)
        .await
        .expect("entries")
        .pop()
        .expect("c1's entry");
    in_doubt.key = "in-doubt".to_owned();
    in_doubt.state = JournalState::Started;
    in_doubt.finished_at_ms = None;
    in_doubt.outcome = None;
    assert!(
        store
            .insert_entry(&in_doubt)
            .await
            .expect("insert")
            .is_none()
    );

    for id in ["c2", "c3"] {
        let result = registry.execute(call(id)).await;
        assert!(
            !result.is_replayed() && !result.is_error(),
            "{}",
            result.text()
        );
    }
    assert_eq!(runs.load(Ordering::SeqCst), 3);
    // The two latest finished calls are remembered: their retries are replayed.
    for id in ["c3", "c2"] {
        let retry = registry.execute(call(id)).await;
        assert!(retry.is_replayed(), "{id}: {retry:?}");
    }
    assert_eq!(runs.load(Ordering::SeqCst), 3);
    let kept = store.entries(None).await.expect("entries");
    assert_eq!(
        kept.len(),
        3,
        "two finished calls and the one in doubt: {kept:?}"
    );
    assert!(kept.iter().any(|entry| entry.key == "in-doubt"));
    // The oldest finished call was forgotten: its retry runs again, as after a restart.
    let again = registry.execute(call("c1")).await;
    assert!(
        !again.is_replayed() && !again.is_error(),
        "{}",
        again.text()
    );
    assert_eq!(runs.load(Ordering::SeqCst), 4);
}

#[tokio::test]
async fn a_bounded_memory_store_forgets_the_oldest_settled_approvals_and_tasks() {
    let store = MemoryStore::keeping_finished(2);
    let never = u64::MAX;
    // Waiting approvals are kept however many settle; settled ones (rejected, used, expired)
    // are forgotten past the bound, the oldest asked first.
    let mut approvals = vec![
        approval_record("waits", ApprovalState::Pending, 1, never),
        approval_record("approved", ApprovalState::Approved, 2, never),
        approval_record("expired", ApprovalState::Pending, 3, 4),
        approval_record("rejected", ApprovalState::Rejected, 5, never),
        approval_record("used", ApprovalState::Used, 6, never),
    ];
    for n in 0..100 {
        let asked = 100 + n;
        approvals.push(approval_record(
            &format!("waits-{n}"),
            ApprovalState::Pending,
            asked,
            never,
        ));
    }
    for approval in &approvals {
        assert!(
            store
                .insert_approval(approval)
                .await
                .expect("insert")
                .is_none()
        );
    }
    let kept: Vec<String> = store
        .approvals(None)
        .await
        .expect("approvals")
        .into_iter()
        .map(|approval| approval.id)
        .collect();
    for id in [
        "waits", "approved", "waits-0", "waits-99", "rejected", "used",
    ] {
        assert!(
            kept.contains(&id.to_owned()),
            "{id} was forgotten: {kept:?}"
        );
    }
    assert!(!kept.iter().any(|id| id == "expired"), "{kept:?}");
    assert_eq!(kept.len(), approvals.len() - 1, "{kept:?}");

    // However many settle, the store holds a bounded number of them: the latest `limit`, and
    // those settled since its last sweep (one per `limit` insertions, at least 16).
    for n in 0..200 {
        let used = approval_record(&format!("used-{n}"), ApprovalState::Used, 1_000 + n, never);
        assert!(
            store
                .insert_approval(&used)
                .await
                .expect("insert")
                .is_none()
        );
    }
    let settled = store
        .approvals(Some(ApprovalState::Used))
        .await
        .expect("used");
    assert!(settled.len() <= 2 + 16, "{} kept", settled.len());
    assert!(settled.iter().any(|approval| approval.id == "used-199"));
    let pending = store
        .approvals(Some(ApprovalState::Pending))
        .await
        .expect("pending");
    assert_eq!(pending.len(), 101, "every waiting approval is kept");

    // Tasks: those still running or asking are kept; finished ones past the bound go, the
    // oldest finished first, and a forgotten one reads as unknown.
    let mut tasks = vec![
        task("working", TaskState::Working, 1),
        task("asks", TaskState::InputRequired, 2),
        task("done", TaskState::Completed, 3),
        task("failed", TaskState::Failed, 4),
        task("cancelled", TaskState::Cancelled, 5),
    ];
    for n in 0..100 {
        tasks.push(task(&format!("running-{n}"), TaskState::Working, 100 + n));
    }
    for record in &tasks {
        assert!(store.insert_task(record).await.expect("insert").is_none());
    }
    let kept: Vec<String> = store
        .tasks(None)
        .await
        .expect("tasks")
        .into_iter()
        .map(|task| task.id)
        .collect();
    for id in [
        "working",
        "asks",
        "running-0",
        "running-99",
        "failed",
        "cancelled",
    ] {
        assert!(
            kept.contains(&id.to_owned()),
            "{id} was forgotten: {kept:?}"
        );
    }
    assert_eq!(kept.len(), tasks.len() - 1, "{kept:?}");
    assert!(store.task("done").await.expect("read").is_none());
}
