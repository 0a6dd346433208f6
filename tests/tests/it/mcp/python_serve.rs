//! Serving to an MCP client nobody here wrote: the official Python SDK's `Client` drives our
//! stdio server (the `mcp_test_server` binary) and our streamable HTTP server, with the
//! `initialize` handshake and with the SDK's default per-request protocol. The script
//! (`tests/python/drive_server.py`) reports what the SDK saw; these tests hold it to what the
//! registry shows and answers.
//!
//! The SDK is installed into a virtual environment under `target/` on first run
//! (`dsh_tools_tests::python`); without Python or the package registry these tests fail saying so.

use std::time::Duration;

use dsh_tools::mcp::{HttpOptions, McpServer, ServerOptions};
use dsh_tools::{ToolExecutionInput, Value, json};
use dsh_tools_tests::mcp_fixture::{self, FORBIDDEN_REASON, media_content};
use dsh_tools_tests::python;

const TOKEN: &str = "s3cret-token";
/// Only a broken bridge makes the script run this long.
const DEADLINE: Duration = Duration::from_secs(120);

async fn drive(args: &[&str]) -> Value {
    python::run_report("drive_server.py", args, DEADLINE).await
}

fn text_result(text: &str) -> Value {
    json!({"isError": true, "content": [{"type": "text", "text": text}], "structuredContent": null})
}

/// What every scenario must have seen, whatever the transport and protocol.
async fn check_report(report: &Value, name: &str, version: &str, protocol: &str) {
    let (registry, _) = mcp_fixture::registry();
    assert_eq!(report["protocolVersion"], protocol);
    assert_eq!(
        report["serverInfo"],
        json!({"name": name, "version": version})
    );
    assert_eq!(report["instructions"], "Test tools.");

    let schemas = registry.schemas();
    let tools = report["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), schemas.len());
    for (tool, schema) in tools.iter().zip(schemas.iter()) {
        assert_eq!(tool["name"], schema.name.as_str());
        assert_eq!(tool["description"], schema.description.as_str());
        let parameters: &Value = &schema.parameters;
        assert_eq!(
            serde_json::to_string(&tool["inputSchema"]).expect("serializes"),
            serde_json::to_string(parameters).expect("serializes"),
            "the SDK sees the inputSchema of {} exactly as schemas() shows it",
            schema.name
        );
    }
    assert_eq!(report["pages"], schemas.len().div_ceil(3));

    assert_eq!(
        report["valid"],
        json!({
            "isError": false,
            "content": [{"type": "text", "text": r#"7 matches for "fn main" under /src"#}],
            "structuredContent": {"path": "/src", "pattern": "fn main", "count": 7}
        })
    );
    let invalid = mcp_fixture::workload()["invalid_args"].clone();
    let direct = registry
        .execute(ToolExecutionInput::new("direct", "search_files", invalid))
        .await;
    assert_eq!(report["invalid"], text_result(&direct.text()));
    assert!(
        direct
            .text()
            .contains(r#"missing required property "pattern""#)
    );
    assert!(
        direct
            .text()
            .contains(r#""max_results" must be an integer"#)
    );
    assert!(direct.text().contains(r#""mode" must be one of"#));
    assert_eq!(
        report["unknown"],
        text_result(r#"Error: unknown tool "nope""#)
    );
    assert_eq!(
        report["denied"],
        text_result(&format!("Error: {FORBIDDEN_REASON}"))
    );

    assert_eq!(report["media"]["isError"], false);
    assert_eq!(
        report["media"]["content"],
        serde_json::to_value(media_content()).expect("serializes")
    );

    assert_eq!(
        report["progressCall"]["content"][0]["text"],
        "done after 3 steps"
    );
    assert_eq!(
        report["progress"],
        json!([
            [1.0, 3.0, "step 1"],
            [2.0, 3.0, "step 2"],
            [3.0, 3.0, "step 3"]
        ])
    );
    assert_eq!(report["cancellationsSeenByTheBody"], 1);
    assert_eq!(report["listChanged"], true);
    let after = report["toolsAfterRegistration"].as_array().expect("names");
    assert!(after.contains(&json!("late_tool")), "{after:?}");
    assert_eq!(after.len(), schemas.len() + 1);
}

fn test_server() -> &'static str {
    env!("CARGO_BIN_EXE_mcp_test_server")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_drives_the_stdio_server_after_initialize() {
    let report = drive(&["stdio", "legacy", test_server(), "--page-size", "3"]).await;
    check_report(&report, "dsh-tools-test", "1.2.3", "2025-11-25").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_drives_the_stdio_server_with_its_default_protocol() {
    let report = drive(&["stdio", "auto", test_server(), "--page-size", "3"]).await;
    check_report(&report, "dsh-tools-test", "1.2.3", "2026-07-28").await;
}

async fn http_report(mode: &str, options: HttpOptions) -> Value {
    let (registry, _) = mcp_fixture::registry();
    let server = McpServer::new(&registry)
        .with_options(ServerOptions {
            name: "dsh-tools-http".into(),
            version: "4.5.6".into(),
            instructions: Some("Test tools.".into()),
            page_size: 3,
            ..ServerOptions::default()
        })
        .serve_http(
            "127.0.0.1:0",
            HttpOptions {
                bearer_token: Some(TOKEN.into()),
                ..options
            },
        )
        .await
        .expect("binds");
    let report = drive(&["http", mode, &server.url, TOKEN]).await;
    server.shutdown().await;
    report
}

fn assert_refused(report: &Value, key: &str, status: u16) {
    let refusal = &report[key];
    assert!(
        refusal["sdkError"].is_string(),
        "{key}: the SDK's client was let in: {refusal}"
    );
    assert_eq!(refusal["status"], status, "{key}: {refusal}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_drives_the_http_server_and_is_refused_without_origin_or_token() {
    let report = http_report("legacy", HttpOptions::default()).await;
    check_report(&report, "dsh-tools-http", "4.5.6", "2025-11-25").await;
    assert_refused(&report, "foreignOrigin", 403);
    assert_refused(&report, "missingToken", 401);
    assert_refused(&report, "wrongToken", 401);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_drives_a_stateless_http_server_with_its_default_protocol() {
    let report = http_report(
        "auto",
        HttpOptions {
            stateless: true,
            ..HttpOptions::default()
        },
    )
    .await;
    check_report(&report, "dsh-tools-http", "4.5.6", "2026-07-28").await;
    assert_refused(&report, "foreignOrigin", 403);
    assert_refused(&report, "missingToken", 401);
}
