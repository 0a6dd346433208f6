//! Code Mode next to one call per turn: a scripted model makes the same change to a small
//! workspace twice — once as one `run_code` program, once call by call — and the example prints
//! both transcripts and what each cost: model round trips, and bytes of tool results the model
//! had to read.
//!
//! The program searches, reads three files at once, edits one (a policy asks for approval, which
//! the example's approver gives), and reads a file that does not exist, catching the failure.
//! Every call the program makes goes through the same pipeline as a direct call.
//!
//! Run with `cargo run -p dsh-tools --example code_mode --features code-mode`.

pub mod coding_tools;

use std::path::Path;

use dsh_tools::code_mode::CodeMode;
use dsh_tools::hooks::{ApprovalOutcome, approver_fn};
use dsh_tools::registry::RUN_CODE;
use dsh_tools::{PreToolDecision, ToolExecutionInput, ToolExecutionResult, ToolRegistry, json};

use coding_tools::{Workspace, create_workspace};

/// The program the scripted model writes in Code mode.
const PROGRAM: &str = r#"const hits = await tools.search_files({pattern: "greeting", path: "."});
const paths = ["Cargo.toml", "src/main.rs", "src/lib.rs"];
const files = await Promise.all(paths.map((path) => tools.read_file({path})));
await tools.edit_file({path: "src/lib.rs", old_text: "Hello, world!", new_text: "Hello, Code Mode!"});
let readme;
try {
  readme = await tools.read_file({path: "README.md"});
} catch (error) {
  readme = `none (${error.code})`;
}
console.log(`read ${files.length} files, ${files.join("").length} characters`);
return {matches: hits.length, edited: "src/lib.rs", readme};"#;

/// The registry over a fresh workspace, with the policy and approver both runs share.
fn registry(root: &Path, mode: CodeMode) -> Result<ToolRegistry, Box<dyn std::error::Error>> {
    let registry = coding_tools::registry(Workspace {
        root: root.to_path_buf(),
    })?;
    registry.set_code_mode(mode)?;
    // Edits need the user's approval, whoever makes them: the model or a program.
    let _policy = registry.on_pre_execute(|execution, next| async move {
        if execution.name() == "edit_file" {
            return Ok(PreToolDecision::Ask {
                reason: Some("edits a file".to_owned()),
            });
        }
        next.run().await
    })?;
    let _ = registry.set_approver(approver_fn(|request| async move {
        let execution = &request.execution;
        println!(
            "    approval asked: {} {} -> allowed once",
            execution.name(),
            execution.arguments()["path"].as_str().unwrap_or_default()
        );
        Ok(ApprovalOutcome::AllowedOnce)
    }));
    Ok(registry)
}

/// What one way of working cost.
#[derive(Default)]
struct Cost {
    round_trips: usize,
    result_bytes: usize,
}

/// Sends one model turn's calls, prints them, and counts what the model reads back.
async fn turn(
    registry: &ToolRegistry,
    cost: &mut Cost,
    root: &Path,
    calls: Vec<ToolExecutionInput>,
) -> Vec<ToolExecutionResult> {
    cost.round_trips += 1;
    println!("  model turn {}:", cost.round_trips);
    let results = registry.execute_batch(calls.clone(), 4).await.results;
    for (call, result) in calls.iter().zip(&results) {
        let text = result
            .text()
            .replace(&root.display().to_string(), "<workspace>");
        cost.result_bytes += text.len();
        let arguments = if call.name == RUN_CODE {
            "{code: <program>}".to_owned()
        } else {
            call.arguments.to_string()
        };
        println!("    {} {arguments}", call.name);
        for line in text.lines().take(6) {
            println!("      | {line}");
        }
        if text.lines().count() > 6 {
            println!("      | …");
        }
    }
    results
}

fn call(id: &'static str, name: &'static str, arguments: dsh_tools::Value) -> ToolExecutionInput {
    ToolExecutionInput::new(id, name, arguments)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("== Code Mode: one program ==");
    let scratch = create_workspace()?;
    let code = registry(scratch.root(), CodeMode::Code)?;
    let names: Vec<String> = code.schemas().iter().map(|s| s.name.clone()).collect();
    println!("  tools the model sees: {}", names.join(", "));
    // The program's calls, as the registry's observers see them: each with the run as parent.
    let _nested = code.on_result(|execution, result| {
        if execution.parent().is_some() {
            let outcome = result.error_code().unwrap_or("ok");
            println!(
                "    nested {} {} -> {outcome}",
                execution.name(),
                execution.arguments()
            );
        }
    })?;
    let mut in_code = Cost::default();
    turn(
        &code,
        &mut in_code,
        scratch.root(),
        vec![call("c1", RUN_CODE, json!({ "code": PROGRAM }))],
    )
    .await;
    let edited = std::fs::read_to_string(scratch.root().join("src/lib.rs"))?;
    println!(
        "  src/lib.rs now says: {}",
        edited.lines().nth(2).unwrap_or_default().trim()
    );

    println!();
    println!("== Native: one call per turn ==");
    let scratch = create_workspace()?;
    let native = registry(scratch.root(), CodeMode::Native)?;
    let mut in_native = Cost::default();
    let root = scratch.root();
    turn(
        &native,
        &mut in_native,
        root,
        vec![call(
            "n1",
            "search_files",
            json!({"pattern": "greeting", "path": "."}),
        )],
    )
    .await;
    turn(
        &native,
        &mut in_native,
        root,
        ["Cargo.toml", "src/main.rs", "src/lib.rs"]
            .into_iter()
            .zip(["n2", "n3", "n4"])
            .map(|(path, id)| call(id, "read_file", json!({ "path": path })))
            .collect(),
    )
    .await;
    let edit =
        json!({"path": "src/lib.rs", "old_text": "Hello, world!", "new_text": "Hello, Code Mode!"});
    turn(
        &native,
        &mut in_native,
        root,
        vec![call("n5", "edit_file", edit)],
    )
    .await;
    turn(
        &native,
        &mut in_native,
        root,
        vec![call("n6", "read_file", json!({"path": "README.md"}))],
    )
    .await;

    println!();
    println!("== What it cost ==");
    println!(
        "  Code Mode: {} model round trip, {} bytes of tool results read by the model",
        in_code.round_trips, in_code.result_bytes
    );
    println!(
        "  Native:    {} model round trips, {} bytes of tool results read by the model",
        in_native.round_trips, in_native.result_bytes
    );
    Ok(())
}
