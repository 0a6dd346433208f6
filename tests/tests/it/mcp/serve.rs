//! Serving a registry over MCP, driven in process: by rmcp's own client over a duplex pipe, and
//! by raw JSON-RPC lines where the exact wire order matters (progress before the reply, no reply
//! after a cancellation, the call id).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use dsh_tools::mcp::{ERROR_META_KEY, McpConnection, McpServer, ServerOptions};
use dsh_tools::{
    FnTool, ToolError, ToolExecutionInput, ToolRegistry, Value, json, registry::ToolRestriction,
};
use dsh_tools_tests::mcp_fixture::{self, Echo, FORBIDDEN_REASON, media_content};
use rmcp::ServiceExt;
use rmcp::handler::client::ClientHandler;
use rmcp::model as mcp;
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, NotificationContext, RoleClient, RunningService,
};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::Notify;

/// Long enough for anything these tests wait for; only a broken bridge ever reaches it.
const DEADLINE: Duration = Duration::from_secs(20);

/// One progress report: progress, total, message.
type Report = (f64, Option<f64>, Option<String>);

/// A client handler that records the progress and list-changed notifications it receives.
#[derive(Clone, Default)]
struct Recorder {
    progress: Arc<Mutex<Vec<Report>>>,
    progress_seen: Arc<Notify>,
    list_changed: Arc<AtomicUsize>,
    list_changed_seen: Arc<Notify>,
}

