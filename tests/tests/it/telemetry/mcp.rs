//! Trace context across MCP (SEP-414): an imported tool's call sends its span's context in the
//! request's `_meta`, and the serving side's span of the same call is its child, with the MCP
//! attributes on it (`mcp.method.name`; `error.type = tool_error` when the result is an error);
//! the official Python SDK's client sending a `traceparent` gets the server's span under it.

use std::time::Duration;

use dsh_tools::mcp::{ConnectOptions, HttpOptions, ImportOptions, McpClient, McpServer};
use dsh_tools::{FnTool, ToolError, ToolExecutionInput, ToolRegistry, Value, json};
use dsh_tools_tests::otel::{OtelCapture, span_attribute};
use dsh_tools_tests::python;

const DEADLINE: Duration = Duration::from_secs(120);

fn upstream() -> ToolRegistry {
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
    registry
}

#[tokio::test]
async fn an_imported_call_continues_its_trace_on_the_server() {
    let capture = OtelCapture::install();
    let upstream = upstream();
    let server = McpServer::new(&upstream);
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let (connection, client) = tokio::join!(
        server.serve(server_end),
        McpClient::connect(client_end, ConnectOptions::default())
    );
    let _connection = connection.expect("the server completes the handshake");
    let client = client.expect("the client completes the handshake");
    let local = ToolRegistry::new();
    let _ = client
        .import_into(
            &local,
            ImportOptions {
                prefix: Some("up".into()),
                ..ImportOptions::default()
            },
        )
        .await
        .expect("imports");

    for (id, name, arguments) in [
        ("call-1", "up__echo", json!({"n": 1})),
        ("call-2", "up__fail", json!({})),
    ] {
        let _ = tokio::time::timeout(
            DEADLINE,
            local.execute(ToolExecutionInput::new(id, name, arguments)),
        )
        .await
        .expect("the call ends");
    }

    let imported = capture.span("execute_tool up__echo");
    assert_eq!(
        span_attribute(&imported, "gen_ai.tool.type").as_deref(),
        Some("extension")
    );
    let served = capture.span("execute_tool echo");
    assert_eq!(
        served.span_context.trace_id(),
        imported.span_context.trace_id()
    );
    assert_eq!(served.parent_span_id, imported.span_context.span_id());
    assert_eq!(
        span_attribute(&served, "gen_ai.tool.type").as_deref(),
        Some("function")
    );
    assert_eq!(
        span_attribute(&served, "mcp.method.name").as_deref(),
        Some("tools/call")
    );
    assert_eq!(span_attribute(&served, "error.type"), None);

    let imported = capture.span("execute_tool up__fail");
    assert_eq!(
        span_attribute(&imported, "error.type").as_deref(),
        Some("TOOL_ERROR")
    );
    let served = capture.span("execute_tool fail");
    assert_eq!(served.parent_span_id, imported.span_context.span_id());
    assert_eq!(
        span_attribute(&served, "error.type").as_deref(),
        Some("tool_error")
    );
    assert_eq!(
        span_attribute(&served, "dsh_tools.error.code").as_deref(),
        Some("TOOL_ERROR")
    );
}

#[tokio::test]
async fn the_python_sdk_s_traceparent_parents_the_server_s_span() {
    const TRACE_ID: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
    const SPAN_ID: &str = "00f067aa0ba902b7";
    let capture = OtelCapture::install();
    let upstream = upstream();
    let server = McpServer::new(&upstream)
        .serve_http(
            "127.0.0.1:0",
            HttpOptions {
                bearer_token: Some("t0ken".into()),
                ..HttpOptions::default()
            },
        )
        .await
        .expect("binds");
    let traceparent = format!("00-{TRACE_ID}-{SPAN_ID}-01");
    let report = python::run_report(
        "trace_client.py",
        &[&server.url, "t0ken", "echo", &traceparent, "vendor=abc"],
        DEADLINE,
    )
    .await;
    server.shutdown().await;
    assert_eq!(report["isError"], false, "{report}");
    assert!(
        report["text"]
            .as_str()
            .is_some_and(|text| text.contains("hi")),
        "{report}"
    );

    let served = capture.span("execute_tool echo");
    assert_eq!(served.span_context.trace_id().to_string(), TRACE_ID);
    assert_eq!(served.parent_span_id.to_string(), SPAN_ID);
    assert!(served.parent_span_is_remote);
    assert_eq!(served.span_context.trace_state().header(), "vendor=abc");
    assert_eq!(
        span_attribute(&served, "mcp.method.name").as_deref(),
        Some("tools/call")
    );
}
