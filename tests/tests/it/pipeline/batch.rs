//! The parallel batch runner: execution modes, concurrency within a bound, exclusive barriers,
//! model order and deferred release of additional contexts. On tokio's paused clock.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use dsh_tools::{
    ContentBlock, FnTool, ToolExecutionInput, json, registry::ExecutionMode, schema::Schema,
};
use dsh_tools_tests::{Log, call, ok_tool, registry_with};
use tokio::time::{Instant, sleep};

/// A tool that sleeps `ms`, logs start and end, tracks how many run at once, and defers a context.
fn timed_tool(
    name: &'static str,
    ms: u64,
    safe: bool,
    log: &Log,
    live: &Arc<(AtomicUsize, AtomicUsize)>,
) -> FnTool {
    let (log, live) = (log.clone(), Arc::clone(live));
    FnTool::builder(name, "")
        .arguments(Schema::object().required("id", Schema::string()))
        .concurrency_classifier(move |_| safe)
        .handler(move |arguments, run| {
            let (log, live) = (log.clone(), Arc::clone(&live));
            async move {
                let id = arguments["id"].as_str().unwrap_or(name).to_owned();
                let now = live.0.fetch_add(1, Ordering::SeqCst) + 1;
                live.1.fetch_max(now, Ordering::SeqCst);
                log.push(format!("start {id}"));
                sleep(Duration::from_millis(ms)).await;
                log.push(format!("end {id}"));
                live.0.fetch_sub(1, Ordering::SeqCst);
                run.defer_context(ContentBlock::text(format!("ctx {id}")));
                Ok(json!(id))
            }
        })
}

fn input(name: &str, id: &str) -> ToolExecutionInput {
    ToolExecutionInput::new(id.to_owned(), name.to_owned(), json!({"id": id}))
}

#[test]
fn the_mode_follows_the_tools_classifier() {
    let registry = registry_with([
        FnTool::builder("read", "")
            .concurrency_classifier(|_| true)
            .handler(|_, _| async { Ok(json!(1)) }),
        ok_tool("write"),
    ]);
    assert_eq!(
        registry.execution_mode(&call("read")),
        ExecutionMode::Parallel
    );
    assert_eq!(
        registry.execution_mode(&call("write")),
        ExecutionMode::Exclusive
    );
    assert_eq!(
        registry.execution_mode(&call("unknown")),
        ExecutionMode::Exclusive
    );
    let malformed = ToolExecutionInput::from_raw("c", "read", "{");
    assert_eq!(
        registry.execution_mode(&malformed),
        ExecutionMode::Exclusive
    );
}

#[test]
fn a_classifier_that_decides_by_argument_and_one_that_panics() {
    let registry = registry_with([FnTool::builder("cmd", "")
        .concurrency_classifier(|arguments| {
            assert!(arguments["panic"] != true, "classifier bug");
            arguments["readonly"] == true
        })
        .handler(|_, _| async { Ok(json!(null)) })]);
    let mode = |arguments| registry.execution_mode(&ToolExecutionInput::new("c", "cmd", arguments));
    assert_eq!(mode(json!({"readonly": true})), ExecutionMode::Parallel);
    assert_eq!(mode(json!({"readonly": false})), ExecutionMode::Exclusive);
    assert_eq!(mode(json!({"panic": true})), ExecutionMode::Exclusive);
}

#[tokio::test(start_paused = true)]
async fn parallel_calls_take_as_long_as_the_slowest_and_keep_model_order() {
    let log = Log::new();
    let live = Arc::default();
    let registry = registry_with([
        timed_tool("slow", 300, true, &log, &live),
        timed_tool("fast", 100, true, &log, &live),
    ]);
    let started = Instant::now();
    let outcome = registry
        .execute_batch(
            vec![input("slow", "a"), input("fast", "b"), input("fast", "c")],
            8,
        )
        .await;
    assert_eq!(started.elapsed(), Duration::from_millis(300));
    let values: Vec<_> = outcome
        .results
        .iter()
        .map(|result| result.value().cloned())
        .collect();
    assert_eq!(
        values,
        [Some(json!("a")), Some(json!("b")), Some(json!("c"))]
    );
    assert_eq!(live.1.load(Ordering::SeqCst), 3);
}

#[tokio::test(start_paused = true)]
async fn the_bound_limits_how_many_run_at_once() {
    let log = Log::new();
    let live = Arc::default();
    let registry = registry_with([timed_tool("t", 100, true, &log, &live)]);
    let inputs = (0..5).map(|index| input("t", &index.to_string())).collect();
    let started = Instant::now();
    let outcome = registry.execute_batch(inputs, 2).await;
    assert_eq!(outcome.results.len(), 5);
    assert_eq!(live.1.load(Ordering::SeqCst), 2);
    assert_eq!(
        started.elapsed(),
        Duration::from_millis(300),
        "ceil(5 / 2) rounds of 100ms"
    );
}

#[tokio::test(start_paused = true)]
async fn an_exclusive_call_is_a_barrier() {
    let log = Log::new();
    let live = Arc::default();
    let registry = registry_with([
        timed_tool("read", 100, true, &log, &live),
        timed_tool("write", 50, false, &log, &live),
    ]);
    let outcome = registry
        .execute_batch(
            vec![
                input("read", "r1"),
                input("read", "r2"),
                input("write", "w"),
                input("read", "r3"),
            ],
            8,
        )
        .await;
    assert_eq!(outcome.results.len(), 4);
    let entries = log.entries();
    let position = |entry: &str| entries.iter().position(|seen| seen == entry).unwrap();
    assert!(position("end r1") < position("start w"));
    assert!(position("end r2") < position("start w"));
    assert!(position("end w") < position("start r3"));
}

#[tokio::test(start_paused = true)]
async fn additional_contexts_are_released_after_all_results_in_model_order() {
    let log = Log::new();
    let live = Arc::default();
    let registry = registry_with([
        timed_tool("slow", 200, true, &log, &live),
        timed_tool("fast", 10, true, &log, &live),
    ]);
    let outcome = registry
        .execute_batch(vec![input("slow", "a"), input("fast", "b")], 4)
        .await;
    assert!(
        outcome
            .results
            .iter()
            .all(|result| result.additional_contexts().is_empty())
    );
    let contexts: Vec<_> = outcome
        .additional_contexts
        .iter()
        .filter_map(ContentBlock::as_text)
        .collect();
    assert_eq!(
        contexts,
        ["ctx a", "ctx b"],
        "model order, not completion order"
    );
}

#[tokio::test]
async fn failures_and_unknown_tools_keep_their_place() {
    let registry = registry_with([ok_tool("ok")]);
    let outcome = registry
        .execute_batch(vec![call("ok"), call("missing"), call("ok")], 4)
        .await;
    let texts: Vec<_> = outcome.results.iter().map(|result| result.text()).collect();
    assert_eq!(texts, ["ok", "Error: unknown tool \"missing\"", "ok"]);
    assert!(
        registry
            .execute_batch(Vec::new(), 0)
            .await
            .results
            .is_empty()
    );
}
