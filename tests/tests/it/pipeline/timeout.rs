//! Timeouts: every declared budget is enforced by default (innermost, with a configurable grace
//! and an opt-out), cooperative through the body's token, then a bounded grace after which the
//! body's future is dropped; `TOOL_TIMEOUT` only when that deadline fired first; an outer
//! `TimeoutPolicy` layer as a second budget. Tests of timing run on tokio's paused clock; the
//! ones about bodies that block a thread need the real one and assert outcomes, never durations.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use dsh_tools::{
    FnTool, ToolError, ToolExecutionResult, ToolRegistry,
    call::ToolOptions,
    errors::ErrorCode,
    json,
    policy::{CallLimits, TimeoutPolicy},
};
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
    let builder = FnTool::builder(name, "").options(ToolOptions {
        timeout_ms: budget_ms,
        ..ToolOptions::default()
    });
    builder.handler(move |_, _| async move {
        sleep(Duration::from_millis(sleep_ms)).await;
        Ok(json!("slept"))
    })
}

/// A tool that sleeps an hour unless its token is cancelled.
fn cooperative_tool(name: &str, budget_ms: u64) -> FnTool {
    FnTool::builder(name, "")
        .options(ToolOptions {
            timeout_ms: Some(budget_ms),
            ..ToolOptions::default()
        })
        .handler(|_, run| async move {
            tokio::select! {
                () = run.signal().cancelled() => Err(ToolError::new("cancelled")),
                () = sleep(Duration::from_secs(3_600)) => Ok(json!("slept")),
            }
        })
}

fn with_grace(tools: impl IntoIterator<Item = FnTool>, grace_ms: u64) -> ToolRegistry {
    let registry = registry_with(tools);
    registry.set_limits(CallLimits {
        timeout_grace: Duration::from_millis(grace_ms),
        ..CallLimits::default()
    });
    registry
}

#[tokio::test(start_paused = true)]
async fn a_declared_budget_is_enforced_without_installing_anything() {
    let registry = registry_with([cooperative_tool("coop", 100)]);
    let started = Instant::now();
    let result = registry.execute(call("coop")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ToolTimeout.as_str()));
    assert_eq!(
        result.error().unwrap().info().unwrap().name,
        ErrorCode::ToolTimeout.name()
    );
    assert_eq!(only_text(&result), "Error: tool call timed out after 100ms");
    assert_eq!(
        started.elapsed(),
        Duration::from_millis(100),
        "no grace needed"
    );
}

#[tokio::test(start_paused = true)]
async fn the_defaults_enforce_budgets_with_a_one_second_grace_and_no_default_budget() {
    let limits = ToolRegistry::new().limits();
    assert_eq!(limits, CallLimits::default());
    assert!(limits.enforce_timeouts);
    assert_eq!(limits.timeout_grace, Duration::from_secs(1));
    assert_eq!(limits.default_timeout_ms, None);
}

#[tokio::test(start_paused = true)]
async fn a_tool_without_budget_is_left_alone() {
    let registry = with_grace([sleeping_tool("t", None, 60_000)], 10);
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "slept");
}

#[tokio::test(start_paused = true)]
async fn a_call_within_budget_passes() {
    let registry = with_grace([sleeping_tool("t", Some(100), 50)], 10);
    assert_eq!(only_text(&registry.execute(call("t")).await), "slept");
}

#[tokio::test(start_paused = true)]
async fn a_body_that_ignores_its_token_is_dropped_after_the_default_grace() {
    let dropped = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&dropped);
    let tool = FnTool::builder("stubborn", "")
        .options(ToolOptions {
            timeout_ms: Some(100),
            ..ToolOptions::default()
        })
        .handler(move |_, _| {
            let guard = DropFlag(Arc::clone(&flag));
            async move {
                let _guard = guard;
                sleep(Duration::from_secs(3_600)).await;
                Ok(json!("never"))
            }
        });
    let registry = registry_with([tool]);
    let started = Instant::now();
    let result = registry.execute(call("stubborn")).await;
    assert_eq!(only_text(&result), "Error: tool call timed out after 100ms");
    assert_eq!(
        started.elapsed(),
        Duration::from_millis(1_100),
        "budget + the default one-second grace, not an hour"
    );
    assert!(
        dropped.load(Ordering::SeqCst),
        "the body's future was dropped"
    );
}

