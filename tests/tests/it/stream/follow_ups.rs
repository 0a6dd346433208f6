//! A streamed turn gives back the model's turn as the next request must repeat it: for each
//! provider, the conversation of `provider_turns` is rebuilt from its stream events (the
//! assistant turn, then the formatted results) and must equal the follow-up request its
//! documentation shows, pass the follow-up checker, and equal what the whole response gives.
//! The checker is shown to refuse the same request without the turn or without its opaque
//! fields.

use dsh_tools::Value;
use dsh_tools::providers::ProviderTools;
use dsh_tools_tests::provider_follow_ups::check_follow_up;
use dsh_tools_tests::provider_turns::{self, TurnFixture, weather_registry};

/// The opaque fields a provider wants back, wherever they are.
const OPAQUE: [&str; 4] = [
    "thoughtSignature",
    "signature",
    "encrypted_content",
    "reasoning_content",
];

fn strip_opaque(value: &mut Value) {
    match value {
        Value::Object(members) => {
            members.retain(|key, _| !OPAQUE.contains(&key.as_str()));
            members.values_mut().for_each(strip_opaque);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_opaque),
        _ => {}
    }
}

async fn rebuild(fixture: TurnFixture) {
    let dialect = fixture.dialect;
    let registry = weather_registry();
    let tools = ProviderTools::new(&registry, dialect).tools(None);
    let mut stream = tools.stream();
    for event in &fixture.events {
        stream.push(event).expect("the stream reads");
    }
    stream.end().expect("the stream ends whole");
    let assistant = stream.assistant_turn();
    let whole = tools
        .assistant_turn(&fixture.response)
        .expect("the whole response reads");
    assert_eq!(
        assistant,
        whole,
        "{}: the streamed turn is the whole one",
        dialect.id()
    );

    let mut calls = stream.into_tool_calls().expect("every call finished");
    let outcome = registry
        .execute_batch(std::mem::take(&mut calls.inputs), 4)
        .await;
    let results = tools
        .format_batch(calls.calls.as_slice(), &outcome)
        .expect("one result per call");
    let mut request = fixture.request.clone();
    let conversation = request[fixture.conversation]
        .as_array_mut()
        .expect("the first request has a conversation");
    let asked = conversation.len();
    conversation.extend(assistant.iter().cloned());
    conversation.extend(results);
    assert_eq!(request, fixture.follow_up, "{}", dialect.id());
    assert_eq!(
        check_follow_up(dialect, &request),
        Vec::<String>::new(),
        "{}",
        dialect.id()
    );

    // The checker refuses the results without the turn they answer …
    let mut without_turn = request.clone();
    let conversation = without_turn[fixture.conversation].as_array_mut().unwrap();
    conversation.drain(asked..asked + assistant.len());
    assert_ne!(
        check_follow_up(dialect, &without_turn),
        Vec::<String>::new()
    );
    // … and, where the provider has them, the turn without its opaque fields.
    let mut stripped = request.clone();
    strip_opaque(&mut stripped);
    if stripped != request {
        assert_ne!(
            check_follow_up(dialect, &stripped),
            Vec::<String>::new(),
            "{}: the checker sees the opaque fields",
            dialect.id()
        );
    }
}

#[tokio::test]
async fn openai_chat() {
    rebuild(provider_turns::openai_chat()).await;
}

#[tokio::test]
async fn deepseek_keeps_reasoning_content() {
    rebuild(provider_turns::deepseek()).await;
}

#[tokio::test]
async fn openai_responses_keeps_reasoning_items() {
    rebuild(provider_turns::openai_responses()).await;
}

#[tokio::test]
async fn anthropic_keeps_signed_thinking() {
    rebuild(provider_turns::anthropic()).await;
}

#[tokio::test]
async fn gemini_keeps_thought_signatures() {
    rebuild(provider_turns::gemini()).await;
}

/// Every fixture has opaque fields but OpenAI Chat's, so the stripped check above ran for them.
#[test]
fn fixtures_carry_opaque_fields() {
    for fixture in provider_turns::all() {
        let mut stripped = fixture.follow_up.clone();
        strip_opaque(&mut stripped);
        let has_opaque = stripped != fixture.follow_up;
        let chat = fixture.dialect == dsh_tools::providers::Dialect::OpenAiChat { strict: false };
        assert_eq!(has_opaque, !chat, "{}", fixture.dialect.id());
    }
}

