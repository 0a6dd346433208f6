//! Round trips from recorded provider responses (written from each provider's documented
//! examples, under `tests/fixtures/providers/`): response → inputs → execute → result
//! messages, with names mapped back, the model's order kept, malformed arguments ending as
//! `INVALID_ARGS`, images carried or noted, and additional contexts after every result. The
//! formatted messages are golden files (`tests/golden/providers/round-trip-*.json`).

use std::sync::Arc;

use dsh_tools::providers::{
    Dialect, GeminiSchema, LoweredTools, ProviderTools, ToolCall, ToolCalls,
};
use dsh_tools::{
    ContentBlock, FnTool, ToolExecutionInput, ToolExecutionResult, ToolRegistry, Value, json,
};
use dsh_tools_tests::golden::assert_golden;
use dsh_tools_tests::provider_corpus::{
    COLLIDING_NAMES, corpus_registry, long_name, scratch_workspace,
};

/// A one-pixel PNG.
const PIXEL: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

fn fixture(name: &str) -> Value {
    let path = format!(
        "{}/fixtures/providers/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{path}: {error}"))
}

/// A tool whose result is text and an image, and which leaves context for the next request.
fn screenshot_tool() -> FnTool {
    FnTool::builder("take_screenshot", "Take a screenshot of a window.")
        .raw_parameters(json!({
            "type": "object",
            "properties": {"window": {"type": "string", "enum": ["editor", "terminal"]}},
            "required": ["window"],
            "additionalProperties": false
        }))
        .render(|_, value| {
            Ok(vec![
                ContentBlock::text(format!(
                    "screenshot of the {}",
                    value["window"].as_str().unwrap_or("?")
                )),
                ContentBlock::Image {
                    data: PIXEL.into(),
                    mime_type: "image/png".to_owned(),
                },
            ])
        })
        .handler(|arguments, run| async move {
            let window = arguments["window"].as_str().unwrap_or("?").to_owned();
            run.defer_context(ContentBlock::text(format!(
                "The {window} window has focus."
            )));
            Ok(json!({"window": window}))
        })
}

fn registry() -> ToolRegistry {
    let registry = corpus_registry(scratch_workspace());
    let _ = registry.register(screenshot_tool()).expect("fresh name");
    registry
}

struct Turn {
    tools: Arc<LoweredTools>,
    calls: Vec<ToolCall>,
    inputs: Vec<ToolExecutionInput>,
    results: Vec<ToolExecutionResult>,
    messages: Vec<Value>,
}

async fn round_trip(registry: &ToolRegistry, dialect: Dialect, fixture_name: &str) -> Turn {
    let tools = ProviderTools::new(registry, dialect).tools(None);
    let response = fixture(fixture_name);
    let parsed = tools.parse_response(&response).expect("the fixture parses");
    let ToolCalls { calls, inputs, .. } = parsed;
    let outcome = registry.execute_batch(inputs.clone(), 4).await;
    let messages = tools
        .format_batch(&calls, &outcome)
        .expect("one result per call");
    Turn {
        tools,
        calls,
        inputs,
        results: outcome.results,
        messages,
    }
}

fn names(turn: &Turn) -> Vec<&str> {
    turn.inputs.iter().map(|input| &*input.name).collect()
}

fn codes(turn: &Turn) -> Vec<Option<&str>> {
    turn.results
        .iter()
        .map(ToolExecutionResult::error_code)
        .collect()
}

