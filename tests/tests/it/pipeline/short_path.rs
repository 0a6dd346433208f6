//! Calls no hook applies to run on their own short path; these pin that it keeps the rules of the
//! full pipeline for everything that can happen between making a call and its first poll.

use dsh_tools::{
    ContentBlock, FnTool, PreToolDecision, ToolRegistry, ToolScope, errors::ErrorCode, json,
};
use dsh_tools_tests::{Counter, Log, call, only_text, registry_with};
use tokio_util::sync::CancellationToken;

/// A tool that logs its body and whose finalizer counts its runs and marks the content.
fn finalized_logging_tool(name: &str, log: &Log, finalized: &Counter) -> FnTool {
    let log = log.clone();
    let finalized = finalized.clone();
    FnTool::builder(name, "")
        .finalize(move |_, result| {
            finalized.bump();
            Ok(Some(vec![ContentBlock::text(format!(
                "[final] {}",
                result.text()
            ))]))
        })
        .handler(move |_, _| {
            let log = log.clone();
            async move {
                log.push("body");
                Ok(json!("ran"))
            }
        })
}

#[tokio::test]
async fn a_tool_disposed_before_the_first_poll_is_unknown_and_its_captured_finalizer_runs() {
    let (log, finalized) = (Log::new(), Counter::new());
    let registry = ToolRegistry::new();
    let handle = registry
        .register(finalized_logging_tool("t", &log, &finalized))
        .unwrap();
    let pending = registry.execute(call("t"));
    handle.dispose();
    let result = pending.await;
    assert_eq!(result.error_code(), Some(ErrorCode::UnknownTool.as_str()));
    assert_eq!(only_text(&result), "[final] Error: unknown tool \"t\"");
    assert_eq!(finalized.get(), 1);
    assert!(log.entries().is_empty(), "the body never ran");
}

#[tokio::test]
async fn a_call_cancelled_before_the_first_poll_is_aborted_before_dispatch() {
    let (log, finalized) = (Log::new(), Counter::new());
    let registry = registry_with([finalized_logging_tool("t", &log, &finalized)]);
    let signal = CancellationToken::new();
    let pending = registry.execute(call("t").with_signal(signal.clone()));
    signal.cancel();
    let result = pending.await;
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::AbortedBeforeDispatch.as_str())
    );
    assert_eq!(
        only_text(&result),
        "[final] Error: tool call aborted before dispatch"
    );
    assert_eq!(finalized.get(), 1);
    assert!(log.entries().is_empty(), "the body never ran");
}

#[tokio::test]
async fn hooks_added_after_a_call_was_made_do_not_apply_to_it() {
    let (log, finalized) = (Log::new(), Counter::new());
    let registry = registry_with([finalized_logging_tool("t", &log, &finalized)]);
    let pending = registry.execute(call("t"));
    let _ = registry.on_pre_execute(|_, _| async {
        Ok(PreToolDecision::Deny {
            reason: "too late".to_owned(),
        })
    });
    let result = pending.await;
    assert_eq!(only_text(&result), "[final] ran");
    assert_eq!(log.entries(), ["body"]);
    assert_eq!(
        only_text(&registry.execute(call("t")).await),
        "[final] Error: too late",
        "the next call sees the hook"
    );
}

#[tokio::test]
async fn a_tool_shadowed_before_the_first_poll_dispatches_to_the_current_definition() {
    let (log, finalized) = (Log::new(), Counter::new());
    let registry = registry_with([finalized_logging_tool("t", &log, &finalized)]);
    let scope: ToolScope = registry.create_child("agent").unwrap();
    let pending = registry.execute(call("t").with_agent("agent"));
    let shadow_runs = Counter::new();
    let runs = shadow_runs.clone();
    let _ = scope
        .register(FnTool::builder("t", "").handler(move |_, _| {
            runs.bump();
            async { Ok(json!("shadow")) }
        }))
        .unwrap();
    let result = pending.await;
    assert_eq!(
        only_text(&result),
        "[final] shadow",
        "dispatch resolves again; the finalizer is the one captured when the call was made"
    );
    assert_eq!(shadow_runs.get(), 1);
    assert_eq!(finalized.get(), 1);
    assert!(log.entries().is_empty(), "the shadowed body never ran");
}
