//! The span of a call as an OpenTelemetry backend receives it: `execute_tool {name}`, kind
//! internal, the GenAI conventions' attributes, the opt-in arguments and results (bounded,
//! redacted), `error.type` on failure, and nested calls (a body's, a program's, a batch's) as
//! children of their caller's span.

use std::sync::Arc;

use dsh_tools::code_mode::CodeMode;
use dsh_tools::registry::RUN_CODE;
use dsh_tools::telemetry::{Captured, Telemetry};
use dsh_tools::{FnTool, ToolError, ToolExecutionInput, ToolRegistry, Value, json};
use dsh_tools_tests::otel::{OtelCapture, span_attribute};
use opentelemetry::trace::{SpanKind, Status};

fn registry() -> ToolRegistry {
    let registry = ToolRegistry::new();
    let _ = registry
        .register(
            FnTool::builder("echo", "Echoes its arguments.")
                .raw_parameters(json!({"type": "object"}))
                .handler(|arguments: Value, _| async move { Ok(arguments) }),
        )
        .expect("registers echo");
    let _ = registry
        .register(
            FnTool::builder("fail", "Always fails.")
                .handler(|_, _| async { Err::<Value, _>(ToolError::new("it broke")) }),
        )
        .expect("registers fail");
    let _ = registry
        .register(
            FnTool::builder("twice", "Calls echo twice.").handler(|_, run| async move {
                let first = run.call_tool(ToolExecutionInput::new("n-1", "echo", json!({"n": 1})));
                let second = run.call_tool(ToolExecutionInput::new("n-2", "echo", json!({"n": 2})));
                let (first, second) = tokio::join!(first, second);
                Ok(json!([first.value(), second.value()]))
            }),
        )
        .expect("registers twice");
    registry
}

#[tokio::test]
async fn a_call_is_an_execute_tool_span_with_the_gen_ai_attributes() {
    let capture = OtelCapture::install();
    let registry = registry();
    let result = registry
        .execute(ToolExecutionInput::new("call-1", "echo", json!({"a": 1})))
        .await;
    assert!(!result.is_error());

    let span = capture.span("execute_tool echo");
    assert_eq!(span.span_kind, SpanKind::Internal);
    assert_eq!(span.status, Status::Unset);
    for (key, value) in [
        ("gen_ai.operation.name", "execute_tool"),
        ("gen_ai.tool.name", "echo"),
        ("gen_ai.tool.call.id", "call-1"),
        ("gen_ai.tool.description", "Echoes its arguments."),
        ("gen_ai.tool.type", "function"),
    ] {
        assert_eq!(span_attribute(&span, key).as_deref(), Some(value), "{key}");
    }
    // Off by default: a backend sees neither the arguments nor the result.
    for key in [
        "gen_ai.tool.call.arguments",
        "gen_ai.tool.call.result",
        "error.type",
    ] {
        assert_eq!(span_attribute(&span, key), None, "{key}");
    }
}

#[tokio::test]
async fn a_failure_sets_error_type_to_its_code() {
    let capture = OtelCapture::install();
    let registry = registry();
    let failed = registry
        .execute(ToolExecutionInput::new("call-1", "fail", json!({})))
        .await;
    assert_eq!(failed.error_code(), Some("TOOL_ERROR"));
    let unknown = registry
        .execute(ToolExecutionInput::new("call-2", "nope", json!({})))
        .await;
    assert_eq!(unknown.error_code(), Some("UNKNOWN_TOOL"));

    let span = capture.span("execute_tool fail");
    assert_eq!(
        span_attribute(&span, "error.type").as_deref(),
        Some("TOOL_ERROR")
    );
    assert!(
        matches!(span.status, Status::Error { .. }),
        "{:?}",
        span.status
    );
    let span = capture.span("execute_tool nope");
    assert_eq!(
        span_attribute(&span, "error.type").as_deref(),
        Some("UNKNOWN_TOOL")
    );
    assert_eq!(
        span_attribute(&span, "gen_ai.tool.type"),
        None,
        "no tool to describe"
    );
}

