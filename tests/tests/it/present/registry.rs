//! Presentation on the registry: `present_call`, `present_progress` and `present_result` resolve
//! the definition the call sees (scopes included) and never fail — a presenter that returns
//! nothing or panics gives the generic card, a terminal result for a call that was not a terminal
//! card degrades, a result card is never blank and a failure always shows its error text; raw
//! tools get generic cards from their annotations.

use std::sync::Arc;

use dsh_tools::{
    ContentBlock, FnTool, ToolError, ToolExecutionInput, ToolExecutionResult, ToolRegistry,
    call::{FnToolBuilder, ToolAnnotations, ToolOptions, ToolProgress},
    json,
    present::{FileDiff, FileLocation, ToolCallKind, ToolCallView, ToolResultView},
};
use dsh_tools_tests::Capture;

/// A tool builder whose tool takes any object (the calls below pass the arguments the cards show).
fn any_object(name: &str, description: &str) -> FnToolBuilder {
    FnTool::builder(name, description).raw_parameters(json!({"type": "object"}))
}

fn input(name: &str, arguments: serde_json::Value) -> ToolExecutionInput {
    ToolExecutionInput::new("call_1", name.to_owned(), arguments)
}

fn generic(title: &str, kind: ToolCallKind, raw: serde_json::Value) -> ToolCallView {
    ToolCallView::Generic {
        title: title.into(),
        kind,
        raw_input: Some(raw),
        content: vec![],
        locations: vec![],
    }
}

/// A tool answering `"done"`, with whatever presenters `build` gives it.
fn tool(name: &str, build: impl FnOnce(FnToolBuilder) -> FnToolBuilder) -> FnTool {
    build(any_object(name, "A tool.")).handler(|_, _| async { Ok(json!("done")) })
}

fn plain(name: &str) -> FnTool {
    tool(name, |builder| builder)
}

#[tokio::test]
async fn a_tool_without_presenters_gets_the_generic_cards() {
    let registry = ToolRegistry::new();
    let _ = registry.register(plain("plain")).unwrap();
    let call = input("plain", json!({"x": 1}));
    assert_eq!(
        registry.present_call(&call),
        generic("plain", ToolCallKind::Other, json!({"x": 1}))
    );
    let result = registry.execute(call.clone()).await;
    assert_eq!(
        registry.present_result(&call, &result),
        ToolResultView::Generic {
            title: None,
            content: vec![ContentBlock::text("done")],
        }
    );
}

#[tokio::test]
async fn raw_and_imported_tools_are_shown_with_their_annotated_title_and_kind() {
    let registry = ToolRegistry::new();
    let _ = registry
        .register(tool("fetch_page", |builder| {
            builder.options(ToolOptions {
                annotations: ToolAnnotations {
                    title: Some("Fetch a web page".into()),
                    kind: Some(ToolCallKind::Fetch),
                    ..ToolAnnotations::default()
                },
                ..ToolOptions::default()
            })
        }))
        .unwrap();
    let call = input("fetch_page", json!({"url": "https://example.com"}));
    assert_eq!(
        registry.present_call(&call),
        generic(
            "Fetch a web page",
            ToolCallKind::Fetch,
            json!({"url": "https://example.com"})
        )
    );
}

#[tokio::test]
async fn an_unknown_tool_gets_a_generic_card_with_its_error() {
    let registry = ToolRegistry::new();
    let call = input("nope", json!({}));
    assert_eq!(
        registry.present_call(&call),
        generic("nope", ToolCallKind::Other, json!({}))
    );
    let result = registry.execute(call.clone()).await;
    assert_eq!(
        registry.present_result(&call, &result),
        ToolResultView::Generic {
            title: None,
            content: vec![ContentBlock::text("Error: unknown tool \"nope\"")],
        }
    );
}

fn panicking() -> FnTool {
    any_object("fragile", "Its presenters panic.")
        .present_call(|_| panic!("call presenter bug"))
        .present_progress(|_, _| panic!("progress presenter bug"))
        .present_result(|_, _| panic!("result presenter bug"))
        .handler(|_, _| async { Ok(json!("fine")) })
}

#[tokio::test(flavor = "current_thread")]
async fn presenters_that_panic_give_the_generic_cards_and_are_logged() {
    let capture = Capture::new();
    let _logging = capture.install();
    let registry = ToolRegistry::new();
    let _ = registry.register(panicking()).unwrap();
    let call = input("fragile", json!({"a": true}));
    let pending = registry.present_call(&call);
    assert_eq!(
        pending,
        generic("fragile", ToolCallKind::Other, json!({"a": true}))
    );
    assert_eq!(
        registry.present_progress(&call, &ToolProgress::from(1.0)),
        pending
    );
    let result = registry.execute(call.clone()).await;
    assert_eq!(
        registry.present_result(&call, &result),
        ToolResultView::Generic {
            title: None,
            content: vec![ContentBlock::text("fine")],
        }
    );
    let events = capture.events();
    for expected in [
        "call presenter panicked: call presenter bug",
        "progress presenter panicked: progress presenter bug",
        "result presenter panicked: result presenter bug",
    ] {
        assert!(
            events.iter().any(|event| event == expected),
            "{expected}: {events:?}"
        );
    }
}

