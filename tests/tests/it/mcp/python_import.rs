//! Importing from an MCP server nobody here wrote: `tests/python/import_server.py`, written with
//! the official Python SDK's `MCPServer` and started by the test as a child process, imported into
//! a registry and called through its pipeline.
//!
//! The SDK is installed into a virtual environment under `target/` on first run
//! (`dsh_tools_tests::python`); without Python or the package registry these tests fail saying so.

use std::time::Duration;

use dsh_tools::mcp::{ConnectOptions, ImportOptions, McpClient};
use dsh_tools::{
    ToolExecutionInput, ToolExecutionResult, ToolRegistry, Value,
    call::{ToolAnnotations, ToolExecution, ToolProgress},
    errors::ErrorCode,
    json,
    registry::{DefinitionChange, DefinitionDecision, RegistryEvent},
};
use dsh_tools_tests::python;
use rmcp::model::ProtocolVersion;
use rmcp::service::ClientLifecycleMode;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// Only a broken bridge makes anything here wait this long.
const DEADLINE: Duration = Duration::from_secs(30);

async fn connect() -> McpClient {
    let mut command = tokio::process::Command::new(python::python_with_mcp());
    command.arg(python::script("import_server.py"));
    tokio::time::timeout(
        DEADLINE,
        McpClient::connect_stdio(command, ConnectOptions::default()),
    )
    .await
    .expect("the Python server starts in time")
    .expect("the Python server completes the handshake")
}

async fn imported() -> (ToolRegistry, McpClient, Vec<String>) {
    let client = connect().await;
    let registry = ToolRegistry::new();
    let names = client
        .import_into(&registry, ImportOptions::default())
        .await
        .expect("imports");
    (registry, client, names)
}

async fn run(registry: &ToolRegistry, name: &str, arguments: Value) -> ToolExecutionResult {
    tokio::time::timeout(
        DEADLINE,
        registry.execute(ToolExecutionInput::new("call", name.to_owned(), arguments)),
    )
    .await
    .expect("the call ends")
}

async fn stats(registry: &ToolRegistry) -> Value {
    let result = run(registry, "py-tools__stats", json!({})).await;
    serde_json::from_str(&result.text()).expect("stats are JSON")
}

async fn server_pid(registry: &ToolRegistry) -> u32 {
    let result = run(registry, "py-tools__pid", json!({})).await;
    let pid = result.value().expect("a pid")["result"]
        .as_u64()
        .expect("a number");
    u32::try_from(pid).expect("a pid")
}

