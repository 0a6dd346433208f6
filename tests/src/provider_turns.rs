//! Two-turn conversations, one per provider, written from each provider's published
//! documentation: the first request, the model's turn streamed and whole, and the follow-up
//! request the documentation says comes next (the model's turn repeated with its opaque fields,
//! then the tool results). Every turn calls `get_weather` (see [`weather_registry`]).
//!
//! Sources:
//! - OpenAI Chat Completions: "Function calling" (platform.openai.com/docs/guides/function-calling)
//!   and "Streaming" (platform.openai.com/docs/api-reference/chat-streaming).
//! - OpenAI Responses: "Function calling", "Reasoning models — keeping reasoning items in
//!   context" (platform.openai.com/docs/guides/reasoning) and "Streaming events"
//!   (platform.openai.com/docs/api-reference/responses-streaming): a reasoning item's
//!   `encrypted_content` is read from its `response.output_item.done`.
//! - Anthropic Messages: "Extended thinking — extended thinking with tool use, preserving
//!   thinking blocks" (docs.claude.com/en/docs/build-with-claude/extended-thinking) and
//!   "Streaming messages" (docs.claude.com/en/docs/build-with-claude/streaming): `thinking_delta`
//!   and `signature_delta`.
//! - Gemini: "Thought signatures" (ai.google.dev/gemini-api/docs/thought-signatures) and
//!   "Function calling" (ai.google.dev/gemini-api/docs/function-calling): in a parallel turn only
//!   the first `functionCall` part carries a `thoughtSignature`, and a follow-up without it is
//!   rejected.
//! - DeepSeek: "Thinking mode — tool calls" (api-docs.deepseek.com/guides/thinking_mode):
//!   thinking mode is on by default, and after a tool call the assistant's `reasoning_content`
//!   must come back on every later request.

use dsh_tools::providers::{Dialect, GeminiSchema};
use dsh_tools::{FnTool, ToolRegistry, Value, json, schema::Schema};

/// One provider's two-turn conversation.
pub struct TurnFixture {
    /// The dialect the turn is read with.
    pub dialect: Dialect,
    /// The request's key that holds the conversation (`messages`, `input`, `contents`).
    pub conversation: &'static str,
    /// The first request, without its tools.
    pub request: Value,
    /// The model's turn as stream events.
    pub events: Vec<Value>,
    /// The same turn as a whole response.
    pub response: Value,
    /// The follow-up request the documentation shows.
    pub follow_up: Value,
}

/// A registry with `get_weather`, which answers `"<location>: 15°C, sunny"`.
pub fn weather_registry() -> ToolRegistry {
    let registry = ToolRegistry::new();
    let _ = registry
        .register(
            FnTool::builder("get_weather", "Get the current weather in a location.")
                .arguments(Schema::object().required("location", Schema::string()))
                .handler(|arguments, _| async move {
                    let location = arguments["location"].as_str().unwrap_or_default();
                    Ok(Value::from(format!("{location}: 15°C, sunny")))
                }),
        )
        .expect("a fresh registry");
    registry
}

/// Every provider's conversation.
pub fn all() -> Vec<TurnFixture> {
    vec![
        openai_chat(),
        deepseek(),
        openai_responses(),
        anthropic(),
        gemini(),
    ]
}

const PARIS: &str = "Paris, France";
const WEATHER: &str = "What is the weather like in Paris today?";

/// OpenAI Chat Completions: an assistant message with `content: null` and one tool call, then a
/// `tool` message.
pub fn openai_chat() -> TurnFixture {
    let chunk = |delta: Value, finish: Value| {
        json!({"id": "chatcmpl-123", "object": "chat.completion.chunk", "created": 1_694_268_190,
               "model": "gpt-4.1", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    let events = vec![
        chunk(
            json!({"role": "assistant", "content": null, "tool_calls": [
            {"index": 0, "id": "call_12345xyz", "type": "function",
             "function": {"name": "get_weather", "arguments": ""}}]}),
            Value::Null,
        ),
        chunk(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": "{\"location\":"}}]}),
            Value::Null,
        ),
        chunk(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": "\"Paris, France\"}"}}]}),
            Value::Null,
        ),
        chunk(json!({}), json!("tool_calls")),
    ];
    let assistant = json!({"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_12345xyz", "type": "function",
         "function": {"name": "get_weather", "arguments": "{\"location\":\"Paris, France\"}"}}]});
    let mut whole = assistant.clone();
    whole["refusal"] = Value::Null;
    whole["annotations"] = json!([]);
    TurnFixture {
        dialect: Dialect::OpenAiChat { strict: false },
        conversation: "messages",
        request: json!({"model": "gpt-4.1", "messages": [{"role": "user", "content": WEATHER}]}),
        events,
        response: json!({"id": "chatcmpl-123", "object": "chat.completion", "model": "gpt-4.1",
            "choices": [{"index": 0, "message": whole, "finish_reason": "tool_calls"}]}),
        follow_up: json!({"model": "gpt-4.1", "messages": [
            {"role": "user", "content": WEATHER},
            assistant,
            {"role": "tool", "tool_call_id": "call_12345xyz", "content": "Paris, France: 15°C, sunny"}
        ]}),
    }
}

