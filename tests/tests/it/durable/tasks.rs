//! Served MCP tasks on the call store: two stateless HTTP replicas on one real PostgreSQL behind
//! a round robin, a task started through one polled to its result (its progress shown as its
//! status) and cancelled through the other; a task whose call asks for approval shown `input_required` by the other replica and
//! answered through it; a replica that dies mid-task (its runtime shut down: its server, its
//! heartbeat and its store connection stop at once, as with a killed process) has its task
//! reported, and rewritten in the store, failed by the other; and a finished task's result read
//! by a fresh server on the same store, on PostgreSQL and on a SQLite file.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use dsh_tools::durable::{CallStore, Durability, PostgresStore, SqliteStore, TaskState};
use dsh_tools::mcp::{
    ConnectOptions, HttpOptions, ImportOptions, McpClient, McpServer, ServerOptions,
};
use dsh_tools::{
    FnTool, PreToolDecision, ToolExecutionInput, ToolRegistry, Value,
    call::{TaskSupport, ToolProgress},
    json,
    schema::Schema,
};
use dsh_tools_tests::postgres_server::PostgresServer;
use dsh_tools_tests::round_robin::RoundRobin;
use rmcp::handler::client::ClientHandler;
use rmcp::model as mcp;
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;

/// Only a broken feature makes anything here wait this long.
const DEADLINE: Duration = Duration::from_secs(30);

/// The poll interval the served tasks suggest (and how often their owners renew heartbeats).
const POLL: Duration = Duration::from_millis(50);

/// How long an owner may stay silent in the tests where none dies: long, so a slow machine
/// never makes a live owner look dead.
const PATIENT: Duration = Duration::from_secs(10);

