//! Wall time per journaled call on each call-store backend, in one run: the same `noop` tool,
//! each call a new one (its intent recorded before the body, its outcome after), with no store,
//! the in-memory store, a SQLite file and a PostgreSQL server started for the run (on loopback,
//! as `tests/src/postgres_server.rs` starts it for the tests). Then the same call made again,
//! replayed from each store.
//!
//! A journaled call on a file or a server waits for the store: SQLite's `fsync` of its intent and
//! its outcome (`synchronous = FULL`), PostgreSQL's round trips. Those waits, not instructions,
//! make its cost, so this bench reports wall medians (figures in BENCHMARKS.md, "The call
//! journal"), and the instruction harness (`pipeline/journal_*`) covers the in-memory journal.
//!
//! `cargo bench -p dsh-tools-tests --bench journal_backends` (`-- --calls N --rounds R`).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use dsh_tools::durable::{Durability, MemoryStore, PostgresStore, SqliteStore};
use dsh_tools::{FnTool, ToolExecutionInput, ToolRegistry, Value};
use dsh_tools_tests::postgres_server::PostgresServer;

/// A registry with one tool that does nothing, journaled when `durability` is given.
fn registry(durability: Option<Durability>) -> ToolRegistry {
    let registry = ToolRegistry::new();
    let noop = FnTool::builder("noop", "Does nothing.").handler(|_, _| async { Ok("done") });
    let _ = registry.register(noop).expect("noop registers");
    if let Some(durability) = durability {
        registry.set_durability(durability);
    }
    registry
}

/// The median wall time of one call over `rounds` rounds of `calls` calls. Each call has an id of
/// its own (a new journal entry) unless `same` is set (every call after the first replayed).
async fn per_call(
    registry: &ToolRegistry,
    prefix: &str,
    same: bool,
    calls: u32,
    rounds: u32,
) -> Duration {
    let input = |id: String| ToolExecutionInput::new(id, "noop", Value::Object(Default::default()));
    // One call first, so that a replay has something to replay and lazy setup is not timed.
    let warm = registry.execute(input(format!("{prefix}-warm"))).await;
    assert!(!warm.is_error(), "{prefix}: {}", warm.text());
    let mut medians = Vec::new();
    for round in 0..rounds {
        let inputs: Vec<ToolExecutionInput> = (0..calls)
            .map(|call| {
                input(if same {
                    format!("{prefix}-warm")
                } else {
                    format!("{prefix}-{round}-{call}")
                })
            })
            .collect();
        let start = Instant::now();
        for input in inputs {
            let result = registry.execute(input).await;
            assert!(!result.is_error(), "{prefix}: {}", result.text());
        }
        medians.push(start.elapsed() / calls);
    }
    medians.sort();
    medians[medians.len() / 2]
}

fn argument(name: &str, default: u32) -> u32 {
    let arguments: Vec<String> = std::env::args().collect();
    arguments
        .iter()
        .position(|argument| argument == name)
        .and_then(|at| arguments.get(at + 1))
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

fn main() {
    // `cargo test --benches` runs benches with `--test`-less arguments too; one short round then.
    let quick = std::env::args().all(|argument| argument != "--bench");
    let calls = argument("--calls", if quick { 5 } else { 300 });
    let rounds = argument("--rounds", if quick { 1 } else { 5 });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let postgres = PostgresServer::start();
    let file: PathBuf =
        std::env::temp_dir().join(format!("dsh-tools-journal-bench-{}.db", std::process::id()));
    let rows = runtime.block_on(async {
        let postgres_store = PostgresStore::connect(&postgres.database("journal_bench"))
            .await
            .expect("connect to the bench's PostgreSQL");
        let sqlite_store = SqliteStore::open(&file).expect("open the bench's SQLite file");
        let backends: Vec<(&str, Option<Durability>)> = vec![
            ("no store", None),
            ("memory", Some(Durability::new(MemoryStore::default()))),
            ("SQLite file", Some(Durability::new(sqlite_store))),
            (
                "PostgreSQL (loopback)",
                Some(Durability::new(postgres_store)),
            ),
        ];
        let mut rows = Vec::new();
        for (name, durability) in backends {
            let journaled = durability.is_some();
            let registry = registry(durability);
            let new = per_call(&registry, name, false, calls, rounds).await;
            let replayed = if journaled {
                Some(per_call(&registry, name, true, calls, rounds).await)
            } else {
                None
            };
            rows.push((name, new, replayed));
        }
        rows
    });
    let _ = std::fs::remove_file(&file);
    let base = rows[0].1.as_secs_f64();
    println!("calls per round: {calls}, rounds: {rounds} (medians of the rounds' means)");
    println!("| store | new call | ratio | replayed call | ratio |");
    println!("|---|---:|---:|---:|---:|");
    for (name, new, replayed) in rows {
        let ratio = |time: Duration| time.as_secs_f64() / base;
        match replayed {
            Some(replayed) => println!(
                "| {name} | {:.1} µs | {:.1} × | {:.1} µs | {:.1} × |",
                new.as_secs_f64() * 1e6,
                ratio(new),
                replayed.as_secs_f64() * 1e6,
                ratio(replayed)
            ),
            None => println!(
                "| {name} | {:.1} µs | 1 × | — | — |",
                new.as_secs_f64() * 1e6
            ),
        }
    }
}
