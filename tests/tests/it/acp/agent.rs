//! The `acp_agent` example, driven through one prompt turn by a real ACP client (the
//! `agent-client-protocol` crate's client side) over the example's stdin and stdout: once for a
//! client with terminal support and once for one without. Every `session/update` line the agent
//! writes is validated against the vendored ACP JSON Schema, and the tool call cards the client
//! receives are checked call by call.
//!
//! The test builds the example itself (`cargo build -p dsh-tools --example acp_agent --features
//! acp`) and fails with the build's output when that does not work.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use dsh_tools::acp::protocol::schema::ProtocolVersion;
use dsh_tools::acp::protocol::v1::ConnectionTo;
use dsh_tools::acp::protocol::v1::schema::{
    ClientCapabilities, ContentBlock, InitializeRequest, NewSessionRequest, PromptRequest,
    SessionNotification, SessionUpdate, StopReason, TextContent, ToolCall, ToolCallContent,
    ToolCallStatus, ToolCallUpdate, ToolKind,
};
use dsh_tools::acp::protocol::{self, Agent, Client, Lines};
use dsh_tools_tests::acp_schema::assert_valid_session_update_line;
use futures::StreamExt as _;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
use tokio::process::Command;

/// How long one whole turn may take (the agent's tools are quick; this only bounds a hang).
const TURN_TIMEOUT: Duration = Duration::from_secs(60);

/// The example's binary, built once per test run.
fn agent_binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("the tests package sits in the workspace");
        // The workspace's own target directory (cargo releases it while tests run), so the
        // build reuses what the test build compiled.
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map_or_else(|| workspace.join("target"), PathBuf::from);
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let output = std::process::Command::new(cargo)
            .args([
                "build",
                "--quiet",
                "-p",
                "dsh-tools",
                "--example",
                "acp_agent",
                "--features",
                "acp",
            ])
            .env("CARGO_TARGET_DIR", &target)
            .current_dir(workspace)
            .output()
            .expect("cargo can be started to build the acp_agent example");
        assert!(
            output.status.success(),
            "building the acp_agent example failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let binary = target
            .join("debug")
            .join("examples")
            .join(format!("acp_agent{}", std::env::consts::EXE_SUFFIX));
        assert!(binary.exists(), "{} was not built", binary.display());
        binary
    })
}

/// What the client saw of one turn.
struct Turn {
    /// Every line the agent wrote.
    lines: Vec<String>,
    /// The `session/update` notifications, as the client parsed them.
    notifications: Vec<SessionNotification>,
    stop_reason: StopReason,
}

/// Starts the agent, initializes it (announcing terminal support or not), opens a session and
/// sends one prompt; returns once the turn ended and the agent exited.
async fn run_turn(terminal: bool) -> Turn {
    let mut child = Command::new(agent_binary())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the acp_agent example starts");
    let stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");

    let lines: Arc<Mutex<Vec<String>>> = Arc::default();
    let incoming = {
        let lines = Arc::clone(&lines);
        futures::stream::unfold(BufReader::new(stdout).lines(), |mut reader| async move {
            let line = reader.next_line().await.transpose()?;
            Some((line, reader))
        })
        .inspect(move |line| {
            if let Ok(line) = line {
                lines.lock().unwrap().push(line.clone());
            }
        })
    };
    let outgoing = futures::sink::unfold(stdin, |mut stdin, line: String| async move {
        stdin.write_all(line.as_bytes()).await?;
        stdin.write_all(b"\n").await?;
        stdin.flush().await?;
        Ok::<_, std::io::Error>(stdin)
    });
    let transport = Lines::new(Box::pin(outgoing), Box::pin(incoming));

    let notifications: Arc<Mutex<Vec<SessionNotification>>> = Arc::default();
    let heard = Arc::clone(&notifications);
    let client = Client
        .v1()
        .name("dsh-tools-test-client")
        .on_receive_notification(
            async move |notification: SessionNotification, _connection: ConnectionTo<Agent>| {
                heard.lock().unwrap().push(notification);
                Ok(())
            },
            protocol::on_receive_notification!(),
        )
        .connect_with(transport, async move |connection: ConnectionTo<Agent>| {
            connection
                .send_request(
                    InitializeRequest::new(ProtocolVersion::V1)
                        .client_capabilities(ClientCapabilities::new().terminal(terminal)),
                )
                .block_task()
                .await?;
            let session = connection
                .send_request(NewSessionRequest::new(std::env::temp_dir()))
                .block_task()
                .await?;
            let response = connection
                .send_request(PromptRequest::new(
                    session.session_id,
                    vec![ContentBlock::Text(TextContent::new(
                        "Say hello to tools in src/lib.rs",
                    ))],
                ))
                .block_task()
                .await?;
            Ok(response.stop_reason)
        });
    let stop_reason = match tokio::time::timeout(TURN_TIMEOUT, client).await {
        Ok(Ok(stop_reason)) => stop_reason,
        Ok(Err(error)) => {
            let _ = child.kill().await;
            let stderr = child.wait_with_output().await.map(|out| out.stderr);
            panic!(
                "the ACP session failed: {error:?}\nagent stderr:\n{}",
                String::from_utf8_lossy(&stderr.unwrap_or_default())
            );
        }
        Err(_) => panic!("the prompt turn did not end within {TURN_TIMEOUT:?}"),
    };
    // The client closed its side: the agent sees end of input and exits.
    let exit = tokio::time::timeout(TURN_TIMEOUT, child.wait())
        .await
        .expect("the agent exits when its input closes")
        .expect("the agent's exit status");
    assert!(exit.success(), "the agent exited with {exit}");

    let lines = lines.lock().unwrap().clone();
    let notifications = notifications.lock().unwrap().clone();
    Turn {
        lines,
        notifications,
        stop_reason,
    }
}

