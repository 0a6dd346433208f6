//! A tool calling tools (`ToolRun::call_tool`): each nested call runs through the registry's whole
//! pipeline, with the enclosing call as its parent, on behalf of the same agent, cancelled with it.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use dsh_tools::call::{CancellationToken, SharedState, ToolExecutionToken};
use dsh_tools::errors::ErrorCode;
use dsh_tools::{FnTool, PreToolDecision, ToolExecutionInput, ToolRegistry, ToolRun, Value, json};

fn echo() -> FnTool {
    FnTool::builder("echo", "Echoes its arguments.")
        .raw_parameters(json!({"type": "object"}))
        .handler(|arguments, _run| async move { Ok(arguments) })
}

/// `outer`, calling `inner` with `{"n": 1}` (see [`outer_named`]).
fn outer(inner: &'static str) -> FnTool {
    outer_named("outer", inner)
}

/// What `pre-execute` saw of a call: its tool, its parent and its agent.
type SeenCall = (String, Option<ToolExecutionToken>, Option<String>);

#[tokio::test]
async fn a_nested_call_runs_the_pipeline_with_its_parent_and_agent() {
    let registry = ToolRegistry::new();
    let _echo = registry.register(echo()).expect("registers");
    let _outer = registry.register(outer("echo")).expect("registers");
    let scope = registry.create_child("ada").expect("a scope");

    let seen: Arc<Mutex<Vec<SeenCall>>> = Arc::default();
    let record = Arc::clone(&seen);
    let _hook = registry.on_pre_execute(move |execution, next| {
        record.lock().unwrap().push((
            execution.name().to_owned(),
            execution.parent(),
            execution.agent().map(|agent| agent.to_string()),
        ));
        next.run()
    });
    let tokens: Arc<Mutex<Vec<(String, ToolExecutionToken)>>> = Arc::default();
    let record = Arc::clone(&tokens);
    let _observer = registry.on_result(move |execution, _result| {
        record
            .lock()
            .unwrap()
            .push((execution.name().to_owned(), execution.token()));
    });

    let result = scope
        .execute(ToolExecutionInput::new("call-1", "outer", json!({})))
        .await;
    assert!(!result.is_error(), "{}", result.text());
    assert_eq!(
        result.value(),
        Some(&json!({"text": "{\"n\":1}", "code": Value::Null, "failed": false}))
    );

    let seen = seen.lock().unwrap().clone();
    let tokens = tokens.lock().unwrap().clone();
    let outer_token = tokens
        .iter()
        .find(|(name, _)| name == "outer")
        .map(|(_, token)| *token)
        .expect("the outer call was observed");
    assert_eq!(
        seen,
        [
            ("outer".to_owned(), None, Some("ada".to_owned())),
            ("echo".to_owned(), Some(outer_token), Some("ada".to_owned())),
        ],
        "both calls went through pre-execute; the nested one names its parent and the agent"
    );
    // The nested call finished (and was observed) first.
    assert_eq!(
        tokens
            .iter()
            .map(|(name, _)| name.as_str())
            .collect::<Vec<_>>(),
        ["echo", "outer"]
    );
}

#[tokio::test]
async fn policies_apply_to_nested_calls_as_to_direct_ones() {
    let registry = ToolRegistry::new();
    let _echo = registry.register(echo()).expect("registers");
    let _outer = registry.register(outer("echo")).expect("registers");
    let _guard = registry.guard(|execution| {
        (execution.name() == "echo" && execution.parent().is_some())
            .then(|| "nested echo is not allowed".to_owned())
    });

    let result = registry
        .execute(ToolExecutionInput::new("call-1", "outer", json!({})))
        .await;
    assert_eq!(
        result.value(),
        Some(&json!({
            "text": "Error: nested echo is not allowed",
            "code": ErrorCode::Denied.as_str(),
            "failed": true,
        }))
    );

    // An unknown nested tool fails as a direct call would, and the body can go on.
    let _unknown = registry
        .register(outer_named("outer_of_nothing", "nothing"))
        .expect("registers");
    let result = registry
        .execute(ToolExecutionInput::new(
            "call-2",
            "outer_of_nothing",
            json!({}),
        ))
        .await;
    assert_eq!(
        result.value(),
        Some(&json!({
            "text": "Error: unknown tool \"nothing\"",
            "code": ErrorCode::UnknownTool.as_str(),
            "failed": true,
        }))
    );

    // Denied before the body: `pre-execute` sees the nested call too.
    let _deny = registry.on_pre_execute(|execution, next| async move {
        if execution.parent().is_some() {
            return Ok(PreToolDecision::Deny {
                reason: "no nesting".to_owned(),
            });
        }
        next.run().await
    });
    let result = registry
        .execute(ToolExecutionInput::new(
            "call-3",
            "outer_of_nothing",
            json!({}),
        ))
        .await;
    assert_eq!(
        result.value().and_then(|value| value.get("text")),
        Some(&json!("Error: no nesting"))
    );
}

/// A tool `name` that calls `inner` with `{"n": 1}` and answers with the nested result's text,
/// code and whether it failed.
fn outer_named(name: &'static str, inner: &'static str) -> FnTool {
    FnTool::builder(name, "Calls another tool.")
        .raw_parameters(json!({"type": "object"}))
        .handler(move |_arguments, run: ToolRun| async move {
            let result = run
                .call_tool(ToolExecutionInput::new("nested-1", inner, json!({"n": 1})))
                .await;
            Ok(json!({
                "text": result.text(),
                "code": result.error_code(),
                "failed": result.is_error(),
            }))
        })
}

#[tokio::test]
async fn cancelling_the_enclosing_call_cancels_the_nested_one() {
    let registry = ToolRegistry::new();
    let started = Arc::new(tokio::sync::Notify::new());
    let notify = Arc::clone(&started);
    let slow = FnTool::builder("slow", "Waits until cancelled.")
        .raw_parameters(json!({"type": "object"}))
        .handler(move |_arguments, run: ToolRun| {
            let notify = Arc::clone(&notify);
            async move {
                notify.notify_one();
                run.signal().cancelled().await;
                Ok(json!("stopped"))
            }
        });
    let _slow = registry.register(slow).expect("registers");
    let _outer = registry.register(outer("slow")).expect("registers");

    let signal = CancellationToken::new();
    let call = registry
        .execute(ToolExecutionInput::new("call-1", "outer", json!({})).with_signal(signal.clone()));
    let running = tokio::spawn(call);
    tokio::time::timeout(Duration::from_secs(5), started.notified())
        .await
        .expect("the nested body starts");
    signal.cancel();
    let result = tokio::time::timeout(Duration::from_secs(5), running)
        .await
        .expect("the call ends once cancelled")
        .expect("the task does not panic");
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::Aborted.as_str()),
        "{}",
        result.text()
    );
}

#[tokio::test]
async fn outside_a_registry_every_nested_tool_is_unknown() {
    let run = ToolRun::detached("call", "outer", json!({}), SharedState::default());
    let result = run
        .call_tool(ToolExecutionInput::new("nested", "echo", json!({})))
        .await;
    assert_eq!(result.error_code(), Some(ErrorCode::UnknownTool.as_str()));
    assert_eq!(result.text(), "Error: unknown tool \"echo\"");
}
