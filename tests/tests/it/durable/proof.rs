//! The durable guarantees on a real PostgreSQL server, across real processes: every tool body
//! counts its runs in the database itself (`dsh_tools_tests::durable_proof`), so the count is
//! what every process sees, including one killed with SIGKILL.
//!
//! - A child killed in the middle of `charge`'s body leaves the call in doubt: another process
//!   reports it so and never runs it again.
//! - An approval asked in one child and decided by this process is used exactly once by the
//!   retry in a second child; a third child's retry replays, using it no more.
//! - A Code Mode run paused at an approval in one child resumes in a second once this process
//!   decided it: the earlier nested call is replayed without its body running, the approved call
//!   runs once, the run completes; a third child's retry replays the run and runs nothing.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use dsh_tools::errors::ErrorCode;
use dsh_tools::{ToolExecutionInput, Value, json};
use dsh_tools_tests::durable_proof::{self, prepare, runs};
use dsh_tools_tests::durable_restart::BODY_STARTED;
use dsh_tools_tests::postgres_server::PostgresServer;

fn child(config: &str, place: &str, call_id: &str, mode: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_durable_child"));
    command
        .args(["proof", config, place, call_id, mode])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    command
}

/// Runs a proof child to the end and answers the result it printed.
fn finish(config: &str, place: &str, call_id: &str, mode: &str) -> Value {
    let output = child(config, place, call_id, mode)
        .output()
        .expect("run durable_child");
    assert!(output.status.success(), "the child {place} failed");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout
        .lines()
        .find_map(|line| line.strip_prefix("RESULT_JSON "))
        .unwrap_or_else(|| panic!("the child {place} printed no result: {stdout}"));
    serde_json::from_str(line).expect("the result is JSON")
}

/// `(a, pay, charge)` body runs, as the database counts them.
async fn counts(config: &str) -> (i64, i64, i64) {
    (
        runs(config, "a").await,
        runs(config, "pay").await,
        runs(config, "charge").await,
    )
}

/// The one pending approval, of `pay`, decided (approved) by `alice` from this process.
async fn decide_here(config: &str) -> String {
    let decider = durable_proof::registry(config, "decider", false, false).await;
    let pending = decider.pending_approvals().await.expect("list approvals");
    assert_eq!(pending.len(), 1, "one approval waits: {pending:?}");
    assert_eq!(pending[0].tool, "pay");
    let id = pending[0].id.clone();
    assert!(
        decider
            .decide_approval(&id, true, "alice")
            .await
            .expect("decide"),
        "the approval {id} is decided"
    );
    assert!(
        decider.pending_approvals().await.expect("list").is_empty(),
        "nothing waits once decided"
    );
    id
}