/// The recorded streams of `stream::readers` give the turn their whole responses give: text cut
/// across events joined, server tools' blocks kept, a Vertex call streamed in pieces made whole.
#[test]
fn recorded_streams_give_the_turn_of_their_responses() {
    use dsh_tools::providers::{Dialect, GeminiSchema};
    let read = |path: &str| -> Value {
        let path = format!(
            "{}/fixtures/providers/{path}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
        serde_json::from_str(&text).unwrap_or_else(|error| panic!("{path}: {error}"))
    };
    let pairs = [
        (
            Dialect::OpenAiChat { strict: false },
            "openai_chat_stream",
            "openai_chat_completion",
        ),
        (
            Dialect::DeepSeek { strict: false },
            "deepseek_chat_stream",
            "deepseek_chat_completion",
        ),
        (
            Dialect::OpenAiResponses { strict: false },
            "openai_responses_stream",
            "openai_responses",
        ),
        (
            Dialect::Anthropic { strict: false },
            "anthropic_stream",
            "anthropic_message",
        ),
        (
            Dialect::Anthropic { strict: false },
            "anthropic_stream_server_tools",
            "anthropic_message_server_tools",
        ),
        (
            Dialect::Anthropic { strict: false },
            "anthropic_stream_input_at_start",
            "anthropic_message_input_at_start",
        ),
        (
            Dialect::Gemini {
                schema: GeminiSchema::OpenApi,
            },
            "gemini_stream",
            "gemini_generate_content",
        ),
        (
            Dialect::Gemini {
                schema: GeminiSchema::OpenApi,
            },
            "vertex_stream_function_call_arguments",
            "vertex_generate_content",
        ),
    ];
    let registry = weather_registry();
    for (dialect, stream_path, whole_path) in pairs {
        let tools = ProviderTools::new(&registry, dialect).tools(None);
        let mut stream = tools.stream();
        let Value::Array(events) = read(&format!("streams/{stream_path}")) else {
            panic!("{stream_path}: an array of events");
        };
        for event in &events {
            stream.push(event).expect("the stream reads");
        }
        stream.end().expect("the stream ends whole");
        let whole = tools
            .assistant_turn(&read(whole_path))
            .expect("the response reads");
        assert!(!whole.is_empty(), "{whole_path}");
        assert_eq!(stream.assistant_turn(), whole, "{stream_path}");
    }
}

/// Gemini streams one text in many parts and may send a text part's signature alone in a last,
/// empty part ("Thought signatures", streaming): the text is joined, the signed part kept as it
/// came, thoughts kept apart from the answer.
#[test]
fn gemini_joins_streamed_text_and_keeps_a_trailing_signature_on_its_part() {
    use dsh_tools::json;
    use dsh_tools::providers::{Dialect, GeminiSchema};
    let registry = weather_registry();
    let tools = ProviderTools::new(
        &registry,
        Dialect::Gemini {
            schema: GeminiSchema::OpenApi,
        },
    )
    .tools(None);
    let mut stream = tools.stream();
    let chunk =
        |parts: Value| json!({"candidates": [{"content": {"role": "model", "parts": parts}}]});
    for parts in [
        json!([{"text": "Weighing ", "thought": true}]),
        json!([{"text": "the cities.", "thought": true}]),
        json!([{"text": "Paris is "}]),
        json!([{"text": "sunny."}]),
        json!([{"text": "", "thoughtSignature": "c2lnbmVk"}]),
    ] {
        stream.push(&chunk(parts)).expect("the stream reads");
    }
    stream.end().expect("the stream ends whole");
    assert_eq!(
        stream.assistant_turn(),
        [json!({"role": "model", "parts": [
            {"text": "Weighing the cities.", "thought": true},
            {"text": "Paris is sunny."},
            {"text": "", "thoughtSignature": "c2lnbmVk"}
        ]})]
    );
}

/// An Anthropic `redacted_thinking` block arrives whole in its start and goes back as it came;
/// an empty text block is left out (Anthropic refuses empty text blocks in a request).
#[test]
fn anthropic_keeps_redacted_thinking_and_leaves_out_empty_text() {
    use dsh_tools::json;
    use dsh_tools::providers::Dialect;
    let registry = weather_registry();
    let tools = ProviderTools::new(&registry, Dialect::Anthropic { strict: false }).tools(None);
    let mut stream = tools.stream();
    let events = [
        json!({"type": "content_block_start", "index": 0,
               "content_block": {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3p"}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1,
               "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use",
               "id": "toolu_1", "name": "get_weather", "input": {}}}),
        json!({"type": "content_block_delta", "index": 2,
               "delta": {"type": "input_json_delta", "partial_json": "{\"location\": \"Oslo\"}"}}),
        json!({"type": "content_block_stop", "index": 2}),
    ];
    for event in &events {
        stream.push(event).expect("the stream reads");
    }
    stream.end().expect("the stream ends whole");
    assert_eq!(
        stream.assistant_turn(),
        [json!({"role": "assistant", "content": [
            {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3p"},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather",
             "input": {"location": "Oslo"}}
        ]})]
    );
}
