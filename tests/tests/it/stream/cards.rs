//! Cards while the model is still writing a call: the registry presents a pending call from its
//! arguments so far (a typed tool's presenter once they make a whole `Args`, else the generic card
//! with the raw input so far), and the ACP bridge announces the `tool_call` as soon as the name
//! is known, updates its raw input as it grows, and shows the call's start as an update of the
//! same card.

use std::sync::{Arc, Mutex};

use dsh_tools::acp::protocol::v1::schema::{SessionNotification, SessionUpdate, ToolCallStatus};
use dsh_tools::acp::{AcpCards, AcpToolCalls};
use dsh_tools::present::{FileLocation, ToolCallKind, ToolCallView};
use dsh_tools::providers::stream::{PartialJson, StreamEvent};
use dsh_tools::providers::{Dialect, ProviderTools};
use dsh_tools::{FnTool, ToolExecutionInput, ToolRegistry, Value, json, tool};
use dsh_tools_tests::acp_schema::assert_valid_session_notification;

fn reading_card(args: &ReadFileToolArgs) -> Option<ToolCallView> {
    Some(ToolCallView::Generic {
        title: format!("Read {}", args.path),
        kind: ToolCallKind::Read,
        raw_input: None,
        content: vec![],
        locations: vec![FileLocation {
            path: args.path.clone(),
            line: None,
        }],
    })
}

/// Read a file.
#[tool(kind = "read", present_call = reading_card)]
async fn read_file(
    /// The file.
    path: String,
    /// At most this many lines.
    #[arg(default = 10)]
    limit: u32,
) -> String {
    format!("{path} {limit}")
}

fn panicking_card(_: &BrokenToolArgs) -> Option<ToolCallView> {
    panic!("presenter bug")
}

/// A tool whose presenter panics.
#[tool(present_call = panicking_card)]
async fn broken(
    /// Anything.
    text: String,
) -> String {
    text
}

fn registry() -> ToolRegistry {
    let registry = ToolRegistry::new();
    let _ = registry.register(ReadFileTool).unwrap();
    let _ = registry.register(BrokenTool).unwrap();
    let _ = registry
        .register(
            FnTool::builder("note", "Take a note.")
                .present_call(|_| {
                    Some(ToolCallView::Generic {
                        title: "A note".to_owned(),
                        kind: ToolCallKind::Edit,
                        raw_input: None,
                        content: vec![],
                        locations: vec![],
                    })
                })
                .handler(|_, _| async { Ok(json!("noted")) }),
        )
        .unwrap();
    registry
}

/// The arguments so far of `text`, a prefix of a JSON object.
fn partial(text: &str) -> Value {
    let mut partial = PartialJson::default();
    partial.push(text).expect("a prefix of JSON");
    partial.value().unwrap_or_else(|| json!({}))
}

fn generic(card: &ToolCallView) -> (&str, ToolCallKind, Option<&Value>) {
    match card {
        ToolCallView::Generic {
            title,
            kind,
            raw_input,
            ..
        } => (title.as_str(), *kind, raw_input.as_ref()),
        other => panic!("not a generic card: {other:?}"),
    }
}

