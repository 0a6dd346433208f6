//! Golden JSON of every ACP mapping: each card kind (generic, diff, terminal) through a call's
//! life — `tool_call` (pending), progress (`in_progress`), completion (`completed` / `failed`) —
//! with and without client terminal support, with relative and absolute paths, and with
//! presenters that panic. The calls run through a real registry with the bridge observing it;
//! what the bridge sends is compared with `golden/acp/<case>.json` (`UPDATE_GOLDEN=1` rewrites
//! them) and every notification is validated against the vendored ACP JSON Schema.

use std::sync::{Arc, Mutex};

use dsh_tools::acp::protocol::v1::schema::SessionNotification;
use dsh_tools::acp::{AcpCards, AcpToolCalls};
use dsh_tools::{
    ContentBlock, FnTool, ToolError, ToolExecutionInput, ToolRegistry, Value,
    call::{FnToolBuilder, ToolAnnotations, ToolOptions, ToolProgress},
    json,
    present::{FileDiff, FileLocation, ToolCallKind, ToolCallView, ToolResultView},
};
use dsh_tools_tests::acp_schema::assert_valid_session_notification;
use dsh_tools_tests::golden::assert_golden;

/// The session's working directory in every case.
const CWD: &str = "/work/project";

/// Runs `input` on a registry holding `tool`, observed by a bridge for a client with or without
/// terminal support, and returns what the bridge sent.
async fn notifications(
    tool: FnTool,
    terminal: bool,
    input: ToolExecutionInput,
) -> Vec<SessionNotification> {
    let registry = ToolRegistry::new();
    let _ = registry.register(tool).unwrap();
    let sent: Arc<Mutex<Vec<SessionNotification>>> = Arc::default();
    let sink = Arc::clone(&sent);
    let _ = registry.observe(AcpToolCalls::with_sender(
        "session-1",
        AcpCards::new(CWD, terminal),
        move |notification| sink.lock().unwrap().push(notification),
    ));
    registry.execute(input).await;
    sent.lock().unwrap().clone()
}

/// Checks a case against its golden file and the schema.
async fn assert_case(name: &str, tool: FnTool, terminal: bool, arguments: Value) {
    let sent = notifications(
        tool,
        terminal,
        ToolExecutionInput::new("call-1", "tool", arguments),
    )
    .await;
    let value = serde_json::to_value(&sent).unwrap();
    for notification in value.as_array().unwrap() {
        assert_valid_session_notification(notification);
    }
    assert_golden("acp", name, &value);
}

/// A tool named `tool`, taking any object, whose body reports `progress` and then answers
/// `outcome`.
fn tool(
    build: impl FnOnce(FnToolBuilder) -> FnToolBuilder,
    progress: Vec<ToolProgress>,
    outcome: Result<Value, ToolError>,
) -> FnTool {
    let builder = FnTool::builder("tool", "A tool shown as a card.")
        .raw_parameters(json!({"type": "object"}));
    build(builder).handler(move |_, run| {
        for report in &progress {
            run.report_progress(report.clone());
        }
        let outcome = outcome.clone();
        async move { outcome }
    })
}

fn reading(path: &'static str) -> impl FnOnce(FnToolBuilder) -> FnToolBuilder {
    move |builder| {
        builder
            .present_call(move |_| {
                Some(ToolCallView::Generic {
                    title: format!("Read {path}"),
                    kind: ToolCallKind::Read,
                    raw_input: None,
                    content: vec![ContentBlock::text("lines 3 to 5")],
                    locations: vec![FileLocation {
                        path: path.into(),
                        line: Some(3),
                    }],
                })
            })
            .present_result(move |_, result| {
                Some(ToolResultView::Generic {
                    title: (!result.is_error).then(|| format!("Read 3 lines of {path}")),
                    content: vec![],
                })
            })
    }
}

fn halfway() -> Vec<ToolProgress> {
    vec![ToolProgress {
        total: Some(2.0),
        message: Some("reading".into()),
        ..ToolProgress::from(1.0)
    }]
}

#[tokio::test]
async fn generic_card_with_a_relative_path() {
    let tool = tool(reading("src/lib.rs"), halfway(), Ok(json!("a\nb\nc")));
    assert_case(
        "generic_relative_path",
        tool,
        false,
        json!({"path": "src/lib.rs"}),
    )
    .await;
}

#[tokio::test]
async fn generic_card_with_an_absolute_path_in_the_workspace() {
    let tool = tool(
        reading("/work/project/src/lib.rs"),
        halfway(),
        Ok(json!("a\nb\nc")),
    );
    assert_case(
        "generic_absolute_path",
        tool,
        false,
        json!({"path": "/work/project/src/lib.rs"}),
    )
    .await;
}

#[tokio::test]
async fn generic_card_of_a_failed_call() {
    let tool = tool(
        reading("src/missing.rs"),
        vec![],
        Err(ToolError::coded("IoError", "ENOENT", "no such file")),
    );
    assert_case(
        "generic_failed",
        tool,
        false,
        json!({"path": "src/missing.rs"}),
    )
    .await;
}

