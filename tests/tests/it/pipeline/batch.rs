//! The parallel batch runner: which calls run together, concurrency within a bound, exclusive barriers,
//! model order and deferred release of additional contexts. On tokio's paused clock.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use dsh_tools::{ContentBlock, FnTool, ToolExecutionInput, ToolRegistry, json, schema::Schema};
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

/// A tool of any arguments that sleeps 100 ms, concurrency-safe as `classifier` says.
fn sleeping_tool(
    name: &'static str,
    classifier: impl Fn(&dsh_tools::Value) -> bool + Send + Sync + 'static,
) -> FnTool {
    FnTool::builder(name, "")
        .arguments(Schema::object().additional_schema(Schema::any()))
        .concurrency_classifier(classifier)
        .handler(|_, _| async {
            sleep(Duration::from_millis(100)).await;
            Ok(json!(null))
        })
}

/// How long `calls` take as one batch: on the paused clock, 100 ms for calls of a
/// `sleeping_tool` run together, 100 ms more for each one that runs alone.
async fn batch_time(registry: &ToolRegistry, calls: Vec<ToolExecutionInput>) -> Duration {
    let started = Instant::now();
    let _ = registry.execute_batch(calls, 8).await;
    started.elapsed()
}

#[tokio::test(start_paused = true)]
async fn the_schedule_follows_the_tools_classifier() {
    let registry = registry_with([
        sleeping_tool("read", |_| true),
        sleeping_tool("write", |_| false),
    ]);
    let ms = Duration::from_millis;
    assert_eq!(
        batch_time(&registry, vec![call("read"), call("read")]).await,
        ms(100)
    );
    assert_eq!(
        batch_time(&registry, vec![call("write"), call("write")]).await,
        ms(200)
    );
    // An unknown tool and malformed arguments fail at once, but alone: the reads around them
    // do not overlap.
    let around = |middle| vec![call("read"), middle, call("read")];
    assert_eq!(
        batch_time(&registry, around(call("unknown"))).await,
        ms(200)
    );
    let malformed = ToolExecutionInput::from_raw("c", "read", "{");
    assert_eq!(batch_time(&registry, around(malformed)).await, ms(200));
}

#[tokio::test(start_paused = true)]
async fn a_classifier_that_decides_by_argument_and_one_that_panics() {
    let registry = registry_with([sleeping_tool("cmd", |arguments| {
        assert!(arguments["panic"] != true, "classifier bug");
        arguments["readonly"] == true
    })]);
    let cmd = |arguments| ToolExecutionInput::new("c", "cmd", arguments);
    let around = |middle| {
        vec![
            cmd(json!({"readonly": true})),
            middle,
            cmd(json!({"readonly": true})),
        ]
    };
    let ms = Duration::from_millis;
    assert_eq!(
        batch_time(&registry, around(cmd(json!({"readonly": true})))).await,
        ms(100)
    );
    assert_eq!(
        batch_time(&registry, around(cmd(json!({"readonly": false})))).await,
        ms(300)
    );
    assert_eq!(
        batch_time(&registry, around(cmd(json!({"panic": true})))).await,
        ms(300)
    );
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
        .filter_map(dsh_tools_tests::block_text)
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
