//! Scale-out of the streamable HTTP server: two server processes in stateless mode behind a
//! round-robin proxy on loopback, a client importing and calling through it, its requests
//! answered by both processes; and why stateless mode is needed for that: behind the same proxy,
//! servers that keep sessions refuse the requests of a session another process opened, and the
//! client's call ends with an error, not a hang. A stateless server makes no requests of its
//! client: an `ask` is not sent to it as an elicitation (which nothing could carry) but denied
//! at once, as for a client without elicitation. A client on multi-round-trip requests is asked
//! in the response itself (`InputRequiredResult`), and its retry, which the other process
//! answers, counts only when the processes share the secret of the request state.

use std::net::SocketAddr;
use std::process::Stdio;
use std::time::Duration;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use dsh_tools::mcp::{ConnectOptions, ImportOptions, McpClient};
use dsh_tools::{ToolExecutionInput, ToolRegistry, json};
use dsh_tools_tests::mcp_fixture;
use dsh_tools_tests::round_robin::RoundRobin;
use rmcp::model::ProtocolVersion;
use rmcp::service::ClientLifecycleMode;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

const DEADLINE: Duration = Duration::from_secs(30);

/// A server process serving HTTP on a free loopback port, and its address.
async fn server(instance: &str, stateless: bool) -> (Child, SocketAddr) {
    server_with(instance, stateless, &[]).await
}

async fn server_with(instance: &str, stateless: bool, extra: &[&str]) -> (Child, SocketAddr) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcp_test_server"));
    command.args(["--http", "127.0.0.1:0", "--instance", instance]);
    command.args(extra);
    if stateless {
        command.arg("--stateless");
    }
    let mut child = command
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the test server starts");
    let stdout = child.stdout.take().expect("its stdout");
    let mut line = String::new();
    tokio::time::timeout(DEADLINE, BufReader::new(stdout).read_line(&mut line))
        .await
        .expect("the server says where it listens")
        .expect("reads its stdout");
    let addr = line
        .trim()
        .strip_prefix("http://")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .and_then(|addr| addr.parse().ok())
        .unwrap_or_else(|| panic!("not a URL: {line:?}"));
    (child, addr)
}

