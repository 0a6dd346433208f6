//! Approval and input over multi-round-trip requests (`InputRequiredResult`, protocol
//! 2026-07-28), in process, both ways:
//!
//! - Serving: rmcp's own client on the per-request protocol (`server/discover`) drives a served
//!   registry whose `pre-execute` hook asks. Its high-level `call_tool` answers the
//!   `InputRequiredResult` through its `ClientHandler` and retries; `call_tool_once` lets a test
//!   send retries of its own, with answers and states that belong to other calls or to none.
//! - Importing: our own client on the per-request protocol imports that server, and a hand-written
//!   rmcp server that asks in every way the protocol allows (rounds without end, sampling, a
//!   state alone, a task that asks mid-task), so the client's elicitation handler answers.
//!
//! The same over a session (2025-11-25, `elicitation/create`) is `elicitation.rs`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use dsh_tools::call::TaskSupport;
use dsh_tools::errors::ErrorCode;
use dsh_tools::hooks::{ApprovalOutcome, approver_fn};
use dsh_tools::mcp::{
    ConnectOptions, ElicitationAnswer, ElicitationRequest, ImportOptions, McpClient, McpConnection,
    McpServer, ServerOptions,
};
use dsh_tools::{
    FnTool, PreToolDecision, ToolExecutionInput, ToolExecutionResult, ToolRegistry, Value, json,
};
use dsh_tools_tests::mcp_fixture::decision;
use dsh_tools_tests::{Capture, Log, registry_with};
use rmcp::ServiceExt;
use rmcp::handler::client::ClientHandler;
use rmcp::handler::server::ServerHandler;
use rmcp::model as mcp;
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, RequestContext, RoleClient, RoleServer, RunningService,
};
use rmcp::task_manager::{TaskManager, TaskOptions};
use tokio_util::sync::CancellationToken;

/// Long enough for anything these tests wait for; only a broken bridge ever reaches it.
const DEADLINE: Duration = Duration::from_secs(20);

/// The per-request protocol, and nothing else.
fn per_request() -> ClientLifecycleMode {
    ClientLifecycleMode::Discover {
        preferred_versions: vec![mcp::ProtocolVersion::V_2026_07_28],
    }
}

const MESSAGE: &str = "Allow tool \"write\" to run?\nReason: it writes to the workspace\nArguments: {\"path\":\"notes.md\"}";
const REJECTED: &str = "Error: the user rejected tool \"write\"";
const CANCELLED: &str = "Error: approval for tool \"write\" was cancelled";

/// A tool `name` that takes any arguments, logs `<name>` and answers `ok`.
fn logging(name: &str, log: &Log) -> FnTool {
    logging_as(name, log, TaskSupport::Forbidden)
}

/// [`logging`], run only as a task.
fn logging_task(name: &str, log: &Log) -> FnTool {
    logging_as(name, log, TaskSupport::Required)
}