#[tokio::test(start_paused = true)]
async fn the_grace_is_set_on_the_registry() {
    let tool = FnTool::builder("stubborn", "")
        .options(ToolOptions {
            timeout_ms: Some(100),
            ..ToolOptions::default()
        })
        .handler(|_, _| async {
            sleep(Duration::from_secs(3_600)).await;
            Ok(json!("never"))
        });
    let registry = with_grace([tool], 50);
    let started = Instant::now();
    let result = registry.execute(call("stubborn")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ToolTimeout.as_str()));
    assert_eq!(started.elapsed(), Duration::from_millis(150));
}

/// Waits an hour, whatever its token says; its grace is its own.
#[dsh_tools::tool(timeout_ms = 100, timeout_grace_ms = 20)]
async fn stubborn_with_grace() -> String {
    sleep(Duration::from_secs(3_600)).await;
    "never".to_owned()
}

#[tokio::test(start_paused = true)]
async fn a_tools_own_grace_replaces_the_registrys() {
    let tool = FnTool::builder("stubborn", "")
        .options(ToolOptions {
            timeout_ms: Some(100),
            timeout_grace: Some(Duration::from_millis(5)),
            ..ToolOptions::default()
        })
        .handler(|_, _| async {
            sleep(Duration::from_secs(3_600)).await;
            Ok(json!("never"))
        });
    let registry = with_grace([tool], 500);
    let _ = registry.register(StubbornWithGraceTool).unwrap();
    let started = Instant::now();
    let result = registry.execute(call("stubborn")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ToolTimeout.as_str()));
    assert_eq!(started.elapsed(), Duration::from_millis(105));
    let started = Instant::now();
    let result = registry.execute(call("stubborn_with_grace")).await;
    assert_eq!(only_text(&result), "Error: tool call timed out after 100ms");
    assert_eq!(started.elapsed(), Duration::from_millis(120));
}

#[tokio::test(start_paused = true)]
async fn a_body_finishing_within_the_grace_still_times_out() {
    let tool = FnTool::builder("late", "")
        .options(ToolOptions {
            timeout_ms: Some(100),
            ..ToolOptions::default()
        })
        .handler(|_, run| async move {
            run.signal().cancelled().await;
            sleep(Duration::from_millis(10)).await;
            Ok(json!("finished late"))
        });
    let registry = with_grace([tool], 50);
    let started = Instant::now();
    let result = registry.execute(call("late")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ToolTimeout.as_str()));
    assert_eq!(started.elapsed(), Duration::from_millis(110));
}

#[tokio::test(start_paused = true)]
async fn a_caller_cancel_before_the_deadline_passes_aborted_through() {
    let tool = FnTool::builder("coop", "")
        .options(ToolOptions {
            timeout_ms: Some(1_000),
            ..ToolOptions::default()
        })
        .handler(|_, run| async move {
            run.signal().cancelled().await;
            Ok(json!("stopped"))
        });
    let registry = with_grace([tool], 50);
    let signal = CancellationToken::new();
    let cancel = signal.clone();
    tokio::spawn(async move {
        sleep(Duration::from_millis(10)).await;
        cancel.cancel();
    });
    let result = registry.execute(call("coop").with_signal(signal)).await;
    assert_eq!(result.error_code(), Some(ErrorCode::Aborted.as_str()));
}

#[tokio::test(start_paused = true)]
async fn a_timeout_goes_through_post_execute() {
    let log = Log::new();
    let registry = with_grace([sleeping_tool("t", Some(10), 1_000)], 5);
    let seen = log.clone();
    let _post = registry.on_post_execute(move |_, result, next| {
        seen.push(format!("post saw {:?}", result.error_code()));
        next.run()
    });
    registry.execute(call("t")).await;
    assert_eq!(log.entries(), ["post saw Some(\"TOOL_TIMEOUT\")"]);
}

