//! The journal across a restart: a child process runs a tool through a SQLite or PostgreSQL
//! store and is killed with SIGKILL in the middle of the body; a new process finds the call in
//! doubt (or runs it again, for an idempotent tool), and a completed call replays without its
//! body running twice. The bodies count their runs in a file, which outlives the child.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use dsh_tools::{ToolExecutionInput, errors::ErrorCode, json};
use dsh_tools_tests::durable_restart::{BODY_STARTED, Backend, registry, runs};
use dsh_tools_tests::postgres_server::PostgresServer;

fn child(backend: &Backend, counter: &Path, tool: &str, call_id: &str, mode: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_durable_child"));
    command
        .arg(backend.arg())
        .arg(counter)
        .args([tool, call_id, mode])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    command
}

/// Starts a child whose body hangs, waits until the body has counted its run, and kills it.
fn kill_mid_body(backend: &Backend, counter: &Path, tool: &str, call_id: &str) {
    let mut process = child(backend, counter, tool, call_id, "hang")
        .spawn()
        .expect("start durable_child");
    let stdout = process.stdout.take().expect("its stdout");
    let mut lines = BufReader::new(stdout).lines();
    let started = lines.any(|line| line.is_ok_and(|line| line == BODY_STARTED));
    process.kill().expect("SIGKILL the child");
    let _ = process.wait();
    assert!(started, "the child ended before its body started");
}

/// Runs a child to the end and answers the result text it printed.
fn finish(backend: &Backend, counter: &Path, tool: &str, call_id: &str) -> String {
    let output = child(backend, counter, tool, call_id, "finish")
        .output()
        .expect("run durable_child");
    assert!(output.status.success(), "the child failed");
    let stdout = String::from_utf8_lossy(&output.stdout);
    stdout
        .lines()
        .find_map(|line| line.strip_prefix("RESULT "))
        .unwrap_or_else(|| panic!("no result printed: {stdout}"))
        .to_owned()
}

async fn survives_a_restart(backend: Backend, dir: &Path) {
    let counter = dir.join("runs.txt");
    let input = |tool: &str, call_id: &str| {
        ToolExecutionInput::new(call_id.to_owned(), tool.to_owned(), json!({"cents": 500}))
    };

    // Killed mid-body: the call is in doubt, and it is not run again.
    kill_mid_body(&backend, &counter, "charge", "call-killed");
    assert_eq!(runs(&counter, "charge"), 1);
    let restarted = registry(backend.open().await, "restarted", counter.clone(), false);
    let doubt = restarted.execute(input("charge", "call-killed")).await;
    assert_eq!(
        doubt.error_code(),
        Some(ErrorCode::CallInDoubt.as_str()),
        "{}",
        doubt.text()
    );
    assert!(
        doubt.text().contains(" on child "),
        "it says where: {}",
        doubt.text()
    );
    assert_eq!(
        runs(&counter, "charge"),
        1,
        "a call in doubt never runs again by itself"
    );
    let in_doubt = restarted.calls_in_doubt().await.expect("list");
    assert_eq!(in_doubt.len(), 1);
    assert_eq!(in_doubt[0].tool, "charge");

    // An idempotent tool killed mid-body runs again, once, and then replays.
    kill_mid_body(&backend, &counter, "refresh", "call-refresh");
    let again = restarted.execute(input("refresh", "call-refresh")).await;
    assert!(
        !again.is_error() && !again.is_replayed(),
        "{}",
        again.text()
    );
    assert_eq!(runs(&counter, "refresh"), 2);
    let replayed = restarted.execute(input("refresh", "call-refresh")).await;
    assert!(replayed.is_replayed());
    assert_eq!(runs(&counter, "refresh"), 2);

    // Completed in one process, retried in another: replayed, the body ran once.
    let text = finish(&backend, &counter, "charge", "call-done");
    assert_eq!(runs(&counter, "charge"), 2);
    let retried = restarted.execute(input("charge", "call-done")).await;
    assert!(retried.is_replayed(), "{}", retried.text());
    assert_eq!(retried.text(), text);
    let retried_by_child = finish(&backend, &counter, "charge", "call-done");
    assert_eq!(retried_by_child, text);
    assert_eq!(runs(&counter, "charge"), 2, "never run twice");
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dsh-tools-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_journal_survives_a_killed_process() {
    let dir = temp_dir("restart-sqlite");
    survives_a_restart(Backend::Sqlite(dir.join("calls.db")), &dir).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_journal_survives_a_killed_process() {
    let server = PostgresServer::start();
    let dir = temp_dir("restart-postgres");
    survives_a_restart(Backend::Postgres(server.database("restart")), &dir).await;
    let _ = std::fs::remove_dir_all(&dir);
}
