//! The content finalizer (exactly once on every outcome, captured at call start) and result
//! observers (see the final result once; failures contained and logged).

use std::sync::{Arc, Mutex};

use dsh_tools::{
    ContentBlock, FnTool, PreToolDecision, ToolError, ToolExecutionResult, ToolRegistry,
    errors::ErrorCode, json,
};
use dsh_tools_tests::{Capture, Counter, Log, call, logging_tool, only_text, registry_with};
use tokio_util::sync::CancellationToken;

/// A tool whose finalizer counts its runs and prefixes the content with `[final]`.
fn finalized_tool(name: &str, runs: &Counter, fail: bool) -> FnTool {
    let runs = runs.clone();
    FnTool::builder(name, "")
        .finalize(move |_, result| {
            runs.bump();
            Ok(Some(vec![ContentBlock::text(format!(
                "[final] {}",
                result.text()
            ))]))
        })
        .handler(move |_, _| async move {
            if fail {
                Err(ToolError::new("body failed"))
            } else {
                Ok(json!("body ok"))
            }
        })
}

#[tokio::test]
async fn the_finalizer_runs_once_on_success_and_failure() {
    let runs = Counter::new();
    let registry = registry_with([
        finalized_tool("ok", &runs, false),
        finalized_tool("bad", &runs, true),
    ]);
    assert_eq!(
        only_text(&registry.execute(call("ok")).await),
        "[final] body ok"
    );
    assert_eq!(runs.get(), 1);
    let failed = registry.execute(call("bad")).await;
    assert_eq!(only_text(&failed), "[final] Error: body failed");
    assert!(failed.is_error());
    assert_eq!(runs.get(), 2);
}

#[tokio::test]
async fn the_finalizer_runs_on_denials_final_errors_and_pre_aborted_calls() {
    let runs = Counter::new();
    let registry = registry_with([finalized_tool("t", &runs, false)]);
    let deny = registry
        .on_pre_execute(|_, _| async {
            Ok(PreToolDecision::Deny {
                reason: "no".to_owned(),
            })
        })
        .unwrap();
    assert_eq!(
        only_text(&registry.execute(call("t")).await),
        "[final] Error: no"
    );
    deny.dispose();
    let fail = registry
        .on_pre_execute(|_, _| async { Err(ToolError::new("hook failed")) })
        .unwrap();
    assert_eq!(
        only_text(&registry.execute(call("t")).await),
        "[final] Error: hook failed"
    );
    fail.dispose();
    let signal = CancellationToken::new();
    signal.cancel();
    let aborted = registry.execute(call("t").with_signal(signal)).await;
    assert_eq!(
        only_text(&aborted),
        "[final] Error: tool call aborted before dispatch"
    );
    assert_eq!(runs.get(), 3);
}

#[tokio::test]
async fn the_finalizer_captured_at_start_runs_even_if_the_tool_is_disposed_mid_call() {
    let runs = Counter::new();
    let registry = ToolRegistry::new();
    let handle = Arc::new(
        registry
            .register(finalized_tool("t", &runs, false))
            .unwrap(),
    );
    let _ = registry.on_execute(move |request, next| {
        handle.dispose();
        next.run(request)
    });
    let result = registry.execute(call("t")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::UnknownTool.as_str()));
    assert_eq!(only_text(&result), "[final] Error: unknown tool \"t\"");
    assert_eq!(runs.get(), 1);
}

#[tokio::test]
async fn an_unknown_tool_has_no_finalizer() {
    let registry = ToolRegistry::new();
    assert_eq!(
        only_text(&registry.execute(call("ghost")).await),
        "Error: unknown tool \"ghost\""
    );
}

#[tokio::test]
async fn a_failing_finalizer_yields_a_bare_error() {
    let registry = registry_with([FnTool::builder("t", "")
        .finalize(|_, _| Err(ToolError::coded("Fmt", "E_FMT", "cannot format")))
        .handler(|_, run| async move {
            run.defer_context(ContentBlock::text("dropped"));
            Ok(json!(1))
        })]);
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "Error: cannot format");
    assert_eq!(result.error_code(), Some("E_FMT"));
    assert!(
        result.additional_contexts().is_empty(),
        "a bare error keeps nothing else"
    );
}

