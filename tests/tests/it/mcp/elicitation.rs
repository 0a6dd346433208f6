//! Approval through the client, in process: rmcp's own client, with and without the elicitation
//! capability, drives a served registry whose `pre-execute` hook asks; and our own client
//! imports that server, so its elicitation handler answers the served registry's approval.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use dsh_tools::hooks::{ApprovalOutcome, approver_fn};
use dsh_tools::mcp::{
    ConnectOptions, ElicitationRequest, ImportOptions, McpClient, McpServer, ServerOptions,
};
use dsh_tools::{FnTool, PreToolDecision, ToolExecutionInput, ToolRegistry, Value, json};
use dsh_tools_tests::{Log, mcp_fixture, registry_with};
use rmcp::ServiceExt;
use rmcp::handler::client::ClientHandler;
use rmcp::model as mcp;
use rmcp::service::{RequestContext, RoleClient};

/// Long enough for anything these tests wait for; only a broken bridge ever reaches it.
const DEADLINE: Duration = Duration::from_secs(20);

/// A tool `write` that takes any arguments, logs `body` and answers `ok`.
fn write_tool(log: &Log) -> FnTool {
    let log = log.clone();
    FnTool::builder("write", "Writes a file.")
        .raw_parameters(json!({"type": "object"}))
        .handler(move |_, _| {
            log.push("body");
            async { Ok(json!("ok")) }
        })
}

/// A registry whose tool `write` asks for approval, with a registry approver that logs and
/// answers `fallback`.
fn asking(log: &Log, fallback: ApprovalOutcome) -> ToolRegistry {
    let registry = registry_with([write_tool(log)]);
    let _ = registry.on_pre_execute(|_, _| async {
        Ok(PreToolDecision::Ask {
            reason: Some("it writes to the workspace".to_owned()),
        })
    });
    let seen = log.clone();
    let _ = registry.set_approver(approver_fn(move |_| {
        seen.push("registry approver");
        async move { Ok(fallback) }
    }));
    registry
}

/// An rmcp client that records the elicitation requests it gets and answers with `answer`;
/// `None` declares no elicitation capability.
#[derive(Clone)]
struct Asked {
    answer: Option<mcp::ElicitResult>,
    requests: Arc<Mutex<Vec<String>>>,
}

