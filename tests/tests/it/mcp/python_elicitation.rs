//! Elicitation against the official Python MCP SDK, both ways, on both protocols: over a session
//! (2025-11-25, `elicitation/create` requests) and over multi-round-trip requests (2026-07-28,
//! `InputRequiredResult`), both of which the SDK (2.3) speaks as client and as server.
//!
//! - Serving: the SDK's `Client` (`tests/python/elicit_client.py`) calls a tool of our stdio
//!   server (`mcp_test_server --ask search_files`) whose `pre-execute` hook answers `ask`; the
//!   client's elicitation callback approves, denies, declines or cancels, or the client declares
//!   no elicitation at all, and the call ends as the approval seam documents. In `legacy` mode
//!   the question is an `elicitation/create` request; in `auto` mode (the per-request protocol)
//!   it is the `InputRequiredResult` the SDK's client answers by retrying the call.
//! - Importing: a tool of an SDK `MCPServer` (`tests/python/elicit_server.py`) calls
//!   `ctx.elicit(..)`; the import's handler answers, or, without one, the request is declined.
//!   Over the per-request protocol, tools of `tests/python/input_required_server.py` return an
//!   `InputRequiredResult`; the handler's answers go back with the retry, and a server that never
//!   stops asking ends the call after the round cap.
//!
//! The SDK is installed into a virtual environment under `target/` on first run
//! (`dsh_tools_tests::python`); without Python or the package registry these tests fail saying so.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use dsh_tools::mcp::{
    ConnectOptions, ElicitationAnswer, ElicitationRequest, ImportOptions, McpClient,
};
use dsh_tools::{ToolExecutionInput, ToolRegistry, Value, json};
use dsh_tools_tests::mcp_fixture::ASK_REASON;
use dsh_tools_tests::python;
use rmcp::model::ProtocolVersion;
use rmcp::service::ClientLifecycleMode;
use rmcp::transport::TokioChildProcess;

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
/// call that does not ask ran (its number output is structured only since 2026-07-28).
fn check(report: &Value, requests: &[Value], result: &Value) {
    assert_eq!(report["requests"].as_array().expect("requests"), requests);
    assert_eq!(&report["result"], result);
    let structured = if report["protocol"] == "2026-07-28" {
        json!(0)
    } else {
        Value::Null
    };
    assert_eq!(
        report["plain"],
        json!({"isError": false, "content": [{"type": "text", "text": "0"}], "structuredContent": structured})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_approves_lets_the_call_run() {
    let report = drive("legacy", "approve").await;
    assert_eq!(report["protocol"], "2025-11-25");
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
async fn over_the_per_request_protocol_the_question_is_an_input_required_result() {
    // The SDK's client reads the same question from the `InputRequiredResult`, hands it to its
    // elicitation callback and retries with the answer: each answer ends the call as over a
    // session.
    let approved = json!({
        "isError": false,
        "content": [{"type": "text", "text": r#"7 matches for "fn main" under /src"#}],
        "structuredContent": {"path": "/src", "pattern": "fn main", "count": 7}
    });
    let rejected = error_text(r#"Error: the user rejected tool "search_files""#);
    let cancelled = error_text(r#"Error: approval for tool "search_files" was cancelled"#);
    for (answer, result) in [
        ("approve", &approved),
        ("deny", &rejected),
        ("decline", &rejected),
        ("cancel", &cancelled),
    ] {
        let report = drive("auto", answer).await;
        assert_eq!(report["protocol"], "2026-07-28", "{answer}");
        check(&report, &[approval_request()], result);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_the_per_request_protocol_a_client_without_elicitation_is_not_asked() {
    let report = drive("auto", "none").await;
    assert_eq!(report["protocol"], "2026-07-28");
    check(&report, &[], &error_text(&format!("Error: {ASK_REASON}")));
}

async fn import_asking_server() -> (ToolRegistry, McpClient) {
    let mut command = tokio::process::Command::new(python::python_with_mcp());
    command.arg(python::script("elicit_server.py"));
    let client = tokio::time::timeout(
        DEADLINE,
        McpClient::connect_stdio(command, ConnectOptions::default()),
    )
    .await
    .expect("the Python server starts in time")
    .expect("the Python server completes the handshake");
    let registry = ToolRegistry::new();
    let names = client
        .import_into(&registry, ImportOptions::default())
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
    client.set_elicitation_handler(move |request: ElicitationRequest| {
        let answer = match request.message.as_str() {
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
    });

    assert_eq!(
        delete(&registry, "a.txt").await,
        "deleted a.txt (note: old)"
    );
    assert_eq!(delete(&registry, "b.txt").await, "decline: kept b.txt");
    assert_eq!(delete(&registry, "c.txt").await, "cancel: kept c.txt");

    let seen = seen.lock().unwrap_or_else(PoisonError::into_inner).clone();
    let messages: Vec<&str> = seen
        .iter()
        .map(|request| request.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "Really delete a.txt?",
            "Really delete b.txt?",
            "Really delete c.txt?"
        ]
    );
    let first = &seen[0];
    assert_eq!(first.server, "py-asking");
    let schema = &first.requested_schema;
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["properties"]["confirm"]["type"], "boolean");
    assert_eq!(schema["properties"]["note"]["type"], "string");
    assert_eq!(schema["required"], json!(["confirm"]));

    // A handler that declines replaces the one that accepted.
    client.set_elicitation_handler(|_: ElicitationRequest| async { ElicitationAnswer::Decline });
    assert_eq!(delete(&registry, "d.txt").await, "decline: kept d.txt");
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_handler_an_imported_tool_that_asks_is_declined_not_stuck() {
    let (registry, client) = import_asking_server().await;
    assert_eq!(delete(&registry, "a.txt").await, "decline: kept a.txt");
    client.close().await;
}

/// Our client on the per-request protocol (discovered, never `initialize`) importing
/// `input_required_server.py`.
async fn import_round_trip_server() -> (ToolRegistry, McpClient) {
    let mut command = tokio::process::Command::new(python::python_with_mcp());
    command.arg(python::script("input_required_server.py"));
    let transport = TokioChildProcess::new(command).expect("the Python server starts");
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    let client = tokio::time::timeout(
        DEADLINE,
        McpClient::connect(
            transport,
            ConnectOptions {
                lifecycle,
                ..ConnectOptions::default()
            },
        ),
    )
    .await
    .expect("the Python server starts in time")
    .expect("the Python server is discovered");
    let registry = ToolRegistry::new();
    let names = client
        .import_into(&registry, ImportOptions::default())
        .await
        .expect("imports");
    assert_eq!(names, ["py-rounds__always_asks", "py-rounds__delete_file"]);
    (registry, client)
}

async fn delete_on_round_trips(registry: &ToolRegistry, path: &str) -> String {
    let input = ToolExecutionInput::new("call", "py-rounds__delete_file", json!({"path": path}));
    let result = tokio::time::timeout(DEADLINE, registry.execute(input))
        .await
        .expect("the call ends");
    assert!(!result.is_error(), "{}", result.text());
    result.text()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_tool_that_returns_input_required_gets_the_handlers_answer_with_the_retry() {
    let (registry, client) = import_round_trip_server().await;
    // No handler: declined, and the SDK's server reads the decline from the retry.
    assert_eq!(
        delete_on_round_trips(&registry, "a.txt").await,
        "decline: kept a.txt (asked about a.txt)"
    );

    let seen: Arc<Mutex<Vec<ElicitationRequest>>> = Arc::default();
    let record = Arc::clone(&seen);
    client.set_elicitation_handler(move |request: ElicitationRequest| {
        let answer = match request.message.as_str() {
            "Really delete b.txt?" => ElicitationAnswer::Accept(
                json!({"confirm": true})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            ),
            _ => ElicitationAnswer::Cancel,
        };
        record
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(request);
        async move { answer }
    });
    assert_eq!(
        delete_on_round_trips(&registry, "b.txt").await,
        "deleted b.txt (asked about b.txt)"
    );
    assert_eq!(
        delete_on_round_trips(&registry, "c.txt").await,
        "cancel: kept c.txt (asked about c.txt)"
    );
    let seen = seen.lock().unwrap_or_else(PoisonError::into_inner).clone();
    let messages: Vec<&str> = seen
        .iter()
        .map(|request| request.message.as_str())
        .collect();
    assert_eq!(messages, ["Really delete b.txt?", "Really delete c.txt?"]);
    assert_eq!(seen[0].server, "py-rounds");
    assert_eq!(
        &seen[0].requested_schema,
        &json!({"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]})
    );
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_tool_that_never_stops_asking_ends_after_the_round_cap() {
    let (registry, client) = import_round_trip_server().await;
    let asked = Arc::new(Mutex::new(0usize));
    let count = Arc::clone(&asked);
    client.set_elicitation_handler(move |_: ElicitationRequest| {
        *count.lock().unwrap_or_else(PoisonError::into_inner) += 1;
        async {
            ElicitationAnswer::Accept(
                json!({"confirm": true})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            )
        }
    });
    let input = ToolExecutionInput::new("call", "py-rounds__always_asks", json!({}));
    let result = tokio::time::timeout(DEADLINE, registry.execute(input))
        .await
        .expect("the call ends");
    assert_eq!(result.error_code(), Some("MCP_TRANSPORT"));
    assert_eq!(
        result.text(),
        "Error: MCP server \"py-rounds\" still asked for input after 10 rounds of tools/call \"always_asks\""
    );
    assert_eq!(*asked.lock().unwrap_or_else(PoisonError::into_inner), 10);
    client.close().await;
}