#[tokio::test]
async fn a_panicking_finalizer_yields_a_bare_error() {
    let registry = registry_with([FnTool::builder("t", "")
        .finalize(|_, _| panic!("finalizer bug"))
        .handler(|_, _| async { Ok(json!(1)) })]);
    assert_eq!(
        only_text(&registry.execute(call("t")).await),
        "Error: tool \"t\" content finalizer panicked: finalizer bug"
    );
}

#[tokio::test]
async fn observers_see_the_final_result_once_in_order() {
    let runs = Counter::new();
    let registry = registry_with([finalized_tool("t", &runs, false)]);
    let seen: Arc<Mutex<Vec<(String, ToolExecutionResult)>>> = Arc::default();
    for name in ["first", "second"] {
        let sink = Arc::clone(&seen);
        let _ = registry.on_result(move |execution, result| {
            assert_eq!(execution.name(), "t");
            sink.lock().unwrap().push((name.to_owned(), result.clone()));
        });
    }
    let result = registry.execute(call("t")).await;
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0], ("first".to_owned(), result.clone()));
    assert_eq!(seen[1], ("second".to_owned(), result));
}

fn panicking_observer(_: &dsh_tools::call::ToolExecution, _: &ToolExecutionResult) {
    panic!("observer bug");
}

#[tokio::test]
async fn a_panicking_observer_is_contained_and_logged() {
    let capture = Capture::new();
    let _guard = capture.install();
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let _ = registry.on_result(panicking_observer);
    let seen = log.clone();
    let _ = registry.on_result(move |_, _| seen.push("second observer"));
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "ok");
    assert_eq!(log.entries(), ["body", "second observer"]);
    assert!(
        capture.events().contains(
            &"tool \"t\" (call-1): result observer failed: panicked: observer bug".to_owned()
        ),
        "{:?}",
        capture.events()
    );
}

#[tokio::test]
async fn a_failing_observer_is_logged() {
    let capture = Capture::new();
    let _guard = capture.install();
    let registry = registry_with([logging_tool("t", &Log::new())]);
    let _ = registry.on_result(|_, _| Err(ToolError::new("sink closed")));
    let result = registry.execute(call("t")).await;
    assert!(!result.is_error());
    assert!(
        capture
            .events()
            .contains(&"tool \"t\" (call-1): result observer failed: sink closed".to_owned())
    );
}

#[tokio::test]
async fn scoped_observers_see_only_their_scopes_calls() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let scope = registry.create_child("agent").unwrap();
    let seen = log.clone();
    let _ = scope
        .on_result(move |execution, _| seen.push(format!("observed {:?}", execution.agent())))
        .unwrap();
    registry.execute(call("t")).await;
    scope.execute(call("t")).await;
    assert_eq!(
        log.entries(),
        ["body", "body", "observed Some(AgentId(\"agent\"))"]
    );
}

#[tokio::test]
async fn each_call_has_one_span_with_tool_call_id_and_outcome() {
    let capture = Capture::new();
    let _guard = capture.install();
    let registry = registry_with([logging_tool("t", &Log::new())]);
    registry.execute(call("t")).await;
    registry.execute(call("missing")).await;
    let spans: Vec<_> = capture
        .spans()
        .into_iter()
        .filter(|span| span.name == "tool_call")
        .collect();
    assert_eq!(spans.len(), 2);
    assert_eq!(spans[0].fields["tool"], "t");
    assert_eq!(spans[0].fields["call_id"], "call-1");
    assert_eq!(spans[0].fields["outcome"], "ok");
    assert!(spans[0].fields.contains_key("duration_us"));
    assert_eq!(spans[1].fields["outcome"], "UNKNOWN_TOOL");
}