#[tokio::test(start_paused = true)]
async fn the_deadline_sits_inside_every_execute_layer_so_each_retry_gets_the_budget() {
    let attempts = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&attempts);
    let tool = FnTool::builder("flaky", "")
        .options(ToolOptions {
            timeout_ms: Some(100),
            ..ToolOptions::default()
        })
        .handler(move |_, run| {
            let attempt = counted.fetch_add(1, Ordering::SeqCst);
            async move {
                if attempt == 0 {
                    run.signal().cancelled().await;
                    return Err(ToolError::new("stopped"));
                }
                sleep(Duration::from_millis(60)).await;
                Ok(json!("second attempt"))
            }
        });
    let registry = with_grace([tool], 10);
    let log = Log::new();
    let seen = log.clone();
    // A retry layer registered before anything else: it sees each attempt's own timeout.
    let _retry = registry.on_execute(move |request, next| {
        let seen = seen.clone();
        async move {
            let first = next.clone().run(request.clone()).await?;
            seen.push(format!("attempt 1: {:?}", first.error_code()));
            if first.error_code() == Some(ErrorCode::ToolTimeout.as_str()) {
                return next.run(request).await;
            }
            Ok(first)
        }
    });
    let started = Instant::now();
    let result = registry.execute(call("flaky")).await;
    assert_eq!(log.entries(), ["attempt 1: Some(\"TOOL_TIMEOUT\")"]);
    assert_eq!(only_text(&result), "second attempt");
    assert_eq!(started.elapsed(), Duration::from_millis(160));
}

#[tokio::test(start_paused = true)]
async fn an_outer_deadline_firing_first_wins_over_the_inner_one() {
    // An outer, hand-written 20ms deadline around the tool's own 100ms one.
    let registry = with_grace([sleeping_tool("t", Some(100), 10_000)], 5);
    let _outer = registry.on_execute(|request, next| async move {
        let deadline = request.signal().child_token();
        let request = request.with_signal(deadline.clone());
        let fire = deadline.clone();
        tokio::spawn(async move {
            sleep(Duration::from_millis(20)).await;
            fire.cancel();
        });
        let result = next.run(request).await?;
        Ok(if deadline.is_cancelled() {
            ToolExecutionResult::failure(ToolError::new("outer deadline"))
        } else {
            result
        })
    });
    let started = Instant::now();
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "Error: outer deadline");
    // The tool's deadline saw its parent token cancelled before it fired, so it did not claim
    // the timeout; it still dropped the stubborn body at its own deadline plus grace.
    assert_eq!(started.elapsed(), Duration::from_millis(105));
}

#[tokio::test(start_paused = true)]
async fn a_layers_token_reaches_a_budgeted_body_before_its_deadline() {
    let tool = FnTool::builder("coop", "")
        .options(ToolOptions {
            timeout_ms: Some(1_000),
            ..ToolOptions::default()
        })
        .handler(|_, run| async move {
            run.signal().cancelled().await;
            Err::<(), _>(ToolError::new("stopped by the layer"))
        });
    let registry = with_grace([tool], 10);
    let _layer = registry.on_execute(|request, next| async move {
        let token = request.signal().child_token();
        let request = request.with_signal(token.clone());
        tokio::spawn(async move {
            sleep(Duration::from_millis(30)).await;
            token.cancel();
        });
        next.run(request).await
    });
    let started = Instant::now();
    let result = registry.execute(call("coop")).await;
    assert_eq!(only_text(&result), "Error: stopped by the layer");
    assert_eq!(started.elapsed(), Duration::from_millis(30));
}

#[tokio::test(start_paused = true)]
async fn budgets_come_from_the_definition_the_caller_sees() {
    let registry = with_grace([sleeping_tool("t", Some(1_000), 500)], 10);
    let scope = registry.create_child("agent").unwrap();
    let _scoped = scope.register(sleeping_tool("t", Some(100), 500)).unwrap();
    assert_eq!(only_text(&registry.execute(call("t")).await), "slept");
    assert_eq!(
        only_text(&scope.execute(call("t")).await),
        "Error: tool call timed out after 100ms"
    );
}

#[tokio::test(start_paused = true)]
async fn timeouts_can_be_turned_off() {
    let registry = registry_with([sleeping_tool("t", Some(100), 5_000)]);
    registry.set_limits(CallLimits {
        enforce_timeouts: false,
        ..CallLimits::default()
    });
    let started = Instant::now();
    assert_eq!(only_text(&registry.execute(call("t")).await), "slept");
    assert_eq!(started.elapsed(), Duration::from_secs(5));
}