#[tokio::test]
async fn openai_chat_round_trip() {
    let registry = registry();
    let turn = round_trip(
        &registry,
        Dialect::OpenAiChat { strict: true },
        "openai_chat_completion",
    )
    .await;
    assert_eq!(
        names(&turn),
        [
            "read_file",
            COLLIDING_NAMES[0],
            "search_files",
            "take_screenshot",
            "list_files"
        ]
    );
    assert_eq!(turn.calls[1].provider_name(), "mcp_fs_read_41131f1f");
    assert_eq!(turn.calls[0].id.as_str(), "call_DdmO9pD3xa9XTPNJ32zg2hcA");
    // Nulls for properties strict mode made nullable were removed.
    assert_eq!(
        turn.inputs[0].arguments,
        json!({"path": "src/lib.rs", "offset": null})
    );
    assert!(turn.inputs[2].is_malformed());
    assert_eq!(
        codes(&turn),
        [None, None, Some("INVALID_ARGS"), None, Some("UNKNOWN_TOOL")]
    );
    // One tool message per call, in order, then one user message with the image and context.
    assert_eq!(turn.messages.len(), 6);
    for (message, call) in turn.messages.iter().zip(&turn.calls) {
        assert_eq!(message["role"], "tool");
        assert_eq!(message["tool_call_id"], call.id.as_str());
    }
    let follow_up = &turn.messages[5];
    assert_eq!(follow_up["role"], "user");
    assert_eq!(follow_up["content"][1]["type"], "image_url");
    assert_eq!(
        follow_up["content"][2],
        json!({"type": "text", "text": "The editor window has focus."})
    );
    assert_golden(
        "providers",
        "round-trip-openai-chat",
        &Value::Array(turn.messages.clone()),
    );
    let _ = &turn.tools;
}

#[tokio::test]
async fn openai_responses_round_trip() {
    let registry = registry();
    let turn = round_trip(
        &registry,
        Dialect::OpenAiResponses { strict: true },
        "openai_responses",
    )
    .await;
    assert_eq!(names(&turn), ["read_file", "take_screenshot"]);
    assert_eq!(
        turn.inputs[0].arguments,
        json!({"path": "src/lib.rs", "offset": 1})
    );
    assert_eq!(codes(&turn), [None, None]);
    assert_eq!(turn.messages[0]["type"], "function_call_output");
    assert_eq!(turn.messages[0]["call_id"], "call_unLAR8MvFNptuiZK6K6HCy5k");
    assert_eq!(turn.messages[2]["type"], "message");
    assert_eq!(turn.messages[2]["content"][1]["type"], "input_image");
    assert_golden(
        "providers",
        "round-trip-openai-responses",
        &Value::Array(turn.messages.clone()),
    );
}

#[tokio::test]
async fn anthropic_round_trip() {
    let registry = registry();
    let turn = round_trip(
        &registry,
        Dialect::Anthropic { strict: false },
        "anthropic_message",
    )
    .await;
    assert_eq!(
        names(&turn),
        [
            "read_file",
            "register_contact",
            "take_screenshot",
            long_name().as_str()
        ]
    );
    assert_eq!(codes(&turn), [None, Some("INVALID_ARGS"), None, None]);
    // One user message: a tool_result per call first, then the context.
    assert_eq!(turn.messages.len(), 1);
    let blocks = turn.messages[0]["content"].as_array().unwrap();
    assert_eq!(blocks.len(), 5);
    assert_eq!(blocks[1]["is_error"], true);
    assert!(blocks[0].get("is_error").is_none());
    assert_eq!(blocks[2]["content"][1]["type"], "image");
    assert_eq!(blocks[2]["content"][1]["source"]["media_type"], "image/png");
    assert_eq!(
        blocks[4],
        json!({"type": "text", "text": "The editor window has focus."})
    );
    for (block, call) in blocks.iter().zip(&turn.calls) {
        assert_eq!(block["tool_use_id"], call.id.as_str());
    }
    assert_golden(
        "providers",
        "round-trip-anthropic",
        &Value::Array(turn.messages.clone()),
    );
}

