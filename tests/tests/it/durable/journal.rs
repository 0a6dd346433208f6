//! The journal's per-tool policy and edges, on the in-memory store: `#[tool(journal = false)]`,
//! a read-only answer within a time to live, a body that timed out leaving its call in doubt, a
//! store that fails, and a registry without a store, which never replays.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use dsh_tools::durable::{
    ApprovalRecord, ApprovalState, CallStore, Durability, JournalEntry, JournalPolicy,
    JournalState, MemoryStore, StoreError, StoreResult, TaskRecord, TaskState,
};
use dsh_tools::{
    FnTool, ToolDefinition, ToolExecutionInput, ToolRegistry, call::BoxFuture, errors::codes, json,
    tool,
};

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
    assert_eq!(PriceTool.journal(), JournalPolicy::answered_within(60_000));
    assert_eq!(NoteTool.journal(), JournalPolicy::OFF);
}

#[tokio::test]
async fn policies_answer_within_a_time_to_live_or_opt_out() {
    let registry = ToolRegistry::new();
    let _ = registry.register(PriceTool).expect("price");
    let _ = registry.register(NoteTool).expect("note");
    registry.set_durability(Durability::new(MemoryStore::new()));

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
        .timeout_ms(10)
        .handler(|_, _| async {
            std::future::pending::<()>().await;
            Ok(json!(null))
        });
    let _ = registry.register(hang).expect("hang");
    registry.set_durability(Durability::new(MemoryStore::new()).with_place("here"));
    let input = ToolExecutionInput::new("h1", "hang", json!({}));
    let timed_out = registry.execute(input.clone()).await;
    assert_eq!(timed_out.error_code(), Some(codes::TOOL_TIMEOUT));
    let retry = registry.execute(input).await;
    assert_eq!(
        retry.error_code(),
        Some(codes::CALL_IN_DOUBT),
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
    registry.set_durability(Durability::new(MemoryStore::new()));
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

fn broken<T>() -> BoxFuture<'static, StoreResult<T>> {
    Box::pin(async { Err(StoreError::new("disk on fire")) })
}

impl CallStore for Broken {
    fn insert_entry<'a>(
        &'a self,
        _: &'a JournalEntry,
    ) -> BoxFuture<'a, StoreResult<Option<JournalEntry>>> {
        broken()
    }
    fn replace_entry<'a>(
        &'a self,
        _: u64,
        _: JournalState,
        _: &'a JournalEntry,
    ) -> BoxFuture<'a, StoreResult<bool>> {
        broken()
    }
    fn entry<'a>(&'a self, _: &'a str) -> BoxFuture<'a, StoreResult<Option<JournalEntry>>> {
        broken()
    }
    fn entries(&self, _: Option<JournalState>) -> BoxFuture<'_, StoreResult<Vec<JournalEntry>>> {
        broken()
    }
    fn answer<'a>(&'a self, _: &'a str) -> BoxFuture<'a, StoreResult<Option<JournalEntry>>> {
        broken()
    }
    fn insert_approval<'a>(
        &'a self,
        _: &'a ApprovalRecord,
    ) -> BoxFuture<'a, StoreResult<Option<ApprovalRecord>>> {
        broken()
    }
    fn replace_approval<'a>(
        &'a self,
        _: ApprovalState,
        _: &'a ApprovalRecord,
    ) -> BoxFuture<'a, StoreResult<bool>> {
        broken()
    }
    fn approval<'a>(&'a self, _: &'a str) -> BoxFuture<'a, StoreResult<Option<ApprovalRecord>>> {
        broken()
    }
    fn approvals(
        &self,
        _: Option<ApprovalState>,
    ) -> BoxFuture<'_, StoreResult<Vec<ApprovalRecord>>> {
        broken()
    }
    fn insert_task<'a>(
        &'a self,
        _: &'a TaskRecord,
    ) -> BoxFuture<'a, StoreResult<Option<TaskRecord>>> {
        broken()
    }
    fn replace_task<'a>(&'a self, _: u64, _: &'a TaskRecord) -> BoxFuture<'a, StoreResult<bool>> {
        broken()
    }
    fn task<'a>(&'a self, _: &'a str) -> BoxFuture<'a, StoreResult<Option<TaskRecord>>> {
        broken()
    }
    fn tasks(&self, _: Option<TaskState>) -> BoxFuture<'_, StoreResult<Vec<TaskRecord>>> {
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
    assert_eq!(result.error_code(), Some(codes::STORE_FAILED));
    assert_eq!(result.text(), "Error: the call store failed: disk on fire");
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}