fn terminal_result_for_generic_call() -> FnTool {
    any_object("odd", "Shows a terminal result for a generic call.")
        .present_result(|_, result| {
            Some(ToolResultView::Terminal {
                title: Some("ran".into()),
                output: Some(result.text()),
                exit_code: Some(0),
                signal: None,
            })
        })
        .handler(|_, _| async { Ok(json!("output")) })
}

#[tokio::test]
async fn a_terminal_result_of_a_call_that_was_not_a_terminal_card_degrades_to_generic() {
    let registry = ToolRegistry::new();
    let _ = registry
        .register(terminal_result_for_generic_call())
        .unwrap();
    let call = input("odd", json!({}));
    let result = registry.execute(call.clone()).await;
    assert_eq!(
        registry.present_result(&call, &result),
        ToolResultView::Generic {
            title: Some("ran".into()),
            content: vec![ContentBlock::text("output")],
        }
    );
}

fn shell() -> FnTool {
    any_object("shell", "Runs a command.")
        .present_call(|arguments| {
            Some(ToolCallView::Terminal {
                title: arguments["command"].as_str()?.to_owned(),
                description: None,
                cwd: None,
            })
        })
        .present_result(|_, result| {
            Some(ToolResultView::Terminal {
                title: None,
                output: None,
                exit_code: (!result.is_error).then_some(0),
                signal: None,
            })
        })
        .handler(|arguments, _| async move {
            match arguments["command"].as_str() {
                Some("false") => Err(ToolError::coded("ShellError", "EXIT", "exit status 1")),
                _ => Ok(json!("hello")),
            }
        })
}

#[tokio::test]
async fn a_terminal_card_without_output_shows_the_raw_content_and_a_failure_its_error() {
    let registry = ToolRegistry::new();
    let _ = registry.register(shell()).unwrap();
    let ok = input("shell", json!({"command": "echo hello"}));
    assert_eq!(
        registry.present_call(&ok),
        ToolCallView::Terminal {
            title: "echo hello".into(),
            description: None,
            cwd: None,
        }
    );
    let result = registry.execute(ok.clone()).await;
    assert_eq!(
        registry.present_result(&ok, &result),
        ToolResultView::Terminal {
            title: None,
            output: Some("hello".into()),
            exit_code: Some(0),
            signal: None,
        }
    );

    let failing = input("shell", json!({"command": "false"}));
    let result = registry.execute(failing.clone()).await;
    assert_eq!(result.error_code(), Some("EXIT"));
    assert_eq!(
        registry.present_result(&failing, &result),
        ToolResultView::Terminal {
            title: None,
            output: Some("Error: exit status 1".into()),
            exit_code: None,
            signal: None,
        }
    );
}

fn editor() -> FnTool {
    let diff = |arguments: &serde_json::Value| FileDiff {
        path: arguments["path"].as_str().unwrap_or("").to_owned(),
        old_text: Some("old".into()),
        new_text: "new".into(),
    };
    any_object("edit", "Edits a file.")
        .present_call(move |arguments| {
            Some(ToolCallView::Diff {
                title: format!("Edit {}", arguments["path"].as_str()?),
                diffs: vec![diff(arguments)],
                locations: vec![FileLocation {
                    path: arguments["path"].as_str()?.into(),
                    line: None,
                }],
            })
        })
        .present_result(move |arguments, _| {
            Some(ToolResultView::Diff {
                title: None,
                diffs: vec![diff(arguments)],
            })
        })
        .handler(|arguments, _| async move {
            if arguments["path"] == "locked.rs" {
                return Err(ToolError::new("locked.rs is read-only"));
            }
            Ok(json!("edited"))
        })
}

#[tokio::test]
async fn a_diff_card_of_a_failed_call_shows_its_error_instead() {
    let registry = ToolRegistry::new();
    let _ = registry.register(editor()).unwrap();
    let ok = input("edit", json!({"path": "a.rs"}));
    let result = registry.execute(ok.clone()).await;
    assert!(matches!(
        registry.present_result(&ok, &result),
        ToolResultView::Diff { diffs, .. } if diffs.len() == 1
    ));

    let locked = input("edit", json!({"path": "locked.rs"}));
    let result = registry.execute(locked.clone()).await;
    assert_eq!(
        registry.present_result(&locked, &result),
        ToolResultView::Generic {
            title: None,
            content: vec![ContentBlock::text("Error: locked.rs is read-only")],
        }
    );
}

fn custom_error_card() -> FnTool {
    any_object("polite", "Fails politely.")
        .present_result(|_, _| {
            Some(ToolResultView::Generic {
                title: Some("Could not do it".into()),
                content: vec![ContentBlock::text("Something went wrong.")],
            })
        })
        .handler(|_, _| async { Err::<serde_json::Value, _>(ToolError::new("disk full")) })
}

