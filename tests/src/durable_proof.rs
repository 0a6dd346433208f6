//! What the cross-process proof on PostgreSQL (`tests/it/durable/proof.rs`) shares with its child
//! process (`src/bin/durable_child.rs`, first word `proof`): a registry on a `PostgresStore` whose
//! tools count their body's runs in the same database (table `body_runs`), so every process reads
//! the same count, including what a process killed with SIGKILL left behind.
//!
//! Tools: `a` (journaled), `pay` (journaled; its `ask` waits as a pending approval) and `charge`
//! (journaled, neither idempotent nor read-only; with `hang`, its body counts its run, prints
//! [`BODY_STARTED`] and never finishes).

use std::time::Duration;

use dsh_tools::code_mode::CodeMode;
use dsh_tools::durable::{ApprovalKey, Durability, JournalPolicy, PostgresStore};
use dsh_tools::{FnTool, PreToolDecision, ToolRegistry, call::ToolAnnotations, json};

use crate::durable_restart::BODY_STARTED;

/// The program every process runs: `a`, then `pay`, which waits for an approval.
pub const PROGRAM: &str = "const a = await tools.a({x: 1});\n\
    const paid = await tools.pay({cents: 500});\n\
    return {a: a.args, paid: paid.args};";

/// The approval key every process shares.
pub fn approval_key() -> ApprovalKey {
    ApprovalKey::new(
        b"the proof's key of 32 bytes!!!!!".to_vec(),
        Duration::from_secs(3_600),
    )
}

async fn client(config: &str) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(config, tokio_postgres::NoTls)
        .await
        .expect("connect to the proof's database");
    tokio::spawn(async move {
        let _ = connection.await;
    });
    client
}

/// Creates the table the bodies count their runs in (once, before any process runs a body).
pub async fn prepare(config: &str) {
    client(config)
        .await
        .batch_execute("CREATE TABLE IF NOT EXISTS body_runs (tool TEXT NOT NULL)")
        .await
        .expect("create body_runs");
}

/// How many runs of `tool` the database has recorded, from every process.
pub async fn runs(config: &str, tool: &str) -> i64 {
    client(config)
        .await
        .query_one("SELECT count(*) FROM body_runs WHERE tool = $1", &[&tool])
        .await
        .expect("count body runs")
        .get(0)
}

/// Records a run of `tool`, committed before it returns.
async fn count_run(config: &str, tool: &str) {
    let _ = client(config)
        .await
        .execute("INSERT INTO body_runs (tool) VALUES ($1)", &[&tool])
        .await
        .expect("count a body run");
}

/// A registry on the PostgreSQL store at `config`, as `place`, with the shared approval key; with
/// `code_mode`, in Code Mode (only `run_code` is callable directly); with `hang`, `charge`'s body
/// never finishes.
pub async fn registry(config: &str, place: &str, code_mode: bool, hang: bool) -> ToolRegistry {
    let store = PostgresStore::connect(config)
        .await
        .expect("the PostgreSQL store");
    let registry = ToolRegistry::new();
    for name in ["a", "pay", "charge"] {
        let config = config.to_owned();
        let annotations = ToolAnnotations {
            idempotent: Some(false),
            ..ToolAnnotations::default()
        };
        let tool = FnTool::builder(name, "Counts its runs in the database.")
            .options(dsh_tools::call::ToolOptions {
                annotations,
                journal: JournalPolicy::default(),
                ..dsh_tools::call::ToolOptions::default()
            })
            .raw_parameters(json!({"type": "object"}))
            .handler(move |args, _| {
                let config = config.clone();
                async move {
                    count_run(&config, name).await;
                    if hang && name == "charge" {
                        println!("{BODY_STARTED}");
                        std::future::pending::<()>().await;
                    }
                    Ok(json!({"tool": name, "args": args}))
                }
            });
        let _ = registry.register(tool).expect("register");
    }
    if code_mode {
        registry.set_code_mode(CodeMode::Code).expect("code mode");
    }
    let _ = registry
        .on_pre_execute(|execution, next| async move {
            if execution.name() == "pay" {
                return Ok(PreToolDecision::Ask {
                    reason: Some("paying needs a person".to_owned()),
                });
            }
            next.run().await
        })
        .expect("hook");
    registry.set_durability(
        Durability::new(store)
            .with_place(place)
            .with_approvals(approval_key()),
    );
    registry
}