#[tokio::test(start_paused = true)]
async fn a_default_budget_covers_tools_that_declare_none_and_a_declared_one_wins() {
    let registry = registry_with([
        sleeping_tool("undeclared", None, 5_000),
        sleeping_tool("declared", Some(2_000), 1_000),
    ]);
    registry.set_limits(CallLimits {
        default_timeout_ms: Some(300),
        timeout_grace: Duration::ZERO,
        ..CallLimits::default()
    });
    assert_eq!(
        only_text(&registry.execute(call("undeclared")).await),
        "Error: tool call timed out after 300ms"
    );
    assert_eq!(
        only_text(&registry.execute(call("declared")).await),
        "slept"
    );
}

#[tokio::test(start_paused = true)]
async fn a_timeout_policy_layer_is_an_outer_budget_over_retries() {
    // No declared budget: each attempt fails after 100ms and the layer inside retries forever.
    let tool = FnTool::builder("failing", "").handler(|_, _| async {
        sleep(Duration::from_millis(100)).await;
        Err::<(), _>(ToolError::new("try again"))
    });
    let registry = registry_with([tool]);
    let _outer = registry.wrap(TimeoutPolicy {
        grace: Duration::from_millis(20),
        ..TimeoutPolicy::new(250)
    });
    let _retry = registry.on_execute(|request, next| async move {
        loop {
            let result = next.clone().run(request.clone()).await?;
            if !result.is_error() || request.signal().is_cancelled() {
                return Ok(result);
            }
        }
    });
    let started = Instant::now();
    let result = registry.execute(call("failing")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ToolTimeout.as_str()));
    assert_eq!(only_text(&result), "Error: tool call timed out after 250ms");
    // The third attempt ignores its token: the layer drops it at its deadline plus grace.
    assert_eq!(started.elapsed(), Duration::from_millis(270));
    assert_eq!(TimeoutPolicy::new(250).budget_ms, 250);
    assert_eq!(
        TimeoutPolicy::new(250).grace,
        CallLimits::default().timeout_grace
    );
    assert_eq!(TimeoutPolicy::new(250).grace, Duration::from_secs(1));
}

#[tokio::test(start_paused = true)]
async fn turning_timeouts_off_leaves_a_timeout_policy_layer_in_force() {
    let registry = registry_with([sleeping_tool("t", None, 10_000)]);
    registry.set_limits(CallLimits {
        enforce_timeouts: false,
        ..CallLimits::default()
    });
    let _outer = registry.wrap(TimeoutPolicy {
        grace: Duration::ZERO,
        ..TimeoutPolicy::new(40)
    });
    assert_eq!(
        only_text(&registry.execute(call("t")).await),
        "Error: tool call timed out after 40ms"
    );
}

// ---------------------------------------------------------------------------------------------
// Bodies that block their thread (real clock).

#[tokio::test]
async fn an_async_body_that_blocks_its_thread_past_the_deadline_is_a_timeout() {
    let tool = FnTool::builder("blocks", "")
        .options(ToolOptions {
            timeout_ms: Some(20),
            ..ToolOptions::default()
        })
        .handler(|_, _| async {
            // Blocks the executor: nothing can preempt it, but its value arrives too late.
            std::thread::sleep(Duration::from_millis(150));
            Ok(json!("done"))
        });
    let registry = registry_with([tool]);
    let result = registry.execute(call("blocks")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ToolTimeout.as_str()));
    assert_eq!(only_text(&result), "Error: tool call timed out after 20ms");
}

#[tokio::test]
async fn a_blocking_body_is_left_behind_at_deadline_plus_grace_and_finishes_in_the_background() {
    let (release, released) = std::sync::mpsc::channel::<()>();
    let (finished_tx, finished) = std::sync::mpsc::channel::<&'static str>();
    let released = Arc::new(std::sync::Mutex::new(released));
    let tool = FnTool::builder("sync_io", "")
        .options(ToolOptions {
            timeout_ms: Some(30),
            ..ToolOptions::default()
        })
        .blocking_handler(move |_, _| {
            // Stands for a read that hangs until the test releases it.
            let _ = released.lock().unwrap().recv();
            let _ = finished_tx.send("finished");
            Ok("late value")
        });
    let registry = registry_with([tool]);
    registry.set_limits(CallLimits {
        timeout_grace: Duration::from_millis(30),
        ..CallLimits::default()
    });
    let result = registry.execute(call("sync_io")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ToolTimeout.as_str()));
    assert_eq!(
        finished.try_recv(),
        Err(std::sync::mpsc::TryRecvError::Empty),
        "the call returned while the body was still blocked"
    );
    release.send(()).unwrap();
    assert_eq!(
        finished.recv_timeout(Duration::from_secs(30)),
        Ok("finished"),
        "the thread finished in the background"
    );
}

