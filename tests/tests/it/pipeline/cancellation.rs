//! Cancellation: it supersedes only successes, and which abort code it becomes depends on whether
//! a body started. Denials, failures, blocks and timeouts stay what they were.

use dsh_tools::{
    ContentBlock, FnTool, PostToolDecision, PreToolDecision, ToolError, ToolExecutionResult,
    errors::ErrorCode, json,
};
use dsh_tools_tests::{Log, call, logging_tool, only_text, registry_with};
use tokio_util::sync::CancellationToken;

/// A tool that cancels `signal` from inside its body and then returns `outcome`.
fn cancelling_tool(signal: &CancellationToken, fail: bool) -> FnTool {
    let signal = signal.clone();
    FnTool::builder("t", "").handler(move |_, run| {
        let signal = signal.clone();
        async move {
            signal.cancel();
            assert!(
                run.signal().is_cancelled(),
                "the body's token follows the caller's"
            );
            run.defer_context(ContentBlock::text("kept"));
            if fail {
                Err(ToolError::new("failed anyway"))
            } else {
                Ok(json!("done"))
            }
        }
    })
}

#[tokio::test]
async fn a_success_cancelled_while_the_body_ran_is_aborted() {
    let signal = CancellationToken::new();
    let registry = registry_with([cancelling_tool(&signal, false)]);
    let result = registry.execute(call("t").with_signal(signal)).await;
    assert_eq!(result.error_code(), Some(ErrorCode::Aborted.as_str()));
    assert_eq!(result.error().unwrap().info().unwrap().name, "AbortError");
    assert_eq!(only_text(&result), "Error: tool call aborted");
    assert_eq!(
        result.additional_contexts(),
        [ContentBlock::text("kept")],
        "contexts survive"
    );
}

#[tokio::test]
async fn a_failure_stays_a_failure_when_cancelled() {
    let signal = CancellationToken::new();
    let registry = registry_with([cancelling_tool(&signal, true)]);
    let result = registry.execute(call("t").with_signal(signal)).await;
    assert_eq!(only_text(&result), "Error: failed anyway");
}

#[tokio::test]
async fn cancelled_during_pre_execute_is_aborted_before_dispatch_through_post() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let signal = CancellationToken::new();
    let trigger = signal.clone();
    let _ = registry.on_pre_execute(move |_, next| {
        trigger.cancel();
        next.run()
    });
    let seen = log.clone();
    let _ = registry.on_post_execute(move |_, _, next| {
        seen.push("post");
        next.run()
    });
    let result = registry.execute(call("t").with_signal(signal)).await;
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::AbortedBeforeDispatch.as_str())
    );
    assert_eq!(log.entries(), ["post"], "no body; post-execute still runs");
}

#[tokio::test]
async fn a_denial_stays_a_denial_when_cancelled() {
    let registry = registry_with([logging_tool("t", &Log::new())]);
    let signal = CancellationToken::new();
    let trigger = signal.clone();
    let _ = registry.on_pre_execute(move |_, _| {
        trigger.cancel();
        async {
            Ok(PreToolDecision::Deny {
                reason: "no".to_owned(),
            })
        }
    });
    let result = registry.execute(call("t").with_signal(signal)).await;
    assert_eq!(only_text(&result), "Error: no");
}

#[tokio::test]
async fn cancelled_during_post_execute_supersedes_the_success() {
    let registry = registry_with([logging_tool("t", &Log::new())]);
    let signal = CancellationToken::new();
    let trigger = signal.clone();
    let _ = registry.on_post_execute(move |_, _, _| {
        trigger.cancel();
        async { Ok(PostToolDecision::accept().with_additional_context(ContentBlock::text("ctx"))) }
    });
    let result = registry.execute(call("t").with_signal(signal)).await;
    assert_eq!(result.error_code(), Some(ErrorCode::Aborted.as_str()));
    assert_eq!(result.additional_contexts(), [ContentBlock::text("ctx")]);
}

#[tokio::test]
async fn a_block_stays_when_cancelled_during_post_execute() {
    let registry = registry_with([logging_tool("t", &Log::new())]);
    let signal = CancellationToken::new();
    let trigger = signal.clone();
    let _ = registry.on_post_execute(move |_, _, _| {
        trigger.cancel();
        async { Ok(PostToolDecision::block(vec![ContentBlock::text("blocked")])) }
    });
    let result = registry.execute(call("t").with_signal(signal)).await;
    assert_eq!(only_text(&result), "blocked");
}

#[tokio::test]
async fn a_short_circuit_success_overtaken_by_cancel_is_aborted_before_dispatch() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let signal = CancellationToken::new();
    let trigger = signal.clone();
    let _ = registry.on_execute(move |_, _| {
        trigger.cancel();
        async { Ok(ToolExecutionResult::success(json!("cached"))) }
    });
    let result = registry.execute(call("t").with_signal(signal)).await;
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::AbortedBeforeDispatch.as_str())
    );
    assert!(log.entries().is_empty());
}

#[tokio::test]
async fn a_body_watching_its_token_stops_when_the_caller_cancels() {
    let registry = registry_with([FnTool::builder("wait", "").handler(|_, run| async move {
        run.signal().cancelled().await;
        Err::<(), _>(ToolError::new("stopped early"))
    })]);
    let signal = CancellationToken::new();
    let cancel = signal.clone();
    let (result, ()) = tokio::join!(registry.execute(call("wait").with_signal(signal)), async {
        tokio::task::yield_now().await;
        cancel.cancel();
    });
    assert_eq!(only_text(&result), "Error: stopped early");
}
