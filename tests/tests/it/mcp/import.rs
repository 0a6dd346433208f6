//! Importing an MCP server's tools, in process: our client imports the fixture registry served by
//! our own server over a duplex pipe, so every path — names, hints, content, values, errors,
//! timeouts, a server that goes away, re-syncs, closing — is checked against a server whose
//! registry the test also holds.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use dsh_tools::mcp::{
    ChangedToolPolicy, ConnectOptions, ImportOptions, McpClient, McpConnection, McpErrorKind,
    McpServer, ServerOptions,
};
use dsh_tools::{
    FnTool, PreToolDecision, ToolError, ToolExecutionInput, ToolRegistry, Value,
    call::{ToolAnnotations, ToolExecution, ToolProgress},
    errors::{ErrorCode, ErrorInfo},
    json,
    policy::CallLimits,
    registry::{DefinitionChange, DefinitionDecision, RegistryEvent},
};
use dsh_tools_tests::mcp_fixture::{self, Cancellations, Echo, media_content};
use rmcp::model as mcp;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// Only a broken bridge makes anything here wait this long.
const DEADLINE: Duration = Duration::from_secs(20);

struct Imported {
    /// The registry behind the server.
    upstream: ToolRegistry,
    cancellations: Arc<Cancellations>,
    /// The registry the tools were imported into.
    local: ToolRegistry,
    client: McpClient,
    _connection: McpConnection,
    /// The pipe between client and server; aborting it is a server that vanished.
    wire: tokio::task::JoinHandle<()>,
    names: Vec<String>,
}

async fn imported(options: ImportOptions) -> Imported {
    let (upstream, cancellations) = mcp_fixture::registry();
    let server = McpServer::new(&upstream).with_options(ServerOptions {
        name: "fixture server".into(),
        ..ServerOptions::default()
    });
    let (server_end, mut near) = tokio::io::duplex(1 << 16);
    let (mut far, client_end) = tokio::io::duplex(1 << 16);
    let wire = tokio::spawn(async move {
        let _ = tokio::io::copy_bidirectional(&mut near, &mut far).await;
    });
    let (connection, client) = tokio::join!(
        server.serve(server_end),
        McpClient::connect(client_end, ConnectOptions::default())
    );
    let connection = connection.expect("the server completes the handshake");
    let client = client.expect("the client completes the handshake");
    let local = ToolRegistry::new();
    let names = client
        .import_into(&local, options)
        .await
        .expect("imports every tool");
    Imported {
        upstream,
        cancellations,
        local,
        client,
        _connection: connection,
        wire,
        names,
    }
}

async fn run(registry: &ToolRegistry, input: ToolExecutionInput) -> dsh_tools::ToolExecutionResult {
    tokio::time::timeout(DEADLINE, registry.execute(input))
        .await
        .expect("the call ends")
}

fn changes(registry: &ToolRegistry) -> mpsc::UnboundedReceiver<RegistryEvent> {
    let (sender, receiver) = mpsc::unbounded_channel();
    let _listener = registry.on_change(move |event| {
        let _ = sender.send(event.clone());
    });
    receiver
}

/// What a re-sync announces after registering a tool it had not pinned (the default policy
/// accepts it).
fn accepted_new(name: &str) -> RegistryEvent {
    RegistryEvent::DefinitionReviewed {
        name: name.to_owned(),
        agent: None,
        server: "fixture server".to_owned(),
        changes: Vec::new(),
        decision: DefinitionDecision::Accepted,
    }
}

async fn next_event(events: &mut mpsc::UnboundedReceiver<RegistryEvent>) -> RegistryEvent {
    tokio::time::timeout(DEADLINE, events.recv())
        .await
        .expect("a change event arrives")
        .expect("the registry is alive")
}

