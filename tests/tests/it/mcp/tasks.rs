//! Long calls as tasks (MCP's tasks extension), in process: rmcp's own client drives our server
//! over a duplex pipe (a task polled to completion, cancelled, expired; what a client that does
//! not speak tasks gets), and our client imports a server whose tools run as tasks, so a task
//! looks like an ordinary call to the importing registry (and a task the server does not know is
//! reported in the server's words).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use dsh_tools::mcp::{
    ConnectOptions, ImportOptions, McpClient, McpConnection, McpServer, ServerOptions,
};
use dsh_tools::{
    FnTool, ToolError, ToolExecutionInput, ToolRegistry, Value,
    call::{TaskSupport, ToolExecution, ToolProgress},
    errors::ErrorCode,
    json,
    schema::Schema,
};
use rmcp::handler::client::ClientHandler;
use rmcp::model as mcp;
use rmcp::service::{
    NotificationContext, RequestContext, RoleClient, RoleServer, RunningService, ServiceError,
};
use rmcp::{ErrorData, ServerHandler, ServiceExt};

/// Only a broken bridge makes anything here wait this long.
const DEADLINE: Duration = Duration::from_secs(20);

/// The poll interval the served tasks suggest.
const POLL_MS: u64 = 20;

/// How many calls of `hold` ended: returned after their signal was cancelled, or were dropped
/// (as an expired task's call may be, when a poll notices the expiry first).
#[derive(Clone, Default)]
struct Stopped(Arc<AtomicUsize>);

