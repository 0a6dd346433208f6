//! Embedded resources (the content kind MCP servers return besides text, images, audio and
//! links) reach every provider's next-turn messages as text: a text resource with its contents,
//! a binary one as a note that its contents are not sent.

use dsh_tools::providers::{Dialect, ProviderTools};
use dsh_tools::{Value, json};
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
            Dialect::openai_chat(),
            json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "media", "arguments": "{}"}}
            ]}}]}),
        ),
        (
            Dialect::deepseek(),
            json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "media", "arguments": "{}"}}
            ]}}]}),
        ),
        (
            Dialect::openai_responses(),
            json!({"output": [
                {"type": "function_call", "call_id": "c1", "name": "media", "arguments": "{}"}
            ]}),
        ),
        (
            Dialect::anthropic(),
            json!({"content": [{"type": "tool_use", "id": "toolu_1", "name": "media", "input": {}}]}),
        ),
        (
            Dialect::gemini(),
            json!({"candidates": [{"content": {"parts": [
                {"functionCall": {"name": "media", "args": {}}}
            ]}}]}),
        ),
    ];
    for (dialect, response) in responses {
        let tools = ProviderTools::new(&registry, dialect).tools(None);
        let (calls, inputs) = tools
            .parse_response(&response)
            .unwrap_or_else(|error| panic!("{}: {error}", dialect.id()))
            .into_parts();
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
