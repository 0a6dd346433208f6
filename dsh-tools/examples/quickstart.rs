//! A scripted model turn through tools written with `#[tool]` and `#[derive(ToolArgs)]`.
//!
//! The tools (`coding_tools/`, shared with the other examples) are four realistic ones over a
//! scratch workspace — reading files, searching them, running a command (shown as a terminal
//! card) and editing a file (shown as a diff card) — plus one with a bug. The example prints what
//! the model is told (the tool schemas), then runs the calls a model might make: valid ones, one
//! with three argument mistakes, an unknown tool, one a policy hook denies and one that panics,
//! printing the cards a UI shows for each call (rendered as text by `TextCards`: the pending
//! card, progress reports, the result card) and what the model reads back.
//!
//! Run with `cargo run -p dsh-tools --example quickstart`.

pub mod coding_tools;

use std::path::Path;

use dsh_tools::{
    PreToolDecision, ToolExecutionInput,
    call::{ToolExecution, ToolProgress},
    present::{TextCards, ToolCallView},
};

use coding_tools::{Workspace, create_workspace};

/// Indents every line of `block` by `by`.
fn indented(block: &str, by: &str) -> String {
    block
        .lines()
        .map(|line| format!("{by}{line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `card` as this UI shows it: a terminal card naming no directory runs where the session works,
/// in the workspace (an ACP client does the same with its session's working directory).
fn in_workspace(card: ToolCallView, workspace: &Path) -> ToolCallView {
    match card {
        ToolCallView::Terminal {
            title,
            description,
            cwd: None,
        } => ToolCallView::Terminal {
            title,
            description,
            cwd: Some(workspace.display().to_string()),
        },
        card => card,
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The registry turns panics into results; keep the default hook from printing a backtrace.
    std::panic::set_hook(Box::new(|info| eprintln!("  (a tool panicked: {info})")));
    let scratch = create_workspace()?;
    let root = scratch.root().to_path_buf();
    // Each tool's `timeout_ms` is enforced by the registry itself; no policy to install.
    let registry = coding_tools::registry(Workspace { root: root.clone() })?;

    // A policy hook: no destructive shell commands.
    let _policy = registry.on_pre_execute(|call, next| async move {
        let command = call.arguments()["command"].as_str().unwrap_or("");
        if call.name() == "run_command" && command.split_whitespace().any(|word| word == "rm") {
            return Ok(PreToolDecision::Deny {
                reason: "deleting files is not allowed in this session".to_owned(),
            });
        }
        next.run().await
    })?;

    println!(
        "== What the model is told ({} tools) ==",
        registry.schemas().len()
    );
    for schema in registry.schemas().iter() {
        println!("{}", serde_json::to_string_pretty(schema)?);
    }

    let turn: [(&str, &str, &str); 9] = [
        ("c1", "read_file", r#"{"path": "src/lib.rs"}"#),
        (
            "c2",
            "search_files",
            r#"{"pattern": "greeting", "path": ".", "include": ["*.rs"], "options": {"follow_links": false}}"#,
        ),
        (
            "c3",
            "edit_file",
            r#"{"path": "src/lib.rs", "old_text": "Hello, world!", "new_text": "Hello, tools!"}"#,
        ),
        (
            "c4",
            "run_command",
            r#"{"command": "grep -rn Hello src", "description": "Check the edit"}"#,
        ),
        // Three mistakes: `pattern` is missing, `max_results` is a string, `mode` is not a mode.
        (
            "c5",
            "search_files",
            r#"{"path": "/src", "max_results": "50", "mode": "fuzzy"}"#,
        ),
        ("c6", "list_files", r#"{"path": "."}"#),
        ("c7", "run_command", r#"{"command": "rm -rf src"}"#),
        ("c8", "word_count", r#"{"path": "src/lib.rs", "line": 4}"#),
        ("c9", "read_file", r#"{"path": "src/lib.rs", "limit": 2}"#),
    ];
    println!("\n== A model turn ==");
    let cards = TextCards::default();
    for (call_id, name, arguments) in turn {
        println!("\n{call_id} {name} {arguments}");
        let input = ToolExecutionInput::from_raw(call_id, name, arguments);
        // What a UI shows: the pending card, progress while the call runs, the result card.
        let pending = in_workspace(registry.present_call(&input), &root);
        println!("  {}", cards.call(&pending));
        let progress = {
            let (cards, pending) = (cards.clone(), pending.clone());
            move |_: &ToolExecution, progress: ToolProgress| {
                println!("  {}", cards.progress(&pending, &progress));
            }
        };
        let result = registry
            .execute(input.clone().with_progress(progress))
            .await;
        let card = registry.present_result(&input, &result);
        println!(
            "{}",
            indented(&cards.result(&pending, &card, result.is_error()), "  ")
        );
        // What the model reads next (its first line), and the error code a program can match on.
        let text = result.text();
        let more = text.lines().count().saturating_sub(1);
        println!(
            "  model reads: {:?}{}{}",
            text.lines().next().unwrap_or(""),
            if more > 0 {
                format!(" (+{more} lines)")
            } else {
                String::new()
            },
            result
                .error_code()
                .map(|code| format!(" [{code}]"))
                .unwrap_or_default()
        );
    }
    Ok(())
}