#[tokio::test]
async fn a_raw_tool_without_presenters_is_shown_from_its_annotations() {
    let tool = tool(
        |builder| {
            builder.options(ToolOptions {
                annotations: ToolAnnotations {
                    title: Some("Fetch a page".into()),
                    kind: Some(ToolCallKind::Fetch),
                    ..ToolAnnotations::default()
                },
                ..ToolOptions::default()
            })
        },
        vec![ToolProgress {
            message: Some("downloading".into()),
            ..ToolProgress::from(512.0)
        }],
        Ok(json!({"status": 200, "bytes": 1024})),
    );
    assert_case(
        "generic_raw_tool",
        tool,
        false,
        json!({"url": "https://example.com"}),
    )
    .await;
}

#[tokio::test]
async fn presenters_that_panic_are_shown_as_the_generic_card() {
    let tool = tool(
        |builder| {
            builder
                .present_call(|_| panic!("call presenter bug"))
                .present_progress(|_, _| panic!("progress presenter bug"))
                .present_result(|_, _| panic!("result presenter bug"))
        },
        halfway(),
        Ok(json!("fine")),
    );
    assert_case("presenter_panics", tool, true, json!({"a": 1})).await;
}

#[tokio::test]
async fn an_unknown_tool_is_shown_and_fails() {
    let sent = notifications(
        tool(|builder| builder, vec![], Ok(json!(null))),
        true,
        ToolExecutionInput::new("call-1", "missing_tool", json!({"x": 1})),
    )
    .await;
    let value = serde_json::to_value(&sent).unwrap();
    for notification in value.as_array().unwrap() {
        assert_valid_session_notification(notification);
    }
    assert_golden("acp", "unknown_tool", &value);
}

#[tokio::test]
async fn a_progress_presenter_replaces_the_pending_card_while_the_call_runs() {
    let tool = tool(
        |builder| {
            reading("src/lib.rs")(builder).present_progress(|_, progress| {
                Some(ToolCallView::Generic {
                    title: format!("Reading src/lib.rs ({} of 2)", progress.progress),
                    kind: ToolCallKind::Read,
                    raw_input: None,
                    content: vec![],
                    locations: vec![FileLocation {
                        path: "src/lib.rs".into(),
                        line: None,
                    }],
                })
            })
        },
        vec![
            ToolProgress {
                total: Some(2.0),
                ..ToolProgress::from(1.0)
            },
            ToolProgress {
                total: Some(2.0),
                ..ToolProgress::from(2.0)
            },
        ],
        Ok(json!("a")),
    );
    assert_case(
        "generic_progress_card",
        tool,
        false,
        json!({"path": "src/lib.rs"}),
    )
    .await;
}

fn editing(
    path: &'static str,
    old_text: Option<&'static str>,
) -> impl FnOnce(FnToolBuilder) -> FnToolBuilder {
    let diff = move || FileDiff {
        path: path.to_owned(),
        old_text: old_text.map(str::to_owned),
        new_text: "fn greeting() -> &'static str {\n    \"Hello, tools!\"\n}\n".to_owned(),
    };
    move |builder| {
        builder
            .present_call(move |_| {
                Some(ToolCallView::Diff {
                    title: format!("Edit {path}"),
                    diffs: vec![diff()],
                    locations: vec![],
                })
            })
            .present_result(move |_, _| {
                Some(ToolResultView::Diff {
                    title: Some(format!("Edited {path}")),
                    diffs: vec![diff()],
                })
            })
    }
}

const OLD_GREETING: &str = "fn greeting() -> &'static str {\n    \"Hello, world!\"\n}\n";

#[tokio::test]
async fn diff_card_with_a_relative_path() {
    let tool = tool(
        editing("src/lib.rs", Some(OLD_GREETING)),
        halfway(),
        Ok(json!("replaced 1 occurrence")),
    );
    assert_case(
        "diff_relative_path",
        tool,
        false,
        json!({"path": "src/lib.rs"}),
    )
    .await;
}

#[tokio::test]
async fn diff_card_of_a_new_file_with_an_absolute_path() {
    let tool = tool(
        editing("/work/project/src/new.rs", None),
        vec![],
        Ok(json!("created")),
    );
    assert_case("diff_new_file_absolute_path", tool, true, json!({})).await;
}

#[tokio::test]
async fn diff_card_of_a_failed_call() {
    let tool = tool(
        editing("src/lib.rs", Some(OLD_GREETING)),
        vec![],
        Err(ToolError::new("old_text occurs 0 times in src/lib.rs")),
    );
    assert_case("diff_failed", tool, false, json!({"path": "src/lib.rs"})).await;
}

fn command(
    cwd: Option<&'static str>,
    exit_code: Option<i32>,
    signal: Option<&'static str>,
) -> impl FnOnce(FnToolBuilder) -> FnToolBuilder {
    move |builder| {
        builder
            .present_call(move |arguments| {
                Some(ToolCallView::Terminal {
                    title: arguments["command"].as_str()?.to_owned(),
                    description: Some("Run the tests".into()),
                    cwd: cwd.map(str::to_owned),
                })
            })
            .present_result(move |_, result| {
                Some(ToolResultView::Terminal {
                    title: None,
                    output: Some(format!("{}\n\n", result.text())),
                    exit_code,
                    signal: signal.map(str::to_owned),
                })
            })
    }
}