impl Stopped {
    fn count(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

/// Waits until a `hold` call ended (an aborted task's future is dropped a moment after its task
/// settled), then checks it was exactly one.
async fn one_ended(stopped: &Stopped) {
    tokio::time::timeout(DEADLINE, async {
        while stopped.count() == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the call ends");
    assert_eq!(stopped.count(), 1);
}

/// Counts one ended `hold` call when dropped.
struct Ending(Stopped);

impl Drop for Ending {
    fn drop(&mut self) {
        (self.0).0.fetch_add(1, Ordering::SeqCst);
    }
}

/// `count` (task support optional): counts to `steps`, a step every `delay_ms`, reporting
/// progress; `hold` (required): runs until cancelled; `plain` (forbidden by default).
fn tasks_registry() -> (ToolRegistry, Stopped) {
    let registry = ToolRegistry::new();
    let stopped = Stopped::default();
    let count = FnTool::builder("count", "Count to a number, slowly.")
        .arguments(
            Schema::object()
                .required("steps", Schema::integer())
                .required("delay_ms", Schema::integer()),
        )
        .options(dsh_tools::call::ToolOptions {
            task_support: TaskSupport::Optional,
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(|arguments, run| async move {
            let steps = arguments["steps"].as_u64().unwrap_or_default();
            let delay = Duration::from_millis(arguments["delay_ms"].as_u64().unwrap_or_default());
            for step in 1..=steps {
                tokio::time::sleep(delay).await;
                #[allow(clippy::cast_precision_loss)]
                run.report_progress(ToolProgress {
                    total: Some(steps as f64),
                    message: Some(format!("step {step}")),
                    ..ToolProgress::from(step as f64)
                });
            }
            Ok(format!("counted to {steps}"))
        });
    let seen = stopped.clone();
    let hold = FnTool::builder("hold", "Hold until cancelled.")
        .options(dsh_tools::call::ToolOptions {
            task_support: TaskSupport::Required,
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(move |_arguments, run| {
            let seen = seen.clone();
            async move {
                let _ending = Ending(seen);
                run.signal().cancelled().await;
                // A success after cancellation: the pipeline makes it `ABORTED`.
                Ok("released")
            }
        });
    let plain = FnTool::builder("plain", "Answer at once.")
        .handler(|_arguments, _run| async move { Ok("plain answer") });
    let _ = registry.register(count).expect("registers");
    let _ = registry.register(hold).expect("registers");
    let _ = registry.register(plain).expect("registers");
    (registry, stopped)
}

/// One progress report: progress, total, message.
type Report = (f64, Option<f64>, Option<String>);

/// An rmcp client that declares the tasks extension (or not) and records progress.
#[derive(Clone, Default)]
struct TaskClient {
    speaks_tasks: bool,
    progress: Arc<Mutex<Vec<Report>>>,
}

impl ClientHandler for TaskClient {
    async fn on_progress(
        &self,
        params: mcp::ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((params.progress, params.total, params.message));
    }

    fn get_info(&self) -> mcp::ClientConfig {
        let capabilities = if self.speaks_tasks {
            mcp::ClientCapabilities::builder().enable_tasks().build()
        } else {
            mcp::ClientCapabilities::default()
        };
        mcp::ClientConfig::new(capabilities, mcp::Implementation::new("task-test", "1.0.0"))
    }
}

struct Connected {
    _connection: McpConnection,
    client: RunningService<RoleClient, TaskClient>,
    handler: TaskClient,
}

async fn connect(server: McpServer, speaks_tasks: bool) -> Connected {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let handler = TaskClient {
        speaks_tasks,
        ..TaskClient::default()
    };
    let (connection, client) =
        tokio::join!(server.serve(server_end), handler.clone().serve(client_end));
    Connected {
        _connection: connection.expect("the server completes the handshake"),
        client: client.expect("the client completes the handshake"),
        handler,
    }
}

fn server(registry: &ToolRegistry, ttl: Duration) -> McpServer {
    McpServer::new(registry).with_options(task_options(ttl))
}

fn task_options(ttl: Duration) -> ServerOptions {
    ServerOptions {
        task_ttl: Some(ttl),
        task_poll_interval: Duration::from_millis(POLL_MS),
        ..ServerOptions::default()
    }
}

fn params(name: &'static str, arguments: Value) -> mcp::CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    mcp::CallToolRequestParams::new(name).with_arguments(arguments)
}

async fn call_once(
    client: &RunningService<RoleClient, TaskClient>,
    params: mcp::CallToolRequestParams,
) -> Result<mcp::CallToolResponse, ServiceError> {
    tokio::time::timeout(DEADLINE, client.peer().call_tool_once(params))
        .await
        .expect("the call is answered")
}

fn created(response: mcp::CallToolResponse) -> mcp::CreateTaskResult {
    match response {
        mcp::CallToolResponse::Task(task) => task,
        other => panic!("a task, not {other:?}"),
    }
}

async fn get(client: &RunningService<RoleClient, TaskClient>, id: &str) -> mcp::DetailedTask {
    client
        .peer()
        .get_task(mcp::GetTaskParams::new(id))
        .await
        .expect("tasks/get answers")
        .task
}

/// Polls `id` at the suggested interval until it settles.
async fn settled(client: &RunningService<RoleClient, TaskClient>, id: &str) -> mcp::DetailedTask {
    tokio::time::timeout(DEADLINE, async {
        loop {
            let task = get(client, id).await;
            if task.status().is_terminal() {
                return task;
            }
            tokio::time::sleep(Duration::from_millis(POLL_MS)).await;
        }
    })
    .await
    .expect("the task settles")
}

fn texts(result: &mcp::CallToolResult) -> Vec<String> {
    result
        .content
        .iter()
        .map(|block| block.as_text().expect("a text block").text.clone())
        .collect()
}

fn json_rpc_code(error: ServiceError) -> i32 {
    match error {
        ServiceError::McpError(error) => error.code.0,
        other => panic!("a JSON-RPC error, not {other}"),
    }
}

#[tokio::test]
async fn the_listing_publishes_task_support_and_the_server_advertises_the_extension() {
    let (registry, _) = tasks_registry();
    let connected = connect(server(&registry, DEADLINE), true).await;
    let info = connected.client.peer().peer_info().expect("server info");
    assert!(info.capabilities.supports_tasks());
    let tools = connected.client.list_all_tools().await.expect("listed");
    let support: Vec<(String, Option<Value>)> = tools
        .iter()
        .map(|tool| {
            let entry = tool
                .meta
                .as_ref()
                .and_then(|meta| meta.get(mcp::TASKS_EXTENSION_ID))
                .cloned();
            (tool.name.to_string(), entry)
        })
        .collect();
    assert_eq!(
        support,
        [
            ("count".to_owned(), Some(json!({"taskSupport": "optional"}))),
            ("hold".to_owned(), Some(json!({"taskSupport": "required"}))),
            ("plain".to_owned(), None),
        ]
    );
}

#[tokio::test]
async fn a_task_is_polled_to_completion_and_its_result_is_the_pipelines() {
    let (registry, _) = tasks_registry();
    let connected = connect(server(&registry, DEADLINE), true).await;
    let mut request = params("count", json!({"steps": 3, "delay_ms": 30}));
    request.meta = Some(mcp::RequestMetaObject::with_progress_token(
        mcp::ProgressToken(mcp::NumberOrString::Number(7)),
    ));
    let task = created(
        call_once(&connected.client, request)
            .await
            .expect("answered"),
    );
    assert!(task.result_type.is_task());
    assert_eq!(task.task.status, mcp::TaskStatus::Working);
    assert_eq!(task.task.ttl_ms, Some(20_000));
    assert_eq!(task.task.poll_interval_ms, Some(POLL_MS));

    let done = settled(&connected.client, &task.task.task_id).await;
    let mcp::TaskPayload::Completed { result } = done.payload else {
        panic!("completed, not {:?}", done.payload)
    };
    let result: mcp::CallToolResult =
        serde_json::from_value(Value::Object(result)).expect("a tools/call result");
    assert_eq!(result.is_error, Some(false));
    assert_eq!(texts(&result), ["counted to 3"]);
    assert_eq!(
        connected
            .handler
            .progress
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone(),
        [
            (1.0, Some(3.0), Some("step 1".to_owned())),
            (2.0, Some(3.0), Some("step 2".to_owned())),
            (3.0, Some(3.0), Some("step 3".to_owned())),
        ],
        "progress flows as for a plain call, in order"
    );
}

#[tokio::test]
async fn an_error_outcome_completes_the_task_with_the_pipelines_error_result() {
    let (registry, _) = tasks_registry();
    let connected = connect(server(&registry, DEADLINE), true).await;
    let task = created(
        call_once(
            &connected.client,
            params("count", json!({"steps": "three"})),
        )
        .await
        .expect("answered"),
    );
    let done = settled(&connected.client, &task.task.task_id).await;
    let mcp::TaskPayload::Completed { result } = done.payload else {
        panic!("completed, not {:?}", done.payload)
    };
    let result: mcp::CallToolResult =
        serde_json::from_value(Value::Object(result)).expect("a tools/call result");
    assert_eq!(result.is_error, Some(true));
    let plain = registry
        .execute(ToolExecutionInput::new(
            "c",
            "count",
            json!({"steps": "three"}),
        ))
        .await;
    assert_eq!(texts(&result), [plain.text()]);
    assert_eq!(
        result
            .meta
            .as_ref()
            .and_then(|meta| meta.get(dsh_tools::mcp::ERROR_META_KEY))
            .and_then(|info| info.get("code")),
        Some(&json!(ErrorCode::InvalidArgs.as_str()))
    );
}

#[tokio::test]
async fn tasks_cancel_aborts_the_running_call_and_the_task_settles_cancelled() {
    let (registry, stopped) = tasks_registry();
    let connected = connect(server(&registry, DEADLINE), true).await;
    let task = created(
        call_once(&connected.client, params("hold", json!({})))
            .await
            .expect("answered"),
    );
    let id = task.task.task_id;
    assert_eq!(
        get(&connected.client, &id).await.status(),
        mcp::TaskStatus::Working
    );
    connected
        .client
        .peer()
        .cancel_task(mcp::CancelTaskParams::new(id.clone()))
        .await
        .expect("tasks/cancel is acknowledged");
    let done = settled(&connected.client, &id).await;
    assert_eq!(done.payload, mcp::TaskPayload::Cancelled);
    let aborted = dsh_tools::ToolExecutionResult::failure(ToolError::aborted());
    assert_eq!(
        done.task.status_message.as_deref(),
        Some(aborted.text().as_str()),
        "the pipeline's ABORTED text"
    );
    assert_eq!(stopped.count(), 1, "the body saw its signal cancelled");
}

#[tokio::test]
async fn a_task_past_its_ttl_is_cancelled_fails_as_expired_and_is_forgotten_after_another() {
    let (registry, stopped) = tasks_registry();
    let ttl = Duration::from_millis(300);
    let connected = connect(server(&registry, ttl), true).await;
    let task = created(
        call_once(&connected.client, params("hold", json!({})))
            .await
            .expect("answered"),
    );
    assert_eq!(task.task.ttl_ms, Some(300));
    let id = task.task.task_id;
    let done = settled(&connected.client, &id).await;
    let mcp::TaskPayload::Failed { error } = done.payload else {
        panic!("failed, not {:?}", done.payload)
    };
    assert_eq!(
        error.get("message"),
        Some(&json!("task expired: TTL elapsed before completion"))
    );
    one_ended(&stopped).await;
    tokio::time::sleep(ttl + Duration::from_millis(100)).await;
    let forgotten = connected
        .client
        .peer()
        .get_task(mcp::GetTaskParams::new(id))
        .await
        .expect_err("an expired task is gone after another TTL");
    assert_eq!(json_rpc_code(forgotten), -32602);
}

#[tokio::test]
async fn a_client_that_does_not_speak_tasks_gets_plain_results_or_the_specs_error() {
    let (registry, _) = tasks_registry();
    let connected = connect(server(&registry, DEADLINE), false).await;
    let optional = call_once(
        &connected.client,
        params("count", json!({"steps": 1, "delay_ms": 1})),
    )
    .await
    .expect("answered");
    let mcp::CallToolResponse::Complete(result) = optional else {
        panic!("a plain result, not {optional:?}")
    };
    assert_eq!(texts(&result), ["counted to 1"]);
    let required = call_once(&connected.client, params("hold", json!({})))
        .await
        .expect_err("a required task is refused");
    assert_eq!(json_rpc_code(required), -32021);
    let polled = connected
        .client
        .peer()
        .get_task(mcp::GetTaskParams::new("any"))
        .await
        .expect_err("tasks/get needs the extension");
    assert_eq!(json_rpc_code(polled), -32021);
}

#[tokio::test]
async fn a_forbidden_tool_answers_a_task_speaking_client_at_once_and_unknown_ids_are_refused() {
    let (registry, _) = tasks_registry();
    let connected = connect(server(&registry, DEADLINE), true).await;
    let plain = call_once(&connected.client, params("plain", json!({})))
        .await
        .expect("answered");
    let mcp::CallToolResponse::Complete(result) = plain else {
        panic!("a plain result, not {plain:?}")
    };
    assert_eq!(texts(&result), ["plain answer"]);
    let unknown = connected
        .client
        .peer()
        .get_task(mcp::GetTaskParams::new("no-such-task"))
        .await
        .expect_err("unknown");
    assert_eq!(json_rpc_code(unknown), -32602);
}

struct Imported {
    upstream_stopped: Stopped,
    local: ToolRegistry,
    _client: McpClient,
    _connection: McpConnection,
}

async fn imported(ttl: Duration) -> Imported {
    let (upstream, upstream_stopped) = tasks_registry();
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let served = McpServer::new(&upstream).with_options(ServerOptions {
        name: "tasks".into(),
        ..task_options(ttl)
    });
    let (connection, client) = tokio::join!(
        served.serve(server_end),
        McpClient::connect(client_end, ConnectOptions::default())
    );
    let client = client.expect("the client completes the handshake");
    let local = ToolRegistry::new();
    client
        .import_into(&local, ImportOptions::default())
        .await
        .expect("imports every tool");
    Imported {
        upstream_stopped,
        local,
        _client: client,
        _connection: connection.expect("the server completes the handshake"),
    }
}

async fn run(registry: &ToolRegistry, input: ToolExecutionInput) -> dsh_tools::ToolExecutionResult {
    tokio::time::timeout(DEADLINE, registry.execute(input))
        .await
        .expect("the call ends")
}

#[tokio::test]
async fn an_imported_task_is_an_ordinary_call_with_its_progress_and_result() {
    let setup = imported(DEADLINE).await;
    assert_eq!(
        setup
            .local
            .get("tasks__count")
            .expect("imported")
            .options()
            .task_support,
        TaskSupport::Optional,
        "the server's declared support is read back"
    );
    let reports = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&reports);
    let input = ToolExecutionInput::new("c1", "tasks__count", json!({"steps": 2, "delay_ms": 30}))
        .with_progress(move |_: &ToolExecution, report: ToolProgress| {
            sink.lock().unwrap_or_else(PoisonError::into_inner).push((
                report.progress,
                report.total,
                report.message,
            ));
        });
    let result = run(&setup.local, input).await;
    assert!(!result.is_error(), "{}", result.text());
    assert_eq!(result.value(), Some(&json!("counted to 2")));
    assert_eq!(result.text(), "counted to 2");
    assert_eq!(
        reports
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone(),
        [
            (1.0, Some(2.0), Some("step 1".to_owned())),
            (2.0, Some(2.0), Some("step 2".to_owned())),
        ]
    );
}

#[tokio::test]
async fn cancelling_an_imported_task_sends_tasks_cancel_and_the_call_is_aborted() {
    let setup = imported(DEADLINE).await;
    let signal = dsh_tools::call::CancellationToken::new();
    let input = ToolExecutionInput::new("c2", "tasks__hold", json!({})).with_signal(signal.clone());
    let cancel = async {
        tokio::time::sleep(Duration::from_millis(150)).await;
        signal.cancel();
    };
    let (result, ()) = tokio::join!(run(&setup.local, input), cancel);
    assert_eq!(result.error_code(), Some(ErrorCode::Aborted.as_str()));
    // tasks/cancel reaches the server's running call.
    one_ended(&setup.upstream_stopped).await;
}

#[tokio::test]
async fn an_imported_task_that_expires_is_mcp_transport() {
    let setup = imported(Duration::from_millis(200)).await;
    let result = run(
        &setup.local,
        ToolExecutionInput::new("c3", "tasks__hold", json!({})),
    )
    .await;
    assert_eq!(result.error_code(), Some(ErrorCode::McpTransport.as_str()));
    let text = result.text();
    let id = text
        .strip_prefix(
            "Error: MCP server \"tasks\" failed the task: task expired: TTL elapsed before \
             completion (task \"",
        )
        .and_then(|rest| rest.strip_suffix("\" of tools/call \"hold\")"))
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(id.len(), 36, "the task's UUID: {id}");
    one_ended(&setup.upstream_stopped).await;
}

/// Our server, except that `tasks/get` answers every task as rmcp's store answers one it does
/// not know.
struct Forgetful(dsh_tools::mcp::McpHandler);

impl ServerHandler for Forgetful {
    fn get_info(&self) -> mcp::ServerConfig {
        self.0.get_info()
    }

    async fn list_tools(
        &self,
        request: Option<mcp::PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<mcp::ListToolsResult, ErrorData> {
        self.0.list_tools(request, context).await
    }

    async fn call_tool(
        &self,
        request: mcp::CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<mcp::CallToolResponse, ErrorData> {
        self.0.call_tool(request, context).await
    }

    async fn get_task(
        &self,
        request: mcp::GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<mcp::GetTaskResult, ErrorData> {
        Err(ErrorData::invalid_params(
            format!("unknown task: {}", request.task_id),
            None,
        ))
    }

    async fn cancel_task(
        &self,
        request: mcp::CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.0.cancel_task(request, context).await
    }
}

#[tokio::test]
async fn a_task_the_server_does_not_know_is_mcp_transport_in_the_servers_words() {
    let (upstream, _stopped) = tasks_registry();
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let handler = Forgetful(
        McpServer::new(&upstream)
            .with_options(ServerOptions {
                name: "tasks".into(),
                ..task_options(DEADLINE)
            })
            .handler(),
    );
    let (served, client) = tokio::join!(
        handler.serve(server_end),
        McpClient::connect(client_end, ConnectOptions::default())
    );
    let _served = served.expect("the server completes the handshake");
    let client = client.expect("the client completes the handshake");
    let local = ToolRegistry::new();
    client
        .import_into(&local, ImportOptions::default())
        .await
        .expect("imports every tool");
    let result = run(
        &local,
        ToolExecutionInput::new("c4", "tasks__hold", json!({})),
    )
    .await;
    assert_eq!(result.error_code(), Some(ErrorCode::McpTransport.as_str()));
    let text = result.text();
    let rest = text
        .strip_prefix("Error: MCP server \"tasks\" answered tasks/get with JSON-RPC error -32602: unknown task: ")
        .unwrap_or_else(|| panic!("what the server answered, and no guess: {text}"));
    let (id, call) = rest
        .split_once(" (task \"")
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(call, format!("{id}\" of tools/call \"hold\")"), "{text}");
}