#[tokio::test]
async fn every_tool_is_imported_under_the_server_prefix_with_its_schema_and_hints() {
    let setup = imported(ImportOptions::default()).await;
    assert_eq!(setup.client.server_name, "fixture server");
    let upstream = setup.upstream.schemas();
    let expected: Vec<String> = upstream
        .iter()
        .map(|schema| format!("fixture_server__{}", schema.name))
        .collect();
    assert_eq!(setup.names, expected);
    let local = setup.local.schemas();
    for (local, upstream) in local.iter().zip(upstream.iter()) {
        assert_eq!(local.description, upstream.description);
        let (local_parameters, upstream_parameters): (&Value, &Value) =
            (&local.parameters, &upstream.parameters);
        assert_eq!(
            serde_json::to_string(local_parameters).expect("serializes"),
            serde_json::to_string(upstream_parameters).expect("serializes"),
            "the server's inputSchema is shown unchanged"
        );
    }
    let search = setup
        .local
        .get("fixture_server__search_files")
        .expect("imported");
    assert_eq!(
        search.options().annotations,
        ToolAnnotations {
            read_only: Some(true),
            idempotent: Some(true),
            open_world: Some(false),
            ..ToolAnnotations::default()
        }
    );
    let media = setup.local.get("fixture_server__media").expect("imported");
    assert_eq!(
        media.options().annotations.title.as_deref(),
        Some("Media sampler")
    );
    assert_eq!(
        search.options().timeout_ms,
        Some(60_000),
        "a minute unless the options say otherwise"
    );
    assert!(
        !search.is_concurrency_safe(&json!({})),
        "exclusive unless the options say so"
    );
}

#[tokio::test]
async fn options_set_the_prefix_the_budget_and_concurrency() {
    let setup = imported(ImportOptions {
        prefix: Some("fx".into()),
        timeout_ms: Some(1_500),
        concurrency_safe: true,
        ..ImportOptions::default()
    })
    .await;
    assert!(setup.names.iter().all(|name| name.starts_with("fx__")));
    let tool = setup.local.get("fx__slow").expect("imported");
    assert_eq!(tool.options().timeout_ms, Some(1_500));
    assert!(tool.is_concurrency_safe(&json!({})));
    let bare = imported(ImportOptions {
        prefix: Some("".into()),
        ..ImportOptions::default()
    })
    .await;
    assert!(bare.names.contains(&"slow".to_owned()));
}

#[tokio::test]
async fn calls_map_content_values_and_errors_back() {
    let setup = imported(ImportOptions {
        prefix: Some("fx".into()),
        ..ImportOptions::default()
    })
    .await;
    let media = run(
        &setup.local,
        ToolExecutionInput::new("c1", "fx__media", json!({})),
    )
    .await;
    assert!(!media.is_error());
    assert_eq!(
        media.content(),
        media_content().as_slice(),
        "content maps back 1:1"
    );
    assert_eq!(
        media.value(),
        Some(&json!("one of each")),
        "without structured content, the text"
    );

    let workload = mcp_fixture::workload();
    let found = run(
        &setup.local,
        ToolExecutionInput::new("c2", "fx__search_files", workload["valid_args"].clone()),
    )
    .await;
    assert_eq!(
        found.value(),
        Some(&json!({"path": "/src", "pattern": "fn main", "count": 7})),
        "structuredContent is the value"
    );
    assert_eq!(found.text(), r#"7 matches for "fn main" under /src"#);

    let invalid = workload["invalid_args"].clone();
    let direct = setup
        .upstream
        .execute(ToolExecutionInput::new(
            "d",
            "search_files",
            invalid.clone(),
        ))
        .await;
    let refused = run(
        &setup.local,
        ToolExecutionInput::new("c3", "fx__search_files", invalid),
    )
    .await;
    assert!(refused.is_error());
    assert_eq!(refused.text(), direct.text(), "the server's text, exactly");
    assert_eq!(
        refused.error().and_then(|error| error.info()),
        direct.error().and_then(|error| error.info()),
        "the server's name and code, read back from the result's _meta"
    );
    assert_eq!(refused.error_code(), Some(ErrorCode::InvalidArgs.as_str()));

    let not_an_object = run(
        &setup.local,
        ToolExecutionInput::new("c4", "fx__media", json!([1])),
    )
    .await;
    assert_eq!(
        not_an_object.error_code(),
        Some(ErrorCode::InvalidArgs.as_str())
    );
}

#[tokio::test]
async fn imported_calls_go_through_the_whole_pipeline() {
    let setup = imported(ImportOptions {
        prefix: Some("fx".into()),
        ..ImportOptions::default()
    })
    .await;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let _hook = setup
        .local
        .on_pre_execute(move |call: ToolExecution, next| {
            log.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(call.name().to_owned());
            async move {
                if call.arguments()["text"] == "deny me" {
                    return Ok(PreToolDecision::Deny {
                        reason: "not this text".to_owned(),
                    });
                }
                next.run().await
            }
        });
    let _guard = setup
        .local
        .guard(|call| (call.name() == "fx__call_id").then(|| "no ids today".to_owned()));
    let denied = run(
        &setup.local,
        ToolExecutionInput::new("c1", "fx__call_id", json!({})),
    )
    .await;
    assert_eq!(denied.text(), "Error: no ids today");
    let _late = setup
        .upstream
        .register(Echo::named("echo"))
        .expect("registers");
    setup.client.resync().await.expect("re-syncs");
    let refused = run(
        &setup.local,
        ToolExecutionInput::new("c2", "fx__echo", json!({"text": "deny me"})),
    )
    .await;
    assert_eq!(refused.text(), "Error: not this text");
    assert_eq!(
        *seen.lock().unwrap_or_else(PoisonError::into_inner),
        ["fx__call_id", "fx__echo"]
    );
}

/// Runs `fx__slow` with `steps` reports and returns the progress values the caller's sink had
/// received when the call returned.
async fn progress_seen_by_the_result(local: &ToolRegistry, steps: u32, delay_ms: u64) -> Vec<f64> {
    let reports = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&reports);
    let input = ToolExecutionInput::new(
        "c1",
        "fx__slow",
        json!({"steps": steps, "delay_ms": delay_ms}),
    )
    .with_progress(move |_: &ToolExecution, report: ToolProgress| {
        sink.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(report.progress);
    });
    let done = run(local, input).await;
    assert_eq!(done.text(), format!("done after {steps} steps"));
    reports
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
}