fn logging_as(name: &str, log: &Log, support: TaskSupport) -> FnTool {
    let log = log.clone();
    let entry = name.to_owned();
    FnTool::builder(name, "Writes a file.")
        .raw_parameters(json!({"type": "object"}))
        .options(dsh_tools::call::ToolOptions {
            task_support: support,
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(move |_, _| {
            log.push(entry.clone());
            async { Ok(json!("ok")) }
        })
}

/// A registry of `write` and `erase` whose every call asks for approval, with a registry
/// approver that logs and answers `fallback`, and a result observer logging each result's code
/// (`ok` for a success) into `codes`.
fn asking(log: &Log, codes: &Log, fallback: ApprovalOutcome) -> ToolRegistry {
    let registry = registry_with([logging("write", log), logging("erase", log)]);
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
    let codes = codes.clone();
    let _ = registry.on_result(move |_, result: &ToolExecutionResult| {
        codes.push(result.error_code().unwrap_or("ok"));
    });
    registry
}

/// An rmcp client that records the elicitation requests it gets (their whole params) and answers
/// with `answer`; `None` declares no elicitation capability.
#[derive(Clone)]
struct Asked {
    answer: Option<mcp::ElicitResult>,
    requests: Arc<Mutex<Vec<Value>>>,
    /// Declares the tasks extension too.
    tasks: bool,
}

impl Asked {
    fn new(answer: Option<mcp::ElicitResult>) -> Self {
        Self {
            answer,
            requests: Arc::default(),
            tasks: false,
        }
    }

    /// The same client, declaring the tasks extension.
    fn with_tasks(mut self) -> Self {
        self.tasks = true;
        self
    }

    /// A client that declares form elicitation, for tests that send each attempt themselves
    /// (`call_tool_once` hands its handler no question, so its answer is never used).
    fn declaring() -> Self {
        Self::new(Some(mcp::ElicitResult::new(
            mcp::ElicitationAction::Decline,
        )))
    }

    fn messages(&self) -> Vec<String> {
        self.requests
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .map(|params| params["message"].as_str().unwrap_or_default().to_owned())
            .collect()
    }
}

impl ClientHandler for Asked {
    async fn create_elicitation(
        &self,
        request: mcp::ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<mcp::ElicitResult, rmcp::ErrorData> {
        self.requests
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(serde_json::to_value(&request).expect("serializes"));
        self.answer
            .clone()
            .ok_or_else(|| rmcp::ErrorData::invalid_request("no elicitation here", None))
    }

    fn get_info(&self) -> mcp::ClientConfig {
        let mut capabilities = if self.tasks {
            mcp::ClientCapabilities::builder().enable_tasks().build()
        } else {
            mcp::ClientCapabilities::default()
        };
        if self.answer.is_some() {
            capabilities.elicitation = Some(
                mcp::ElicitationCapability::new().with_form(mcp::FormElicitationCapability::new()),
            );
        }
        mcp::ClientConfig::new(capabilities, mcp::Implementation::new("asked", "0"))
    }
}

/// A client of a served registry.
struct Connected {
    client: RunningService<RoleClient, Asked>,
}

impl std::ops::Deref for Connected {
    type Target = RunningService<RoleClient, Asked>;

    fn deref(&self) -> &Self::Target {
        &self.client
    }
}

/// Serves on a task of its own whatever `serve` serves on one end of a duplex stream, until the
/// test ends, and returns the other end. On the per-request protocol a server has started only
/// once the first request after `server/discover` arrived, so it cannot be awaited beside the
/// client.
fn serving<S, F>(serve: impl FnOnce(tokio::io::DuplexStream) -> F) -> tokio::io::DuplexStream
where
    F: std::future::Future<Output = S> + Send + 'static,
    S: Send + 'static,
{
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let server = serve(server_end);
    tokio::spawn(async move {
        // Kept until the test's runtime ends: dropping the connection stops the server.
        let _connection = server.await;
        std::future::pending::<()>().await;
    });
    client_end
}

/// `server` served in process to an [`Asked`] client on the per-request protocol.
async fn connect(server: &McpServer, asked: &Asked) -> Connected {
    let server = server.clone();
    let client_end = serving(|stream| async move {
        let connection: McpConnection = server.serve(stream).await.expect("the server starts");
        connection
    });
    let client = asked
        .clone()
        .serve_with_lifecycle(client_end, per_request())
        .await
        .expect("the client discovers the server");
    assert_eq!(
        client.peer_info().map(|info| info.protocol_version.clone()),
        Some(mcp::ProtocolVersion::V_2026_07_28)
    );
    Connected { client }
}

fn object(value: Value) -> mcp::JsonObject {
    value.as_object().cloned().unwrap_or_default()
}

fn params(tool: &'static str, arguments: Value) -> mcp::CallToolRequestParams {
    mcp::CallToolRequestParams::new(tool).with_arguments(object(arguments))
}

fn notes() -> Value {
    json!({"path": "notes.md"})
}

/// The text of a complete tools/call result.
fn text(result: &mcp::CallToolResult) -> String {
    serde_json::to_value(result).expect("serializes")["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Sends one attempt of a call and returns the server's response.
async fn once(client: &Connected, params: mcp::CallToolRequestParams) -> mcp::CallToolResponse {
    tokio::time::timeout(DEADLINE, client.call_tool_once(params))
        .await
        .expect("the attempt is answered")
        .expect("a tools/call response")
}

/// The `InputRequiredResult` of a response (panics on anything else).
fn input_required(response: mcp::CallToolResponse) -> mcp::InputRequiredResult {
    match response {
        mcp::CallToolResponse::InputRequired(input) => input,
        other => panic!("expected an InputRequiredResult, got {other:?}"),
    }
}

fn complete(response: mcp::CallToolResponse) -> mcp::CallToolResult {
    match response {
        mcp::CallToolResponse::Complete(result) => result,
        other => panic!("expected a result, got {other:?}"),
    }
}

fn answer(action: mcp::ElicitationAction, decision: Option<&str>) -> Value {
    let mut answer = mcp::ElicitResult::new(action);
    if let Some(decision) = decision {
        answer = answer.with_content(json!({"decision": decision}));
    }
    serde_json::to_value(answer).expect("serializes")
}

fn approve() -> Value {
    answer(mcp::ElicitationAction::Accept, Some("approve"))
}

/// `params` retried with `responses` under their keys and `state`.
fn retry(
    params: mcp::CallToolRequestParams,
    responses: &[(&str, Value)],
    state: Option<&str>,
) -> mcp::CallToolRequestParams {
    let mut params = params;
    if !responses.is_empty() {
        params = params.with_input_responses(
            responses
                .iter()
                .map(|(key, value)| ((*key).to_owned(), value.clone()))
                .collect(),
        );
    }
    if let Some(state) = state {
        params = params.with_request_state(state);
    }
    params
}

fn state_of(input: &mcp::InputRequiredResult) -> String {
    input.request_state.clone().expect("a requestState")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_attempt_asks_with_the_question_and_a_state_and_runs_nothing() {
    let (log, codes) = (Log::new(), Log::new());
    let registry = asking(&log, &codes, ApprovalOutcome::Rejected);
    let client = connect(&McpServer::new(&registry), &Asked::declaring()).await;

    let input = input_required(once(&client, params("write", notes())).await);
    let state = state_of(&input);
    assert!(
        state.starts_with("v2.")
            && state
                .rsplit_once('.')
                .is_some_and(|(_, digest)| digest.len() == 64),
        "a versioned, expiring HMAC-SHA256: {state}"
    );
    let mut wire = serde_json::to_value(&input).expect("serializes");
    wire.as_object_mut()
        .expect("an object")
        .remove("requestState");
    assert_eq!(
        wire,
        json!({
            "resultType": "input_required",
            "inputRequests": {
                "approval": {
                    "method": "elicitation/create",
                    "params": {
                        "mode": "form",
                        "message": MESSAGE,
                        "requestedSchema": {
                            "type": "object",
                            "properties": {
                                "decision": {"type": "string", "title": "Decision", "enum": ["approve", "deny"]}
                            },
                            "required": ["decision"]
                        }
                    }
                }
            }
        })
    );
    // Waiting is not a denial: the attempt ended before dispatch with its own code.
    assert_eq!(log.entries(), Vec::<String>::new());
    assert_eq!(codes.entries(), [ErrorCode::ApprovalPending.as_str()]);

    let result = complete(
        once(
            &client,
            retry(
                params("write", notes()),
                &[("approval", approve())],
                Some(&state),
            ),
        )
        .await,
    );
    assert_eq!(text(&result), "ok");
    assert_eq!(log.entries(), ["write"]);
    assert_eq!(codes.entries(), [ErrorCode::ApprovalPending.as_str(), "ok"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rmcps_client_answers_through_its_handler_instead_of_the_registry_approver() {
    let (log, codes) = (Log::new(), Log::new());
    let registry = asking(&log, &codes, ApprovalOutcome::Rejected);
    let asked = Asked::new(Some(
        mcp::ElicitResult::new(mcp::ElicitationAction::Accept)
            .with_content(json!({"decision": "approve"})),
    ));
    let client = connect(&McpServer::new(&registry), &asked).await;
    let result = tokio::time::timeout(DEADLINE, client.call_tool(params("write", notes())))
        .await
        .expect("the call is answered")
        .expect("a tools/call result");
    assert_eq!(text(&result), "ok");
    assert_eq!(asked.messages(), [MESSAGE]);
    assert_eq!(log.entries(), ["write"]);
    assert_eq!(codes.entries(), [ErrorCode::ApprovalPending.as_str(), "ok"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_answers_map_onto_the_documented_denials_and_the_body_never_runs() {
    for (answer, expected) in [
        (
            mcp::ElicitResult::new(mcp::ElicitationAction::Accept)
                .with_content(json!({"decision": "deny"})),
            REJECTED,
        ),
        (
            mcp::ElicitResult::new(mcp::ElicitationAction::Accept)
                .with_content(json!({"decision": "yes"})),
            REJECTED,
        ),
        (
            mcp::ElicitResult::new(mcp::ElicitationAction::Decline),
            REJECTED,
        ),
        (
            mcp::ElicitResult::new(mcp::ElicitationAction::Cancel),
            CANCELLED,
        ),
    ] {
        let (log, codes) = (Log::new(), Log::new());
        let registry = asking(&log, &codes, ApprovalOutcome::AllowedOnce);
        let asked = Asked::new(Some(answer));
        let client = connect(&McpServer::new(&registry), &asked).await;
        let result = tokio::time::timeout(DEADLINE, client.call_tool(params("write", notes())))
            .await
            .expect("the call is answered")
            .expect("a tools/call result");
        assert_eq!(text(&result), expected);
        assert_eq!(result.is_error, Some(true));
        assert_eq!(asked.messages(), [MESSAGE]);
        assert_eq!(log.entries(), Vec::<String>::new());
        assert_eq!(
            codes.entries(),
            [
                ErrorCode::ApprovalPending.as_str(),
                ErrorCode::Denied.as_str()
            ]
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_counts_only_with_the_state_of_its_own_call() {
    let (log, codes) = (Log::new(), Log::new());
    let registry = asking(&log, &codes, ApprovalOutcome::AllowedOnce);
    let server = McpServer::new(&registry);
    let client = connect(&server, &Asked::declaring()).await;
    let approved = [("approval", approve())];
    let args = || json!({"path": "notes.md", "mode": "append"});

    let first = input_required(once(&client, params("write", args())).await);
    let state = state_of(&first);

    // The state of `write notes.md` on a call with other arguments: asked again, about this call.
    let other_path = json!({"path": "other.md"});
    let again = input_required(
        once(
            &client,
            retry(params("write", other_path.clone()), &approved, Some(&state)),
        )
        .await,
    );
    assert_ne!(state_of(&again), state);
    let asked_about = serde_json::to_value(&again).expect("serializes")["inputRequests"]
        ["approval"]["params"]["message"]
        .clone();
    assert_eq!(
        asked_about,
        "Allow tool \"write\" to run?\nReason: it writes to the workspace\nArguments: {\"path\":\"other.md\"}"
    );
    // ... on a call of another tool with the same arguments.
    input_required(
        once(
            &client,
            retry(params("erase", args()), &approved, Some(&state)),
        )
        .await,
    );
    // A forged state, and an answer without a state.
    let forged = format!("v2.99999999999.{}", "0".repeat(64));
    input_required(
        once(
            &client,
            retry(params("write", args()), &approved, Some(&forged)),
        )
        .await,
    );
    input_required(once(&client, retry(params("write", args()), &approved, None)).await);
    // The state of another server (another secret) over the same registry.
    let elsewhere = connect(&McpServer::new(&registry), &Asked::declaring()).await;
    input_required(
        once(
            &elsewhere,
            retry(params("write", args()), &approved, Some(&state)),
        )
        .await,
    );
    // The call's own state, but the answer under another key: nothing answered yet.
    input_required(
        once(
            &client,
            retry(
                params("write", args()),
                &[("other", approve())],
                Some(&state),
            ),
        )
        .await,
    );
    assert_eq!(
        log.entries(),
        Vec::<String>::new(),
        "nothing ran unapproved"
    );

    // The call's own state with an answer that is not an elicitation result: rejected.
    let malformed = [("approval", json!({"decision": "approve"}))];
    let rejected = complete(
        once(
            &client,
            retry(params("write", args()), &malformed, Some(&state)),
        )
        .await,
    );
    assert_eq!(text(&rejected), REJECTED);

    // The same arguments in another key order are the same call.
    let reordered = json!({"mode": "append", "path": "notes.md"});
    let ran = complete(
        once(
            &client,
            retry(params("write", reordered), &approved, Some(&state)),
        )
        .await,
    );
    assert_eq!(text(&ran), "ok");
    assert_eq!(log.entries(), ["write"]);
    assert_eq!(codes.count(ErrorCode::ApprovalPending.as_str()), 7);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_sharing_a_secret_accept_each_others_states() {
    let (log, codes) = (Log::new(), Log::new());
    let registry = asking(&log, &codes, ApprovalOutcome::Rejected);
    let secret = [42u8; 32];
    let first = connect(
        &McpServer::new(&registry).with_options(ServerOptions {
            request_state_key: Some(secret),
            ..ServerOptions::default()
        }),
        &Asked::declaring(),
    )
    .await;
    let second = connect(
        &McpServer::new(&registry).with_options(ServerOptions {
            request_state_key: Some(secret),
            ..ServerOptions::default()
        }),
        &Asked::declaring(),
    )
    .await;
    let state = state_of(&input_required(
        once(&first, params("write", notes())).await,
    ));
    let result = complete(
        once(
            &second,
            retry(
                params("write", notes()),
                &[("approval", approve())],
                Some(&state),
            ),
        )
        .await,
    );
    assert_eq!(text(&result), "ok");
    assert_eq!(log.entries(), ["write"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_on_round_trips_without_elicitation_leaves_the_ask_to_the_registry_approver() {
    let (log, codes) = (Log::new(), Log::new());
    let registry = asking(&log, &codes, ApprovalOutcome::AllowedOnce);
    let asked = Asked::new(None);
    let client = connect(&McpServer::new(&registry), &asked).await;
    let result = complete(once(&client, params("write", notes())).await);
    assert_eq!(text(&result), "ok");
    assert!(asked.messages().is_empty());
    assert_eq!(log.entries(), ["registry approver", "write"]);
    assert_eq!(codes.entries(), ["ok"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nested_calls_ask_is_not_sent_as_a_round_trip() {
    let (log, codes) = (Log::new(), Log::new());
    let registry = asking(&log, &codes, ApprovalOutcome::AllowedOnce);
    let _outer = registry
        .register(
            FnTool::builder("outer", "Calls write.")
                .raw_parameters(json!({"type": "object"}))
                .handler(|_, run| {
                    let nested = run.call_tool(ToolExecutionInput::new(
                        "nested",
                        "write",
                        json!({"path": "nested.md"}),
                    ));
                    async move { Ok(Value::String(nested.await.text())) }
                }),
        )
        .expect("registers");
    let asked = Asked::new(Some(
        mcp::ElicitResult::new(mcp::ElicitationAction::Accept)
            .with_content(json!({"decision": "approve"})),
    ));
    let client = connect(&McpServer::new(&registry), &asked).await;
    let result = tokio::time::timeout(DEADLINE, client.call_tool(params("outer", json!({}))))
        .await
        .expect("the call is answered")
        .expect("a tools/call result");
    // The served call was asked about and ran; its nested call could not wait for a later
    // attempt without running the outer body again, so it was denied as unavailable.
    assert_eq!(
        text(&result),
        "Error: tool \"write\" requires approval, but no approval channel is available"
    );
    assert_eq!(asked.messages().len(), 1);
    assert!(asked.messages()[0].starts_with("Allow tool \"outer\" to run?"));
    assert_eq!(log.entries(), Vec::<String>::new());
}

// ---- importing -------------------------------------------------------------------------------

/// An importing registry and its client.
struct Imported {
    registry: ToolRegistry,
    client: McpClient,
}

/// Our client on the per-request protocol importing what `serve` serves on a duplex stream,
/// with prefix `p`.
async fn import_from<S, F>(serve: impl FnOnce(tokio::io::DuplexStream) -> F) -> Imported
where
    F: std::future::Future<Output = S> + Send + 'static,
    S: Send + 'static,
{
    let client_end = serving(serve);
    let client = McpClient::connect(
        client_end,
        ConnectOptions {
            lifecycle: per_request(),
            ..ConnectOptions::default()
        },
    )
    .await
    .expect("the client discovers the server");
    let registry = ToolRegistry::new();
    client
        .import_into(
            &registry,
            ImportOptions {
                prefix: Some("p".into()),
                ..ImportOptions::default()
            },
        )
        .await
        .expect("imports");
    Imported { registry, client }
}

/// Our client on the per-request protocol importing a hand-written rmcp server.
async fn import(server: Rounds) -> Imported {
    import_from(|stream| async move { server.serve(stream).await.expect("the server starts") })
        .await
}

async fn run(registry: &ToolRegistry, input: ToolExecutionInput) -> ToolExecutionResult {
    tokio::time::timeout(DEADLINE, registry.execute(input))
        .await
        .expect("the call ends")
}

fn code(result: &ToolExecutionResult) -> Option<&str> {
    result.error_code()
}

/// A handler that records each request's message and answers with `answer`.
fn answering(
    seen: &Arc<Mutex<Vec<String>>>,
    answer: ElicitationAnswer,
) -> impl dsh_tools::mcp::ElicitationHandler {
    let seen = Arc::clone(seen);
    move |request: ElicitationRequest| {
        seen.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(request.message.clone());
        let answer = answer.clone();
        async move { answer }
    }
}

#[tokio::test(flavor = "current_thread")]
async fn an_import_on_round_trips_answers_the_served_approval_through_its_handler() {
    let (log, codes) = (Log::new(), Log::new());
    // Only the importing side can approve: the served registry's approver rejects.
    let served = asking(&log, &codes, ApprovalOutcome::Rejected);
    let server = McpServer::new(&served).with_options(ServerOptions {
        name: "served".into(),
        ..ServerOptions::default()
    });
    let imported =
        import_from(|stream| async move { server.serve(stream).await.expect("the server starts") })
            .await;
    let (importing, client) = (&imported.registry, &imported.client);
    let call = || ToolExecutionInput::new("c", "p__write", notes());

    // No handler: the question is declined, with a log line, and the served call rejected.
    let capture = Capture::new();
    let declined = {
        let _guard = capture.install();
        run(importing, call()).await
    };
    assert_eq!(declined.text(), REJECTED);
    assert_eq!(code(&declined), Some(ErrorCode::Denied.as_str()));
    let logged: Vec<_> = capture
        .events_with_fields()
        .into_iter()
        .filter(|event| {
            event.message == "declined an elicitation request: no elicitation handler is installed"
        })
        .collect();
    assert_eq!(logged.len(), 1, "{:?}", capture.events());
    assert_eq!(logged[0].fields["server"], "served");
    assert_eq!(logged[0].fields["question"], MESSAGE);

    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    client.set_elicitation_handler(answering(&seen, decision("approve")));
    assert_eq!(run(importing, call()).await.text(), "ok");
    assert_eq!(log.entries(), ["write"]);

    client.set_elicitation_handler(answering(&seen, ElicitationAnswer::Decline));
    assert_eq!(run(importing, call()).await.text(), REJECTED);
    client.set_elicitation_handler(answering(&seen, ElicitationAnswer::Cancel));
    assert_eq!(run(importing, call()).await.text(), CANCELLED);
    assert_eq!(
        *seen.lock().unwrap_or_else(PoisonError::into_inner),
        [MESSAGE, MESSAGE, MESSAGE]
    );
    assert_eq!(log.entries(), ["write"], "only the approved call ran");
    // Every call was asked through a round trip, never an elicitation/create request.
    assert_eq!(codes.count(ErrorCode::ApprovalPending.as_str()), 4);
    imported.client.close().await;
}

/// An rmcp server that asks in every way multi-round-trip requests allow:
///
/// - `always_asks`: an elicitation on every attempt;
/// - `samples`: a sampling request;
/// - `waits`: a state alone first (not ready), then the state it got back;
/// - `confirms`: an elicitation, then the answer and the state it got back;
/// - `task_confirms`: an elicitation, then a task that asks again mid-task, then both answers.
#[derive(Clone, Default)]
struct Rounds {
    attempts: Arc<AtomicUsize>,
    tasks: Arc<TaskManager>,
}

fn elicitation(message: &str) -> mcp::InputRequest {
    let schema = mcp::ElicitationSchema::builder()
        .required_bool("confirm")
        .build()
        .expect("a form");
    mcp::InputRequest::Elicitation(mcp::ElicitRequest::new(
        mcp::ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: message.to_owned(),
            requested_schema: schema,
        },
    ))
}

/// A sampling request, which the protocol deprecates (SEP-2577) and our client never answers.
#[allow(deprecated)]
fn sampling() -> mcp::InputRequest {
    let params = mcp::CreateMessageRequestParams::new(
        vec![mcp::SamplingMessage::user_text("Summarize the file.")],
        100,
    );
    mcp::InputRequest::CreateMessage(mcp::CreateMessageRequest::new(params))
}

fn asks(key: &str, request: mcp::InputRequest, state: &str) -> mcp::CallToolResponse {
    mcp::InputRequiredResult::new(
        Some([(key.to_owned(), request)].into_iter().collect()),
        Some(state.to_owned()),
    )
    .into()
}

fn answered(text: String) -> mcp::CallToolResponse {
    mcp::CallToolResult::success(vec![mcp::ContentBlock::text(text)]).into()
}

impl ServerHandler for Rounds {
    fn get_info(&self) -> mcp::ServerConfig {
        mcp::ServerConfig::new(
            mcp::ServerCapabilities::builder()
                .enable_tools()
                .enable_tasks()
                .build(),
        )
        .with_server_info(mcp::Implementation::new("rounds", "0"))
    }

    async fn list_tools(
        &self,
        _request: Option<mcp::PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<mcp::ListToolsResult, rmcp::ErrorData> {
        let schema = Arc::new(object(json!({"type": "object"})));
        let tools = [
            "always_asks",
            "samples",
            "waits",
            "confirms",
            "task_confirms",
        ]
        .into_iter()
        .map(|name| mcp::Tool::new(name, "asks", Arc::clone(&schema)))
        .collect();
        Ok(mcp::ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: mcp::CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<mcp::CallToolResponse, rmcp::ErrorData> {
        let attempt = self.attempts.fetch_add(1, Ordering::SeqCst) + 1;
        let responses = request.input_responses.clone().unwrap_or_default();
        let state = request.request_state.clone();
        let response = |key: &str| responses.get(key).cloned().unwrap_or(Value::Null);
        Ok(match &*request.name {
            "always_asks" => asks(
                "confirm",
                elicitation(&format!("round {attempt}?")),
                "again",
            ),
            "samples" => asks("summary", sampling(), "sampling"),
            "waits" => match state.as_deref() {
                None => mcp::InputRequiredResult::from_request_state("not-ready").into(),
                Some(state) => answered(format!(
                    "ready after {state}, responses: {}",
                    responses.len()
                )),
            },
            "confirms" => match state.as_deref() {
                None => asks("confirm", elicitation("Confirm?"), "asked"),
                Some(state) => answered(format!("{state}: {}", response("confirm"))),
            },
            "task_confirms" => match state.as_deref() {
                None => asks("first", elicitation("First?"), "first-asked"),
                Some(_) => {
                    let first = response("first");
                    let task = self.tasks.spawn(
                        TaskOptions::new().with_poll_interval_ms(10),
                        move |task| {
                            Box::pin(async move {
                                let second =
                                    task.request_input("second", elicitation("Second?")).await?;
                                Ok(mcp::CallToolResult::success(vec![mcp::ContentBlock::text(
                                    format!("first {first}, second {second}"),
                                )]))
                            })
                        },
                    );
                    mcp::CreateTaskResult::new(task).into()
                }
            },
            other => answered(format!("no tool {other}")),
        })
    }

    async fn get_task(
        &self,
        request: mcp::GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<mcp::GetTaskResult, rmcp::ErrorData> {
        self.tasks
            .get_task(&request.task_id)
            .map(mcp::GetTaskResult::new)
    }

    async fn update_task(
        &self,
        request: mcp::UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), rmcp::ErrorData> {
        self.tasks
            .update_task(&request.task_id, request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: mcp::CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), rmcp::ErrorData> {
        self.tasks.cancel_task(&request.task_id)
    }
}

fn confirm(confirm: bool) -> ElicitationAnswer {
    ElicitationAnswer::Accept(object(json!({"confirm": confirm})))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_call_retries_with_the_handlers_answer_and_the_echoed_state() {
    let Imported {
        registry, client, ..
    } = import(Rounds::default()).await;
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    client.set_elicitation_handler(answering(&seen, confirm(true)));
    let result = run(
        &registry,
        ToolExecutionInput::new("c", "p__confirms", json!({})),
    )
    .await;
    assert_eq!(
        result.text(),
        r#"asked: {"action":"accept","content":{"confirm":true}}"#
    );
    assert_eq!(
        *seen.lock().unwrap_or_else(PoisonError::into_inner),
        ["Confirm?"]
    );

    // A state alone: asked again after a wait, with the state and no responses.
    let result = run(
        &registry,
        ToolExecutionInput::new("c", "p__waits", json!({})),
    )
    .await;
    assert_eq!(result.text(), "ready after not-ready, responses: 0");
    assert_eq!(seen.lock().unwrap_or_else(PoisonError::into_inner).len(), 1);
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_handler_an_imported_calls_question_is_declined() {
    let Imported {
        registry, client, ..
    } = import(Rounds::default()).await;
    let result = run(
        &registry,
        ToolExecutionInput::new("c", "p__confirms", json!({})),
    )
    .await;
    assert_eq!(result.text(), r#"asked: {"action":"decline"}"#);
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_keeps_asking_ends_the_call_after_the_round_cap() {
    let server = Rounds::default();
    let attempts = Arc::clone(&server.attempts);
    let Imported {
        registry, client, ..
    } = import(server).await;
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    client.set_elicitation_handler(answering(&seen, confirm(true)));
    let result = run(
        &registry,
        ToolExecutionInput::new("c", "p__always_asks", json!({})),
    )
    .await;
    assert_eq!(code(&result), Some(ErrorCode::McpTransport.as_str()));
    assert_eq!(
        result.text(),
        "Error: MCP server \"rounds\" still asked for input after 10 rounds of tools/call \"always_asks\""
    );
    // rmcp's default cap: ten rounds answered, the eleventh attempt's question is not.
    assert_eq!(mcp::DEFAULT_MRTR_MAX_ROUNDS, 10);
    let seen = seen.lock().unwrap_or_else(PoisonError::into_inner).clone();
    assert_eq!(seen.len(), 10);
    assert_eq!(seen[0], "round 1?");
    assert_eq!(attempts.load(Ordering::SeqCst), 11);
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_asks_for_sampling_gets_a_clear_error_and_no_one_is_asked() {
    let Imported {
        registry, client, ..
    } = import(Rounds::default()).await;
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    client.set_elicitation_handler(answering(&seen, confirm(true)));
    let result = run(
        &registry,
        ToolExecutionInput::new("c", "p__samples", json!({})),
    )
    .await;
    assert_eq!(code(&result), Some(ErrorCode::McpTransport.as_str()));
    assert_eq!(
        result.text(),
        "Error: MCP server \"rounds\" asked for sampling (sampling/createMessage) to complete tools/call \"samples\", which this client does not answer"
    );
    assert!(
        seen.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_empty()
    );
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_augmented_call_answers_before_the_task_and_inside_it() {
    let Imported {
        registry, client, ..
    } = import(Rounds::default()).await;
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    client.set_elicitation_handler(answering(&seen, confirm(true)));
    let result = run(
        &registry,
        ToolExecutionInput::new("c", "p__task_confirms", json!({})),
    )
    .await;
    assert_eq!(
        result.text(),
        r#"first {"action":"accept","content":{"confirm":true}}, second {"action":"accept","content":{"confirm":true}}"#
    );
    assert_eq!(
        *seen.lock().unwrap_or_else(PoisonError::into_inner),
        ["First?", "Second?"]
    );
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_an_imported_call_while_its_question_is_open_cancels_it() {
    let Imported {
        registry, client, ..
    } = import(Rounds::default()).await;
    let (entered, asked) = tokio::sync::oneshot::channel::<()>();
    let entered = Arc::new(Mutex::new(Some(entered)));
    client.set_elicitation_handler(move |_: ElicitationRequest| {
        if let Some(entered) = entered
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            let _ = entered.send(());
        }
        // The user never answers.
        std::future::pending::<ElicitationAnswer>()
    });
    let signal = CancellationToken::new();
    let call = tokio::spawn({
        let registry = registry.clone();
        let input =
            ToolExecutionInput::new("c", "p__confirms", json!({})).with_signal(signal.clone());
        async move { registry.execute(input).await }
    });
    tokio::time::timeout(DEADLINE, asked)
        .await
        .expect("the handler is asked")
        .expect("the handler said so");
    signal.cancel();
    let result = tokio::time::timeout(DEADLINE, call)
        .await
        .expect("the call ends")
        .expect("the call does not panic");
    assert_eq!(code(&result), Some(ErrorCode::Aborted.as_str()));
    assert_eq!(result.text(), "Error: tool call aborted");
    client.close().await;
}

/// A task's `ask` over the per-request protocol goes into the task: it reports `input_required`
/// with the approval question, our importing client's handler answers it with `tasks/update`,
/// and the answer maps as it does for a plain call — the registry's approver is never asked and
/// no attempt ends `APPROVAL_PENDING`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_served_tasks_ask_goes_into_the_task_and_is_answered_with_tasks_update() {
    let (log, codes) = (Log::new(), Log::new());
    let served = asking(&log, &codes, ApprovalOutcome::Rejected);
    let _ = served
        .register(logging_task("write_task", &log))
        .expect("fresh name");
    let server = McpServer::new(&served).with_options(ServerOptions {
        name: "served".into(),
        ..ServerOptions::default()
    });
    let imported =
        import_from(|stream| async move { server.serve(stream).await.expect("the server starts") })
            .await;
    let (importing, client) = (&imported.registry, &imported.client);
    let call = || ToolExecutionInput::new("c", "p__write_task", notes());
    let message = MESSAGE.replace("\"write\"", "\"write_task\"");

    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    client.set_elicitation_handler(answering(&seen, decision("approve")));
    assert_eq!(run(importing, call()).await.text(), "ok");
    assert_eq!(log.entries(), ["write_task"]);

    client.set_elicitation_handler(answering(&seen, ElicitationAnswer::Decline));
    assert_eq!(
        run(importing, call()).await.text(),
        REJECTED.replace("\"write\"", "\"write_task\"")
    );
    client.set_elicitation_handler(answering(&seen, ElicitationAnswer::Cancel));
    assert_eq!(
        run(importing, call()).await.text(),
        CANCELLED.replace("\"write\"", "\"write_task\"")
    );
    assert_eq!(
        *seen.lock().unwrap_or_else(PoisonError::into_inner),
        [message.clone(), message.clone(), message]
    );
    assert_eq!(log.entries(), ["write_task"], "only the approved call ran");
    assert_eq!(codes.count(ErrorCode::ApprovalPending.as_str()), 0);
    assert_eq!(codes.count(ErrorCode::Denied.as_str()), 2);
    imported.client.close().await;
}

/// Polls task `id` until `wanted` holds of it.
async fn task_when(
    client: &Connected,
    id: &str,
    wanted: fn(&mcp::DetailedTask) -> bool,
) -> mcp::DetailedTask {
    tokio::time::timeout(DEADLINE, async {
        loop {
            let task = client
                .peer()
                .get_task(mcp::GetTaskParams::new(id))
                .await
                .expect("tasks/get answers")
                .task;
            if wanted(&task) {
                return task;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the task gets there")
}

/// rmcp's own client on the per-request protocol sees a served task's approval question in the
/// task (`input_required`, the question under `approval`) and answers it with `tasks/update`;
/// the task then runs the call and completes with its result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rmcps_client_answers_a_tasks_question_with_tasks_update() {
    let (log, codes) = (Log::new(), Log::new());
    let served = asking(&log, &codes, ApprovalOutcome::Rejected);
    let _ = served
        .register(logging_task("write_task", &log))
        .expect("fresh name");
    let server = McpServer::new(&served).with_options(ServerOptions {
        task_poll_interval: Duration::from_millis(10),
        ..ServerOptions::default()
    });
    let asked = Asked::declaring().with_tasks();
    let client = connect(&server, &asked).await;

    let mcp::CallToolResponse::Task(created) = once(&client, params("write_task", notes())).await
    else {
        panic!("a task-augmented call is answered with a task")
    };
    let id = created.task.task_id.clone();
    let waiting = task_when(&client, &id, |task| {
        task.status() == mcp::TaskStatus::InputRequired
    })
    .await;
    let mcp::TaskPayload::InputRequired { input_requests } = &waiting.payload else {
        panic!("input_required carries its requests")
    };
    let question = serde_json::to_value(&input_requests["approval"]).expect("serializes");
    assert_eq!(
        question["params"]["message"],
        MESSAGE.replace("\"write\"", "\"write_task\"")
    );
    assert!(log.entries().is_empty(), "nothing ran before the answer");

    let responses: mcp::InputResponses = [("approval".to_owned(), approve())].into_iter().collect();
    client
        .peer()
        .update_task(mcp::UpdateTaskParams::new(id.clone(), responses))
        .await
        .expect("tasks/update is acknowledged");
    let done = task_when(&client, &id, |task| task.status().is_terminal()).await;
    let mcp::TaskPayload::Completed { result } = &done.payload else {
        panic!("the task completes: {done:?}")
    };
    assert_eq!(result["content"][0]["text"], "ok");
    assert_eq!(log.entries(), ["write_task"]);
    assert_eq!(codes.count(ErrorCode::ApprovalPending.as_str()), 0);

    // `tasks/cancel` while the question waits cancels the call: nothing runs.
    let mcp::CallToolResponse::Task(created) = once(&client, params("write_task", notes())).await
    else {
        panic!("a task-augmented call is answered with a task")
    };
    let id = created.task.task_id.clone();
    task_when(&client, &id, |task| {
        task.status() == mcp::TaskStatus::InputRequired
    })
    .await;
    client
        .peer()
        .cancel_task(mcp::CancelTaskParams::new(id.clone()))
        .await
        .expect("tasks/cancel is acknowledged");
    let cancelled = task_when(&client, &id, |task| task.status().is_terminal()).await;
    assert_eq!(cancelled.status(), mcp::TaskStatus::Cancelled);
    assert_eq!(
        log.entries(),
        ["write_task"],
        "the cancelled call never ran"
    );
}