#[tokio::test]
async fn gemini_round_trip_generates_stable_ids() {
    let registry = registry();
    let turn = round_trip(
        &registry,
        Dialect::Gemini {
            schema: GeminiSchema::OpenApi,
        },
        "gemini_generate_content",
    )
    .await;
    assert_eq!(
        names(&turn),
        ["3d_render", "read_file", "take_screenshot", "search_files"]
    );
    assert_eq!(codes(&turn), [None, None, None, Some("INVALID_ARGS")]);
    assert!(turn.calls.iter().all(|call| call.generated_id));
    let again = turn
        .tools
        .parse_response(&fixture("gemini_generate_content"))
        .unwrap();
    let ids: Vec<&str> = again.calls.iter().map(|call| call.id.as_str()).collect();
    let first: Vec<&str> = turn.calls.iter().map(|call| call.id.as_str()).collect();
    assert_eq!(ids, first);
    let distinct: std::collections::HashSet<&&str> = ids.iter().collect();
    assert_eq!(distinct.len(), ids.len());
    let parts = turn.messages[0]["parts"].as_array().unwrap();
    assert_eq!(parts[0]["functionResponse"]["name"], "_3d_render");
    assert!(parts[0]["functionResponse"].get("id").is_none());
    assert!(parts[3]["functionResponse"]["response"]["error"].is_string());
    assert_eq!(
        parts[2]["functionResponse"]["parts"][0]["inlineData"]["mimeType"],
        "image/png"
    );
    assert_eq!(parts[4], json!({"text": "The editor window has focus."}));
    assert_golden(
        "providers",
        "round-trip-gemini",
        &Value::Array(turn.messages.clone()),
    );
}

#[tokio::test]
async fn gemini_ids_sent_by_the_model_are_echoed() {
    let registry = registry();
    let tools = ProviderTools::new(
        &registry,
        Dialect::Gemini {
            schema: GeminiSchema::OpenApi,
        },
    )
    .tools(None);
    let response = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"id": "fc-1", "name": "read_file", "args": {"path": "src/lib.rs"}}}]}}]});
    let ToolCalls { calls, inputs, .. } = tools.parse_response(&response).unwrap();
    assert_eq!(calls[0].id.as_str(), "fc-1");
    assert!(!calls[0].generated_id);
    let outcome = registry.execute_batch(inputs, 1).await;
    let messages = tools.format_batch(&calls, &outcome).unwrap();
    assert_eq!(messages[0]["parts"][0]["functionResponse"]["id"], "fc-1");
}

#[tokio::test]
async fn deepseek_round_trip_notes_images_it_cannot_take() {
    let registry = registry();
    let turn = round_trip(
        &registry,
        Dialect::DeepSeek { strict: true },
        "deepseek_chat_completion",
    )
    .await;
    assert_eq!(names(&turn), ["search_files", "take_screenshot"]);
    assert_eq!(codes(&turn), [None, None]);
    assert!(
        turn.results[0].text().contains("src/lib.rs"),
        "{}",
        turn.results[0].text()
    );
    let screenshot = &turn.messages[1]["content"];
    assert_eq!(screenshot[0]["text"], "screenshot of the editor");
    assert!(
        screenshot[1]["text"]
            .as_str()
            .unwrap()
            .starts_with("[image/png image: DeepSeek cannot carry it here"),
        "{screenshot}"
    );
    // The context still follows every result; the image does not.
    assert_eq!(turn.messages[2]["role"], "user");
    assert_eq!(turn.messages[2]["content"].as_array().unwrap().len(), 1);
    assert_golden(
        "providers",
        "round-trip-deepseek",
        &Value::Array(turn.messages.clone()),
    );
}

#[tokio::test]
async fn a_response_with_no_tool_calls_yields_none() {
    let registry = registry();
    for (dialect, name) in [
        (
            Dialect::OpenAiChat { strict: false },
            "openai_chat_no_tool_calls",
        ),
        (
            Dialect::OpenAiResponses { strict: false },
            "openai_responses_no_tool_calls",
        ),
        (
            Dialect::Anthropic { strict: false },
            "anthropic_no_tool_use",
        ),
        (
            Dialect::Gemini {
                schema: GeminiSchema::OpenApi,
            },
            "gemini_no_function_call",
        ),
        (
            Dialect::DeepSeek { strict: false },
            "openai_chat_no_tool_calls",
        ),
    ] {
        let tools = ProviderTools::new(&registry, dialect).tools(None);
        let calls = tools.parse_response(&fixture(name)).unwrap();
        assert!(calls.calls.is_empty(), "{name}");
        assert!(
            tools
                .format_results(calls.calls.as_slice(), &[])
                .unwrap()
                .is_empty(),
            "{name}"
        );
    }
}