fn testing_output() -> Vec<ToolProgress> {
    vec![ToolProgress {
        total: Some(10.0),
        message: Some("3 tests passed".into()),
        ..ToolProgress::from(3.0)
    }]
}

#[tokio::test]
async fn terminal_card_for_a_client_with_terminals() {
    let tool = tool(
        command(None, Some(0), None),
        testing_output(),
        Ok(json!("test result: ok. 10 passed")),
    );
    assert_case(
        "terminal_with_support",
        tool,
        true,
        json!({"command": "cargo test"}),
    )
    .await;
}

#[tokio::test]
async fn terminal_card_for_a_client_without_terminals() {
    let tool = tool(
        command(None, Some(0), None),
        testing_output(),
        Ok(json!("test result: ok. 10 passed")),
    );
    assert_case(
        "terminal_without_support",
        tool,
        false,
        json!({"command": "cargo test"}),
    )
    .await;
}

#[tokio::test]
async fn terminal_card_of_a_failed_call_for_a_client_with_terminals() {
    let tool = tool(
        command(Some("crates/core"), Some(101), None),
        vec![],
        Err(ToolError::new("test failed: 2 of 10")),
    );
    assert_case(
        "terminal_failed_with_support_relative_cwd",
        tool,
        true,
        json!({"command": "cargo test"}),
    )
    .await;
}

#[tokio::test]
async fn terminal_card_of_a_killed_command_for_a_client_without_terminals() {
    let tool = tool(
        command(Some("/tmp"), None, Some("SIGKILL")),
        vec![],
        Err(ToolError::new("killed")),
    );
    assert_case(
        "terminal_killed_without_support_absolute_cwd",
        tool,
        false,
        json!({"command": "sleep 100"}),
    )
    .await;
}

#[tokio::test]
async fn terminal_card_of_a_killed_command_for_a_client_with_terminals() {
    let tool = tool(
        command(Some("/tmp"), None, Some("SIGKILL")),
        vec![],
        Err(ToolError::new("killed")),
    );
    assert_case(
        "terminal_killed_with_support_absolute_cwd",
        tool,
        true,
        json!({"command": "sleep 100"}),
    )
    .await;
}

#[tokio::test]
async fn generic_and_diff_cards_do_not_depend_on_terminal_support() {
    for (tool_with, without) in [
        (
            tool(reading("src/lib.rs"), halfway(), Ok(json!("a"))),
            tool(reading("src/lib.rs"), halfway(), Ok(json!("a"))),
        ),
        (
            tool(editing("src/lib.rs", None), halfway(), Ok(json!("a"))),
            tool(editing("src/lib.rs", None), halfway(), Ok(json!("a"))),
        ),
    ] {
        let input = ToolExecutionInput::new("call-1", "tool", json!({}));
        assert_eq!(
            notifications(tool_with, true, input.clone()).await,
            notifications(without, false, input).await
        );
    }
}

#[test]
fn a_console_block_is_fenced_longer_than_any_backtick_run_in_the_output() {
    use dsh_tools::ToolExecutionResult;
    let cards = AcpCards::new(CWD, false);
    let call = ToolCallView::Terminal {
        title: "cat README.md".into(),
        description: None,
        cwd: None,
    };
    let card = ToolResultView::Terminal {
        title: None,
        output: Some("```rust\nfn main() {}\n```\n".into()),
        exit_code: Some(0),
        signal: None,
    };
    let update = cards.completion_update(
        "call-1",
        &call,
        &card,
        &ToolExecutionResult::success(json!("")),
    );
    let value = serde_json::to_value(&update).unwrap();
    assert_eq!(
        value["content"][0]["content"]["text"],
        "````console\n```rust\nfn main() {}\n```\n````"
    );
}

#[test]
fn the_schema_oracle_rejects_what_a_client_would_not_accept() {
    let valid = json!({
        "sessionId": "session-1",
        "update": {"sessionUpdate": "tool_call_update", "toolCallId": "call-1", "status": "completed"}
    });
    assert_valid_session_notification(&valid);
    for invalid in [
        json!({"sessionId": "session-1", "update": {"sessionUpdate": "tool_call_update", "toolCallId": "call-1", "status": "done"}}),
        json!({"sessionId": "session-1", "update": {"sessionUpdate": "tool_call", "toolCallId": "call-1"}}),
        json!({"sessionId": "session-1", "update": {"sessionUpdate": "tool_call", "toolCallId": "call-1", "title": "t", "content": [{"type": "diff", "path": "/a"}]}}),
        json!({"update": {"sessionUpdate": "tool_call_update", "toolCallId": "call-1"}}),
    ] {
        let rejected = std::panic::catch_unwind(|| assert_valid_session_notification(&invalid));
        assert!(rejected.is_err(), "the schema accepted {invalid}");
    }
}