impl Recorder {
    fn progress(&self) -> Vec<Report> {
        self.progress
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl ClientHandler for Recorder {
    async fn on_progress(
        &self,
        params: mcp::ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((params.progress, params.total, params.message));
        self.progress_seen.notify_one();
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.list_changed.fetch_add(1, Ordering::SeqCst);
        self.list_changed_seen.notify_one();
    }
}

struct Connected {
    _connection: McpConnection,
    client: RunningService<RoleClient, Recorder>,
    recorder: Recorder,
}

async fn connect(server: McpServer) -> Connected {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let recorder = Recorder::default();
    let (connection, client) =
        tokio::join!(server.serve(server_end), recorder.clone().serve(client_end));
    Connected {
        _connection: connection.expect("the server completes the handshake"),
        client: client.expect("the client completes the handshake"),
        recorder,
    }
}

/// A client of `server` on the per-request protocol (2026-07-28): `server/discover`, no
/// `initialize`.
async fn connect_per_request(server: McpServer) -> RunningService<RoleClient, Recorder> {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    // On the per-request protocol the server has started only once the first request after
    // `server/discover` arrived, so it serves on a task of its own until the test ends.
    tokio::spawn(async move {
        let _connection = server.serve(server_end).await.expect("the server starts");
        std::future::pending::<()>().await;
    });
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![mcp::ProtocolVersion::V_2026_07_28],
    };
    Recorder::default()
        .serve_with_lifecycle(client_end, lifecycle)
        .await
        .expect("the client discovers the server")
}

fn served() -> (ToolRegistry, McpServer) {
    let (registry, _) = mcp_fixture::registry();
    let server = McpServer::new(&registry).with_options(ServerOptions {
        name: "fixture".into(),
        version: "9.9.9".into(),
        instructions: Some("Use the fixture tools.".into()),
        ..ServerOptions::default()
    });
    (registry, server)
}

async fn call(
    client: &RunningService<RoleClient, Recorder>,
    name: &'static str,
    arguments: Value,
) -> mcp::CallToolResult {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    tokio::time::timeout(
        DEADLINE,
        client.call_tool(mcp::CallToolRequestParams::new(name).with_arguments(arguments)),
    )
    .await
    .expect("the call is answered")
    .expect("a tools/call result, never a JSON-RPC error")
}

fn texts(result: &mcp::CallToolResult) -> Vec<String> {
    result
        .content
        .iter()
        .map(|block| block.as_text().expect("a text block").text.clone())
        .collect()
}

#[tokio::test]
async fn the_handshake_carries_the_configured_identity_and_the_tools_capability() {
    let (_registry, server) = served();
    let connected = connect(server).await;
    let info = connected.client.peer().peer_info().expect("server info");
    let implementation = info.server_info.clone().expect("the server names itself");
    assert_eq!(implementation.name, "fixture");
    assert_eq!(implementation.version, "9.9.9");
    assert_eq!(info.instructions.as_deref(), Some("Use the fixture tools."));
    let tools = info.capabilities.tools.clone().expect("tools capability");
    assert_eq!(tools.list_changed, Some(true));
}

#[tokio::test]
async fn tools_list_shows_exactly_what_schemas_shows() {
    let (registry, server) = served();
    let connected = connect(server).await;
    let tools = connected.client.list_all_tools().await.expect("listed");
    let schemas = registry.schemas();
    assert_eq!(tools.len(), schemas.len());
    for (tool, schema) in tools.iter().zip(schemas.iter()) {
        assert_eq!(tool.name, schema.name);
        assert_eq!(
            tool.description.as_deref(),
            Some(schema.description.as_str())
        );
        let parameters: &Value = &schema.parameters;
        assert_eq!(
            serde_json::to_string(&*tool.input_schema).expect("serializes"),
            serde_json::to_string(parameters).expect("serializes"),
            "inputSchema of {} is byte-identical to schemas()",
            schema.name
        );
    }

    let search = tools
        .iter()
        .find(|tool| tool.name == "search_files")
        .expect("listed");
    let hints = search.annotations.clone().expect("hints are declared");
    assert_eq!(
        (
            hints.read_only_hint,
            hints.destructive_hint,
            hints.idempotent_hint,
            hints.open_world_hint
        ),
        (Some(true), None, Some(true), Some(false))
    );
    let output = search
        .output_schema
        .clone()
        .expect("an object output has an outputSchema");
    assert_eq!(output["type"], "object");
    assert_eq!(output["required"], json!(["path", "pattern", "count"]));

    let slow = tools
        .iter()
        .find(|tool| tool.name == "slow")
        .expect("listed");
    assert!(
        slow.output_schema.is_none(),
        "a string output is not structured"
    );
    assert!(slow.annotations.is_none(), "no hint declared");

    let media = tools
        .iter()
        .find(|tool| tool.name == "media")
        .expect("listed");
    assert_eq!(media.title.as_deref(), Some("Media sampler"));
    assert_eq!(
        media
            .annotations
            .as_ref()
            .and_then(|hints| hints.title.as_deref()),
        Some("Media sampler")
    );
    let forbidden = tools
        .iter()
        .find(|tool| tool.name == "forbidden")
        .expect("listed");
    assert_eq!(
        forbidden
            .annotations
            .as_ref()
            .and_then(|hints| hints.destructive_hint),
        Some(true)
    );
}

#[tokio::test]
async fn tools_list_pages_follow_the_cursor() {
    let (registry, server) = served();
    let connected = connect(server.with_options(ServerOptions {
        page_size: 3,
        ..ServerOptions::default()
    }))
    .await;
    let peer = connected.client.peer();
    let mut names = Vec::new();
    let mut cursor = None;
    let mut pages = 0;
    loop {
        let page = peer
            .list_tools(Some(
                mcp::PaginatedRequestParams::default().with_cursor(cursor),
            ))
            .await
            .expect("a page");
        pages += 1;
        assert!(page.tools.len() <= 3);
        names.extend(page.tools.iter().map(|tool| tool.name.to_string()));
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    let expected: Vec<String> = registry
        .schemas()
        .iter()
        .map(|schema| schema.name.clone())
        .collect();
    assert_eq!(names, expected);
    assert_eq!(pages, expected.len().div_ceil(3));
}

#[tokio::test]
async fn a_valid_call_returns_the_rendered_content_and_the_structured_value() {
    let (_registry, server) = served();
    let connected = connect(server).await;
    let workload = mcp_fixture::workload();
    let result = call(
        &connected.client,
        "search_files",
        workload["valid_args"].clone(),
    )
    .await;
    assert_eq!(result.is_error, Some(false));
    assert_eq!(texts(&result), [r#"7 matches for "fn main" under /src"#]);
    assert_eq!(
        result.structured_content,
        Some(json!({"path": "/src", "pattern": "fn main", "count": 7}))
    );
}

#[tokio::test]
async fn three_mistakes_are_one_error_result_listing_all_three() {
    let (registry, server) = served();
    let connected = connect(server).await;
    let invalid = mcp_fixture::workload()["invalid_args"].clone();
    let result = call(&connected.client, "search_files", invalid.clone()).await;
    let direct = registry
        .execute(ToolExecutionInput::new("direct", "search_files", invalid))
        .await;
    assert_eq!(result.is_error, Some(true));
    assert!(result.structured_content.is_none());
    assert_eq!(texts(&result), [direct.text()]);
    assert_eq!(
        direct.text(),
        r#"Error: invalid arguments: missing required property "pattern"; "max_results" must be an integer; "mode" must be one of ["literal","regex"]"#
    );
}

#[tokio::test]
async fn unknown_tools_and_denials_are_error_results_with_the_pipeline_text() {
    let (_registry, server) = served();
    let connected = connect(server).await;
    let unknown = call(&connected.client, "nope", json!({})).await;
    assert_eq!(unknown.is_error, Some(true));
    assert_eq!(texts(&unknown), [r#"Error: unknown tool "nope""#]);
    let denied = call(&connected.client, "forbidden", json!({})).await;
    assert_eq!(denied.is_error, Some(true));
    assert_eq!(texts(&denied), [format!("Error: {FORBIDDEN_REASON}")]);
}

/// The `{name, code}` a result's `_meta` carries under [`ERROR_META_KEY`].
fn error_meta(result: &mcp::CallToolResult) -> Option<&Value> {
    result.meta.as_ref()?.0.get(ERROR_META_KEY)
}

#[tokio::test]
async fn an_error_result_carries_its_name_and_code_in_meta() {
    let (registry, server) = served();
    let _full = registry
        .register(
            FnTool::builder("full_disk", "Fails.").handler(|_, _| async {
                Err::<Value, _>(ToolError::coded(
                    "IoError",
                    "ENOSPC",
                    "no space left on device",
                ))
            }),
        )
        .expect("registers");
    let connected = connect(server).await;
    let invalid = mcp_fixture::workload()["invalid_args"].clone();
    let cases = [
        ("nope", json!({}), "ToolNotFoundError", "UNKNOWN_TOOL"),
        ("forbidden", json!({}), "ToolDeniedError", "DENIED"),
        ("search_files", invalid, "ToolArgsError", "INVALID_ARGS"),
        ("full_disk", json!({}), "IoError", "ENOSPC"),
    ];
    for (name, arguments, error_name, code) in cases {
        let result = call(&connected.client, name, arguments).await;
        assert_eq!(result.is_error, Some(true), "{name}");
        assert_eq!(
            error_meta(&result),
            Some(&json!({"name": error_name, "code": code})),
            "{name}"
        );
    }
    let fine = call(&connected.client, "call_id", json!({})).await;
    assert_eq!(fine.is_error, Some(false));
    assert!(fine.meta.is_none(), "a success carries no error meta");
}

#[tokio::test]
async fn every_content_kind_maps_one_to_one() {
    let (_registry, server) = served();
    let connected = connect(server).await;
    let result = call(&connected.client, "media", json!({})).await;
    assert_eq!(result.is_error, Some(false));
    assert_eq!(
        serde_json::to_value(&result.content).expect("serializes"),
        serde_json::to_value(media_content()).expect("serializes")
    );
}

#[tokio::test(flavor = "current_thread")]
async fn progress_reports_reach_the_client_in_order() {
    let (_registry, server) = served();
    let connected = connect(server).await;
    let result = call(
        &connected.client,
        "slow",
        json!({"steps": 4, "delay_ms": 1}),
    )
    .await;
    assert_eq!(texts(&result), ["done after 4 steps"]);
    let recorder = &connected.recorder;
    tokio::time::timeout(DEADLINE, async {
        while recorder.progress().len() < 4 {
            recorder.progress_seen.notified().await;
        }
    })
    .await
    .expect("every report arrives");
    let expected: Vec<_> = (1..=4)
        .map(|step| (f64::from(step), Some(4.0), Some(format!("step {step}"))))
        .collect();
    assert_eq!(recorder.progress(), expected);
}

#[tokio::test]
async fn a_registration_sends_list_changed_and_the_new_tool_is_listed() {
    let (registry, server) = served();
    let connected = connect(server).await;
    // Give the server a moment to see `initialized` and start watching the registry.
    let _ = connected.client.list_all_tools().await.expect("listed");
    let recorder = connected.recorder.clone();
    let seen = recorder.list_changed_seen.notified();
    let _late = registry
        .register(Echo::named("late_tool"))
        .expect("registers");
    tokio::time::timeout(DEADLINE, seen)
        .await
        .expect("notifications/tools/list_changed arrives");
    let tools = connected.client.list_all_tools().await.expect("listed");
    assert!(tools.iter().any(|tool| tool.name == "late_tool"));
}

#[tokio::test]
async fn a_client_searching_deferred_tools_sees_them_listed_after_list_changed() {
    let (registry, _) = mcp_fixture::registry();
    let _deferred = registry
        .register(
            FnTool::builder("forecast", "The weather forecast for a city.")
                .options(dsh_tools::call::ToolOptions {
                    defer_loading: true,
                    ..dsh_tools::call::ToolOptions::default()
                })
                .handler(|_, _| async { Ok(json!("sunny")) }),
        )
        .expect("registers");
    let connected = connect(McpServer::new(&registry)).await;
    let listed = connected.client.list_all_tools().await.expect("listed");
    assert!(listed.iter().any(|tool| tool.name == "tool_search"));
    assert!(listed.iter().all(|tool| tool.name != "forecast"));
    let seen = connected.recorder.list_changed_seen.notified();
    let found = call(
        &connected.client,
        "tool_search",
        json!({"query": "weather forecast"}),
    )
    .await;
    assert_eq!(found.is_error, Some(false));
    assert!(texts(&found)[0].starts_with("Found 1 tool; added to your tool list: forecast."));
    tokio::time::timeout(DEADLINE, seen)
        .await
        .expect("notifications/tools/list_changed arrives");
    let listed = connected.client.list_all_tools().await.expect("listed");
    assert_eq!(
        listed.last().map(|tool| tool.name.as_ref()),
        Some("forecast")
    );
}

#[tokio::test]
async fn a_scope_is_served_with_exactly_what_it_sees_and_its_calls_run_as_its_agent() {
    let (registry, _) = mcp_fixture::registry();
    let scope = registry.create_child("agent-1").expect("scope");
    let _ = scope
        .register(Echo::named("scoped_echo"))
        .expect("registers");
    let _restriction = scope
        .restrict(ToolRestriction::deny(["media"]))
        .expect("restricts");
    let _hook = scope
        .guard(|call| (call.name() == "call_id").then(|| "not for this agent".to_owned()))
        .expect("guard");
    let connected = connect(McpServer::new(&scope)).await;
    let names: Vec<String> = connected
        .client
        .list_all_tools()
        .await
        .expect("listed")
        .iter()
        .map(|tool| tool.name.to_string())
        .collect();
    let expected: Vec<String> = scope
        .schemas()
        .iter()
        .map(|schema| schema.name.clone())
        .collect();
    assert_eq!(names, expected);
    assert!(names.contains(&"scoped_echo".to_owned()) && !names.contains(&"media".to_owned()));
    let echoed = call(&connected.client, "scoped_echo", json!({"text": "hi"})).await;
    assert_eq!(texts(&echoed), ["hi"]);
    let denied = call(&connected.client, "call_id", json!({})).await;
    assert_eq!(texts(&denied), ["Error: not for this agent"]);
}

#[tokio::test]
async fn a_disposed_scope_lists_nothing_and_refuses_every_call() {
    let (registry, _) = mcp_fixture::registry();
    let scope = registry.create_child("agent-1").expect("scope");
    let _ = scope
        .register(Echo::named("scoped_echo"))
        .expect("registers");
    let connected = connect(McpServer::new(&scope)).await;
    let listed = connected.client.list_all_tools().await.expect("listed");
    assert!(!listed.is_empty());
    let echoed = call(&connected.client, "scoped_echo", json!({"text": "hi"})).await;
    assert_eq!(texts(&echoed), ["hi"]);

    let recorder = connected.recorder.clone();
    let seen = recorder.list_changed_seen.notified();
    assert!(scope.dispose());
    tokio::time::timeout(DEADLINE, seen)
        .await
        .expect("the client is told the list changed");
    // Neither a new scope of the same agent nor unscoped agents seeing the global layer reopens
    // what the server serves: it serves the disposed scope's handle.
    let successor = registry.create_child("agent-1").expect("a new scope");
    let _ = successor
        .register(Echo::named("scoped_echo"))
        .expect("registers");
    registry.set_unscoped_agents_see_global(true);
    assert!(
        connected
            .client
            .list_all_tools()
            .await
            .expect("listed")
            .is_empty()
    );
    for name in ["scoped_echo", "call_id", "nope"] {
        let refused = call(&connected.client, name, json!({"text": "hi"})).await;
        assert_eq!(refused.is_error, Some(true), "{name}");
        assert_eq!(
            texts(&refused),
            [r#"Error: agent scope "agent-1" was disposed"#]
        );
        assert_eq!(
            error_meta(&refused),
            Some(&json!({"name": "ToolScopeError", "code": "SCOPE_DISPOSED"}))
        );
    }
}

// ------------------------------------------------------------------------------------------
// Raw JSON-RPC lines.

struct RawClient {
    lines: tokio::io::Lines<BufReader<tokio::io::ReadHalf<DuplexStream>>>,
    writer: tokio::io::WriteHalf<DuplexStream>,
}

impl RawClient {
    async fn send(&mut self, message: Value) {
        let mut line = serde_json::to_vec(&message).expect("serializes");
        line.push(b'\n');
        self.writer.write_all(&line).await.expect("written");
    }

    async fn receive(&mut self) -> Value {
        let line = tokio::time::timeout(DEADLINE, self.lines.next_line())
            .await
            .expect("the server answers in time")
            .expect("readable")
            .expect("the server keeps the connection open");
        serde_json::from_str(&line).expect("one JSON-RPC message per line")
    }
}

async fn raw_connect(server: McpServer) -> (McpConnection, RawClient) {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let serving = tokio::spawn(async move { server.serve(server_end).await });
    let (reader, writer) = tokio::io::split(client_end);
    let mut client = RawClient {
        lines: BufReader::new(reader).lines(),
        writer,
    };
    client
        .send(json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"}
            }
        }))
        .await;
    let answer = client.receive().await;
    assert_eq!(answer["id"], 0);
    assert_eq!(answer["result"]["serverInfo"]["name"], "dsh-tools");
    client
        .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    let connection = serving
        .await
        .expect("serve task")
        .expect("handshake completes");
    (connection, client)
}

fn tools_call(id: Value, name: &str, arguments: Value, progress_token: Option<&str>) -> Value {
    let mut params = json!({"name": name, "arguments": arguments});
    if let Some(token) = progress_token {
        params["_meta"] = json!({"progressToken": token});
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

#[tokio::test]
async fn the_call_id_is_the_json_rpc_request_id() {
    let (registry, _) = mcp_fixture::registry();
    let (_connection, mut client) = raw_connect(McpServer::new(&registry)).await;
    client
        .send(tools_call(json!("req-42"), "call_id", json!({}), None))
        .await;
    let answer = client.receive().await;
    assert_eq!(answer["id"], "req-42");
    assert_eq!(
        answer["result"]["content"],
        json!([{"type": "text", "text": "req-42"}])
    );
    client
        .send(tools_call(json!(7), "call_id", json!({}), None))
        .await;
    assert_eq!(client.receive().await["result"]["content"][0]["text"], "7");
}

#[tokio::test]
async fn the_error_meta_is_namespaced_on_the_wire() {
    let (registry, _) = mcp_fixture::registry();
    let (_connection, mut client) = raw_connect(McpServer::new(&registry)).await;
    client
        .send(tools_call(json!(1), "nope", json!({}), None))
        .await;
    let answer = client.receive().await;
    assert_eq!(answer["result"]["isError"], true);
    assert_eq!(
        answer["result"]["_meta"],
        json!({"dsh-tools/error": {"name": "ToolNotFoundError", "code": "UNKNOWN_TOOL"}})
    );
}

#[tokio::test]
async fn progress_notifications_go_out_in_order_before_the_reply() {
    let (registry, _) = mcp_fixture::registry();
    let (_connection, mut client) = raw_connect(McpServer::new(&registry)).await;
    client
        .send(tools_call(
            json!(1),
            "slow",
            json!({"steps": 3, "delay_ms": 1}),
            Some("tok"),
        ))
        .await;
    for step in 1..=3 {
        let notification = client.receive().await;
        assert_eq!(notification["method"], "notifications/progress");
        assert_eq!(
            notification["params"],
            json!({"progressToken": "tok", "progress": f64::from(step), "total": 3.0, "message": format!("step {step}")})
        );
    }
    let answer = client.receive().await;
    assert_eq!(answer["id"], 1);
    assert_eq!(answer["result"]["content"][0]["text"], "done after 3 steps");
}

#[tokio::test]
async fn without_a_progress_token_no_progress_is_sent() {
    let (registry, _) = mcp_fixture::registry();
    let (_connection, mut client) = raw_connect(McpServer::new(&registry)).await;
    client
        .send(tools_call(
            json!(1),
            "slow",
            json!({"steps": 3, "delay_ms": 1}),
            None,
        ))
        .await;
    let answer = client.receive().await;
    assert_eq!(answer["id"], 1, "the reply is the first message: {answer}");
}

#[tokio::test]
async fn cancellation_stops_the_body_and_no_reply_is_sent() {
    let (registry, cancellations) = mcp_fixture::registry();
    let (_connection, mut client) = raw_connect(McpServer::new(&registry)).await;
    client
        .send(tools_call(
            json!(5),
            "slow",
            json!({"steps": 100_000, "delay_ms": 5}),
            Some("p"),
        ))
        .await;
    let first = client.receive().await;
    assert_eq!(
        first["method"], "notifications/progress",
        "the body is running"
    );
    client
        .send(json!({
            "jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": 5, "reason": "the user changed their mind"}
        }))
        .await;
    tokio::time::timeout(DEADLINE, async {
        while cancellations.count() == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the body sees its signal cancelled");
    // The next answer on the wire belongs to the next request: request 5 gets none.
    client
        .send(tools_call(json!(6), "call_id", json!({}), None))
        .await;
    loop {
        let message = client.receive().await;
        if message["method"] == "notifications/progress" {
            continue; // reports sent before the cancellation landed
        }
        assert_eq!(
            message["id"], 6,
            "no reply to the cancelled request: {message}"
        );
        break;
    }
}

/// Tools whose outputs are not objects, beside one whose output is.
fn outputs_served() -> McpServer {
    /// The names of the files.
    #[dsh_tools::tool]
    async fn names() -> Vec<String> {
        vec!["a.rs".to_owned(), "b.rs".to_owned()]
    }

    /// How many files there are.
    #[dsh_tools::tool]
    async fn count() -> u32 {
        2
    }

    #[derive(dsh_tools::ToolArgs, serde::Serialize)]
    struct Stats {
        /// How many files.
        files: u32,
    }

    /// Statistics of the files.
    #[dsh_tools::tool]
    async fn stats() -> Stats {
        Stats { files: 2 }
    }

    let registry = ToolRegistry::new();
    let _ = registry
        .register_all((NamesTool, CountTool, StatsTool))
        .expect("registers");
    McpServer::new(&registry)
}

fn output_schema_of(tools: &[mcp::Tool], name: &str) -> Option<Value> {
    let tool = tools.iter().find(|tool| tool.name == name).expect("listed");
    tool.output_schema
        .as_ref()
        .map(|schema| Value::Object((**schema).clone()))
}

#[tokio::test]
async fn over_2026_07_28_an_output_of_any_json_type_is_structured_and_published() {
    let client = connect_per_request(outputs_served()).await;
    let peer_info = client.peer_info().expect("discovered");
    assert_eq!(
        peer_info.protocol_version,
        mcp::ProtocolVersion::V_2026_07_28
    );
    let tools = client.list_all_tools().await.expect("listed");
    assert_eq!(
        output_schema_of(&tools, "names"),
        Some(json!({"type": "array", "items": {"type": "string"}}))
    );
    assert_eq!(
        output_schema_of(&tools, "count"),
        Some(json!({"type": "integer", "minimum": 0, "maximum": 4_294_967_295_u64}))
    );
    assert_eq!(
        output_schema_of(&tools, "stats").expect("published")["type"],
        "object"
    );

    let names = call(&client, "names", json!({})).await;
    assert_eq!(names.structured_content, Some(json!(["a.rs", "b.rs"])));
    let count = call(&client, "count", json!({})).await;
    assert_eq!(count.structured_content, Some(json!(2)));
    assert_eq!(texts(&count), ["2"]);
    let stats = call(&client, "stats", json!({})).await;
    assert_eq!(stats.structured_content, Some(json!({"files": 2})));
}

#[tokio::test]
async fn before_2026_07_28_only_object_outputs_are_structured_and_the_content_is_unchanged() {
    let connected = connect(outputs_served()).await;
    let peer_info = connected.client.peer_info().expect("initialized");
    assert_eq!(
        peer_info.protocol_version,
        mcp::ProtocolVersion::V_2025_11_25
    );
    let tools = connected.client.list_all_tools().await.expect("listed");
    assert_eq!(output_schema_of(&tools, "names"), None);
    assert_eq!(output_schema_of(&tools, "count"), None);
    assert_eq!(
        output_schema_of(&tools, "stats").expect("published")["type"],
        "object"
    );

    let count = call(&connected.client, "count", json!({})).await;
    assert_eq!(count.structured_content, None);
    // Nothing but the rendered value: no second copy of it as JSON text.
    assert_eq!(texts(&count), ["2"]);
    let names = call(&connected.client, "names", json!({})).await;
    assert_eq!(names.structured_content, None);
    assert_eq!(names.content.len(), 1);
    let stats = call(&connected.client, "stats", json!({})).await;
    assert_eq!(stats.structured_content, Some(json!({"files": 2})));
}