/// A call's `tool_call` and its updates, in the order the client received them.
#[derive(Default)]
struct CallCards {
    call: Option<ToolCall>,
    updates: Vec<ToolCallUpdate>,
    order: Vec<&'static str>,
}

impl CallCards {
    fn last(&self) -> &ToolCallUpdate {
        self.updates.last().expect("the call has updates")
    }

    fn started(&self) -> &ToolCall {
        self.call.as_ref().expect("the call was announced")
    }
}

/// The cards of each call id, and the agent's message chunks.
fn cards_by_call(turn: &Turn) -> (BTreeMap<String, CallCards>, Vec<String>) {
    let mut calls: BTreeMap<String, CallCards> = BTreeMap::new();
    let mut messages = Vec::new();
    for notification in &turn.notifications {
        match &notification.update {
            SessionUpdate::ToolCall(call) => {
                let entry = calls.entry(call.tool_call_id.to_string()).or_default();
                assert!(
                    entry.call.is_none(),
                    "{} announced twice",
                    call.tool_call_id
                );
                entry.order.push("tool_call");
                entry.call = Some(call.clone());
            }
            SessionUpdate::ToolCallUpdate(update) => {
                let entry = calls.entry(update.tool_call_id.to_string()).or_default();
                entry.order.push("update");
                entry.updates.push(update.clone());
            }
            SessionUpdate::AgentMessageChunk(chunk) => {
                if let ContentBlock::Text(text) = &chunk.content {
                    messages.push(text.text.clone());
                }
            }
            other => panic!("unexpected session update {other:?}"),
        }
    }
    (calls, messages)
}