impl ClientHandler for Asked {
    async fn create_elicitation(
        &self,
        request: mcp::ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<mcp::ElicitResult, rmcp::ErrorData> {
        if let mcp::ElicitRequestParams::FormElicitationParams { message, .. } = request {
            self.requests
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(message);
        }
        self.answer
            .clone()
            .ok_or_else(|| rmcp::ErrorData::invalid_request("no elicitation here", None))
    }

    fn get_info(&self) -> mcp::ClientConfig {
        let mut capabilities = mcp::ClientCapabilities::default();
        if self.answer.is_some() {
            capabilities.elicitation = Some(
                mcp::ElicitationCapability::new().with_form(mcp::FormElicitationCapability::new()),
            );
        }
        mcp::ClientConfig::new(capabilities, mcp::Implementation::new("asked", "0"))
    }
}

/// Calls `write` of `registry`, served, from an [`Asked`] client answering `answer`: the call's
/// text and the requests the client got.
async fn call_write(
    registry: &ToolRegistry,
    answer: Option<mcp::ElicitResult>,
) -> (String, Vec<String>) {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let asked = Asked {
        answer,
        requests: Arc::default(),
    };
    let server = McpServer::new(registry);
    let (connection, client) =
        tokio::join!(server.serve(server_end), asked.clone().serve(client_end));
    let _connection = connection.expect("the server completes the handshake");
    let client = client.expect("the client completes the handshake");
    let result = tokio::time::timeout(
        DEADLINE,
        client.call_tool(
            mcp::CallToolRequestParams::new("write").with_arguments(
                json!({"path": "notes.md"})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            ),
        ),
    )
    .await
    .expect("the call is answered")
    .expect("a tools/call result");
    let text = serde_json::to_value(&result).expect("serializes")["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let requests = asked
        .requests
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    (text, requests)
}

const MESSAGE: &str = "Allow tool \"write\" to run?\nReason: it writes to the workspace\nArguments: {\"path\":\"notes.md\"}";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_can_be_asked_answers_instead_of_the_registry_approver() {
    let log = Log::new();
    let registry = asking(&log, ApprovalOutcome::Rejected);
    let approve = mcp::ElicitResult::new(mcp::ElicitationAction::Accept)
        .with_content(json!({"decision": "approve"}));
    let (text, requests) = call_write(&registry, Some(approve)).await;
    assert_eq!(text, "ok");
    assert_eq!(requests, [MESSAGE]);
    assert_eq!(log.entries(), ["body"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_answers_of_the_client_map_onto_the_documented_denials() {
    for (answer, expected) in [
        (
            mcp::ElicitResult::new(mcp::ElicitationAction::Accept)
                .with_content(json!({"decision": "deny"})),
            "Error: the user rejected tool \"write\"",
        ),
        (
            mcp::ElicitResult::new(mcp::ElicitationAction::Decline),
            "Error: the user rejected tool \"write\"",
        ),
        (
            mcp::ElicitResult::new(mcp::ElicitationAction::Cancel),
            "Error: approval for tool \"write\" was cancelled",
        ),
    ] {
        let log = Log::new();
        let registry = asking(&log, ApprovalOutcome::AllowedOnce);
        let (text, requests) = call_write(&registry, Some(answer)).await;
        assert_eq!(text, expected);
        assert_eq!(requests, [MESSAGE]);
        assert!(log.entries().is_empty(), "{:?}", log.entries());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_without_the_capability_leaves_the_ask_to_the_registry_approver() {
    let log = Log::new();
    let registry = asking(&log, ApprovalOutcome::AllowedOnce);
    let (text, requests) = call_write(&registry, None).await;
    assert_eq!(text, "ok");
    assert!(requests.is_empty());
    assert_eq!(log.entries(), ["registry approver", "body"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_importing_registry_answers_the_served_registrys_approval_through_its_handler() {
    // The served registry has no approver of its own: only its client can approve.
    let log = Log::new();
    let served = registry_with([write_tool(&log)]);
    let _ = served.on_pre_execute(|_, _| async {
        Ok(PreToolDecision::Ask {
            reason: Some("it writes to the workspace".to_owned()),
        })
    });
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let server = McpServer::new(&served).with_options(ServerOptions {
        name: "served".into(),
        ..ServerOptions::default()
    });
    let (connection, client) = tokio::join!(
        server.serve(server_end),
        McpClient::connect(client_end, ConnectOptions::default())
    );
    let _connection = connection.expect("the server completes the handshake");
    let client = client.expect("the client completes the handshake");
    let importing = ToolRegistry::new();
    let names = client
        .import_into(&importing, ImportOptions::default())
        .await
        .expect("imports");
    assert_eq!(names, ["served__write"]);

    let call = || ToolExecutionInput::new("c", "served__write", json!({"path": "notes.md"}));
    let run = |input| async {
        tokio::time::timeout(DEADLINE, importing.execute(input))
            .await
            .expect("the call ends")
            .text()
    };
    // No handler yet: the request is declined, so the served registry rejects the call.
    assert_eq!(run(call()).await, "Error: the user rejected tool \"write\"");

    let seen: Arc<Mutex<Vec<(String, String, Value)>>> = Arc::default();
    let record = Arc::clone(&seen);
    client.set_elicitation_handler(move |request: ElicitationRequest| {
        record.lock().unwrap_or_else(PoisonError::into_inner).push((
            request.server.clone(),
            request.message.clone(),
            request.requested_schema["required"].clone(),
        ));
        async { mcp_fixture::decision("approve") }
    });
    assert_eq!(run(call()).await, "ok");
    assert_eq!(log.entries(), ["body"]);
    assert_eq!(
        *seen.lock().unwrap_or_else(PoisonError::into_inner),
        [("served".to_owned(), MESSAGE.to_owned(), json!(["decision"]))]
    );

    // A handler that panics answers cancel.
    client.set_elicitation_handler(|_: ElicitationRequest| async { panic!("handler bug") });
    assert_eq!(
        run(call()).await,
        "Error: approval for tool \"write\" was cancelled"
    );
    client.close().await;
}