/// Whether process `pid` still runs (a zombie waiting to be reaped has stopped running).
fn is_running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z') && !state.starts_with('X')
        }
        Err(_) => false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_servers_tools_are_imported_and_called_through_the_pipeline() {
    let (registry, client, names) = imported().await;
    assert_eq!(client.server_name, "py-tools");
    assert_eq!(
        names,
        [
            "py-tools__add_tool",
            "py-tools__fail",
            "py-tools__forecast",
            "py-tools__pid",
            "py-tools__redefine",
            "py-tools__request_key",
            "py-tools__slow",
            "py-tools__stats"
        ]
    );
    // The server's own schema, shown as it is.
    let listed = client.list_tools().await.expect("lists");
    let forecast_tool = listed
        .iter()
        .find(|tool| tool.name == "forecast")
        .expect("listed");
    let forecast = registry.get("py-tools__forecast").expect("imported");
    assert_eq!(
        forecast.parameters(),
        &Value::Object((*forecast_tool.input_schema).clone())
    );
    assert_eq!(forecast.description(), "Forecast the weather of a city.");
    assert_eq!(
        forecast.options().annotations,
        ToolAnnotations {
            title: Some("Weather forecast".to_owned()),
            read_only: Some(true),
            idempotent: Some(true),
            open_world: Some(true),
            ..ToolAnnotations::default()
        }
    );

    // Structured output: the value; its content as the server wrote it.
    let result = run(
        &registry,
        "py-tools__forecast",
        json!({"city": "Oslo", "days": 2}),
    )
    .await;
    let expected = json!({"city": "Oslo", "temperature": 21.5, "conditions": "sunny for 2 day(s)"});
    assert_eq!(result.value(), Some(&expected));
    let text: Value = serde_json::from_str(&result.text()).expect("the server's JSON text");
    assert_eq!(text, expected);

    // The server's error, as its text.
    let failed = run(
        &registry,
        "py-tools__fail",
        json!({"reason": "the disk is full"}),
    )
    .await;
    assert!(failed.is_error());
    assert_eq!(
        failed.text(),
        "Error: Error executing tool fail: the disk is full"
    );
    assert_eq!(failed.error_code(), Some(ErrorCode::ToolError.as_str()));

    // A guard denies one imported call; the server never sees it.
    let _guard = registry.guard(|call| {
        (call.name() == "py-tools__forecast" && call.arguments()["city"] == "Atlantis")
            .then(|| "no forecasts for Atlantis".to_owned())
    });
    let denied = run(&registry, "py-tools__forecast", json!({"city": "Atlantis"})).await;
    assert_eq!(denied.text(), "Error: no forecasts for Atlantis");
    assert_eq!(denied.error_code(), Some(ErrorCode::Denied.as_str()));
    assert_eq!(stats(&registry).await["forecasts"], 1);

    // Progress the server reports reaches the caller's sink, in order, before the result.
    let (sender, mut reports) = mpsc::unbounded_channel();
    let input = ToolExecutionInput::new("call", "py-tools__slow", json!({"steps": 3}))
        .with_progress(move |_: &ToolExecution, report: ToolProgress| {
            let _ = sender.send((report.progress, report.total, report.message));
        });
    let done = registry.execute(input).await;
    assert_eq!(done.value(), Some(&json!({"result": "done after 3 steps"})));
    let mut seen = Vec::new();
    while let Ok(report) = reports.try_recv() {
        seen.push(report);
    }
    assert_eq!(
        seen,
        (1..=3)
            .map(|step| (f64::from(step), Some(3.0), Some(format!("step {step}"))))
            .collect::<Vec<_>>()
    );
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_call_sends_its_idempotency_key_in_the_requests_meta() {
    let (registry, _client, _) = imported().await;
    let keys = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = std::sync::Arc::clone(&keys);
    let _observer =
        registry.on_result(move |execution: &ToolExecution, _: &ToolExecutionResult| {
            seen.lock().unwrap().push(execution.idempotency_key());
        });
    let first = run(&registry, "py-tools__request_key", json!({})).await;
    let again = run(&registry, "py-tools__request_key", json!({})).await;
    let keys = keys.lock().unwrap().clone();
    assert_eq!(keys.len(), 2);
    assert!(keys[0].starts_with("idem-"), "{keys:?}");
    // The server read the key of the call that sent it; the same call sent again has the same.
    assert_eq!(
        dsh_tools_tests::block_text(&first.content()[0]),
        Some(keys[0].as_str())
    );
    assert_eq!(
        dsh_tools_tests::block_text(&again.content()[0]),
        Some(keys[0].as_str())
    );
    assert_eq!(keys[0], keys[1]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_an_imported_call_cancels_it_on_the_server() {
    let (registry, client, _) = imported().await;
    let signal = CancellationToken::new();
    let (started, mut first_report) = mpsc::unbounded_channel();
    let input = ToolExecutionInput::new("call", "py-tools__slow", json!({"steps": 100_000}))
        .with_signal(signal.clone())
        .with_progress(move |_: &ToolExecution, _: ToolProgress| {
            let _ = started.send(());
        });
    let call = tokio::spawn(registry.execute(input));
    tokio::time::timeout(DEADLINE, first_report.recv())
        .await
        .expect("the server reports progress");
    signal.cancel();
    let result = tokio::time::timeout(DEADLINE, call)
        .await
        .expect("the call ends")
        .expect("no panic");
    assert_eq!(result.error_code(), Some(ErrorCode::Aborted.as_str()));
    tokio::time::timeout(DEADLINE, async {
        while stats(&registry).await["cancellations"] != 1 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the server's tool sees the cancellation");
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_mid_call_is_an_mcp_transport_error() {
    let (registry, _client, _) = imported().await;
    let pid = server_pid(&registry).await;
    let (started, mut first_report) = mpsc::unbounded_channel();
    let input = ToolExecutionInput::new("call", "py-tools__slow", json!({"steps": 100_000}))
        .with_progress(move |_: &ToolExecution, _: ToolProgress| {
            let _ = started.send(());
        });
    let call = tokio::spawn(registry.execute(input));
    tokio::time::timeout(DEADLINE, first_report.recv())
        .await
        .expect("the server reports progress");
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let result = tokio::time::timeout(DEADLINE, call)
        .await
        .expect("the call ends")
        .expect("no panic");
    assert_eq!(result.error_code(), Some(ErrorCode::McpTransport.as_str()));
    assert_eq!(
        result.text(),
        r#"Error: the connection to MCP server "py-tools" is closed: the server exited or the connection was lost during tools/call "slow""#
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_added_on_the_server_appears_after_list_changed_and_closing_disposes_all() {
    let (registry, client, names) = imported().await;
    let (sender, mut events) = mpsc::unbounded_channel();
    let _listener = registry.on_change(move |event| {
        let _ = sender.send(event.clone());
    });
    let added = run(&registry, "py-tools__add_tool", json!({"name": "shout"})).await;
    assert!(!added.is_error(), "{}", added.text());
    let mut next = async || {
        tokio::time::timeout(DEADLINE, events.recv())
            .await
            .expect("the re-sync registers the new tool")
            .expect("the registry is alive")
    };
    assert_eq!(
        next().await,
        RegistryEvent::ToolRegistered {
            name: "py-tools__shout".to_owned(),
            agent: None
        }
    );
    assert_eq!(
        next().await,
        RegistryEvent::DefinitionReviewed {
            name: "py-tools__shout".to_owned(),
            agent: None,
            server: "py-tools".to_owned(),
            changes: Vec::new(),
            decision: DefinitionDecision::Accepted,
        },
        "a new tool is accepted by default"
    );
    let echoed = run(&registry, "py-tools__shout", json!({"text": "hey"})).await;
    assert_eq!(echoed.value(), Some(&json!({"result": "hey"})));

    let pid = server_pid(&registry).await;
    client.close().await;
    let mut disposed = Vec::new();
    while disposed.len() < names.len() + 1 {
        match tokio::time::timeout(DEADLINE, events.recv()).await {
            Ok(Some(RegistryEvent::ToolDisposed { name, .. })) => disposed.push(name),
            other => panic!("expected a disposal, got {other:?}"),
        }
    }
    assert!(registry.schemas().is_empty());
    assert!(!is_running(pid), "closing the client ends the server");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_the_client_leaves_no_server_process_behind() {
    let (registry, client, _) = imported().await;
    let pid = server_pid(&registry).await;
    assert!(is_running(pid));
    drop(client);
    tokio::time::timeout(DEADLINE, async {
        while is_running(pid) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the child process ends after the client is dropped");
    assert!(registry.schemas().is_empty(), "its tools are disposed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_the_server_redefines_is_held_and_its_pinned_schema_enforced_until_accepted() {
    let (registry, client, _) = imported().await;
    let pinned = registry.get("py-tools__fail").expect("imported");
    let (pinned_description, pinned_parameters) =
        (pinned.description().to_owned(), pinned.parameters().clone());
    assert_eq!(pinned_description, "Always fails, with the given reason.");
    let (sender, mut events) = mpsc::unbounded_channel();
    let _listener = registry.on_change(move |event| {
        let _ = sender.send(event.clone());
    });
    let redefined = run(&registry, "py-tools__redefine", json!({})).await;
    assert_eq!(redefined.text(), "fail redefined");
    let event = tokio::time::timeout(DEADLINE, events.recv())
        .await
        .expect("the re-sync reviews the redefined tool")
        .expect("the registry is alive");
    assert_eq!(
        event,
        RegistryEvent::DefinitionReviewed {
            name: "py-tools__fail".to_owned(),
            agent: None,
            server: "py-tools".to_owned(),
            // The SDK titles both schemas after the function, so the output schema differs too.
            changes: vec![
                DefinitionChange::Description,
                DefinitionChange::InputSchema,
                DefinitionChange::OutputSchema
            ],
            decision: DefinitionDecision::Held,
        }
    );
    // The pinned definition is what the model sees, and what calls are checked against.
    let shown = registry
        .schemas()
        .iter()
        .find(|schema| schema.name == "py-tools__fail")
        .cloned()
        .expect("still listed");
    assert_eq!(shown.description, pinned_description);
    assert_eq!(*shown.parameters, pinned_parameters);
    let refused = run(&registry, "py-tools__fail", json!({"reason": 28})).await;
    assert_eq!(
        refused.text(),
        r#"Error: invalid arguments: "reason" must be a string"#
    );
    let held = client.held_changes();
    assert_eq!(held.len(), 1);
    assert_eq!(held[0].name, "py-tools__fail");
    assert_eq!(
        held[0].offered.description.as_deref(),
        Some("Always fails, with the given error number.")
    );

    client
        .decide_change("py-tools__fail", true)
        .expect("accepts");
    let mut seen = Vec::new();
    while seen.len() < 3 {
        seen.push(
            tokio::time::timeout(DEADLINE, events.recv())
                .await
                .expect("the replacement is announced")
                .expect("the registry is alive"),
        );
    }
    assert_eq!(
        seen,
        [
            RegistryEvent::ToolDisposed {
                name: "py-tools__fail".to_owned(),
                agent: None
            },
            RegistryEvent::ToolRegistered {
                name: "py-tools__fail".to_owned(),
                agent: None
            },
            RegistryEvent::DefinitionReviewed {
                name: "py-tools__fail".to_owned(),
                agent: None,
                server: "py-tools".to_owned(),
                changes: vec![
                    DefinitionChange::Description,
                    DefinitionChange::InputSchema,
                    DefinitionChange::OutputSchema
                ],
                decision: DefinitionDecision::Accepted,
            },
        ]
    );
    let failed = run(&registry, "py-tools__fail", json!({"reason": 28})).await;
    assert!(failed.is_error());
    assert!(failed.text().contains("error 28"), "{}", failed.text());
    assert_eq!(
        client.pins().tools()["fail"].definition["description"],
        "Always fails, with the given error number."
    );
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_negotiates_2026_07_28_with_a_server_that_speaks_it_when_asked_to() {
    let plain = connect().await;
    assert_eq!(plain.protocol_version.as_deref(), Some("2025-11-25"));
    plain.close().await;

    let mut command = tokio::process::Command::new(python::python_with_mcp());
    command.arg(python::script("import_server.py"));
    let lifecycle = ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        legacy_version: None,
    };
    let client = tokio::time::timeout(
        DEADLINE,
        McpClient::connect_stdio(
            command,
            ConnectOptions {
                lifecycle,
                ..ConnectOptions::default()
            },
        ),
    )
    .await
    .expect("the Python server starts in time")
    .expect("the Python server is discovered");
    assert_eq!(client.protocol_version.as_deref(), Some("2026-07-28"));
    let registry = ToolRegistry::new();
    let _ = client
        .import_into(&registry, ImportOptions::default())
        .await
        .expect("imports");
    let forecast = run(&registry, "py-tools__forecast", json!({"city": "Paris"})).await;
    assert_eq!(
        forecast.value(),
        Some(&json!({"city": "Paris", "temperature": 21.5, "conditions": "sunny for 1 day(s)"}))
    );
    let pid = run(&registry, "py-tools__pid", json!({})).await;
    assert!(!pid.is_error(), "{}", pid.text());
    // The server's declared output is the imported tool's, and its value passed it.
    assert!(pid.value().expect("a value")["result"].is_u64());
    let declared = registry
        .get("py-tools__pid")
        .and_then(|definition| {
            definition
                .output_schema()
                .map(|schema| schema.schema().to_json_schema())
        })
        .expect("an output schema");
    assert_eq!(declared["properties"]["result"]["type"], "integer");
    client.close().await;
}