async fn call(
    registry: &ToolRegistry,
    name: &str,
    arguments: dsh_tools::Value,
) -> dsh_tools::ToolExecutionResult {
    tokio::time::timeout(
        DEADLINE,
        registry.execute(ToolExecutionInput::new("c", name.to_owned(), arguments)),
    )
    .await
    .expect("the call ends")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_calls_through_two_stateless_server_processes() {
    let (_a, first) = server("a", true).await;
    let (_b, second) = server("b", true).await;
    let proxy = RoundRobin::start(vec![first, second]).await;
    let client = McpClient::connect_http(
        &format!("http://{}/mcp", proxy.addr()),
        ConnectOptions::default(),
    )
    .await
    .expect("connects through the proxy");
    let local = ToolRegistry::new();
    client
        .import_into(
            &local,
            ImportOptions {
                prefix: Some("remote".into()),
                ..ImportOptions::default()
            },
        )
        .await
        .expect("imports");
    let mut answered = Vec::new();
    for _ in 0..6 {
        let result = call(&local, "remote__server_instance", json!({})).await;
        answered.push(
            result
                .value()
                .and_then(|value| value.as_str())
                .unwrap_or_else(|| panic!("a name: {}", result.text()))
                .to_owned(),
        );
    }
    assert!(
        answered.iter().any(|name| name == "a") && answered.iter().any(|name| name == "b"),
        "both processes answered: {answered:?}"
    );
    // A real call, whichever process takes it.
    let result = call(
        &local,
        "remote__search_files",
        mcp_fixture::workload()["valid_args"].clone(),
    )
    .await;
    assert_eq!(
        result.value(),
        Some(&json!({"path": "/src", "pattern": "fn main", "count": 7})),
        "{}",
        result.text()
    );
    let served = proxy.served();
    assert!(served.iter().all(|&count| count >= 3), "{served:?}");
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_with_sessions_behind_a_round_robin_refuse_the_others_session() {
    let (_a, first) = server("a", false).await;
    let (_b, second) = server("b", false).await;
    let proxy = RoundRobin::start(vec![first, second]).await;
    let url = format!("http://{}/mcp", proxy.addr());
    let outcome = tokio::time::timeout(DEADLINE, async {
        let client = McpClient::connect_http(&url, ConnectOptions::default()).await?;
        let local = ToolRegistry::new();
        client
            .import_into(
                &local,
                ImportOptions {
                    prefix: Some("remote".into()),
                    ..ImportOptions::default()
                },
            )
            .await?;
        let mut codes = Vec::new();
        for _ in 0..4 {
            let result = call(&local, "remote__server_instance", json!({})).await;
            codes.push(result.error_code().map(str::to_owned));
        }
        Ok::<_, dsh_tools::mcp::McpError>(codes)
    })
    .await
    .expect("nothing hangs");
    match outcome {
        // The session opened on one process is unknown to the other: the import, or the calls
        // that reach the other process, fail.
        Err(_) => {}
        Ok(codes) => assert!(
            codes
                .iter()
                .any(|code| code.as_deref() == Some("MCP_TRANSPORT")),
            "{codes:?}"
        ),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateless_server_denies_an_ask_instead_of_asking_the_client() {
    let (_a, addr) = server_with("a", true, &["--ask", "server_instance"]).await;
    let client = McpClient::connect_http(&format!("http://{addr}/mcp"), ConnectOptions::default())
        .await
        .expect("connects");
    // The client declares elicitation and would approve: it is never asked.
    client.set_elicitation_handler(|_: dsh_tools::mcp::ElicitationRequest| async {
        panic!("a stateless server sent an elicitation request")
    });
    let local = ToolRegistry::new();
    client
        .import_into(
            &local,
            ImportOptions {
                prefix: Some("remote".into()),
                ..ImportOptions::default()
            },
        )
        .await
        .expect("imports");
    let result = call(&local, "remote__server_instance", json!({})).await;
    assert_eq!(result.error_code(), Some("DENIED"), "{}", result.text());
    assert!(
        result.text().contains(mcp_fixture::ASK_REASON),
        "the hook's reason: {}",
        result.text()
    );
    client.close().await;
}

/// Our client on the per-request protocol through `proxy`, importing with prefix `remote`, its
/// elicitation handler approving every question and counting them.
async fn round_trip_client(proxy: &RoundRobin) -> (McpClient, ToolRegistry, Arc<AtomicUsize>) {
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    let url = format!("http://{}/mcp", proxy.addr());
    let client = tokio::time::timeout(
        DEADLINE,
        McpClient::connect_http(
            &url,
            ConnectOptions {
                lifecycle,
                ..ConnectOptions::default()
            },
        ),
    )
    .await
    .expect("connects in time")
    .expect("discovers the servers");
    let asked = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&asked);
    client.set_elicitation_handler(move |_| {
        count.fetch_add(1, Ordering::SeqCst);
        async { mcp_fixture::decision("approve") }
    });
    let local = ToolRegistry::new();
    client
        .import_into(
            &local,
            ImportOptions {
                prefix: Some("remote".into()),
                ..ImportOptions::default()
            },
        )
        .await
        .expect("imports");
    (client, local, asked)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stateless_replicas_sharing_a_secret_take_an_approval_the_other_one_asked_for() {
    let shared = ["--ask", "server_instance", "--request-state-key", "7"];
    let (_a, first) = server_with("a", true, &shared).await;
    let (_b, second) = server_with("b", true, &shared).await;
    let proxy = RoundRobin::start(vec![first, second]).await;
    let (client, local, asked) = round_trip_client(&proxy).await;
    // One process asks; the retry reaches the other, which recognizes the state and runs.
    let result = call(&local, "remote__server_instance", json!({})).await;
    let ran = result
        .value()
        .and_then(|value| value.as_str())
        .unwrap_or_else(|| panic!("a name: {}", result.text()))
        .to_owned();
    assert!(ran == "a" || ran == "b", "{ran}");
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stateless_replicas_with_secrets_of_their_own_never_take_each_others_approvals() {
    let (_a, first) = server_with("a", true, &["--ask", "server_instance"]).await;
    let (_b, second) = server_with("b", true, &["--ask", "server_instance"]).await;
    let proxy = RoundRobin::start(vec![first, second]).await;
    let (client, local, asked) = round_trip_client(&proxy).await;
    // Every retry reaches the process that did not ask, which sees a state it did not make and
    // asks again: never approved, until the client gives up.
    let result = call(&local, "remote__server_instance", json!({})).await;
    assert_eq!(
        result.error_code(),
        Some("MCP_TRANSPORT"),
        "{}",
        result.text()
    );
    assert_eq!(
        result.text(),
        "Error: MCP server \"dsh-tools-test\" still asked for input after 10 rounds of tools/call \"server_instance\""
    );
    assert_eq!(asked.load(Ordering::SeqCst), 10);
    client.close().await;
}