#[tokio::test]
async fn progress_of_an_imported_call_reaches_the_callers_sink_in_order_before_the_result() {
    let setup = imported(ImportOptions {
        prefix: Some("fx".into()),
        ..ImportOptions::default()
    })
    .await;
    let seen = progress_seen_by_the_result(&setup.local, 3, 5).await;
    assert_eq!(seen, [1.0, 2.0, 3.0]);
}

/// The client reads each report off the wire before it reads the result, so none can arrive
/// late, however busy the runtime's threads are.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_progress_report_arrives_after_the_result_on_a_multi_threaded_runtime() {
    let setup = imported(ImportOptions {
        prefix: Some("fx".into()),
        ..ImportOptions::default()
    })
    .await;
    for _ in 0..30 {
        let seen = progress_seen_by_the_result(&setup.local, 4, 0).await;
        assert_eq!(seen, [1.0, 2.0, 3.0, 4.0]);
    }
}

async fn wait_for_cancellation(cancellations: &Cancellations) {
    tokio::time::timeout(DEADLINE, async {
        while cancellations.count() == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the server's body sees its signal cancelled");
}

#[tokio::test]
async fn the_calls_signal_cancels_the_server_side_call() {
    let setup = imported(ImportOptions {
        prefix: Some("fx".into()),
        ..ImportOptions::default()
    })
    .await;
    let signal = CancellationToken::new();
    let (started, mut first_report) = mpsc::unbounded_channel();
    let input = ToolExecutionInput::new("c1", "fx__slow", json!({"steps": 100_000, "delay_ms": 5}))
        .with_signal(signal.clone())
        .with_progress(move |_: &ToolExecution, _: ToolProgress| {
            let _ = started.send(());
        });
    let call = tokio::spawn(setup.local.execute(input));
    tokio::time::timeout(DEADLINE, first_report.recv())
        .await
        .expect("the server reports progress");
    signal.cancel();
    let result = tokio::time::timeout(DEADLINE, call)
        .await
        .expect("the call ends")
        .expect("no panic");
    assert_eq!(result.error_code(), Some(ErrorCode::Aborted.as_str()));
    wait_for_cancellation(&setup.cancellations).await;
}

#[tokio::test]
async fn a_hung_server_ends_in_the_budget_as_a_timeout_and_the_server_is_told() {
    let setup = imported(ImportOptions {
        prefix: Some("fx".into()),
        timeout_ms: Some(100),
        ..ImportOptions::default()
    })
    .await;
    // The registry enforces the import's budget by default.
    setup.local.set_limits(CallLimits {
        timeout_grace: Duration::from_millis(100),
        ..CallLimits::default()
    });
    let result = run(
        &setup.local,
        ToolExecutionInput::new("c1", "fx__slow", json!({"steps": 1, "delay_ms": 60_000})),
    )
    .await;
    assert_eq!(result.error_code(), Some(ErrorCode::ToolTimeout.as_str()));
    assert_eq!(result.text(), "Error: tool call timed out after 100ms");
    wait_for_cancellation(&setup.cancellations).await;
}

#[tokio::test]
async fn with_timeouts_turned_off_a_hung_server_is_still_an_mcp_transport_error() {
    let setup = imported(ImportOptions {
        prefix: Some("fx".into()),
        timeout_ms: Some(50),
        ..ImportOptions::default()
    })
    .await;
    setup.local.set_limits(CallLimits {
        enforce_timeouts: false,
        ..CallLimits::default()
    });
    let result = run(
        &setup.local,
        ToolExecutionInput::new("c1", "fx__slow", json!({"steps": 1, "delay_ms": 60_000})),
    )
    .await;
    assert_eq!(result.error_code(), Some(ErrorCode::McpTransport.as_str()));
    assert_eq!(
        result.text(),
        r#"Error: MCP server "fixture server" did not answer tools/call "slow" within 50 ms"#
    );
    wait_for_cancellation(&setup.cancellations).await;
}

#[tokio::test]
async fn a_server_that_goes_away_mid_call_is_an_mcp_transport_error() {
    let setup = imported(ImportOptions {
        prefix: Some("fx".into()),
        ..ImportOptions::default()
    })
    .await;
    let (started, mut first_report) = mpsc::unbounded_channel();
    let input = ToolExecutionInput::new("c1", "fx__slow", json!({"steps": 100_000, "delay_ms": 5}))
        .with_progress(move |_: &ToolExecution, _: ToolProgress| {
            let _ = started.send(());
        });
    let call = tokio::spawn(setup.local.execute(input));
    tokio::time::timeout(DEADLINE, first_report.recv())
        .await
        .expect("the server reports progress");
    setup.wire.abort();
    let result = tokio::time::timeout(DEADLINE, call)
        .await
        .expect("the call ends")
        .expect("no panic");
    assert_eq!(result.error_code(), Some(ErrorCode::McpTransport.as_str()));
    assert!(
        result
            .text()
            .contains(r#"the connection to MCP server "fixture server" is closed"#),
        "{}",
        result.text()
    );
    let later = run(
        &setup.local,
        ToolExecutionInput::new("c2", "fx__media", json!({})),
    )
    .await;
    assert_eq!(later.error_code(), Some(ErrorCode::McpTransport.as_str()));
}

#[tokio::test]
async fn list_changed_re_syncs_added_removed_and_changed_tools() {
    // Changed definitions are taken as they come here; `pinning.rs` tests the other policies.
    let setup = imported(ImportOptions {
        prefix: Some("fx".into()),
        changed_tools: ChangedToolPolicy::Accept,
        ..ImportOptions::default()
    })
    .await;
    let mut events = changes(&setup.local);

    let added = setup
        .upstream
        .register(Echo::named("late"))
        .expect("registers");
    assert_eq!(
        next_event(&mut events).await,
        RegistryEvent::ToolRegistered {
            name: "fx__late".to_owned(),
            agent: None
        }
    );
    assert_eq!(next_event(&mut events).await, accepted_new("fx__late"));
    let echoed = run(
        &setup.local,
        ToolExecutionInput::new("c1", "fx__late", json!({"text": "hi"})),
    )
    .await;
    assert_eq!(echoed.text(), "hi");

    added.dispose();
    assert_eq!(
        next_event(&mut events).await,
        RegistryEvent::ToolDisposed {
            name: "fx__late".to_owned(),
            agent: None
        }
    );

    // The same name with another description: replaced.
    let original = setup
        .upstream
        .register(Echo::named("changing"))
        .expect("registers");
    assert!(matches!(
        next_event(&mut events).await,
        RegistryEvent::ToolRegistered { .. }
    ));
    assert_eq!(next_event(&mut events).await, accepted_new("fx__changing"));
    original.dispose();
    let _replacement = setup
        .upstream
        .register(Echo::described("changing", "Echo the text back (again)."))
        .expect("registers");
    // One re-sync or two (removed, then listed again): the same three events.
    let mut seen = vec![
        next_event(&mut events).await,
        next_event(&mut events).await,
        next_event(&mut events).await,
    ];
    seen.sort_by_key(|event| format!("{event:?}"));
    assert_eq!(
        seen,
        [
            RegistryEvent::DefinitionReviewed {
                name: "fx__changing".to_owned(),
                agent: None,
                server: "fixture server".to_owned(),
                changes: vec![DefinitionChange::Description],
                decision: DefinitionDecision::Accepted,
            },
            RegistryEvent::ToolDisposed {
                name: "fx__changing".to_owned(),
                agent: None
            },
            RegistryEvent::ToolRegistered {
                name: "fx__changing".to_owned(),
                agent: None
            },
        ]
    );
    assert_eq!(
        setup
            .local
            .get("fx__changing")
            .expect("replaced")
            .description(),
        "Echo the text back (again)."
    );
}

#[tokio::test]
async fn a_re_sync_registers_every_new_tool_whose_name_is_free() {
    let setup = imported(ImportOptions {
        prefix: Some("fx".into()),
        ..ImportOptions::default()
    })
    .await;
    let _taken = setup
        .local
        .register(Echo::described("fx__first", "Kept: registered here first."))
        .expect("registers");
    let mut events = changes(&setup.local);
    let _added = setup
        .upstream
        .register_all([Echo::named("first"), Echo::named("second")])
        .expect("registers");
    assert_eq!(
        next_event(&mut events).await,
        RegistryEvent::ToolRegistered {
            name: "fx__second".to_owned(),
            agent: None
        },
        "the batch is refused as a whole, then the free name is taken one by one"
    );
    // Both were new and accepted (and pinned); `fx__first` could not take its name.
    assert_eq!(next_event(&mut events).await, accepted_new("fx__first"));
    assert_eq!(next_event(&mut events).await, accepted_new("fx__second"));
    assert_eq!(
        setup
            .local
            .get("fx__first")
            .expect("still the local tool")
            .description(),
        "Kept: registered here first."
    );
    let echoed = run(
        &setup.local,
        ToolExecutionInput::new("c1", "fx__second", json!({"text": "hi"})),
    )
    .await;
    assert_eq!(echoed.text(), "hi");
}

#[tokio::test]
async fn closing_the_client_disposes_every_imported_tool() {
    let setup = imported(ImportOptions {
        prefix: Some("fx".into()),
        ..ImportOptions::default()
    })
    .await;
    let mut events = changes(&setup.local);
    let count = setup.names.len();
    setup.client.close().await;
    let mut disposed = Vec::new();
    for _ in 0..count {
        match next_event(&mut events).await {
            RegistryEvent::ToolDisposed { name, .. } => disposed.push(name),
            other => panic!("unexpected {other:?}"),
        }
    }
    disposed.sort();
    assert_eq!(disposed, setup.names);
    assert!(setup.local.schemas().is_empty());
}

#[tokio::test]
async fn an_import_into_a_scope_stays_in_the_scope() {
    let setup = imported(ImportOptions {
        prefix: Some("fx".into()),
        ..ImportOptions::default()
    })
    .await;
    let scope = setup.local.create_child("agent").expect("scope");
    let names = setup
        .client
        .import_into(
            &scope,
            ImportOptions {
                prefix: Some("scoped".into()),
                ..ImportOptions::default()
            },
        )
        .await
        .expect("imports");
    assert!(names.iter().all(|name| name.starts_with("scoped__")));
    assert!(setup.local.get("scoped__media").is_none());
    let result = scope
        .execute(ToolExecutionInput::new("c1", "scoped__call_id", json!({})))
        .await;
    assert!(!result.is_error(), "{}", result.text());
}

#[tokio::test]
async fn a_name_taken_in_the_registry_refuses_the_whole_import() {
    let (upstream, _) = mcp_fixture::registry();
    let server = McpServer::new(&upstream);
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let (_connection, client) = tokio::join!(
        server.serve(server_end),
        McpClient::connect(client_end, ConnectOptions::default())
    );
    let client = client.expect("connects");
    let local = ToolRegistry::new();
    let _taken = local.register(Echo::named("fx__media")).expect("registers");
    let error = client
        .import_into(
            &local,
            ImportOptions {
                prefix: Some("fx".into()),
                ..ImportOptions::default()
            },
        )
        .await
        .expect_err("the name is taken");
    assert_eq!(error.kind, McpErrorKind::Registry);
    assert!(error.to_string().contains(r#""fx__media""#), "{error}");
    let names: Vec<String> = local
        .schemas()
        .iter()
        .map(|schema| schema.name.clone())
        .collect();
    assert_eq!(names, ["fx__media"], "nothing of the import stays");
}

#[tokio::test]
async fn an_imported_tool_s_own_error_code_comes_back_with_it() {
    let setup = imported(ImportOptions {
        prefix: Some("fx".into()),
        ..ImportOptions::default()
    })
    .await;
    let mut events = changes(&setup.local);
    let _full = setup
        .upstream
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
    assert!(matches!(
        next_event(&mut events).await,
        RegistryEvent::ToolRegistered { .. }
    ));
    assert_eq!(next_event(&mut events).await, accepted_new("fx__full_disk"));
    let failed = run(
        &setup.local,
        ToolExecutionInput::new("c1", "fx__full_disk", json!({})),
    )
    .await;
    assert_eq!(failed.text(), "Error: no space left on device");
    assert_eq!(
        failed.error().and_then(|error| error.info()),
        Some(&ErrorInfo {
            name: "IoError".into(),
            code: "ENOSPC".into(),
        })
    );
}

/// A server of another make: one tool, `fail`, whose error result carries `meta` as its `_meta`.
struct PlainServer {
    meta: Option<mcp::MetaObject>,
}

impl rmcp::handler::server::ServerHandler for PlainServer {
    fn get_info(&self) -> mcp::ServerConfig {
        mcp::ServerConfig::new(mcp::ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<mcp::PaginatedRequestParams>,
        _context: rmcp::service::RequestContext<rmcp::service::RoleServer>,
    ) -> Result<mcp::ListToolsResult, rmcp::ErrorData> {
        let schema = serde_json::Map::from_iter([("type".to_owned(), json!("object"))]);
        Ok(mcp::ListToolsResult::with_all_items(vec![mcp::Tool::new(
            "fail",
            "Fails.",
            Arc::new(schema),
        )]))
    }

    async fn call_tool(
        &self,
        _request: mcp::CallToolRequestParams,
        _context: rmcp::service::RequestContext<rmcp::service::RoleServer>,
    ) -> Result<mcp::CallToolResponse, rmcp::ErrorData> {
        let mut result = mcp::CallToolResult::error(vec![mcp::ContentBlock::text("it broke")]);
        result.meta = self.meta.clone();
        Ok(result.into())
    }
}

/// The error `fail` of a [`PlainServer`] with `meta` becomes when imported and called.
async fn imported_failure(meta: Option<Value>) -> dsh_tools::ToolExecutionResult {
    let meta = meta.map(|meta| match meta {
        Value::Object(object) => mcp::MetaObject(object),
        _ => panic!("_meta is an object"),
    });
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let serving = tokio::spawn(rmcp::serve_server(PlainServer { meta }, server_end));
    let client = McpClient::connect(client_end, ConnectOptions::default())
        .await
        .expect("connects");
    let _server = serving.await.expect("serve task").expect("handshake");
    let local = ToolRegistry::new();
    let _ = client
        .import_into(
            &local,
            ImportOptions {
                prefix: Some("plain".into()),
                ..ImportOptions::default()
            },
        )
        .await
        .expect("imports");
    run(
        &local,
        ToolExecutionInput::new("c1", "plain__fail", json!({})),
    )
    .await
}

#[tokio::test]
async fn without_an_error_meta_an_imported_failure_is_a_tool_error() {
    let plain = imported_failure(None).await;
    assert_eq!(plain.text(), "Error: it broke");
    assert_eq!(plain.error_code(), Some(ErrorCode::ToolError.as_str()));
    // Other keys, or a pair that is not two non-empty strings, are not a code.
    for meta in [
        json!({"com.example/error": {"name": "X", "code": "Y"}}),
        json!({"dsh-tools/error": {"name": "X"}}),
        json!({"dsh-tools/error": {"name": "X", "code": 7}}),
        json!({"dsh-tools/error": {"name": "", "code": "Y"}}),
        json!({"dsh-tools/error": "X/Y"}),
    ] {
        let result = imported_failure(Some(meta.clone())).await;
        assert_eq!(
            result.error_code(),
            Some(ErrorCode::ToolError.as_str()),
            "{meta}"
        );
    }
    let coded = imported_failure(Some(
        json!({"dsh-tools/error": {"name": "QuotaError", "code": "QUOTA"}}),
    ))
    .await;
    assert_eq!(coded.error_code(), Some("QUOTA"));
    assert_eq!(coded.text(), "Error: it broke");
}

/// How many calls `upstream` has served so far, counted from now on.
fn served_calls(upstream: &ToolRegistry) -> Arc<AtomicUsize> {
    let served = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&served);
    let _ = upstream.on_result(
        move |_: &ToolExecution, _: &dsh_tools::ToolExecutionResult| {
            count.fetch_add(1, Ordering::SeqCst);
        },
    );
    served
}

#[tokio::test]
async fn arguments_can_be_checked_against_the_input_schema_before_the_call_is_sent() {
    let setup = imported(ImportOptions {
        prefix: Some("fx".into()),
        validate_arguments: true,
        ..ImportOptions::default()
    })
    .await;
    let served = served_calls(&setup.upstream);
    let workload = mcp_fixture::workload();
    let invalid = workload["invalid_args"].clone();
    let direct = setup
        .upstream
        .execute(ToolExecutionInput::new(
            "d",
            "search_files",
            invalid.clone(),
        ))
        .await;
    let served_before = served.load(Ordering::SeqCst);
    let refused = run(
        &setup.local,
        ToolExecutionInput::new("c1", "fx__search_files", invalid),
    )
    .await;
    assert_eq!(refused.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
    // Every violation, in the words the server itself would have used, and no round trip.
    assert_eq!(refused.text(), direct.text());
    assert_eq!(
        served.load(Ordering::SeqCst),
        served_before,
        "the server was not called"
    );
    let found = run(
        &setup.local,
        ToolExecutionInput::new("c2", "fx__search_files", workload["valid_args"].clone()),
    )
    .await;
    assert!(!found.is_error(), "{}", found.text());
    assert_eq!(served.load(Ordering::SeqCst), served_before + 1);
}

#[tokio::test]
async fn by_default_the_server_checks_its_own_arguments() {
    let setup = imported(ImportOptions {
        prefix: Some("fx".into()),
        ..ImportOptions::default()
    })
    .await;
    let served = served_calls(&setup.upstream);
    let invalid = mcp_fixture::workload()["invalid_args"].clone();
    let refused = run(
        &setup.local,
        ToolExecutionInput::new("c1", "fx__search_files", invalid),
    )
    .await;
    assert_eq!(refused.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
    assert_eq!(served.load(Ordering::SeqCst), 1);
}

/// A server of another make whose tools publish an `outputSchema` of `{"n": integer}`: `honest`
/// keeps it, `lying` breaks it, `textual` writes its value only as JSON text.
struct OutputServer;

impl rmcp::handler::server::ServerHandler for OutputServer {
    fn get_info(&self) -> mcp::ServerConfig {
        mcp::ServerConfig::new(mcp::ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<mcp::PaginatedRequestParams>,
        _context: rmcp::service::RequestContext<rmcp::service::RoleServer>,
    ) -> Result<mcp::ListToolsResult, rmcp::ErrorData> {
        let input = serde_json::Map::from_iter([("type".to_owned(), json!("object"))]);
        let Value::Object(output) = json!({
            "type": "object",
            "properties": {"n": {"type": "integer"}},
            "required": ["n"]
        }) else {
            unreachable!("an object literal")
        };
        let tools = ["honest", "lying", "textual"].map(|name| {
            mcp::Tool::new(name, "Counts.", Arc::new(input.clone()))
                .with_raw_output_schema(Arc::new(output.clone()))
        });
        Ok(mcp::ListToolsResult::with_all_items(tools.to_vec()))
    }

    async fn call_tool(
        &self,
        request: mcp::CallToolRequestParams,
        _context: rmcp::service::RequestContext<rmcp::service::RoleServer>,
    ) -> Result<mcp::CallToolResponse, rmcp::ErrorData> {
        Ok(match &*request.name {
            "honest" => mcp::CallToolResult::structured(json!({"n": 7})),
            "lying" => mcp::CallToolResult::structured(json!({"n": "seven"})),
            _ => mcp::CallToolResult::success(vec![mcp::ContentBlock::text(r#"{"n": 7}"#)]),
        }
        .into())
    }
}

#[tokio::test]
async fn an_imported_output_schema_checks_the_servers_values() {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let serving = tokio::spawn(rmcp::serve_server(OutputServer, server_end));
    let client = McpClient::connect(client_end, ConnectOptions::default())
        .await
        .expect("connects");
    let _server = serving.await.expect("serve task").expect("handshake");
    let local = ToolRegistry::new();
    let _ = client
        .import_into(
            &local,
            ImportOptions {
                prefix: Some("out".into()),
                ..ImportOptions::default()
            },
        )
        .await
        .expect("imports");
    let definition = local.get("out__honest").expect("imported");
    assert_eq!(
        definition
            .output_schema()
            .map(|schema| schema.schema().to_json_schema()),
        Some(json!({
            "type": "object",
            "properties": {"n": {"type": "integer"}},
            "required": ["n"],
            "additionalProperties": true
        }))
    );

    let honest = run(
        &local,
        ToolExecutionInput::new("c1", "out__honest", json!({})),
    )
    .await;
    assert_eq!(honest.value(), Some(&json!({"n": 7})));
    let lying = run(
        &local,
        ToolExecutionInput::new("c2", "out__lying", json!({})),
    )
    .await;
    assert_eq!(
        lying.error_code(),
        Some(ErrorCode::InvalidToolOutput.as_str())
    );
    assert_eq!(
        lying.text(),
        r#"Error: tool "out__lying" returned invalid output: "value.n" must be an integer"#
    );
    let textual = run(
        &local,
        ToolExecutionInput::new("c3", "out__textual", json!({})),
    )
    .await;
    assert_eq!(textual.value(), Some(&json!({"n": 7})));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_the_per_request_protocol_list_changes_arrive_on_a_listen_stream() {
    // The server starts only once the first request after `server/discover` arrives (the
    // client's subscription), so it serves on a task of its own.
    let (upstream, _cancellations) = mcp_fixture::registry();
    let server = McpServer::new(&upstream).with_options(ServerOptions {
        name: "fixture server".into(),
        ..ServerOptions::default()
    });
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let (connected, serving) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let connection = server.serve(server_end).await;
        let _ = connected.send(connection);
    });
    let lifecycle = rmcp::service::ClientLifecycleMode::Discover {
        preferred_versions: vec![mcp::ProtocolVersion::V_2026_07_28],
    };
    let client = tokio::time::timeout(
        DEADLINE,
        McpClient::connect(
            client_end,
            ConnectOptions {
                lifecycle,
                ..ConnectOptions::default()
            },
        ),
    )
    .await
    .expect("connects in time")
    .expect("discovers the server");
    let _connection = tokio::time::timeout(DEADLINE, serving)
        .await
        .expect("the server starts")
        .expect("the server task ran")
        .expect("the server serves");
    let local = ToolRegistry::new();
    client
        .import_into(
            &local,
            ImportOptions {
                prefix: Some("fx".into()),
                ..ImportOptions::default()
            },
        )
        .await
        .expect("imports");
    let mut events = changes(&local);

    let _late = upstream.register(Echo::named("late")).expect("registers");
    assert_eq!(
        next_event(&mut events).await,
        RegistryEvent::ToolRegistered {
            name: "fx__late".to_owned(),
            agent: None
        }
    );
    assert_eq!(next_event(&mut events).await, accepted_new("fx__late"));
    let echoed = run(
        &local,
        ToolExecutionInput::new("c1", "fx__late", json!({"text": "hi"})),
    )
    .await;
    assert_eq!(echoed.text(), "hi");
    client.close().await;
}
