//! The stdio server over real pipes: the `mcp_test_server` process, serving with
//! `McpServer::serve_stdio` (the crate's own stdio transport), and the same server served in
//! process on rmcp's own transport, sent the same lines — a session's messages read directly and
//! lines left to rmcp's parse, blank lines, input that is not JSON, JSON that is no message, a
//! batch, a byte order mark, `\r\n` endings. Both must answer the same, line for line, say
//! nothing more, and end when their input does.

use std::process::Stdio;
use std::time::Duration;

use dsh_tools::Value;
use dsh_tools::mcp::{McpServer, ServerOptions};
use dsh_tools_tests::mcp_fixture;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::Command;

/// Long enough for anything these tests wait for; only a broken transport ever reaches it.
const DEADLINE: Duration = Duration::from_secs(20);

/// The lines sent, each with its terminator, and how many lines answer it.
fn script() -> Vec<(String, usize)> {
    let message = |value: Value| format!("{value}\n");
    let initialize = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "pipes", "version": "0"}
        }
    });
    vec![
        (message(initialize), 1),
        (
            message(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})),
            0,
        ),
        ("\n".into(), 0),
        ("not json\n".into(), 0),
        ("{\"foo\":\"bar\"}\n".into(), 1),
        (
            message(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})),
            1,
        ),
        (
            message(json!({"jsonrpc": "2.0", "id": "p-1", "method": "ping"})),
            1,
        ),
        (
            message(json!({
                "jsonrpc": "2.0", "id": "c-1", "method": "tools/call",
                "params": {"name": "call_id", "arguments": {}, "_meta": {"progressToken": "tok"}}
            })),
            1,
        ),
        (
            concat!(
                r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_files","#,
                r#""arguments":{"pattern":"fn m\u00e4in \"q\"","path":"/\u00fcber/\ud83d\ude00"}}}"#,
                "\r\n"
            )
            .into(),
            1,
        ),
        (
            r#"{"jsonrpc":"2.0","id":4.0,"method":"tools/call","params":{"name":"call_id","arguments":{}}}"#
                .to_owned()
                + "\n",
            1,
        ),
        (
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"call_id","arguments":{}},"x":1}"#
                .to_owned()
                + "\n",
            1,
        ),
        (
            message(json!({"jsonrpc": "2.0", "method": "notifications/custom"})),
            0,
        ),
        ("[{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}]\n".into(), 1),
        (
            message(json!({
                "jsonrpc": "2.0", "id": 6, "method": "tools/call",
                "params": {"name": "nope", "arguments": {}}
            })),
            1,
        ),
        (
            "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}\n".into(),
            1,
        ),
    ]
}

/// Sends the script over `writer`, reading the answers from `reader` after each line; then
/// closes the input and checks that nothing more comes.
async fn converse<R, W>(reader: R, mut writer: W) -> Vec<Value>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut lines = BufReader::new(reader).lines();
    let mut answers = Vec::new();
    for (line, answered) in script() {
        writer.write_all(line.as_bytes()).await.expect("written");
        writer.flush().await.expect("flushed");
        for _ in 0..answered {
            let answer = tokio::time::timeout(DEADLINE, lines.next_line())
                .await
                .expect("the server answers in time")
                .expect("readable")
                .expect("the server keeps the connection open");
            answers.push(serde_json::from_str(&answer).expect("one JSON-RPC message per line"));
        }
    }
    writer.shutdown().await.expect("input closed");
    drop(writer);
    let rest = tokio::time::timeout(DEADLINE, lines.next_line())
        .await
        .expect("the server ends in time")
        .expect("readable");
    assert_eq!(rest, None, "nothing after the last answer");
    answers
}

/// The server `mcp_test_server` serves, without its flags.
fn test_server() -> McpServer {
    let (registry, _) = mcp_fixture::registry();
    McpServer::new(&registry).with_options(ServerOptions {
        name: "dsh-tools-test".into(),
        version: "1.2.3".into(),
        instructions: Some("Test tools.".into()),
        ..ServerOptions::default()
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stdio_server_answers_as_on_rmcps_transport() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp_test_server"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the test server starts");
    let stdin = child.stdin.take().expect("piped");
    let stdout = child.stdout.take().expect("piped");
    let ours = converse(stdout, stdin).await;
    let status = tokio::time::timeout(DEADLINE, child.wait())
        .await
        .expect("the server exits when its input ends")
        .expect("waited");
    assert!(status.success(), "{status}");

    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let serving = tokio::spawn(async move {
        match test_server().serve(server_end).await {
            Ok(connection) => connection.wait().await,
            Err(error) => Err(error),
        }
    });
    let (reader, writer) = tokio::io::split(client_end);
    let theirs = converse(reader, writer).await;
    serving
        .await
        .expect("serve task")
        .expect("served to the end");

    assert_eq!(ours.len(), theirs.len());
    for (ours, theirs) in ours.iter().zip(&theirs) {
        assert_eq!(ours, theirs);
    }
    // The answers are the calls' own, not errors of the transport.
    let by_id = |id: Value| {
        ours.iter()
            .find(|answer| answer["id"] == id)
            .unwrap_or_else(|| panic!("an answer to {id}"))
    };
    assert_eq!(
        by_id(json!("c-1"))["result"]["content"][0]["text"],
        json!("c-1")
    );
    let found = by_id(json!(3))["result"]["structuredContent"].clone();
    assert_eq!(found["path"], "/über/😀");
    assert_eq!(found["pattern"], "fn mäin \"q\"");
    assert_eq!(by_id(json!(4))["result"]["content"][0]["text"], json!("4"));
    assert_eq!(by_id(json!(7))["result"], json!({}));
    let invalid: Vec<_> = ours
        .iter()
        .filter(|answer| answer.get("id").is_none())
        .collect();
    assert_eq!(invalid.len(), 2, "{invalid:?}");
    for answer in invalid {
        assert_eq!(answer["error"]["code"], -32600);
    }
}