#[test]
fn a_typed_presenter_runs_once_the_arguments_so_far_make_its_args() {
    let registry = registry();
    let empty = json!({});
    let card = registry.present_partial_call("read_file", &partial(""));
    assert_eq!(
        generic(&card),
        ("read_file", ToolCallKind::Read, Some(&empty))
    );
    let card = registry.present_partial_call("read_file", &partial(r#"{"pa"#));
    assert_eq!(
        generic(&card),
        ("read_file", ToolCallKind::Read, Some(&empty))
    );
    // The path is still being written: the card shows it as far as it came.
    let card = registry.present_partial_call("read_file", &partial(r#"{"path": "src/ma"#));
    assert_eq!(generic(&card).0, "Read src/ma");
    let card = registry.present_partial_call("read_file", &partial(r#"{"path": "src/main.rs"}"#));
    assert_eq!(generic(&card).0, "Read src/main.rs");
}

#[test]
fn other_tools_show_the_generic_card_with_the_raw_input_so_far() {
    let registry = registry();
    // An `FnTool`'s call presenter is written for whole arguments: not run on a prefix.
    let card = registry.present_partial_call("note", &partial(r#"{"text": "buy mi"#));
    let so_far = json!({"text": "buy mi"});
    assert_eq!(generic(&card), ("note", ToolCallKind::Other, Some(&so_far)));
    let card = registry.present_partial_call("missing", &partial(r#"{"a": [1, 2"#));
    let so_far = json!({"a": [1, 2]});
    assert_eq!(
        generic(&card),
        ("missing", ToolCallKind::Other, Some(&so_far))
    );
    // A presenter that panics is contained.
    let card = registry.present_partial_call("broken", &partial(r#"{"text": "x"}"#));
    let so_far = json!({"text": "x"});
    assert_eq!(
        generic(&card),
        ("broken", ToolCallKind::Other, Some(&so_far))
    );
    // Scopes present as they resolve.
    let scope = registry.create_child("agent-1").unwrap();
    let card = scope.present_partial_call("read_file", &partial(r#"{"path": "a"}"#));
    assert_eq!(generic(&card).0, "Read a");
}

#[test]
fn a_strict_views_nulls_are_gone_from_the_arguments_so_far() {
    let registry = registry();
    let tools = ProviderTools::new(&registry, Dialect::OpenAiChat { strict: true }).tools(None);
    let mut stream = tools.stream();
    let chunk =
        |delta: Value| json!({"choices": [{"index": 0, "delta": delta, "finish_reason": null}]});
    let events = [
        chunk(
            json!({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
            "function": {"name": "read_file", "arguments": ""}}]}),
        ),
        chunk(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": "{\"limit\":null,\"pa"}}]}),
        ),
        chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": "th\":\"src/li"}}]})),
    ];
    let mut cards = Vec::new();
    for event in &events {
        for update in stream.push(event).unwrap() {
            if let StreamEvent::ArgumentsDelta { index, .. } = update {
                let so_far = stream.arguments_so_far(index).unwrap();
                let card = registry.present_partial_call("read_file", &so_far);
                cards.push((so_far, card.title().to_owned()));
            }
        }
    }
    assert_eq!(
        cards,
        [
            (json!({}), "read_file".to_owned()),
            (json!({"path": "src/li"}), "Read src/li".to_owned()),
        ]
    );
    // What the model wrote for the view keeps its `null`.
    assert_eq!(
        stream.calls()[0].partial_arguments.value(),
        Some(json!({"limit": null, "path": "src/li"}))
    );
    assert_eq!(stream.arguments_so_far(1), None);
}

fn raw_input(notification: &SessionNotification) -> (&'static str, Option<Value>) {
    match &notification.update {
        SessionUpdate::ToolCall(call) => ("tool_call", call.raw_input.clone()),
        SessionUpdate::ToolCallUpdate(update) => {
            let status = match update.fields.status {
                Some(ToolCallStatus::Pending) => "pending",
                Some(ToolCallStatus::InProgress) => "in_progress",
                Some(ToolCallStatus::Completed) => "completed",
                Some(ToolCallStatus::Failed) => "failed",
                _ => "other",
            };
            (status, update.fields.raw_input.clone())
        }
        other => panic!("not a tool call update: {other:?}"),
    }
}

#[tokio::test]
async fn the_acp_card_appears_with_the_name_grows_and_then_runs_as_the_same_card() {
    let registry = registry();
    let sent: Arc<Mutex<Vec<SessionNotification>>> = Arc::default();
    let sink = Arc::clone(&sent);
    let acp = AcpToolCalls::with_sender(
        "session-1",
        AcpCards::new("/work", false),
        move |notification| {
            sink.lock().unwrap().push(notification);
        },
    );
    let _ = registry.observe(acp.clone());
    let tools = ProviderTools::new(&registry, Dialect::Anthropic { strict: false }).tools(None);
    let mut stream = tools.stream();
    let events = [
        json!({"type": "content_block_start", "index": 0,
               "content_block": {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0,
               "delta": {"type": "input_json_delta", "partial_json": "{\"path\": \"src/"}}),
        json!({"type": "content_block_delta", "index": 0,
               "delta": {"type": "input_json_delta", "partial_json": "main.rs\"}"}}),
        json!({"type": "content_block_stop", "index": 0}),
    ];
    let mut finished: Option<ToolExecutionInput> = None;
    for event in &events {
        for update in stream.push(event).unwrap() {
            match update {
                StreamEvent::CallStarted { index, .. }
                | StreamEvent::ArgumentsDelta { index, .. } => {
                    let call = &stream.calls()[index].call;
                    let so_far = stream.arguments_so_far(index).unwrap();
                    let card = registry.present_partial_call(call.name.as_str(), &so_far);
                    acp.show_partial(call.id.as_str(), call.name.as_str(), &so_far, &card);
                }
                StreamEvent::CallFinished { input, .. } => finished = Some(input),
                _ => {}
            }
        }
    }
    let result = registry.execute(finished.expect("the call finished")).await;
    assert!(!result.is_error(), "{result:?}");

    let sent = sent.lock().unwrap().clone();
    for notification in &sent {
        assert_valid_session_notification(&serde_json::to_value(notification).unwrap());
    }
    let shown: Vec<(&str, Option<Value>)> = sent.iter().map(raw_input).collect();
    assert_eq!(
        shown,
        [
            ("tool_call", Some(json!({}))),
            ("pending", Some(json!({"path": "src/"}))),
            ("pending", Some(json!({"path": "src/main.rs"}))),
            // The call starts under the same id: the card is updated (now running), not
            // announced again.
            ("in_progress", Some(json!({"path": "src/main.rs"}))),
            ("completed", None),
        ]
    );
    let SessionUpdate::ToolCallUpdate(update) = &sent[2].update else {
        panic!("an update");
    };
    assert_eq!(update.tool_call_id.0.as_ref(), "toolu_1");
    assert_eq!(update.fields.title.as_deref(), Some("Read src/main.rs"));
    assert_eq!(update.fields.name.as_deref(), Some("read_file"));
}