/// DeepSeek in thinking mode: the assistant message keeps its `reasoning_content` beside the
/// tool call.
pub fn deepseek() -> TurnFixture {
    let chunk = |delta: Value, finish: Value| {
        json!({"id": "0f3c", "object": "chat.completion.chunk", "model": "deepseek-v4-pro",
               "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    let reasoning = "The user asks for today's weather in Paris. I should call get_weather.";
    let events = vec![
        chunk(
            json!({"role": "assistant", "content": null,
                     "reasoning_content": "The user asks for today's weather in Paris. "}),
            Value::Null,
        ),
        chunk(
            json!({"content": null, "reasoning_content": "I should call get_weather."}),
            Value::Null,
        ),
        chunk(
            json!({"content": "", "tool_calls": [{"index": 0, "id": "call_00_Wx", "type": "function",
            "function": {"name": "get_weather", "arguments": "{\"location\": \"Paris, France\"}"}}]}),
            Value::Null,
        ),
        chunk(json!({"content": ""}), json!("tool_calls")),
    ];
    let assistant = json!({"role": "assistant", "content": "", "reasoning_content": reasoning,
        "tool_calls": [{"id": "call_00_Wx", "type": "function",
            "function": {"name": "get_weather", "arguments": "{\"location\": \"Paris, France\"}"}}]});
    TurnFixture {
        dialect: Dialect::DeepSeek { strict: false },
        conversation: "messages",
        request: json!({"model": "deepseek-v4-pro", "messages": [{"role": "user", "content": WEATHER}]}),
        events,
        response: json!({"id": "0f3c", "object": "chat.completion", "model": "deepseek-v4-pro",
            "choices": [{"index": 0, "message": assistant.clone(), "finish_reason": "tool_calls"}]}),
        follow_up: json!({"model": "deepseek-v4-pro", "messages": [
            {"role": "user", "content": WEATHER},
            assistant,
            {"role": "tool", "tool_call_id": "call_00_Wx", "content": "Paris, France: 15°C, sunny"}
        ]}),
    }
}

/// OpenAI Responses with a reasoning model: the reasoning item (with its `encrypted_content`)
/// and the function call go back as input items, then the `function_call_output`.
pub fn openai_responses() -> TurnFixture {
    let reasoning = json!({"id": "rs_68af4030", "type": "reasoning", "summary": [],
        "encrypted_content": "gAAAAABor0BA-whole"});
    let call = json!({"id": "fc_68af4031", "type": "function_call", "status": "completed",
        "arguments": "{\"location\":\"Paris, France\"}", "call_id": "call_9xYz", "name": "get_weather"});
    let events = vec![
        json!({"type": "response.created", "sequence_number": 0,
               "response": {"id": "resp_68af", "status": "in_progress", "output": []}}),
        json!({"type": "response.output_item.added", "sequence_number": 1, "output_index": 0,
               "item": {"id": "rs_68af4030", "type": "reasoning", "summary": [],
                        "encrypted_content": "gAAAAABor0BA-partial"}}),
        json!({"type": "response.output_item.done", "sequence_number": 2, "output_index": 0,
               "item": reasoning}),
        json!({"type": "response.output_item.added", "sequence_number": 3, "output_index": 1,
               "item": {"id": "fc_68af4031", "type": "function_call", "status": "in_progress",
                        "arguments": "", "call_id": "call_9xYz", "name": "get_weather"}}),
        json!({"type": "response.function_call_arguments.delta", "sequence_number": 4,
               "item_id": "fc_68af4031", "output_index": 1, "delta": "{\"location\":"}),
        json!({"type": "response.function_call_arguments.delta", "sequence_number": 5,
               "item_id": "fc_68af4031", "output_index": 1, "delta": "\"Paris, France\"}"}),
        json!({"type": "response.function_call_arguments.done", "sequence_number": 6,
               "item_id": "fc_68af4031", "output_index": 1,
               "arguments": "{\"location\":\"Paris, France\"}"}),
        json!({"type": "response.output_item.done", "sequence_number": 7, "output_index": 1,
               "item": call}),
        json!({"type": "response.completed", "sequence_number": 8,
               "response": {"id": "resp_68af", "status": "completed", "output": [reasoning, call]}}),
    ];
    TurnFixture {
        dialect: Dialect::OpenAiResponses { strict: false },
        conversation: "input",
        request: json!({"model": "o4-mini", "store": false, "include": ["reasoning.encrypted_content"],
            "input": [{"role": "user", "content": WEATHER}]}),
        events,
        response: json!({"id": "resp_68af", "object": "response", "status": "completed",
            "output": [reasoning, call]}),
        follow_up: json!({"model": "o4-mini", "store": false, "include": ["reasoning.encrypted_content"],
        "input": [
            {"role": "user", "content": WEATHER},
            reasoning,
            call,
            {"type": "function_call_output", "call_id": "call_9xYz",
             "output": "Paris, France: 15°C, sunny"}
        ]}),
    }
}

/// Anthropic with extended thinking: the thinking block (with its signature), the text and the
/// `tool_use` go back in one assistant message, then a user message of `tool_result`s.
pub fn anthropic() -> TurnFixture {
    let thinking = "The user wants the weather in Paris. I'll use get_weather.";
    let signature = "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds";
    let delta = |index: u64, delta: Value| json!({"type": "content_block_delta", "index": index, "delta": delta});
    let events = vec![
        json!({"type": "message_start", "message": {"id": "msg_01", "type": "message",
            "role": "assistant", "model": "claude-sonnet-4-5", "content": [], "stop_reason": null,
            "usage": {"input_tokens": 412, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0,
               "content_block": {"type": "thinking", "thinking": ""}}),
        delta(
            0,
            json!({"type": "thinking_delta", "thinking": "The user wants the weather in Paris. "}),
        ),
        delta(
            0,
            json!({"type": "thinking_delta", "thinking": "I'll use get_weather."}),
        ),
        delta(
            0,
            json!({"type": "signature_delta", "signature": signature}),
        ),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1,
               "content_block": {"type": "text", "text": ""}}),
        delta(
            1,
            json!({"type": "text_delta", "text": "Let me check the weather "}),
        ),
        delta(1, json!({"type": "text_delta", "text": "in Paris."})),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use",
               "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather", "input": {}}}),
        delta(2, json!({"type": "input_json_delta", "partial_json": ""})),
        delta(
            2,
            json!({"type": "input_json_delta", "partial_json": "{\"location\": \"Par"}),
        ),
        delta(
            2,
            json!({"type": "input_json_delta", "partial_json": "is, France\"}"}),
        ),
        json!({"type": "content_block_stop", "index": 2}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null},
               "usage": {"output_tokens": 89}}),
        json!({"type": "message_stop"}),
    ];
    let content = json!([
        {"type": "thinking", "thinking": thinking, "signature": signature},
        {"type": "text", "text": "Let me check the weather in Paris."},
        {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather",
         "input": {"location": PARIS}}
    ]);
    let request = json!({"model": "claude-sonnet-4-5", "max_tokens": 16000,
        "thinking": {"type": "enabled", "budget_tokens": 10000},
        "messages": [{"role": "user", "content": WEATHER}]});
    let mut follow_up = request.clone();
    follow_up["messages"] = json!([
        {"role": "user", "content": WEATHER},
        {"role": "assistant", "content": content},
        {"role": "user", "content": [{"type": "tool_result",
            "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
            "content": [{"type": "text", "text": "Paris, France: 15°C, sunny"}]}]}
    ]);
    TurnFixture {
        dialect: Dialect::Anthropic { strict: false },
        conversation: "messages",
        request,
        events,
        response: json!({"id": "msg_01", "type": "message", "role": "assistant",
            "model": "claude-sonnet-4-5", "content": content, "stop_reason": "tool_use"}),
        follow_up,
    }
}