#[tokio::test]
async fn a_failure_always_shows_its_error_text() {
    let registry = ToolRegistry::new();
    let _ = registry.register(custom_error_card()).unwrap();
    let call = input("polite", json!({}));
    let result = registry.execute(call.clone()).await;
    assert_eq!(
        registry.present_result(&call, &result),
        ToolResultView::Generic {
            title: Some("Could not do it".into()),
            content: vec![
                ContentBlock::text("Error: disk full"),
                ContentBlock::text("Something went wrong."),
            ],
        }
    );
}

#[tokio::test]
async fn a_result_with_no_content_is_never_blank() {
    let registry = ToolRegistry::new();
    let _ = registry
        .register(
            any_object("silent", "Renders nothing.")
                .render(|_, _| Ok(vec![]))
                .handler(|_, _| async { Ok(json!({"count": 2})) }),
        )
        .unwrap();
    let _ = registry
        .register(
            any_object("mute", "Renders nothing of nothing.")
                .render(|_, _| Ok(vec![]))
                .handler(|_, _| async { Ok(json!("")) }),
        )
        .unwrap();
    let call = input("silent", json!({}));
    let result = registry.execute(call.clone()).await;
    assert_eq!(
        registry.present_result(&call, &result),
        ToolResultView::Generic {
            title: None,
            content: vec![ContentBlock::text(r#"{"count":2}"#)],
        }
    );
    let call = input("mute", json!({}));
    let result = registry.execute(call.clone()).await;
    assert_eq!(
        registry.present_result(&call, &result),
        ToolResultView::Generic {
            title: None,
            content: vec![ContentBlock::text("(empty result)")],
        }
    );
}

#[tokio::test]
async fn a_blank_title_becomes_the_tool_name() {
    let registry = ToolRegistry::new();
    let _ = registry
        .register(tool("blank", |builder| {
            builder.present_call(|_| Some(generic(" ", ToolCallKind::Read, json!(null))))
        }))
        .unwrap();
    assert_eq!(
        registry.present_call(&input("blank", json!({}))).title(),
        "blank"
    );
}

#[tokio::test]
async fn progress_cards_come_from_the_progress_presenter_or_stay_the_pending_card() {
    let registry = ToolRegistry::new();
    let _ = registry
        .register(tool("index", |builder| {
            builder.present_progress(|_, progress| {
                Some(generic(
                    &format!("Indexing ({} done)", progress.progress),
                    ToolCallKind::Search,
                    json!({}),
                ))
            })
        }))
        .unwrap();
    let _ = registry.register(plain("quiet")).unwrap();
    assert_eq!(
        registry
            .present_progress(&input("index", json!({})), &ToolProgress::from(3.0))
            .title(),
        "Indexing (3 done)"
    );
    let quiet = input("quiet", json!({"q": 1}));
    assert_eq!(
        registry.present_progress(&quiet, &ToolProgress::from(3.0)),
        registry.present_call(&quiet)
    );
}

#[tokio::test]
async fn scopes_present_with_the_definition_their_calls_resolve_to() {
    let registry = ToolRegistry::new();
    let _ = registry
        .register(tool("look", |builder| {
            builder.present_call(|_| Some(generic("global look", ToolCallKind::Read, json!({}))))
        }))
        .unwrap();
    let scope = registry.create_child("agent").unwrap();
    let _ = scope
        .register(tool("look", |builder| {
            builder.present_call(|_| Some(generic("scoped look", ToolCallKind::Read, json!({}))))
        }))
        .unwrap();
    let call = input("look", json!({}));
    assert_eq!(registry.present_call(&call).title(), "global look");
    assert_eq!(scope.present_call(&call).title(), "scoped look");
    // An input carrying the agent resolves in its scope on the registry too.
    let agents = call.clone().with_agent("agent");
    assert_eq!(registry.present_call(&agents).title(), "scoped look");
    let result: ToolExecutionResult = scope.execute(call.clone()).await;
    assert_eq!(
        scope.present_result(&call, &result),
        ToolResultView::Generic {
            title: None,
            content: vec![ContentBlock::text("done")],
        }
    );
}

#[tokio::test]
async fn observers_present_with_the_execution_they_are_given() {
    let registry = ToolRegistry::new();
    let _ = registry.register(editor()).unwrap();
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let observing = registry.clone();
    let _ = registry.on_result(move |execution, result| {
        let pending = observing.present_call(execution);
        sink.lock().unwrap().push((
            pending.title().to_owned(),
            observing.present_result(execution, result),
        ));
    });
    registry
        .execute(input("edit", json!({"path": "b.rs"})))
        .await;
    let seen = seen.lock().unwrap();
    assert_eq!(seen[0].0, "Edit b.rs");
    assert!(matches!(seen[0].1, ToolResultView::Diff { .. }));
}