#[test]
fn formatted_results_keep_every_results_contexts_in_order_after_the_messages() {
    let registry = registry();
    let tools = ProviderTools::new(&registry, Dialect::OpenAiChat { strict: false }).tools(None);
    let response = json!({"choices": [{"message": {"role": "assistant", "content": null,
    "tool_calls": [
        {"id": "call_a", "type": "function",
         "function": {"name": "list_files", "arguments": "{}"}},
        {"id": "call_b", "type": "function",
         "function": {"name": "list_files", "arguments": "{}"}},
        {"id": "call_c", "type": "function",
         "function": {"name": "list_files", "arguments": "{}"}}
    ]}}]});
    let calls = tools.parse_response(&response).expect("parses");
    assert_eq!(calls.inputs.len(), 3);
    let results = [
        ToolExecutionResult::success(json!("a"))
            .with_content(vec![ContentBlock::text("a")])
            .with_additional_context(ContentBlock::text("first"))
            .with_additional_context(ContentBlock::text("second")),
        ToolExecutionResult::success(json!("b")).with_content(vec![ContentBlock::text("b")]),
        ToolExecutionResult::success(json!("c"))
            .with_content(vec![ContentBlock::text("c")])
            .with_additional_context(ContentBlock::text("third")),
    ];
    let messages = tools
        .format_results(calls.calls.as_slice(), &results)
        .expect("one result per call");
    assert_eq!(
        messages,
        [
            json!({"role": "tool", "tool_call_id": "call_a", "content": "a"}),
            json!({"role": "tool", "tool_call_id": "call_b", "content": "b"}),
            json!({"role": "tool", "tool_call_id": "call_c", "content": "c"}),
            json!({"role": "user", "content": [
                {"type": "text", "text": "first"},
                {"type": "text", "text": "second"},
                {"type": "text", "text": "third"}
            ]}),
        ]
    );
    // The keys in the order the provider documents them.
    let keys: Vec<&str> = messages[0]
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["role", "tool_call_id", "content"]);
}

#[tokio::test]
async fn responses_that_are_not_the_providers_shape_are_errors() {
    let registry = registry();
    let openai = ProviderTools::new(&registry, Dialect::OpenAiChat { strict: false }).tools(None);
    let missing_id = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"type": "function", "function": {"name": "read_file", "arguments": "{}"}}]}}]});
    let error = openai.parse_response(&missing_id).unwrap_err();
    assert_eq!(
        error.to_string(),
        "response message.tool_calls[0].id must be a string"
    );
    let not_function = json!({"choices": [{"message": {"tool_calls": [
        {"id": "c", "type": "custom", "custom": {"name": "x", "input": ""}}]}}]});
    assert!(
        openai
            .parse_response(&not_function)
            .unwrap_err()
            .to_string()
            .contains("\"custom\"")
    );
    let anthropic = ProviderTools::new(&registry, Dialect::Anthropic { strict: false }).tools(None);
    assert_eq!(
        anthropic
            .parse_response(&json!({"content": "text"}))
            .unwrap_err()
            .to_string(),
        "response content must be an array"
    );
    // Results must pair up with calls.
    let calls = openai
        .parse_response(&fixture("openai_chat_completion"))
        .unwrap();
    let error = openai
        .format_results(calls.calls.as_slice(), &[])
        .unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("5 tool call(s) but 0 result(s)"),
        "{error}"
    );
}
