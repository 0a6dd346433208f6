//! Embedded resources (the content kind MCP servers return besides text, images, audio and
//! links) in every other bridge: every provider's next-turn messages show them as text (a text
//! resource with its contents, a binary one as a note that its contents are not sent), ACP
//! carries them as resource content, and text cards show them.

use std::sync::{Arc, Mutex};

use dsh_tools::acp::protocol::v1::schema::SessionNotification;
use dsh_tools::acp::{AcpCards, AcpToolCalls};
use dsh_tools::providers::{Dialect, GeminiSchema, ProviderTools, ToolCalls};
use dsh_tools::{
    ContentBlock, ToolExecutionInput, Value,
    content::EmbeddedResource,
    json,
    present::{TextCards, ToolCallKind, ToolCallView, ToolResultView},
};
use dsh_tools_tests::acp_schema::assert_valid_session_notification;
use dsh_tools_tests::mcp_fixture;

/// Every string in `value`, depth first.
fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(text) => out.push(text.clone()),
        Value::Array(items) => items.iter().for_each(|item| strings(item, out)),
        Value::Object(map) => map.values().for_each(|item| strings(item, out)),
        _ => {}
    }
}

#[tokio::test]
async fn every_provider_shows_embedded_resources_as_text() {
    let (registry, _) = mcp_fixture::registry();
    let responses = [
        (
            Dialect::OpenAiChat { strict: false },
            json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "media", "arguments": "{}"}}
            ]}}]}),
        ),
        (
            Dialect::DeepSeek { strict: false },
            json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "media", "arguments": "{}"}}
            ]}}]}),
        ),
        (
            Dialect::OpenAiResponses { strict: false },
            json!({"output": [
                {"type": "function_call", "call_id": "c1", "name": "media", "arguments": "{}"}
            ]}),
        ),
        (
            Dialect::Anthropic { strict: false },
            json!({"content": [{"type": "tool_use", "id": "toolu_1", "name": "media", "input": {}}]}),
        ),
        (
            Dialect::Gemini {
                schema: GeminiSchema::OpenApi,
            },
            json!({"candidates": [{"content": {"parts": [
                {"functionCall": {"name": "media", "args": {}}}
            ]}}]}),
        ),
    ];
    for (dialect, response) in responses {
        let tools = ProviderTools::new(&registry, dialect).tools(None);
        let ToolCalls { calls, inputs, .. } = tools
            .parse_response(&response)
            .unwrap_or_else(|error| panic!("{}: {error}", dialect.id()));
        let mut results = Vec::new();
        for input in inputs {
            results.push(registry.execute(input).await);
        }
        let messages = tools.format_results(&calls, &results).expect("formats");
        let mut texts = Vec::new();
        strings(&Value::Array(messages), &mut texts);
        let all = texts.join("\n");
        assert!(
            all.contains("[resource file:///workspace/notes.txt (text/plain)]\nnotes"),
            "{}: {all}",
            dialect.id()
        );
        assert!(
            all.contains("[resource file:///workspace/data.bin: binary contents not sent]"),
            "{}: {all}",
            dialect.id()
        );
    }
}

#[tokio::test]
async fn acp_carries_embedded_resources_as_resource_content() {
    let (registry, _) = mcp_fixture::registry();
    let sent: Arc<Mutex<Vec<SessionNotification>>> = Arc::default();
    let sink = Arc::clone(&sent);
    let _ = registry.observe(AcpToolCalls::with_sender(
        "session-1",
        AcpCards::new("/workspace", false),
        move |notification| sink.lock().unwrap().push(notification),
    ));
    let _ = registry
        .execute(ToolExecutionInput::new("call-1", "media", json!({})))
        .await;
    let sent = serde_json::to_value(&*sent.lock().unwrap()).expect("serializes");
    for notification in sent.as_array().expect("notifications") {
        assert_valid_session_notification(notification);
    }
    let completed = sent.as_array().expect("notifications").last().expect("one");
    let content = completed["update"]["content"].as_array().expect("content");
    let resources: Vec<&Value> = content
        .iter()
        .map(|item| &item["content"])
        .filter(|block| block["type"] == "resource")
        .collect();
    assert_eq!(
        resources,
        [
            &json!({"type": "resource", "resource": {
                "uri": "file:///workspace/notes.txt", "mimeType": "text/plain", "text": "notes"
            }}),
            &json!({"type": "resource", "resource": {
                "uri": "file:///workspace/data.bin", "blob": "AAEC"
            }}),
        ]
    );
}

#[test]
fn text_cards_show_embedded_resources() {
    let call = ToolCallView::Generic {
        title: "media".to_owned(),
        kind: ToolCallKind::Other,
        raw_input: None,
        content: Vec::new(),
        locations: Vec::new(),
    };
    let result = ToolResultView::Generic {
        title: None,
        content: vec![
            ContentBlock::Resource {
                resource: EmbeddedResource::Text {
                    uri: "file:///workspace/notes.txt".to_owned(),
                    mime_type: None,
                    text: "first\nsecond".to_owned(),
                },
            },
            ContentBlock::Resource {
                resource: EmbeddedResource::Blob {
                    uri: "file:///workspace/data.bin".to_owned(),
                    mime_type: None,
                    blob: "AAEC".to_owned(),
                },
            },
        ],
    };
    let text = TextCards::default().result(&call, &result, false);
    assert!(
        text.contains("[resource file:///workspace/notes.txt]\n")
            && text.contains("first\n")
            && text.contains("second\n")
            && text.contains("[resource file:///workspace/data.bin]"),
        "{text}"
    );
}