/// Gemini 3 with a parallel turn: text, then two `functionCall` parts of which only the first
/// carries a `thoughtSignature`; the model content goes back whole, then one user content of
/// `functionResponse` parts.
pub fn gemini() -> TurnFixture {
    let signature = "CiQB0e2Kb7Kx0N4Xq3i2hH0m8y1Zs";
    let chunk = |parts: Value, finish: Option<&str>| {
        let mut candidate = json!({"content": {"role": "model", "parts": parts}, "index": 0});
        if let Some(finish) = finish {
            candidate["finishReason"] = json!(finish);
        }
        json!({"candidates": [candidate], "modelVersion": "gemini-3-pro-preview"})
    };
    let paris = json!({"functionCall": {"name": "get_weather", "args": {"location": PARIS}},
        "thoughtSignature": signature});
    let london =
        json!({"functionCall": {"name": "get_weather", "args": {"location": "London, UK"}}});
    let events = vec![
        chunk(json!([{"text": "I'll check "}]), None),
        chunk(json!([{"text": "both cities."}]), None),
        chunk(json!([paris, london]), Some("STOP")),
    ];
    let parts = json!([{"text": "I'll check both cities."}, paris, london]);
    let question = json!({"role": "user",
        "parts": [{"text": "What is the weather like in Paris and in London?"}]});
    TurnFixture {
        dialect: Dialect::Gemini {
            schema: GeminiSchema::OpenApi,
        },
        conversation: "contents",
        request: json!({"contents": [question]}),
        events,
        response: json!({"candidates": [{"content": {"role": "model", "parts": parts},
            "finishReason": "STOP", "index": 0}], "modelVersion": "gemini-3-pro-preview"}),
        follow_up: json!({"contents": [
            question,
            {"role": "model", "parts": parts},
            {"role": "user", "parts": [
                {"functionResponse": {"name": "get_weather",
                    "response": {"output": "Paris, France: 15°C, sunny"}}},
                {"functionResponse": {"name": "get_weather",
                    "response": {"output": "London, UK: 15°C, sunny"}}}
            ]}
        ]}),
    }
}