#[tokio::test]
async fn arguments_and_results_are_opt_in_bounded_and_redacted() {
    let capture = OtelCapture::install();
    let registry = registry();
    registry.set_telemetry(Telemetry {
        record_arguments: Some(40),
        record_results: Some(12),
        redact: Some(Arc::new(|tool: &str, part: Captured, value: &mut Value| {
            assert_eq!(tool, "echo");
            if part == Captured::Arguments {
                value["token"] = json!("[redacted]");
            }
        })),
        ..Telemetry::default()
    });
    let _ = registry
        .execute(ToolExecutionInput::new(
            "call-1",
            "echo",
            json!({"token": "s3cret", "text": "hello"}),
        ))
        .await;

    let span = capture.span("execute_tool echo");
    assert_eq!(
        span_attribute(&span, "gen_ai.tool.call.arguments").as_deref(),
        Some(r#"{"token":"[redacted]","text":"hello"}"#)
    );
    // The result is not redacted (the hook left it alone) but cut to 12 characters.
    assert_eq!(
        span_attribute(&span, "gen_ai.tool.call.result").as_deref(),
        Some(r#"{"token":"s3…[21 more characters]"#)
    );
}

#[tokio::test]
async fn a_body_s_nested_calls_are_children_of_its_span() {
    let capture = OtelCapture::install();
    let registry = registry();
    let result = registry
        .execute(ToolExecutionInput::new("outer", "twice", json!({})))
        .await;
    assert_eq!(result.value(), Some(&json!([{"n": 1}, {"n": 2}])));

    let outer = capture.span("execute_tool twice");
    let nested: Vec<_> = capture
        .spans()
        .into_iter()
        .filter(|span| span.name == "execute_tool echo")
        .collect();
    assert_eq!(nested.len(), 2);
    for span in &nested {
        assert_eq!(span.parent_span_id, outer.span_context.span_id());
        assert_eq!(span.span_context.trace_id(), outer.span_context.trace_id());
    }
}

#[tokio::test]
async fn a_program_s_calls_are_children_of_run_code() {
    let capture = OtelCapture::install();
    let registry = registry();
    registry.set_code_mode(CodeMode::Both).expect("code mode");
    let program = r#"const a = await tools.echo({n: 1});
const b = await tools.echo({n: 2});
return [a, b];"#;
    let result = registry
        .execute(ToolExecutionInput::new(
            "program",
            RUN_CODE,
            json!({"code": program}),
        ))
        .await;
    assert!(!result.is_error(), "{}", result.text());

    let run_code = capture.span(&format!("execute_tool {RUN_CODE}"));
    let nested: Vec<_> = capture
        .spans()
        .into_iter()
        .filter(|span| span.name == "execute_tool echo")
        .collect();
    assert_eq!(nested.len(), 2, "one span per call of the program");
    for span in &nested {
        assert_eq!(span.parent_span_id, run_code.span_context.span_id());
    }
}

#[tokio::test]
async fn each_call_of_a_batch_has_its_own_span_under_the_caller_s() {
    let capture = OtelCapture::install();
    let registry = registry();
    let turn = tracing::info_span!("turn");
    let outcome = {
        use tracing::Instrument;
        let calls = vec![
            ToolExecutionInput::new("b-1", "echo", json!({"n": 1})),
            ToolExecutionInput::new("b-2", "echo", json!({"n": 2})),
            ToolExecutionInput::new("b-3", "fail", json!({})),
        ];
        registry.execute_batch(calls, 2).instrument(turn).await
    };
    assert_eq!(outcome.results.len(), 3);

    let turn = capture.span("turn");
    let calls: Vec<_> = capture
        .spans()
        .into_iter()
        .filter(|span| span.name.starts_with("execute_tool "))
        .collect();
    assert_eq!(calls.len(), 3);
    let mut ids: Vec<String> = calls
        .iter()
        .map(|span| span_attribute(span, "gen_ai.tool.call.id").expect("an id"))
        .collect();
    ids.sort();
    assert_eq!(ids, ["b-1", "b-2", "b-3"]);
    for span in &calls {
        assert_eq!(span.parent_span_id, turn.span_context.span_id());
    }
}

#[test]
fn nothing_is_recorded_without_a_subscriber() {
    let capture = OtelCapture::install();
    let registry = registry();
    registry.set_telemetry(Telemetry {
        record_arguments: Some(100),
        record_results: Some(100),
        ..Telemetry::default()
    });
    // Another thread has no subscriber: its calls build no span at all.
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
        let result = runtime.block_on(registry.execute(ToolExecutionInput::new(
            "call-1",
            "echo",
            json!({}),
        )));
        assert!(!result.is_error());
    })
    .join()
    .expect("the call ran");
    assert!(capture.spans().is_empty(), "{:#?}", capture.spans());
}