#[tokio::test]
async fn a_blocking_body_sees_the_deadline_through_its_run() {
    let saw_cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&saw_cancel);
    let tool = FnTool::builder("scan", "")
        .options(ToolOptions {
            timeout_ms: Some(20),
            ..ToolOptions::default()
        })
        .blocking_handler(move |_, run| {
            while !run.signal().is_cancelled() {
                std::thread::sleep(Duration::from_millis(2));
            }
            flag.store(true, Ordering::SeqCst);
            Err::<(), _>(ToolError::new("stopped"))
        });
    let registry = registry_with([tool]);
    registry.set_limits(CallLimits {
        timeout_grace: Duration::from_secs(60),
        ..CallLimits::default()
    });
    let result = registry.execute(call("scan")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ToolTimeout.as_str()));
    assert!(saw_cancel.load(Ordering::SeqCst));
}

#[tokio::test]
async fn a_blocking_body_runs_off_the_callers_thread_and_returns_its_value() {
    let caller = std::thread::current().id();
    let tool = FnTool::builder("where", "").blocking_handler(move |arguments, _| {
        Ok(std::thread::current().id() != caller && arguments == json!({}))
    });
    let registry = registry_with([tool]);
    assert_eq!(only_text(&registry.execute(call("where")).await), "true");
}

#[tokio::test]
async fn a_panic_in_a_blocking_body_is_tool_panicked() {
    let tool = FnTool::builder("boom", "")
        .blocking_handler(|_, _| -> Result<(), ToolError> { panic!("disk on fire") });
    let registry = registry_with([tool]);
    let result = registry.execute(call("boom")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ToolPanicked.as_str()));
    assert_eq!(
        only_text(&result),
        "Error: tool \"boom\" panicked: disk on fire"
    );
}

// ---------------------------------------------------------------------------------------------
// Where no timer can enforce a budget.

#[test]
fn a_budget_without_a_timer_is_a_clear_error_and_other_tools_still_run() {
    // A runtime built without `enable_time`: tokio would panic on the first timer.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let registry = registry_with([
        sleeping_tool("budgeted", Some(100), 0),
        dsh_tools_tests::ok_tool("free"),
    ]);
    let result = runtime.block_on(registry.execute(call("budgeted")));
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::TimerUnavailable.as_str())
    );
    assert_eq!(
        only_text(&result),
        "Error: tool call has a 100ms budget, but no tokio timer is available to enforce it: run calls on a tokio runtime with time enabled, or turn timeouts off with CallLimits::enforce_timeouts"
    );
    assert_eq!(
        only_text(&runtime.block_on(registry.execute(call("free")))),
        "ok"
    );
}

#[tokio::test(start_paused = true)]
async fn an_unbounded_grace_waits_for_the_body_however_long_it_takes() {
    // The registry keeps the grace in nanoseconds, saturated at five centuries: still "never".
    let finished = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&finished);
    let stubborn = FnTool::builder("stubborn", "")
        .options(ToolOptions {
            timeout_ms: Some(10),
            ..ToolOptions::default()
        })
        .handler(move |_, _| {
            let flag = Arc::clone(&flag);
            async move {
                // Ignores its token and finishes a day later.
                sleep(Duration::from_secs(86_400)).await;
                flag.store(true, Ordering::SeqCst);
                Ok(json!("late"))
            }
        });
    let registry = registry_with([stubborn]);
    registry.set_limits(CallLimits {
        timeout_grace: Duration::MAX,
        ..CallLimits::default()
    });
    let started = Instant::now();
    let result = registry.execute(call("stubborn")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ToolTimeout.as_str()));
    assert!(
        finished.load(Ordering::SeqCst),
        "the body was dropped before it finished"
    );
    assert!(started.elapsed() >= Duration::from_secs(86_400));
}