fn code(result: &Value) -> Option<&str> {
    result["code"].as_str()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_killed_mid_body_leaves_its_call_in_doubt_counted_in_postgres() {
    let server = PostgresServer::start();
    let config = server.database("proof_killed");
    prepare(&config).await;

    let mut process = child(&config, "killed", "call-killed", "hang")
        .spawn()
        .expect("start durable_child");
    let stdout = process.stdout.take().expect("its stdout");
    let started = BufReader::new(stdout)
        .lines()
        .any(|line| line.is_ok_and(|line| line == BODY_STARTED));
    process.kill().expect("SIGKILL the child");
    let _ = process.wait();
    assert!(started, "the child ended before its body started");
    assert_eq!(counts(&config).await, (0, 0, 1), "the body ran once");

    // Another process (a child, then this one) finds the call in doubt and runs nothing.
    let doubt = finish(&config, "restarted", "call-killed", "charge");
    assert_eq!(
        code(&doubt),
        Some(ErrorCode::CallInDoubt.as_str()),
        "{doubt}"
    );
    assert!(
        doubt["text"].as_str().unwrap_or("").contains(" on killed "),
        "it says where: {doubt}"
    );
    let here = durable_proof::registry(&config, "here", false, false).await;
    let again = here
        .execute(ToolExecutionInput::new(
            "call-killed",
            "charge",
            json!({"cents": 500}),
        ))
        .await;
    assert_eq!(
        again.error_code(),
        Some(ErrorCode::CallInDoubt.as_str()),
        "{}",
        again.text()
    );
    let in_doubt = here.calls_in_doubt().await.expect("list");
    assert_eq!(in_doubt.len(), 1, "{in_doubt:?}");
    assert_eq!(in_doubt[0].tool, "charge");
    assert_eq!(
        counts(&config).await,
        (0, 0, 1),
        "a call in doubt never runs again by itself"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_decided_by_another_process_is_used_once_on_postgres() {
    let server = PostgresServer::start();
    let config = server.database("proof_approval");
    prepare(&config).await;

    let asked = finish(&config, "first", "call-pay", "pay");
    assert_eq!(
        code(&asked),
        Some(ErrorCode::ApprovalPending.as_str()),
        "{asked}"
    );
    assert_eq!(counts(&config).await, (0, 0, 0), "`pay` waits");
    let id = decide_here(&config).await;
    assert!(
        asked["text"].as_str().unwrap_or("").contains(&id),
        "{asked}"
    );
    assert_eq!(counts(&config).await, (0, 0, 0), "deciding runs nothing");

    let paid = finish(&config, "second", "call-pay", "pay");
    assert_eq!(code(&paid), None, "the retry uses the approval: {paid}");
    assert_eq!(paid["replayed"], json!(false), "{paid}");
    assert_eq!(counts(&config).await, (0, 1, 0), "`pay` ran once");

    let again = finish(&config, "third", "call-pay", "pay");
    assert_eq!(again["replayed"], json!(true), "{again}");
    assert_eq!(again["text"], paid["text"]);
    assert_eq!(
        counts(&config).await,
        (0, 1, 0),
        "the approval is used once"
    );

    // Other arguments are another call: the approval does not cover it.
    let here = durable_proof::registry(&config, "here", false, false).await;
    let other = here
        .execute(ToolExecutionInput::new(
            "call-pay-more",
            "pay",
            json!({"cents": 900}),
        ))
        .await;
    assert_eq!(
        other.error_code(),
        Some(ErrorCode::ApprovalPending.as_str()),
        "{}",
        other.text()
    );
    assert_eq!(counts(&config).await, (0, 1, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_code_mode_run_paused_in_one_process_resumes_in_another_on_postgres() {
    let server = PostgresServer::start();
    let config = server.database("proof_code_mode");
    prepare(&config).await;

    // The first child runs `a`, then pauses the run at `pay`.
    let paused = finish(&config, "first", "run-1", "run");
    assert_eq!(
        code(&paused),
        Some(ErrorCode::ApprovalPending.as_str()),
        "{paused}"
    );
    assert!(
        paused["text"].as_str().unwrap_or("").contains("at call 2"),
        "{paused}"
    );
    assert_eq!(counts(&config).await, (1, 0, 0), "`a` ran, `pay` waits");

    // This process decides the approval.
    let id = decide_here(&config).await;
    assert!(
        paused["text"].as_str().unwrap_or("").contains(&id),
        "{paused}"
    );

    // The second child retries: `a` is replayed from the journal, `pay` runs once.
    let resumed = finish(&config, "second", "run-1", "run");
    assert_eq!(code(&resumed), None, "the run completes: {resumed}");
    assert_eq!(resumed["replayed"], json!(false), "{resumed}");
    assert_eq!(
        resumed["value"]["result"],
        json!({"a": {"x": 1}, "paid": {"cents": 500}}),
        "{resumed}"
    );
    assert_eq!(
        counts(&config).await,
        (1, 1, 0),
        "`a`'s body did not run again; `pay`'s ran once"
    );

    // The third child retries: the run is replayed whole, nothing runs.
    let again = finish(&config, "third", "run-1", "run");
    assert_eq!(again["replayed"], json!(true), "{again}");
    assert_eq!(again["text"], resumed["text"]);
    assert_eq!(counts(&config).await, (1, 1, 0), "a replay runs nothing");
}