/// `count` (task support optional): counts to `steps`, a step every `delay_ms`, reporting each
/// as progress; `hold` (required): reports that it holds, then runs until cancelled, counted in the answer's second half when it ended; `write`
/// (required): asks for approval first (its `pre-execute` hook answers `ask`), then answers
/// `written`.
fn tools() -> (ToolRegistry, Arc<AtomicUsize>) {
    let registry = ToolRegistry::new();
    let ended = Arc::new(AtomicUsize::new(0));
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
                run.report_progress(ToolProgress {
                    total: Some(steps as f64),
                    message: Some("counting".into()),
                    ..ToolProgress::from(step as f64)
                });
            }
            Ok(format!("counted to {steps}"))
        });
    let seen = Arc::clone(&ended);
    let hold = FnTool::builder("hold", "Hold until cancelled.")
        .options(dsh_tools::call::ToolOptions {
            task_support: TaskSupport::Required,
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(move |_arguments, run| {
            let seen = Arc::clone(&seen);
            async move {
                run.report_progress(ToolProgress {
                    message: Some("holding".into()),
                    ..ToolProgress::from(1.0)
                });
                run.signal().cancelled().await;
                seen.fetch_add(1, Ordering::SeqCst);
                Ok("released")
            }
        });
    let write = FnTool::builder("write", "Write a file.")
        .arguments(Schema::object().required("path", Schema::string()))
        .options(dsh_tools::call::ToolOptions {
            task_support: TaskSupport::Required,
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(|_arguments, _run| async { Ok("written") });
    let _ = registry.register(count).expect("registers");
    let _ = registry.register(hold).expect("registers");
    let _ = registry.register(write).expect("registers");
    let _ = registry
        .on_pre_execute(|execution, next| async move {
            if execution.name() == "write" {
                return Ok(PreToolDecision::Ask {
                    reason: Some("it writes to the workspace".to_owned()),
                });
            }
            next.run().await
        })
        .expect("adds the hook");
    (registry, ended)
}

fn server(registry: &ToolRegistry, owner_timeout: Duration) -> McpServer {
    McpServer::new(registry).with_options(ServerOptions {
        task_ttl: Some(Duration::from_secs(120)),
        task_poll_interval: POLL,
        task_owner_timeout: Some(owner_timeout),
        ..ServerOptions::default()
    })
}

/// One replica: a stateless HTTP server on its own registry and its own connection to the
/// store, all on a runtime of its own, so that shutting the runtime down stops everything the
/// replica runs at once, as a killed process stops.
struct Replica {
    runtime: Option<tokio::runtime::Runtime>,
    addr: SocketAddr,
    /// How many `hold` calls of this replica ended.
    ended: Arc<AtomicUsize>,
}

impl Replica {
    async fn start(config: &str, place: &str, owner_timeout: Duration) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime for the replica");
        let (config, place) = (config.to_owned(), place.to_owned());
        let (registry, ended) = tools();
        let (started, addr) = tokio::sync::oneshot::channel();
        runtime.spawn(async move {
            let store = PostgresStore::connect(&config)
                .await
                .expect("the replica connects to PostgreSQL");
            registry.set_durability(Durability::new(store).with_place(place));
            let http = server(&registry, owner_timeout)
                .serve_http(
                    "127.0.0.1:0",
                    HttpOptions {
                        stateless: true,
                        ..HttpOptions::default()
                    },
                )
                .await
                .expect("serves HTTP");
            let _ = started.send(http.local_addr);
            // The replica lives until its runtime is shut down.
            std::future::pending::<()>().await;
            drop((registry, http));
        });
        let addr = tokio::time::timeout(DEADLINE, addr)
            .await
            .expect("the replica starts in time")
            .expect("the replica starts");
        Self {
            runtime: Some(runtime),
            addr,
            ended,
        }
    }

    fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    /// Stops everything the replica runs, at once and without a word to the store.
    fn kill(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A client that declares the tasks extension and form elicitation (so a task's `ask` goes
/// into the task, answered with `tasks/update`).
#[derive(Clone, Default)]
struct TaskClient;

impl ClientHandler for TaskClient {
    fn get_info(&self) -> mcp::ClientConfig {
        let mut capabilities = mcp::ClientCapabilities::builder().enable_tasks().build();
        capabilities.elicitation = Some(
            mcp::ElicitationCapability::new().with_form(mcp::FormElicitationCapability::new()),
        );
        mcp::ClientConfig::new(
            capabilities,
            mcp::Implementation::new("durable-task-test", "1.0.0"),
        )
    }
}

type Client = RunningService<RoleClient, TaskClient>;

/// The per-request protocol, which stateless servers answer request by request.
fn per_request() -> ClientLifecycleMode {
    ClientLifecycleMode::Discover {
        preferred_versions: vec![mcp::ProtocolVersion::V_2026_07_28],
    }
}

/// An rmcp client of the server at `url` (a replica's own address: each request reaches it).
async fn client(url: &str) -> Client {
    tokio::time::timeout(
        DEADLINE,
        TaskClient
            .serve_with_lifecycle(StreamableHttpClientTransport::from_uri(url), per_request()),
    )
    .await
    .expect("connects in time")
    .expect("discovers the server")
}

async fn start(client: &Client, name: &'static str, arguments: Value) -> String {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    let params = mcp::CallToolRequestParams::new(name).with_arguments(arguments);
    let response = tokio::time::timeout(DEADLINE, client.peer().call_tool_once(params))
        .await
        .expect("the call is answered")
        .expect("tools/call succeeds");
    match response {
        mcp::CallToolResponse::Task(created) => created.task.task_id,
        other => panic!("a task, not {other:?}"),
    }
}

async fn get(client: &Client, id: &str) -> mcp::DetailedTask {
    client
        .peer()
        .get_task(mcp::GetTaskParams::new(id))
        .await
        .unwrap_or_else(|error| panic!("tasks/get of {id} answers: {error}"))
        .task
}

async fn settled(client: &Client, id: &str) -> mcp::DetailedTask {
    tokio::time::timeout(DEADLINE, async {
        loop {
            let task = get(client, id).await;
            if task.status().is_terminal() {
                return task;
            }
            tokio::time::sleep(POLL).await;
        }
    })
    .await
    .expect("the task settles")
}

/// The text of a completed task's `tools/call` result.
fn result_text(task: &mcp::DetailedTask) -> String {
    let mcp::TaskPayload::Completed { result } = &task.payload else {
        panic!("a completed task, not {task:?}")
    };
    let result: mcp::CallToolResult =
        serde_json::from_value(Value::Object(result.clone())).expect("a tool result");
    result
        .content
        .iter()
        .filter_map(mcp::ContentBlock::as_text)
        .map(|text| text.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_started_through_one_replica_is_polled_and_cancelled_through_the_other() {
    let postgres = PostgresServer::start();
    let config = postgres.database("tasks_replicas");
    let a = Replica::start(&config, "replica-a", PATIENT).await;
    let b = Replica::start(&config, "replica-b", PATIENT).await;

    // Through the round robin, as a client of a load-balanced service: the call reaches one
    // replica and its polls alternate between both, so the one that does not run the task
    // answers for it from the store.
    let proxy = RoundRobin::start(vec![a.addr, b.addr]).await;
    let balanced = McpClient::connect_http(
        &format!("http://{}/mcp", proxy.addr()),
        ConnectOptions {
            lifecycle: per_request(),
            ..ConnectOptions::default()
        },
    )
    .await
    .expect("connects through the proxy");
    let local = ToolRegistry::new();
    balanced
        .import_into(
            &local,
            ImportOptions {
                prefix: Some("remote".into()),
                ..ImportOptions::default()
            },
        )
        .await
        .expect("imports");
    // The request that started the task was answered with it, so its progress reaches this
    // caller as the task's status, whichever replica a poll lands on.
    let reports = Arc::new(std::sync::Mutex::new(Vec::<ToolProgress>::new()));
    let heard = Arc::clone(&reports);
    let input =
        ToolExecutionInput::new("c1", "remote__count", json!({"steps": 8, "delay_ms": 100}))
            .with_progress(
                move |_: &dsh_tools::call::ToolExecution, report: ToolProgress| {
                    heard.lock().expect("not poisoned").push(report);
                },
            );
    let result = tokio::time::timeout(DEADLINE, local.execute(input))
        .await
        .expect("the call ends");
    assert_eq!(
        result.value(),
        Some(&json!("counted to 8")),
        "{}",
        result.text()
    );
    let reports = reports.lock().expect("not poisoned").clone();
    assert!(!reports.is_empty(), "the task's status came as progress");
    for (n, report) in reports.iter().enumerate() {
        assert_eq!(report.progress, (n + 1) as f64, "{reports:?}");
        let message = report.message.as_deref().unwrap_or_default();
        assert!(
            message.starts_with("counting (") && message.ends_with("/8)"),
            "{reports:?}"
        );
    }
    let served = proxy.served();
    assert!(served.iter().all(|&count| count >= 2), "{served:?}");
    balanced.close().await;

    // Request by request: started on A, polled to its result on B.
    let (on_a, on_b) = (client(&a.url()).await, client(&b.url()).await);
    let id = start(&on_a, "count", json!({"steps": 6, "delay_ms": 50})).await;
    let first = get(&on_b, &id).await;
    assert!(
        matches!(
            first.status(),
            mcp::TaskStatus::Working | mcp::TaskStatus::Completed
        ),
        "the other replica knows the task at once: {first:?}"
    );
    let done = settled(&on_b, &id).await;
    assert_eq!(result_text(&done), "counted to 6");
    assert_eq!(done.task.poll_interval_ms, Some(50));
    // The last progress stays the task's status, as the owner's own view says.
    assert_eq!(done.task.status_message.as_deref(), Some("counting (6/6)"));
    let done_on_a = settled(&on_a, &id).await;
    assert_eq!(result_text(&done_on_a), "counted to 6");
    assert_eq!(done_on_a.task.status_message, done.task.status_message);

    // Input for a task that asks nothing is acknowledged and ignored through either replica,
    // as the extension says.
    let held = start(&on_a, "hold", json!({})).await;
    // Its progress is its status on the replica running it at once, and on the other once the
    // owner records it (its next heartbeat).
    let holding =
        |task: &mcp::DetailedTask| task.task.status_message.as_deref() == Some("holding (1)");
    task_when(&on_a, &held, holding).await;
    let seen = task_when(&on_b, &held, holding).await;
    assert_eq!(seen.status(), mcp::TaskStatus::Working, "{seen:?}");
    let stray: mcp::InputResponses = [("approval".to_owned(), json!({"action": "accept"}))]
        .into_iter()
        .collect();
    on_b.peer()
        .update_task(mcp::UpdateTaskParams::new(held.clone(), stray))
        .await
        .expect("tasks/update through the other replica is acknowledged");
    assert_eq!(get(&on_b, &held).await.status(), mcp::TaskStatus::Working);
    // A's heartbeat takes the stray answer in (its call ignores it) and clears it.
    let store = PostgresStore::connect(&config).await.expect("connects");
    tokio::time::timeout(DEADLINE, async {
        loop {
            let record = store.task(&held).await.expect("reads").expect("the record");
            if record.input_responses.is_empty() {
                assert_eq!(record.state, TaskState::Working, "{record:?}");
                return;
            }
            tokio::time::sleep(POLL).await;
        }
    })
    .await
    .expect("the owner clears the stray answer");

    // Cancelled through B: A's heartbeat sees the request and cancels the call as a local
    // `tasks/cancel` would.
    on_b.peer()
        .cancel_task(mcp::CancelTaskParams::new(held.clone()))
        .await
        .expect("tasks/cancel through the other replica is acknowledged");
    let cancelled = settled(&on_b, &held).await;
    assert_eq!(
        cancelled.status(),
        mcp::TaskStatus::Cancelled,
        "{cancelled:?}"
    );
    let aborted = dsh_tools::ToolExecutionResult::failure(dsh_tools::ToolError::aborted());
    assert_eq!(
        cancelled.task.status_message.as_deref(),
        Some(aborted.text().as_str()),
        "the pipeline's ABORTED text: {cancelled:?}"
    );
    assert_eq!(
        settled(&on_a, &held).await.status(),
        mcp::TaskStatus::Cancelled
    );
    assert_eq!(
        a.ended.load(Ordering::SeqCst),
        1,
        "A's call was the one cancelled"
    );
    assert_eq!(b.ended.load(Ordering::SeqCst), 0);

    // An id nobody knows is still the spec's unknown task, on either replica.
    let unknown = on_b
        .peer()
        .get_task(mcp::GetTaskParams::new("no-such-task"))
        .await
        .expect_err("an unknown task is refused");
    assert!(unknown.to_string().contains("unknown task"), "{unknown}");
    on_a.cancel().await.expect("closes");
    on_b.cancel().await.expect("closes");
}

/// Polls task `id` through `client` until `wanted` holds of it.
async fn task_when(
    client: &Client,
    id: &str,
    wanted: fn(&mcp::DetailedTask) -> bool,
) -> mcp::DetailedTask {
    let last = std::sync::Mutex::new(None);
    tokio::time::timeout(DEADLINE, async {
        loop {
            let task = get(client, id).await;
            if wanted(&task) {
                return task;
            }
            *last
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(task);
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("task {id} gets there; last seen: {last:?}"))
}

/// The form answer that approves the call.
fn approve() -> Value {
    let answer = mcp::ElicitResult::new(mcp::ElicitationAction::Accept)
        .with_content(json!({"decision": "approve"}));
    serde_json::to_value(answer).expect("serializes")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tasks_question_is_shown_and_answered_through_the_replica_not_running_it() {
    let postgres = PostgresServer::start();
    let config = postgres.database("tasks_input");
    let a = Replica::start(&config, "replica-a", PATIENT).await;
    let b = Replica::start(&config, "replica-b", PATIENT).await;
    let (on_a, on_b) = (client(&a.url()).await, client(&b.url()).await);

    let id = start(&on_a, "write", json!({"path": "notes.md"})).await;
    // The owner shows the question; the other replica shows the same one from the record.
    let asked_on_a = task_when(&on_a, &id, |task| {
        task.status() == mcp::TaskStatus::InputRequired
    })
    .await;
    let asked_on_b = task_when(&on_b, &id, |task| {
        task.status() == mcp::TaskStatus::InputRequired
    })
    .await;
    let (
        mcp::TaskPayload::InputRequired {
            input_requests: on_owner,
        },
        mcp::TaskPayload::InputRequired {
            input_requests: elsewhere,
        },
    ) = (&asked_on_a.payload, &asked_on_b.payload)
    else {
        panic!("input_required carries its requests: {asked_on_a:?} {asked_on_b:?}")
    };
    assert_eq!(elsewhere, on_owner, "the same questions on both replicas");
    let question = serde_json::to_value(&elsewhere["approval"]).expect("serializes");
    let message = question["params"]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("Allow tool \"write\" to run?")
            && message.contains("it writes to the workspace"),
        "{question}"
    );
    let store = PostgresStore::connect(&config).await.expect("connects");
    let record = store.task(&id).await.expect("reads").expect("the record");
    assert_eq!(record.state, TaskState::InputRequired);

    // Answered through B: an answer nobody waits for is ignored, the approval reaches A's call,
    // which runs and completes; B reads the result.
    let responses: mcp::InputResponses = [
        ("approval".to_owned(), approve()),
        ("approval-9".to_owned(), approve()),
    ]
    .into_iter()
    .collect();
    on_b.peer()
        .update_task(mcp::UpdateTaskParams::new(id.clone(), responses))
        .await
        .expect("tasks/update through the other replica is acknowledged");
    let done = settled(&on_b, &id).await;
    assert_eq!(result_text(&done), "written", "{done:?}");
    assert_eq!(result_text(&settled(&on_a, &id).await), "written");
    let record = store.task(&id).await.expect("reads").expect("the record");
    assert_eq!(record.state, TaskState::Completed);
    assert!(record.input_requests.is_empty() && record.input_responses.is_empty());

    // A second task, answered through B with a refusal: the call does not run.
    let refused = start(&on_a, "write", json!({"path": "other.md"})).await;
    task_when(&on_b, &refused, |task| {
        task.status() == mcp::TaskStatus::InputRequired
    })
    .await;
    let decline = serde_json::to_value(mcp::ElicitResult::new(mcp::ElicitationAction::Decline))
        .expect("serializes");
    on_b.peer()
        .update_task(mcp::UpdateTaskParams::new(
            refused.clone(),
            [("approval".to_owned(), decline)].into_iter().collect(),
        ))
        .await
        .expect("acknowledged");
    let done = settled(&on_b, &refused).await;
    assert!(
        result_text(&done).contains("rejected tool \"write\""),
        "{done:?}"
    );
    on_a.cancel().await.expect("closes");
    on_b.cancel().await.expect("closes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_that_dies_mid_task_has_its_task_reported_failed_by_the_other() {
    let postgres = PostgresServer::start();
    let config = postgres.database("tasks_death");
    let timeout = Duration::from_millis(800);
    let mut a = Replica::start(&config, "replica-a", timeout).await;
    let b = Replica::start(&config, "replica-b", timeout).await;
    let (on_a, on_b) = (client(&a.url()).await, client(&b.url()).await);
    let id = start(&on_a, "hold", json!({})).await;
    // Alive, A renews its heartbeat: B reports the task working past the bound.
    tokio::time::sleep(timeout * 2).await;
    let alive = get(&on_b, &id).await;
    assert_eq!(alive.status(), mcp::TaskStatus::Working, "{alive:?}");

    a.kill();
    drop(on_a);
    let failed = settled(&on_b, &id).await;
    assert_eq!(failed.status(), mcp::TaskStatus::Failed, "{failed:?}");
    let message = failed.task.status_message.clone().unwrap_or_default();
    assert!(
        message.starts_with("the process running this task (replica-a server ")
            && message.contains(") stopped: its last heartbeat was at ")
            && message.ends_with(", and nothing was recorded after"),
        "{message}"
    );
    let mcp::TaskPayload::Failed { error } = &failed.payload else {
        panic!("a failed task: {failed:?}")
    };
    assert_eq!(error.get("message"), Some(&json!(message)));
    // The reader settled the record itself: a listing, any other replica and a restart see the
    // same end without working it out again.
    let store = PostgresStore::connect(&config).await.expect("connects");
    let record = store.task(&id).await.expect("reads").expect("the record");
    assert_eq!(record.state, TaskState::Failed, "{record:?}");
    assert_eq!(record.status_message.as_deref(), Some(message.as_str()));
    assert_eq!(
        record.error.as_ref().and_then(|error| error.get("message")),
        Some(&json!(message))
    );
    assert!(
        record.owner.starts_with("replica-a server "),
        "{}",
        record.owner
    );
    let failed_tasks = store.tasks(Some(TaskState::Failed)).await.expect("lists");
    assert_eq!(failed_tasks.len(), 1);
    assert!(
        store
            .tasks(Some(TaskState::Working))
            .await
            .expect("lists")
            .is_empty()
    );
    // Read again, the settled record answers as it is, the same words.
    let again = get(&on_b, &id).await;
    assert_eq!(again.task.status_message, failed.task.status_message);
    let reread = store.task(&id).await.expect("reads").expect("the record");
    assert_eq!(reread.revision, record.revision, "settled once");
    on_b.cancel().await.expect("closes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_tasks_result_is_read_by_a_fresh_replica_on_the_same_postgres() {
    let postgres = PostgresServer::start();
    let config = postgres.database("tasks_restart");
    let mut a = Replica::start(&config, "replica-a", PATIENT).await;
    let on_a = client(&a.url()).await;
    let id = start(&on_a, "count", json!({"steps": 2, "delay_ms": 20})).await;
    assert_eq!(result_text(&settled(&on_a, &id).await), "counted to 2");
    a.kill();
    drop(on_a);

    let fresh = Replica::start(&config, "replica-c", PATIENT).await;
    let on_fresh = client(&fresh.url()).await;
    let read = get(&on_fresh, &id).await;
    assert_eq!(read.status(), mcp::TaskStatus::Completed);
    assert_eq!(result_text(&read), "counted to 2");
    on_fresh.cancel().await.expect("closes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_tasks_result_is_read_by_a_fresh_server_on_the_same_sqlite_file() {
    let dir = std::env::temp_dir().join(format!("dsh-tools-tasks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join("tasks.db");
    let _ = std::fs::remove_file(&path);
    let serve = |registry: &ToolRegistry| {
        let store = SqliteStore::open(&path).expect("opens the file");
        registry.set_durability(Durability::new(store));
        server(registry, PATIENT)
    };

    let (first, _) = tools();
    let http = serve(&first)
        .serve_http(
            "127.0.0.1:0",
            HttpOptions {
                stateless: true,
                ..HttpOptions::default()
            },
        )
        .await
        .expect("serves");
    let on_first = client(&http.url).await;
    let id = start(&on_first, "count", json!({"steps": 2, "delay_ms": 20})).await;
    assert_eq!(result_text(&settled(&on_first, &id).await), "counted to 2");
    on_first.cancel().await.expect("closes");
    http.shutdown().await;
    drop(first);

    let (second, _) = tools();
    let http = serve(&second)
        .serve_http(
            "127.0.0.1:0",
            HttpOptions {
                stateless: true,
                ..HttpOptions::default()
            },
        )
        .await
        .expect("serves");
    let on_second = client(&http.url).await;
    let read = get(&on_second, &id).await;
    assert_eq!(read.status(), mcp::TaskStatus::Completed, "{read:?}");
    assert_eq!(result_text(&read), "counted to 2");
    on_second.cancel().await.expect("closes");
    http.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}
