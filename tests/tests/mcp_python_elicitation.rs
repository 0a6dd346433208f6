//! Elicitation against the official Python MCP SDK, both ways.
//!
//! - Serving: the SDK's `Client` (`tests/python/elicit_client.py`) calls a tool of our stdio
//!   server (`mcp_test_server --ask search_files`) whose `pre-execute` hook answers `ask`; the
//!   client's elicitation callback approves, denies, declines or cancels, or the client declares
//!   no elicitation at all, and the call ends as the approval seam documents.
//! - Importing: a tool of an SDK `MCPServer` (`tests/python/elicit_server.py`) calls
//!   `ctx.elicit(..)`; the import's handler answers, or, without one, the request is declined.
//!
//! The SDK is installed into a virtual environment under `target/` on first run
//! (`dsh_tools_tests::python`); without Python or the package registry these tests fail saying so.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use dsh_tools::mcp::{
    ElicitationAnswer, ElicitationRequest, ImportOptions, McpClient, elicitation_fn,
};
use dsh_tools::{ToolExecutionInput, ToolRegistry, Value, json};
use dsh_tools_tests::mcp_fixture::ASK_REASON;
use dsh_tools_tests::python;

/// Only a broken bridge makes anything here wait this long.
const DEADLINE: Duration = Duration::from_secs(120);

async fn drive(mode: &str, answer: &str) -> Value {
    python::run_report(
        "elicit_client.py",
        &[
            mode,
            answer,
            env!("CARGO_BIN_EXE_mcp_test_server"),
            "--ask",
            "search_files",
        ],
        DEADLINE,
    )
    .await
}

fn error_text(text: &str) -> Value {
    json!({"isError": true, "content": [{"type": "text", "text": text}], "structuredContent": null})
}

/// The one request a client that can be asked is sent, whatever it answers.
fn approval_request() -> Value {
    // The arguments `elicit_client.py` sends, in its key order.
    let arguments = json!({
        "pattern": "fn main",
        "path": "/src",
        "max_results": 50,
        "case_sensitive": false,
        "include": ["*.rs", "*.toml"],
        "options": {"follow_links": true, "depth": 4},
    });
    json!({
        "mode": "form",
        "message": format!(
            "Allow tool \"search_files\" to run?\nReason: {ASK_REASON}\nArguments: {arguments}"
        ),
        "requestedSchema": {
            "type": "object",
            "properties": {
                "decision": {"type": "string", "title": "Decision", "enum": ["approve", "deny"]}
            },
            "required": ["decision"]
        }
    })
}

/// Checks what the client saw: the requests it was sent, the asked call's result, and that the
/// call that does not ask ran.
fn check(report: &Value, requests: &[Value], result: &Value) {
    assert_eq!(report["requests"].as_array().expect("requests"), requests);
    assert_eq!(&report["result"], result);
    assert_eq!(
        report["plain"],
        json!({"isError": false, "content": [{"type": "text", "text": "0"}], "structuredContent": null})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_approves_lets_the_call_run() {
    let report = drive("legacy", "approve").await;
    check(
        &report,
        &[approval_request()],
        &json!({
            "isError": false,
            "content": [{"type": "text", "text": r#"7 matches for "fn main" under /src"#}],
            "structuredContent": {"path": "/src", "pattern": "fn main", "count": 7}
        }),
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_denies_or_declines_rejects_the_call() {
    for answer in ["deny", "decline"] {
        let report = drive("legacy", answer).await;
        check(
            &report,
            &[approval_request()],
            &error_text(r#"Error: the user rejected tool "search_files""#),
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_cancels_cancels_the_approval() {
    let report = drive("legacy", "cancel").await;
    check(
        &report,
        &[approval_request()],
        &error_text(r#"Error: approval for tool "search_files" was cancelled"#),
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_without_elicitation_is_not_asked_and_the_ask_is_denied_as_before() {
    let report = drive("legacy", "none").await;
    check(&report, &[], &error_text(&format!("Error: {ASK_REASON}")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_the_per_request_protocol_the_client_is_not_asked() {
    // 2026-07-28 forbids server-to-client requests: the call's `ask` goes where it would without
    // a client that can answer.
    let report = drive("auto", "approve").await;
    check(&report, &[], &error_text(&format!("Error: {ASK_REASON}")));
}

async fn import_asking_server() -> (ToolRegistry, McpClient) {
    let mut command = tokio::process::Command::new(python::python_with_mcp());
    command.arg(python::script("elicit_server.py"));
    let client = tokio::time::timeout(DEADLINE, McpClient::connect_stdio(command))
        .await
        .expect("the Python server starts in time")
        .expect("the Python server completes the handshake");
    let registry = ToolRegistry::new();
    let names = client
        .import_into(&registry, ImportOptions::new())
        .await
        .expect("imports");
    assert_eq!(names, ["py-asking__delete_file"]);
    (registry, client)
}

async fn delete(registry: &ToolRegistry, path: &str) -> String {
    let input = ToolExecutionInput::new("call", "py-asking__delete_file", json!({"path": path}));
    let result = tokio::time::timeout(DEADLINE, registry.execute(input))
        .await
        .expect("the call ends");
    assert!(!result.is_error(), "{}", result.text());
    result.text()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_tool_that_asks_reaches_the_handler_and_gets_its_answer() {
    let (registry, client) = import_asking_server().await;
    let seen: Arc<Mutex<Vec<ElicitationRequest>>> = Arc::default();
    let record = Arc::clone(&seen);
    client.set_elicitation_handler(elicitation_fn(move |request: ElicitationRequest| {
        let answer = match request.message() {
            "Really delete a.txt?" => ElicitationAnswer::Accept(
                json!({"confirm": true, "note": "old"})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            ),
            "Really delete b.txt?" => ElicitationAnswer::Decline,
            _ => ElicitationAnswer::Cancel,
        };
        record
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(request);
        async move { answer }
    }));

    assert_eq!(
        delete(&registry, "a.txt").await,
        "deleted a.txt (note: old)"
    );
    assert_eq!(delete(&registry, "b.txt").await, "decline: kept b.txt");
    assert_eq!(delete(&registry, "c.txt").await, "cancel: kept c.txt");

    let seen = seen.lock().unwrap_or_else(PoisonError::into_inner).clone();
    let messages: Vec<&str> = seen.iter().map(ElicitationRequest::message).collect();
    assert_eq!(
        messages,
        [
            "Really delete a.txt?",
            "Really delete b.txt?",
            "Really delete c.txt?"
        ]
    );
    let first = &seen[0];
    assert_eq!(first.server(), "py-asking");
    let schema = first.requested_schema();
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["properties"]["confirm"]["type"], "boolean");
    assert_eq!(schema["properties"]["note"]["type"], "string");
    assert_eq!(schema["required"], json!(["confirm"]));

    // Without the handler, the next request is declined again.
    client.clear_elicitation_handler();
    assert_eq!(delete(&registry, "d.txt").await, "decline: kept d.txt");
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_handler_an_imported_tool_that_asks_is_declined_not_stuck() {
    let (registry, client) = import_asking_server().await;
    assert_eq!(delete(&registry, "a.txt").await, "decline: kept a.txt");
    client.close().await;
}
