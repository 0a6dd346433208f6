//! Calls that outlive the process: a turn crashes in the middle of a tool body, and a new
//! process resumes it from the call store — the completed call is replayed, the one in doubt is
//! reported as such and settled by hand, never run twice.
//!
//! ```text
//! cargo run -p dsh-tools --example durable --features store-sqlite [-- STORE_FILE]
//! ```
//!
//! The store is a SQLite file (a temporary one unless given), so it runs on a fresh machine. The
//! example starts itself again as the turn that crashes (`--crash-turn`).

use std::path::PathBuf;
use std::process::Command;

use dsh_tools::durable::{CallDecision, Durability, RecordedOutcome, SqliteStore};
use dsh_tools::{FnTool, ToolExecutionInput, ToolRegistry, Value, json};

/// The registry of every process: `lookup` (read-only) and `charge` (a side effect that must not
/// happen twice), journaled in the SQLite file at `store`.
fn registry(store: &PathBuf, crash_in_charge: bool) -> ToolRegistry {
    let registry = ToolRegistry::new();
    let lookup = FnTool::builder("lookup", "Looks up an order's total.")
        .raw_parameters(json!({"type": "object"}))
        .handler(
            |args: Value, _| async move { Ok(json!({"order": args["order"], "cents": 4_200})) },
        );
    let charge = FnTool::builder("charge", "Charges the card on file.")
        .raw_parameters(json!({"type": "object"}))
        .handler(move |args: Value, _| async move {
            if crash_in_charge {
                eprintln!(
                    "[turn] charging {} cents ... and the process dies",
                    args["cents"]
                );
                std::process::abort();
            }
            Ok(json!({"charged": args["cents"]}))
        });
    let _ = registry.register(lookup).expect("lookup");
    let _ = registry.register(charge).expect("charge");
    let store = SqliteStore::open(store).expect("the store file");
    registry.set_durability(Durability::new(store));
    registry
}

fn lookup_call() -> ToolExecutionInput {
    ToolExecutionInput::new("call_1", "lookup", json!({"order": "A-17"}))
}

fn charge_call() -> ToolExecutionInput {
    ToolExecutionInput::new("call_2", "charge", json!({"cents": 4_200}))
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, store] = args.as_slice()
        && flag == "--crash-turn"
    {
        // The turn: the model's two calls. The first completes; the second dies mid-body.
        let registry = registry(&PathBuf::from(store), true);
        println!(
            "[turn] lookup: {}",
            registry.execute(lookup_call()).await.text()
        );
        registry.execute(charge_call()).await;
        unreachable!("the charge aborts the process");
    }
    let store = args.first().map_or_else(
        || std::env::temp_dir().join(format!("dsh-tools-durable-{}.db", std::process::id())),
        PathBuf::from,
    );
    let _ = std::fs::remove_file(&store);
    println!("store: {}", store.display());

    let exe = std::env::current_exe().expect("this example's path");
    let status = Command::new(exe)
        .arg("--crash-turn")
        .arg(&store)
        .status()
        .expect("start the turn");
    println!("[turn] ended: {status}");

    // A new process resumes the turn by making the same calls again.
    let registry = registry(&store, false);
    let lookup = registry.execute(lookup_call()).await;
    println!(
        "[resume] lookup (replayed: {}): {}",
        lookup.is_replayed(),
        lookup.text()
    );
    let charge = registry.execute(charge_call()).await;
    println!("[resume] charge: {}", charge.text());

    // An operator checks the card processor, finds the charge went through, and records it.
    for call in registry.calls_in_doubt().await.expect("the journal") {
        println!(
            "[operator] in doubt: {} ({}), started by {}",
            call.key, call.tool, call.place
        );
        let outcome = RecordedOutcome::success(json!({"charged": 4_200}), Vec::new());
        let decided = registry
            .decide_call(&call.key, CallDecision::Record(outcome))
            .await
            .expect("the journal");
        println!("[operator] recorded by hand: {decided}");
    }
    let charge = registry.execute(charge_call()).await;
    println!(
        "[resume] charge (replayed: {}): {}",
        charge.is_replayed(),
        charge.text()
    );
    let _ = std::fs::remove_file(&store);
}