fn texts(content: &[ToolCallContent]) -> Vec<String> {
    content
        .iter()
        .filter_map(|block| match block {
            ToolCallContent::Content(content) => match &content.content {
                ContentBlock::Text(text) => Some(text.text.clone()),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// What every turn shows, whatever the client's terminal support.
fn assert_common_cards(turn: &Turn) -> BTreeMap<String, CallCards> {
    assert_eq!(turn.stop_reason, StopReason::EndTurn);
    let updates: Vec<&String> = turn
        .lines
        .iter()
        .filter(|line| line.contains("\"session/update\""))
        .collect();
    assert_eq!(updates.len(), turn.notifications.len());
    for line in &updates {
        assert_valid_session_update_line(line);
    }

    let (calls, messages) = cards_by_call(turn);
    assert_eq!(
        messages,
        [
            "Let me look at the workspace and make the edit.",
            "Done: the greeting now says hello to tools."
        ]
    );
    let ids: Vec<&str> = calls.keys().map(String::as_str).collect();
    assert_eq!(
        ids,
        [
            "turn1-bug",
            "turn1-edit",
            "turn1-mistakes",
            "turn1-read",
            "turn1-run",
            "turn1-search"
        ]
    );
    for (id, cards) in &calls {
        assert_eq!(
            cards.order[0], "tool_call",
            "{id} starts with its tool_call"
        );
        assert_eq!(cards.started().status, ToolCallStatus::InProgress, "{id}");
        let statuses: Vec<Option<ToolCallStatus>> = cards
            .updates
            .iter()
            .map(|update| update.fields.status)
            .collect();
        let (last, running) = statuses.split_last().expect("a completion update");
        assert!(
            running
                .iter()
                .all(|status| *status == Some(ToolCallStatus::InProgress)),
            "{id}: {statuses:?}"
        );
        assert!(
            matches!(
                last,
                Some(ToolCallStatus::Completed | ToolCallStatus::Failed)
            ),
            "{id}: {statuses:?}"
        );
    }

    let read = &calls["turn1-read"];
    assert_eq!(read.started().title, "Read src/lib.rs");
    assert_eq!(read.started().kind, ToolKind::Read);
    assert_eq!(read.started().name.as_deref(), Some("read_file"));
    let location = &read.started().locations[0].path;
    assert!(
        location.is_absolute() && location.ends_with("src/lib.rs"),
        "{location:?}"
    );
    assert_eq!(
        read.started().raw_input,
        Some(serde_json::json!({"path": "src/lib.rs"}))
    );
    assert_eq!(read.last().fields.status, Some(ToolCallStatus::Completed));
    assert!(
        texts(read.last().fields.content.as_deref().unwrap_or_default())[0]
            .contains("Hello, world!")
    );

    let search = &calls["turn1-search"];
    assert_eq!(search.started().title, "Search for greeting");
    assert_eq!(search.started().kind, ToolKind::Search);
    let progress: Vec<String> = search.updates[..search.updates.len() - 1]
        .iter()
        .flat_map(|update| texts(update.fields.content.as_deref().unwrap_or_default()))
        .collect();
    assert_eq!(
        progress,
        ["searching src/lib.rs (1/2)", "searching src/main.rs (2/2)"]
    );

    let edit = &calls["turn1-edit"];
    assert_eq!(edit.started().kind, ToolKind::Edit);
    assert_eq!(edit.started().title, "Edit src/lib.rs");
    let ToolCallContent::Diff(pending) = &edit.started().content[0] else {
        panic!(
            "the edit's pending card is a diff: {:?}",
            edit.started().content
        );
    };
    assert!(pending.path.is_absolute() && pending.path.ends_with("src/lib.rs"));
    assert_eq!(pending.old_text.as_deref(), Some("Hello, world!"));
    assert_eq!(pending.new_text, "Hello, tools!");
    assert_eq!(edit.last().fields.status, Some(ToolCallStatus::Completed));
    assert_eq!(
        edit.last().fields.title.as_deref(),
        Some("Edited src/lib.rs")
    );
    assert!(matches!(
        edit.last().fields.content.as_deref(),
        Some([ToolCallContent::Diff(_)])
    ));

    let mistakes = &calls["turn1-mistakes"];
    assert_eq!(mistakes.last().fields.status, Some(ToolCallStatus::Failed));
    assert_eq!(
        texts(
            mistakes
                .last()
                .fields
                .content
                .as_deref()
                .unwrap_or_default()
        ),
        [
            r#"Error: invalid arguments: missing required property "pattern"; "max_results" must be an integer; "mode" must be one of ["literal","regex"]"#
        ]
    );

    let bug = &calls["turn1-bug"];
    assert_eq!(bug.started().title, "word_count");
    assert_eq!(bug.last().fields.status, Some(ToolCallStatus::Failed));
    let bug_text = texts(bug.last().fields.content.as_deref().unwrap_or_default());
    assert!(
        bug_text[0].starts_with("Error: tool \"word_count\" panicked: "),
        "{bug_text:?}"
    );
    calls
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_with_terminals_sees_every_card_and_the_command_in_a_terminal() {
    let turn = run_turn(true).await;
    let calls = assert_common_cards(&turn);

    let run = &calls["turn1-run"];
    assert_eq!(run.started().kind, ToolKind::Execute);
    assert_eq!(run.started().title, "grep -rn Hello src");
    assert_eq!(texts(&run.started().content), ["Check the edit"]);
    assert!(matches!(
        &run.started().content[1],
        ToolCallContent::Terminal(terminal) if terminal.terminal_id.to_string() == "turn1-run"
    ));
    let info = &run.started().meta.as_ref().expect("terminal_info meta")["terminal_info"];
    assert_eq!(info["terminal_id"], "turn1-run");
    assert!(Path::new(info["cwd"].as_str().unwrap()).is_absolute());

    let done = run.last();
    assert_eq!(done.fields.status, Some(ToolCallStatus::Completed));
    assert_eq!(done.fields.content, None, "the terminal block stays");
    let meta = done.meta.as_ref().expect("terminal output meta");
    assert_eq!(meta["terminal_output"]["terminal_id"], "turn1-run");
    assert_eq!(
        meta["terminal_output"]["data"],
        "src/lib.rs:3:    \"Hello, tools!\""
    );
    assert_eq!(
        meta["terminal_exit"],
        serde_json::json!({"terminal_id": "turn1-run", "exit_code": 0})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_without_terminals_gets_the_command_output_as_a_console_block() {
    let turn = run_turn(false).await;
    let calls = assert_common_cards(&turn);

    let run = &calls["turn1-run"];
    assert_eq!(run.started().kind, ToolKind::Execute);
    assert_eq!(texts(&run.started().content), ["Check the edit"]);
    assert_eq!(run.started().content.len(), 1, "no terminal block");
    assert_eq!(run.started().meta, None);
    let done = run.last();
    assert_eq!(done.meta, None);
    assert_eq!(
        texts(done.fields.content.as_deref().unwrap_or_default()),
        ["```console\nsrc/lib.rs:3:    \"Hello, tools!\"\n```"]
    );
    let raw_output: &Value = done.fields.raw_output.as_ref().expect("raw output");
    assert_eq!(raw_output["exit_code"], 0);
}
