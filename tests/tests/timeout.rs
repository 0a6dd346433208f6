//! The timeout policy: budgets from the definition, cooperative cancellation, the bounded grace,
//! and when `TOOL_TIMEOUT` is (and is not) the outcome. All on tokio's paused clock.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use dsh_tools::{FnTool, TimeoutPolicy, ToolError, ToolRegistry, codes, json};
use dsh_tools_tests::{Log, call, only_text, registry_with};
use tokio::time::{Instant, sleep};
use tokio_util::sync::CancellationToken;

/// Sets a flag when dropped: tells whether a body's future was dropped.
struct DropFlag(Arc<AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

fn sleeping_tool(name: &str, budget_ms: Option<u64>, sleep_ms: u64) -> FnTool {
    let builder = FnTool::builder(name, "");
    let builder = match budget_ms {
        Some(budget) => builder.timeout_ms(budget),
        None => builder,
    };
    builder.handler(move |_, _| async move {
        sleep(Duration::from_millis(sleep_ms)).await;
        Ok(json!("slept"))
    })
}

fn with_timeouts(tools: impl IntoIterator<Item = FnTool>, grace_ms: u64) -> ToolRegistry {
    let registry = registry_with(tools);
    registry.wrap(TimeoutPolicy::new().with_grace(Duration::from_millis(grace_ms)));
    registry
}

#[tokio::test(start_paused = true)]
async fn a_tool_without_budget_is_left_alone() {
    let registry = with_timeouts([sleeping_tool("t", None, 60_000)], 10);
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "slept");
}

#[tokio::test(start_paused = true)]
async fn a_call_within_budget_passes() {
    let registry = with_timeouts([sleeping_tool("t", Some(100), 50)], 10);
    assert_eq!(only_text(&registry.execute(call("t")).await), "slept");
}

#[tokio::test(start_paused = true)]
async fn a_cooperative_body_past_its_budget_times_out_at_the_deadline() {
    let tool = FnTool::builder("coop", "")
        .timeout_ms(100)
        .handler(|_, run| async move {
            tokio::select! {
                () = run.cancelled() => Err(ToolError::new("cancelled")),
                () = sleep(Duration::from_secs(60)) => Ok(json!("slept")),
            }
        });
    let registry = with_timeouts([tool], 1_000);
    let started = Instant::now();
    let result = registry.execute(call("coop")).await;
    assert_eq!(result.error_code(), Some(codes::TOOL_TIMEOUT));
    assert_eq!(
        result.error().unwrap().info().unwrap().name,
        "ToolTimeoutError"
    );
    assert_eq!(only_text(&result), "Error: tool call timed out after 100ms");
    assert_eq!(
        started.elapsed(),
        Duration::from_millis(100),
        "no grace needed"
    );
}

#[tokio::test(start_paused = true)]
async fn a_body_that_ignores_its_token_is_dropped_after_the_grace() {
    let dropped = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&dropped);
    let tool = FnTool::builder("stubborn", "")
        .timeout_ms(100)
        .handler(move |_, _| {
            let guard = DropFlag(Arc::clone(&flag));
            async move {
                let _guard = guard;
                sleep(Duration::from_secs(3_600)).await;
                Ok(json!("never"))
            }
        });
    let registry = with_timeouts([tool], 50);
    let started = Instant::now();
    let result = registry.execute(call("stubborn")).await;
    assert_eq!(only_text(&result), "Error: tool call timed out after 100ms");
    assert_eq!(
        started.elapsed(),
        Duration::from_millis(150),
        "budget + grace, not an hour"
    );
    assert!(
        dropped.load(Ordering::SeqCst),
        "the body's future was dropped"
    );
}

#[tokio::test(start_paused = true)]
async fn a_body_finishing_within_the_grace_still_times_out() {
    let tool = FnTool::builder("late", "")
        .timeout_ms(100)
        .handler(|_, run| async move {
            run.cancelled().await;
            sleep(Duration::from_millis(10)).await;
            Ok(json!("finished late"))
        });
    let registry = with_timeouts([tool], 50);
    let started = Instant::now();
    let result = registry.execute(call("late")).await;
    assert_eq!(result.error_code(), Some(codes::TOOL_TIMEOUT));
    assert_eq!(started.elapsed(), Duration::from_millis(110));
}

#[tokio::test(start_paused = true)]
async fn a_caller_cancel_before_the_deadline_passes_aborted_through() {
    let tool = FnTool::builder("coop", "")
        .timeout_ms(1_000)
        .handler(|_, run| async move {
            run.cancelled().await;
            Ok(json!("stopped"))
        });
    let registry = with_timeouts([tool], 50);
    let signal = CancellationToken::new();
    let cancel = signal.clone();
    tokio::spawn(async move {
        sleep(Duration::from_millis(10)).await;
        cancel.cancel();
    });
    let result = registry.execute(call("coop").with_signal(signal)).await;
    assert_eq!(result.error_code(), Some(codes::ABORTED));
}

#[tokio::test(start_paused = true)]
async fn a_timeout_goes_through_post_execute() {
    let log = Log::new();
    let registry = with_timeouts([sleeping_tool("t", Some(10), 1_000)], 5);
    let seen = log.clone();
    registry.on_post_execute(move |_, result, next| {
        seen.push(format!("post saw {:?}", result.error_code()));
        next.run()
    });
    registry.execute(call("t")).await;
    assert_eq!(log.entries(), ["post saw Some(\"TOOL_TIMEOUT\")"]);
}

#[tokio::test(start_paused = true)]
async fn an_outer_deadline_firing_first_wins_over_the_inner_one() {
    // An outer, hand-written 20ms deadline around the policy's 100ms one.
    let registry = registry_with([sleeping_tool("t", Some(100), 10_000)]);
    registry.on_execute(|mut request, next| async move {
        let deadline = request.signal().child_token();
        request.set_signal(deadline.clone());
        let fire = deadline.clone();
        tokio::spawn(async move {
            sleep(Duration::from_millis(20)).await;
            fire.cancel();
        });
        let result = next.run(request).await?;
        Ok(if deadline.is_cancelled() {
            dsh_tools::ToolExecutionResult::failure(ToolError::new("outer deadline"))
        } else {
            result
        })
    });
    registry.wrap(TimeoutPolicy::new().with_grace(Duration::from_millis(5)));
    let started = Instant::now();
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "Error: outer deadline");
    // The inner policy saw its parent token cancelled before its own deadline, so it did not
    // claim the timeout; it still dropped the stubborn body at its own deadline plus grace.
    assert_eq!(started.elapsed(), Duration::from_millis(105));
}

#[tokio::test(start_paused = true)]
async fn budgets_come_from_the_definition_the_caller_sees() {
    let registry = with_timeouts([sleeping_tool("t", Some(1_000), 500)], 10);
    let scope = registry.create_scope("agent", None).unwrap();
    scope.register(sleeping_tool("t", Some(100), 500)).unwrap();
    assert_eq!(only_text(&registry.execute(call("t")).await), "slept");
    assert_eq!(
        only_text(&scope.execute(call("t")).await),
        "Error: tool call timed out after 100ms"
    );
}
