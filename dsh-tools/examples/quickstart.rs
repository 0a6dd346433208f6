//! A scripted model turn through tools written with `#[tool]` and `#[derive(ToolArgs)]`.
//!
//! The tools (`coding_tools/`, shared with the other examples) are four realistic ones over a
//! scratch workspace — reading files, searching them, running a command (shown as a terminal
//! card) and editing a file (shown as a diff card) — plus one with a bug. The example prints what
//! the model is told (the tool schemas), then runs the calls a model might make: valid ones, one
//! with three argument mistakes, an unknown tool, one a policy hook denies and one that panics,
//! printing each result and its presentation card.
//!
//! Run with `cargo run -p dsh-tools --example quickstart`.

pub mod coding_tools;

use dsh_tools::{PreToolDecision, ToolCallView, ToolExecutionInput, ToolResult, ToolResultView};

use coding_tools::{Workspace, create_workspace};

fn show_call_card(card: &ToolCallView) -> String {
    match card {
        ToolCallView::Generic {
            title,
            kind,
            locations,
            ..
        } => {
            let files: Vec<&str> = locations
                .iter()
                .map(|location| location.path.as_str())
                .collect();
            format!(
                "[{}] {title}{}",
                kind.as_str(),
                if files.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", files.join(", "))
                }
            )
        }
        ToolCallView::Terminal {
            title, description, ..
        } => {
            format!(
                "[terminal] $ {title}{}",
                description
                    .as_ref()
                    .map(|text| format!("  # {text}"))
                    .unwrap_or_default()
            )
        }
        ToolCallView::Diff { title, diffs, .. } => {
            let changes: Vec<String> = diffs
                .iter()
                .map(|diff| {
                    format!(
                        "-{:?} +{:?}",
                        diff.old_text.as_deref().unwrap_or(""),
                        diff.new_text
                    )
                })
                .collect();
            format!("[diff] {title}: {}", changes.join("; "))
        }
    }
}

fn show_result_card(card: &ToolResultView) -> String {
    match card {
        ToolResultView::Generic { title, content } => {
            let text = dsh_tools::joined_text(content);
            let lines = text.lines().count();
            format!(
                "[generic]{} {:?}{}",
                title
                    .as_ref()
                    .map(|title| format!(" {title}:"))
                    .unwrap_or_default(),
                text.lines().next().unwrap_or(""),
                if lines > 1 {
                    format!(" (+{} more lines)", lines - 1)
                } else {
                    String::new()
                }
            )
        }
        ToolResultView::Terminal {
            output, exit_code, ..
        } => format!(
            "[terminal] exit {} — {:?}",
            exit_code.map_or("?".to_owned(), |code| code.to_string()),
            output.as_deref().unwrap_or("")
        ),
        ToolResultView::Diff { title, diffs } => format!(
            "[diff]{} {} file(s)",
            title
                .as_ref()
                .map(|title| format!(" {title}:"))
                .unwrap_or_default(),
            diffs.len()
        ),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The registry turns panics into results; keep the default hook from printing a backtrace.
    std::panic::set_hook(Box::new(|info| eprintln!("  (a tool panicked: {info})")));
    let root = create_workspace()?;
    // Each tool's `timeout_ms` is enforced by the registry itself; no policy to install.
    let registry = coding_tools::registry(Workspace { root: root.clone() })?;

    // A policy hook: no destructive shell commands.
    let _policy = registry.on_pre_execute(|call, next| async move {
        let command = call.arguments()["command"].as_str().unwrap_or("");
        if call.name() == "run_command" && command.split_whitespace().any(|word| word == "rm") {
            return Ok(PreToolDecision::deny(
                "deleting files is not allowed in this session",
            ));
        }
        next.run().await
    });

    println!(
        "== What the model is told ({} tools) ==",
        registry.schemas(None).len()
    );
    for schema in registry.schemas(None).iter() {
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
    for (call_id, name, arguments) in turn {
        println!("\n{call_id} {name} {arguments}");
        let definition = registry.get(name, None);
        if let Some(definition) = &definition {
            let parsed =
                dsh_tools::parse_arguments(arguments).map_err(|error| error.to_string())?;
            let card = definition
                .present_call(&parsed)
                .unwrap_or_else(|| ToolCallView::fallback(name, &parsed));
            println!("  card:   {}", show_call_card(&card));
        }
        let result = registry
            .execute(ToolExecutionInput::from_raw(call_id, name, arguments))
            .await;
        println!(
            "  result: {} {}",
            if result.is_error() { "error" } else { "ok" },
            result
                .error_code()
                .map(|code| format!("[{code}]"))
                .unwrap_or_default()
        );
        for line in result.text().lines() {
            println!("    | {line}");
        }
        if let Some(definition) = &definition {
            let parsed =
                dsh_tools::parse_arguments(arguments).map_err(|error| error.to_string())?;
            let view = ToolResult::of(&result);
            let card = definition
                .present_result(&parsed, &view)
                .unwrap_or_else(|| ToolResultView::fallback(&view));
            println!("  result card: {}", show_result_card(&card));
        }
    }
    std::fs::remove_dir_all(&root)?;
    Ok(())
}
