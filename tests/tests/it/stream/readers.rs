//! Stream readers (`providers::stream`): recorded event sequences of every dialect (under
//! `tests/fixtures/providers/streams/`, written from each provider's documented stream
//! examples) give the same calls and inputs as the non-streamed response of the same turn,
//! report calls as they start, their arguments as they grow and their inputs as they finish, in
//! the model's order; malformed and cut streams are errors naming what went wrong.

use dsh_tools::providers::stream::StreamEvent;
use dsh_tools::providers::{Dialect, GeminiSchema, LoweredTools, ProviderTools, ToolCalls};
use dsh_tools::{FnTool, ToolRegistry, Value, json};
use dsh_tools_tests::provider_corpus::{
    COLLIDING_NAMES, corpus_registry, long_name, scratch_workspace,
};

fn read_json(path: &str) -> Value {
    let path = format!(
        "{}/fixtures/providers/{path}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{path}: {error}"))
}

fn stream_events(name: &str) -> Vec<Value> {
    match read_json(&format!("streams/{name}")) {
        Value::Array(events) => events,
        other => panic!("a stream fixture is an array of events: {other}"),
    }
}

fn registry() -> ToolRegistry {
    let registry = corpus_registry(scratch_workspace());
    let _ = registry
        .register(
            FnTool::builder("take_screenshot", "Take a screenshot of a window.")
                .raw_parameters(json!({
                    "type": "object",
                    "properties": {"window": {"type": "string", "enum": ["editor", "terminal"]}},
                    "required": ["window"],
                    "additionalProperties": false
                }))
                .handler(|arguments, _| async move { Ok(arguments) }),
        )
        .expect("fresh name");
    registry
}

/// Every event of the stream, then its calls.
fn read(tools: &LoweredTools, events: &[Value]) -> (Vec<StreamEvent>, ToolCalls) {
    let mut stream = tools.stream();
    let mut seen = Vec::new();
    for event in events {
        seen.extend(stream.push(event).expect("the stream reads"));
    }
    seen.extend(stream.end().expect("the stream ends whole"));
    (seen, stream.into_tool_calls().expect("every call finished"))
}

/// The streamed turn gives what the non-streamed response gives.
fn assert_same_calls(streamed: &ToolCalls, whole: &ToolCalls) {
    assert_eq!(streamed.calls.as_slice(), whole.calls.as_slice());
    assert_eq!(streamed.inputs.len(), whole.inputs.len());
    for (ours, theirs) in streamed.inputs.iter().zip(whole.inputs.as_slice()) {
        assert_eq!(ours.call_id, theirs.call_id);
        assert_eq!(ours.name, theirs.name);
        assert_eq!(ours.arguments, theirs.arguments, "{}", ours.call_id);
        assert_eq!(
            ours.is_malformed(),
            theirs.is_malformed(),
            "{}",
            ours.call_id
        );
        // The rest (agent, program caller) as their debug text shows it.
        assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
    }
}

/// A compact account of the events: `text:…`, `start i name`, `delta i`, `definite i text`,
/// `finish i`, `loaded names`.
fn outline(events: &[StreamEvent]) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for event in events {
        let line = match event {
            StreamEvent::Text { text } => format!("text {text:?}"),
            StreamEvent::CallStarted { index, name, .. } => format!("start {index} {name}"),
            StreamEvent::ArgumentsDelta { index, .. } => format!("delta {index}"),
            StreamEvent::Definite { index, error } => {
                format!("definite {index} Error: {error}")
            }
            StreamEvent::CallFinished { index, .. } => format!("finish {index}"),
            StreamEvent::ToolsLoaded { names } => format!("loaded {}", names.join(" ")),
            _ => format!("{event:?}"),
        };
        // Runs of deltas of one call are one line.
        if line.starts_with("delta") && lines.last() == Some(&line) {
            continue;
        }
        lines.push(line);
    }
    lines
}

/// The arguments text each call streamed, by position.
fn streamed_text(events: &[StreamEvent]) -> Vec<String> {
    let mut texts: Vec<String> = Vec::new();
    for event in events {
        match event {
            StreamEvent::CallStarted { index, .. } => {
                assert_eq!(*index, texts.len(), "positions are given in order");
                texts.push(String::new());
            }
            StreamEvent::ArgumentsDelta { index, fragment } => texts[*index].push_str(fragment),
            _ => {}
        }
    }
    texts
}

#[test]
fn openai_chat_stream_gives_the_turn_of_the_completion() {
    let registry = registry();
    let tools = ProviderTools::new(&registry, Dialect::OpenAiChat { strict: true }).tools(None);
    let (events, streamed) = read(&tools, &stream_events("openai_chat_stream"));
    let whole = tools
        .parse_response(&read_json("openai_chat_completion"))
        .unwrap();
    assert_same_calls(&streamed, &whole);
    let mcp = COLLIDING_NAMES[0];
    assert_eq!(
        outline(&events),
        [
            "text \"Let me look \"",
            "text \"around first.\"",
            "start 0 read_file",
            &format!("start 1 {mcp}"),
            "delta 0",
            "delta 1",
            "delta 0",
            "delta 1",
            "delta 0",
            "delta 1",
            "delta 0",
            // Its arguments whole after call 1 started: call 0 is over.
            "finish 0",
            // Call 1's were whole already: over when the next call starts.
            "finish 1",
            "start 2 search_files",
            "delta 2",
            "start 3 take_screenshot",
            "delta 3",
            "finish 3",
            "start 4 list_files",
            "definite 4 Error: unknown tool \"list_files\"",
            "delta 4",
            // Call 2's arguments never became whole: it ends with the finish reason.
            "finish 2",
            "finish 4",
        ]
        .map(String::from)
    );
    let raw: Vec<String> = whole_raw_arguments(&read_json("openai_chat_completion"));
    assert_eq!(streamed_text(&events), raw);
    // search_files's arguments were cut by the model itself: malformed in both readers.
    assert!(streamed.inputs[2].is_malformed());
}

fn whole_raw_arguments(completion: &Value) -> Vec<String> {
    completion["choices"][0]["message"]["tool_calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|call| call["function"]["arguments"].as_str().unwrap().to_owned())
        .collect()
}

/// Arguments cut inside `\"`, inside `\u00e9`, between the halves of a surrogate pair and
/// around multi-byte characters: each fragment's value so far, and the same input at the end.
#[test]
fn openai_chat_arguments_cut_inside_escapes_and_characters() {
    let registry = registry();
    let tools = ProviderTools::new(&registry, Dialect::OpenAiChat { strict: false }).tools(None);
    let events = stream_events("openai_chat_stream_escapes");
    let mut stream = tools.stream();
    let mut new_texts = Vec::new();
    let mut old_texts = Vec::new();
    for event in &events {
        let updates = stream.push(event).unwrap();
        for update in updates {
            if let StreamEvent::ArgumentsDelta { index: 0, .. } = update {
                let so_far = stream.arguments_so_far(0).unwrap();
                old_texts.push(so_far["old_text"].as_str().map(String::from));
                new_texts.push(so_far["new_text"].as_str().map(String::from));
            }
        }
    }
    let texts = |list: &[Option<&str>]| -> Vec<Option<String>> {
        list.iter().map(|text| text.map(String::from)).collect()
    };
    assert_eq!(
        old_texts,
        texts(&[
            Some("say "),
            Some("say \"hi\"\n"),
            Some("say \"hi\"\n"),
            Some("say \"hi\"\n"),
            Some("say \"hi\"\n"),
            Some("say \"hi\"\n"),
            Some("say \"hi\"\n"),
        ])
    );
    assert_eq!(
        new_texts,
        texts(&[
            None,
            Some("caf"),
            Some("café "),
            Some("café 😀 "),
            Some("café 😀 é"),
            Some("café 😀 é😀"),
            Some("café 😀 é😀 done"),
        ])
    );
    let streamed = stream.into_tool_calls().unwrap();
    let whole = tools
        .parse_response(&read_json("openai_chat_completion_escapes"))
        .unwrap();
    assert_same_calls(&streamed, &whole);
    assert_eq!(
        streamed.inputs[0].arguments["new_text"],
        json!("café 😀 é😀 done")
    );
}

/// A connection dropped inside a call's arguments: the stream's end names the call and how
/// much of it came; the calls that did finish stay readable.
#[test]
fn a_stream_cut_mid_argument_is_an_error_naming_the_call() {
    let registry = registry();
    let tools = ProviderTools::new(&registry, Dialect::OpenAiChat { strict: false }).tools(None);
    let mut stream = tools.stream();
    for event in &stream_events("openai_chat_stream_cut") {
        let _ = stream.push(event).unwrap();
    }
    let error = stream.end().unwrap_err();
    assert_eq!(
        error.to_string(),
        "the stream ended before its tool calls did: tool call 1 (\"read_file\", id \
         \"call_2bC4dE6fG8hI0jK2lM4nO6pQ\") after 16 bytes of arguments"
    );
    // The whole call 0 finished at the end; call 1 keeps what came.
    assert!(stream.calls()[0].input().is_some());
    assert_eq!(stream.calls()[1].raw_arguments, "{\"path\":\"greetin");
    assert_eq!(stream.arguments_so_far(1), Some(json!({"path": "greetin"})));
    assert_eq!(stream.push(&json!({})).unwrap_err(), error);
    assert_eq!(stream.into_tool_calls().unwrap_err(), error);
}

#[test]
fn deepseek_stream_gives_the_turn_of_the_completion() {
    let registry = registry();
    let tools = ProviderTools::new(&registry, Dialect::DeepSeek { strict: true }).tools(None);
    let (events, streamed) = read(&tools, &stream_events("deepseek_chat_stream"));
    let whole = tools
        .parse_response(&read_json("deepseek_chat_completion"))
        .unwrap();
    assert_same_calls(&streamed, &whole);
    assert_eq!(
        streamed_text(&events),
        whole_raw_arguments(&read_json("deepseek_chat_completion"))
    );
}

#[test]
fn openai_responses_stream_gives_the_turn_of_the_response() {
    let registry = registry();
    let tools =
        ProviderTools::new(&registry, Dialect::OpenAiResponses { strict: true }).tools(None);
    let (events, streamed) = read(&tools, &stream_events("openai_responses_stream"));
    let whole = tools
        .parse_response(&read_json("openai_responses"))
        .unwrap();
    assert_same_calls(&streamed, &whole);
    assert_eq!(
        outline(&events),
        [
            "start 0 read_file",
            "delta 0",
            "finish 0",
            "start 1 take_screenshot",
            "delta 1",
            "finish 1",
        ]
        .map(String::from)
    );
}

/// Anthropic's tool_use blocks, with the empty `input_json_delta` it often sends first, and
/// the text block before them.
#[test]
fn anthropic_stream_gives_the_turn_of_the_message() {
    let registry = registry();
    let tools = ProviderTools::new(&registry, Dialect::Anthropic { strict: false }).tools(None);
    let (events, streamed) = read(&tools, &stream_events("anthropic_stream"));
    let whole = tools
        .parse_response(&read_json("anthropic_message"))
        .unwrap();
    assert_same_calls(&streamed, &whole);
    let text: String = events
        .iter()
        .filter_map(|event| match event {
            StreamEvent::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        text,
        "I'll read the library, register the contact and take a screenshot."
    );
    let outline = outline(&events);
    let calls: Vec<&String> = outline
        .iter()
        .filter(|line| !line.starts_with("text"))
        .collect();
    assert_eq!(
        calls,
        [
            "start 0 read_file",
            "delta 0",
            "finish 0",
            "start 1 register_contact",
            "delta 1",
            // The handle's string closed: the pattern's verdict is final.
            "definite 1 Error: invalid arguments: \"handle\" must match the pattern \"^[a-z][a-z0-9_]*$\"",
            "delta 1",
            "finish 1",
            "start 2 take_screenshot",
            "delta 2",
            "finish 2",
            &format!("start 3 {}", long_name()),
            "delta 3",
            "finish 3",
        ]
    );
}

/// A tool without arguments: only an empty `input_json_delta`, which is `{}`.
#[test]
fn anthropic_empty_input_is_an_empty_object() {
    let registry = registry();
    let tools = ProviderTools::new(&registry, Dialect::Anthropic { strict: false }).tools(None);
    let events = [
        json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "tool_use", "id": "toolu_9", "name": "take_screenshot", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": ""}}),
        json!({"type": "content_block_stop", "index": 0}),
    ];
    let (outlined, calls) = read(&tools, &events);
    assert_eq!(
        outline(&outlined),
        ["start 0 take_screenshot", "finish 0"].map(String::from)
    );
    assert_eq!(calls.inputs[0].arguments, json!({}));
}

#[test]
fn gemini_stream_gives_the_turn_of_the_response() {
    let registry = registry();
    let tools = ProviderTools::new(
        &registry,
        Dialect::Gemini {
            schema: GeminiSchema::OpenApi,
        },
    )
    .tools(None);
    let (events, streamed) = read(&tools, &stream_events("gemini_stream"));
    let whole = tools
        .parse_response(&read_json("gemini_generate_content"))
        .unwrap();
    assert_same_calls(&streamed, &whole);
    assert!(streamed.calls.iter().all(|call| call.generated_id));
    assert_eq!(
        outline(&events),
        [
            "text \"Rendering the cube and reading the library.\"",
            "start 0 3d_render",
            "finish 0",
            "start 1 read_file",
            "finish 1",
            "start 2 take_screenshot",
            "finish 2",
            "start 3 search_files",
            "finish 3",
        ]
        .map(String::from)
    );
}

/// Anthropic's server tools run on Anthropic's side: a `server_tool_use` block (web search,
/// code execution) streams its input as `input_json_delta`s, and its result arrives whole in
/// the `content_block_start` of a result block. Neither is a call to run here: the turn is the
/// message's, whose `tool_use` is its only call. Event shapes from the streaming sections of
/// <https://platform.claude.com/docs/en/agents-and-tools/tool-use/web-search-tool> and
/// <https://platform.claude.com/docs/en/agents-and-tools/tool-use/code-execution-tool>.
#[test]
fn anthropic_server_tools_stream_gives_the_turn_of_the_message() {
    let registry = registry();
    let tools = ProviderTools::new(&registry, Dialect::Anthropic { strict: false }).tools(None);
    let (events, streamed) = read(&tools, &stream_events("anthropic_stream_server_tools"));
    let whole = tools
        .parse_response(&read_json("anthropic_message_server_tools"))
        .unwrap();
    assert_same_calls(&streamed, &whole);
    assert_eq!(streamed.calls.len(), 1);
    assert_eq!(
        outline(&events),
        [
            "text \"Let me look up the release first.\"",
            "text \"Now a quick count of the edition's keywords.\"",
            "text \"Finally, our own code.\"",
            "start 0 read_file",
            "delta 0",
            "finish 0",
        ]
        .map(String::from)
    );
}

/// A `tool_use` block whose `content_block_start` already carries its whole `input`, with no
/// `input_json_delta` after it: the event's `content_block` is a whole content block, `input`
/// included (the "Event types" of <https://platform.claude.com/docs/en/build-with-claude/streaming>;
/// its examples start with `"input": {}` and stream the input). The call shows that input as its arguments at once and finishes
/// with it, as the message's `tool_use` block gives it.
#[test]
fn anthropic_input_carried_by_the_start_is_the_calls_input() {
    let registry = registry();
    let tools = ProviderTools::new(&registry, Dialect::Anthropic { strict: false }).tools(None);
    let events = stream_events("anthropic_stream_input_at_start");
    let (seen, streamed) = read(&tools, &events);
    let whole = tools
        .parse_response(&read_json("anthropic_message_input_at_start"))
        .unwrap();
    assert_same_calls(&streamed, &whole);
    assert_eq!(
        streamed.inputs[0].arguments,
        json!({"path": "src/lib.rs", "limit": 25.0})
    );
    assert_eq!(
        outline(&seen),
        [
            "start 0 read_file",
            "delta 0",
            "finish 0",
            "start 1 take_screenshot",
            "delta 1",
            "finish 1",
        ]
        .map(String::from)
    );
    let mut stream = tools.stream();
    for event in &events[..2] {
        let _ = stream.push(event).unwrap();
    }
    assert_eq!(
        stream.arguments_so_far(0),
        Some(json!({"path": "src/lib.rs", "limit": 25.0}))
    );
}

/// A registry of one eager tool and two deferred ones, for the providers' native tool search.
fn deferred_catalog() -> ToolRegistry {
    let tool = |name: &str, description: &str, deferred: bool| {
        FnTool::builder(name, description)
            .raw_parameters(json!({
                "type": "object",
                "properties": {"text": {"type": "string"}},
                "additionalProperties": false
            }))
            .options(dsh_tools::call::ToolOptions {
                defer_loading: deferred,
                ..dsh_tools::call::ToolOptions::default()
            })
            .handler(|arguments, _| async move { Ok(arguments) })
    };
    let registry = ToolRegistry::new();
    registry
        .register_all([
            tool("read_file", "Read a file from disk.", false),
            tool("get_weather", "The weather forecast for a city.", true),
            tool("send_email", "Send an email message to a recipient.", true),
        ])
        .unwrap();
    registry
}

fn listed(registry: &ToolRegistry) -> Vec<String> {
    registry
        .schemas()
        .iter()
        .map(|schema| schema.name.clone())
        .collect()
}

/// Reads `events` one at a time and returns the outline of what each made happen, and the
/// position of the first event after which `get_weather` was listed by the registry.
fn read_watching_the_listing(
    registry: &ToolRegistry,
    tools: &LoweredTools,
    events: &[Value],
) -> (Vec<Vec<String>>, Option<usize>, ToolCalls) {
    let mut stream = tools.stream();
    let mut seen = Vec::new();
    let mut listed_at = None;
    for (at, event) in events.iter().enumerate() {
        seen.push(outline(&stream.push(event).expect("the stream reads")));
        if listed_at.is_none() && listed(registry).iter().any(|name| name == "get_weather") {
            listed_at = Some(at);
        }
    }
    (
        seen,
        listed_at,
        stream.into_tool_calls().expect("every call finished"),
    )
}

/// Anthropic's native tool search while streaming: the search's `server_tool_use` streams its
/// query, its `tool_search_tool_result` arrives whole in a `content_block_start` (the streaming
/// section of <https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool>).
/// The tools it found are loaded for the scope as that block arrives, as `parse_response` loads
/// them, and the call of the deferred tool it found is not taken for an unknown tool.
#[test]
fn anthropic_native_tool_search_loads_what_it_found_while_streaming() {
    let registry = deferred_catalog();
    let tools = ProviderTools::new(&registry, Dialect::Anthropic { strict: false }).tools(None);
    let events = stream_events("anthropic_stream_tool_search");
    let (seen, listed_at, streamed) = read_watching_the_listing(&registry, &tools, &events);
    let result_block = events
        .iter()
        .position(|event| event["content_block"]["type"] == "tool_search_tool_result")
        .unwrap();
    assert_eq!(listed_at, Some(result_block));
    assert_eq!(seen[result_block], ["loaded get_weather"]);
    let lines: Vec<&String> = seen.iter().flatten().collect();
    assert!(
        lines.iter().all(|line| !line.starts_with("definite")),
        "{lines:?}"
    );
    let whole = tools
        .parse_response(&read_json("anthropic_message_tool_search"))
        .unwrap();
    assert_same_calls(&streamed, &whole);
    assert_eq!(
        streamed.loaded_tools.as_slice(),
        whole.loaded_tools.as_slice()
    );
    assert_eq!(streamed.loaded_tools.as_slice(), ["get_weather"]);
}

/// OpenAI Responses' hosted tool search while streaming: a `tool_search_call` item, then a
/// `tool_search_output` item whose finished form (`response.output_item.done`) lists the tools
/// it loaded, then the `function_call` of one of them
/// (<https://developers.openai.com/api/docs/guides/tools-tool-search>; every output item is
/// streamed as `response.output_item.added` and `.done`:
/// <https://platform.openai.com/docs/api-reference/responses-streaming>).
#[test]
fn openai_responses_hosted_tool_search_loads_what_it_found_while_streaming() {
    let registry = deferred_catalog();
    let tools =
        ProviderTools::new(&registry, Dialect::OpenAiResponses { strict: false }).tools(None);
    let events = stream_events("openai_responses_stream_tool_search");
    let (seen, listed_at, streamed) = read_watching_the_listing(&registry, &tools, &events);
    let output_done = events
        .iter()
        .position(|event| {
            event["type"] == "response.output_item.done"
                && event["item"]["type"] == "tool_search_output"
        })
        .unwrap();
    assert_eq!(listed_at, Some(output_done));
    let mut lines: Vec<String> = seen.into_iter().flatten().collect();
    // One line for the call's deltas, whichever events brought them.
    lines.dedup();
    assert_eq!(
        lines,
        [
            "loaded get_weather",
            "start 0 get_weather",
            "delta 0",
            "finish 0"
        ]
        .map(String::from)
    );
    let whole = tools
        .parse_response(&read_json("openai_responses_tool_search"))
        .unwrap();
    assert_same_calls(&streamed, &whole);
    assert_eq!(streamed.loaded_tools.as_slice(), ["get_weather"]);
}

/// A deferred tool is callable though it is not listed: a call of it is never reported as a
/// call of an unknown tool while it streams, whichever form the search takes; a tool the scope
/// has not at all still is.
#[test]
fn a_deferred_tool_is_never_reported_unknown() {
    let registry = deferred_catalog();
    let chunk = |index: u64, id: &str, name: &str| {
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": index, "id": id,
            "type": "function", "function": {"name": name, "arguments": "{}"}}]},
            "finish_reason": null}]})
    };
    let block = |index: u64, id: &str, name: &str| {
        json!({"type": "content_block_start", "index": index,
            "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}})
    };
    let cases = [
        (
            ProviderTools::new(&registry, Dialect::OpenAiChat { strict: false }).tools(None),
            vec![
                chunk(0, "call_1", "send_email"),
                chunk(1, "call_2", "fly_to_mars"),
            ],
        ),
        (
            ProviderTools::new(&registry, Dialect::Anthropic { strict: false })
                .tool_search_form(dsh_tools::providers::ToolSearchForm::Registry)
                .tools(None),
            vec![
                block(0, "toolu_1", "send_email"),
                block(1, "toolu_2", "fly_to_mars"),
            ],
        ),
        (
            ProviderTools::new(&registry, Dialect::Anthropic { strict: false }).tools(None),
            vec![
                block(0, "toolu_1", "send_email"),
                block(1, "toolu_2", "fly_to_mars"),
            ],
        ),
    ];
    for (tools, events) in cases {
        let mut stream = tools.stream();
        let mut seen = Vec::new();
        for event in &events {
            let updates = outline(&stream.push(event).unwrap());
            seen.extend(
                updates
                    .into_iter()
                    .filter(|line| !line.starts_with("delta") && !line.starts_with("finish")),
            );
        }
        assert_eq!(
            seen,
            [
                "start 0 send_email",
                "start 1 fly_to_mars",
                "definite 1 Error: unknown tool \"fly_to_mars\"",
            ]
            .map(String::from),
            "{:?}",
            tools.dialect
        );
    }
}

/// Gemini ends a turn whose function call it could not read with `finishReason:
/// MALFORMED_FUNCTION_CALL` and no call ("The function call generated by the model is invalid":
/// <https://ai.google.dev/api/generate-content#FinishReason>); streamed, it comes in the last
/// `GenerateContentResponse` chunk of `streamGenerateContent`
/// (<https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent>). Both
/// readers give the same error, so the turn is not taken for a text answer.
#[test]
fn gemini_malformed_function_call_is_the_same_error_streamed_or_not() {
    let registry = registry();
    let tools = ProviderTools::new(
        &registry,
        Dialect::Gemini {
            schema: GeminiSchema::OpenApi,
        },
    )
    .tools(None);
    let whole = tools
        .parse_response(&read_json("gemini_malformed_function_call"))
        .unwrap_err();
    assert_eq!(
        whole.to_string(),
        "the function call the model wrote is invalid (finishReason MALFORMED_FUNCTION_CALL): \
         Malformed function call: print(default_api.3d_render(shape='cube', size=))"
    );
    let events = stream_events("gemini_stream_malformed_function_call");
    let mut stream = tools.stream();
    assert_eq!(
        outline(&stream.push(&events[0]).unwrap()),
        ["text \"I'll render the cube now.\""]
    );
    assert_eq!(stream.push(&events[1]).unwrap_err(), whole);
    assert_eq!(stream.end().unwrap_err(), whole);
    assert_eq!(stream.into_tool_calls().unwrap_err(), whole);
    // Without a message, and without content (as Gemini often sends it).
    let bare = json!({"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL", "index": 0}]});
    let expected = "the function call the model wrote is invalid (finishReason \
                    MALFORMED_FUNCTION_CALL)";
    assert_eq!(
        tools.parse_response(&bare).unwrap_err().to_string(),
        expected
    );
    let mut stream = tools.stream();
    assert_eq!(stream.push(&bare).unwrap_err().to_string(), expected);
}

/// The registry with `set_lights`, a tool whose arguments Vertex streams piece by piece.
fn vertex_registry() -> ToolRegistry {
    let registry = registry();
    let _ = registry
        .register(
            FnTool::builder("set_lights", "Set the lights of a room.")
                .raw_parameters(json!({
                    "type": "object",
                    "properties": {
                        "room": {"type": "string"},
                        "brightness": {"type": "integer", "minimum": 0, "maximum": 100},
                        "lights": {"type": "array", "items": {
                            "type": "object",
                            "properties": {"name": {"type": "string"}, "on": {"type": "boolean"}},
                            "required": ["name", "on"],
                            "additionalProperties": false
                        }},
                        "note": {"type": ["string", "null"]}
                    },
                    "required": ["room", "brightness"],
                    "additionalProperties": false
                }))
                .handler(|arguments, _| async move { Ok(arguments) }),
        )
        .expect("fresh name");
    registry
}

/// Vertex AI's streamed arguments (`streamFunctionCallArguments`): `partialArgs` at JSON Paths,
/// strings in pieces, an empty `functionCall` ending each call — the arguments grow as JSON
/// text and each call finishes with the arguments of the non-streamed response.
#[test]
fn vertex_streamed_arguments_give_the_turn_of_the_response() {
    let registry = vertex_registry();
    let tools = ProviderTools::new(
        &registry,
        Dialect::Gemini {
            schema: GeminiSchema::OpenApi,
        },
    )
    .tools(None);
    let (events, streamed) = read(
        &tools,
        &stream_events("vertex_stream_function_call_arguments"),
    );
    let whole = tools
        .parse_response(&read_json("vertex_generate_content"))
        .unwrap();
    assert_eq!(streamed.inputs.len(), 2);
    for (ours, theirs) in streamed.inputs.iter().zip(whole.inputs.as_slice()) {
        assert_eq!(ours.name, theirs.name);
        assert_eq!(ours.arguments, theirs.arguments);
        assert!(!ours.is_malformed());
    }
    // The id Vertex sent is kept; a call without one gets one from its position and name.
    assert_eq!(streamed.calls[0].id.as_str(), "fc_lights");
    assert!(!streamed.calls[0].generated_id);
    assert!(streamed.calls[1].generated_id);
    assert!(streamed.calls[1].id.as_str().starts_with("gemini-call-1-"));
    assert_eq!(
        outline(&events),
        [
            "text \"Setting the lights, then looking.\"",
            "start 0 set_lights",
            "delta 0",
            "finish 0",
            "start 1 take_screenshot",
            "delta 1",
            "finish 1",
        ]
        .map(String::from)
    );
    // The text streamed is the arguments, whole.
    let texts = streamed_text(&events);
    for (text, input) in texts.iter().zip(streamed.inputs.as_slice()) {
        assert_eq!(
            serde_json::from_str::<Value>(text).unwrap(),
            input.arguments,
            "{text}"
        );
    }
}

/// While Vertex streams a call, its arguments so far are readable and what is already wrong
/// is reported before the call ends; a stream cut inside a call names it.
#[test]
fn vertex_streamed_arguments_grow_and_are_checked_early() {
    let registry = vertex_registry();
    let tools = ProviderTools::new(
        &registry,
        Dialect::Gemini {
            schema: GeminiSchema::OpenApi,
        },
    )
    .tools(None);
    let chunk = |call: Value| json!({"candidates": [{"content": {"role": "model", "parts": [{"functionCall": call}]}}]});
    let mut stream = tools.stream();
    stream
        .push(&chunk(json!({"name": "set_lights", "willContinue": true})))
        .unwrap();
    stream
        .push(&chunk(json!({"willContinue": true, "partialArgs": [
            {"jsonPath": "$.room", "stringValue": "Hall", "willContinue": true}
        ]})))
        .unwrap();
    assert_eq!(stream.arguments_so_far(0), Some(json!({"room": "Hall"})));
    let events = stream
        .push(&chunk(json!({"willContinue": true, "partialArgs": [
            {"jsonPath": "$.room", "stringValue": "way"},
            {"jsonPath": "$.brightness", "numberValue": 250},
            {"jsonPath": "$.colour", "stringValue": "re", "willContinue": true}
        ]})))
        .unwrap();
    assert_eq!(
        stream.arguments_so_far(0),
        Some(json!({"room": "Hallway", "brightness": 250, "colour": "re"}))
    );
    let definite: Vec<String> = outline(&events)
        .into_iter()
        .filter(|line| line.starts_with("definite"))
        .collect();
    // The number is final once a piece follows it (its text could still grow until then).
    assert_eq!(
        definite,
        [
            "definite 0 Error: invalid arguments: \"brightness\" must be <= 100; \
             \"colour\" is not a declared property (additionalProperties: false)"
        ]
    );
    let error = stream.end().unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("the stream ended before its tool calls did: tool call 0 (\"set_lights\""),
        "{error}"
    );
}

/// A call already wrong while it streams: each definite violation as soon as it is certain,
/// with the final validation's wording, and the call still finishes.
#[tokio::test]
async fn definite_violations_come_before_the_call_ends() {
    let registry = registry();
    let tools = ProviderTools::new(&registry, Dialect::Anthropic { strict: false }).tools(None);
    let mut stream = tools.stream();
    let fragments = [
        r#"{"path": 7"#,
        r#", "force": tr"#,
        r#"ue, "old_text": "a"#,
        r#"", "new_text": "b"}"#,
    ];
    let mut seen = Vec::new();
    let start = json!({"type": "content_block_start", "index": 0, "content_block":
        {"type": "tool_use", "id": "toolu_1", "name": "edit_file", "input": {}}});
    seen.push(outline(&stream.push(&start).unwrap()));
    for fragment in fragments {
        let delta = json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": fragment}});
        seen.push(outline(&stream.push(&delta).unwrap()));
    }
    let stop = json!({"type": "content_block_stop", "index": 0});
    seen.push(outline(&stream.push(&stop).unwrap()));
    let both = "definite 0 Error: invalid arguments: \"path\" must be a string; \"force\" is not a \
                declared property (additionalProperties: false)";
    assert_eq!(
        seen,
        [
            vec!["start 0 edit_file"],
            // `7` may still grow, but it stays a number.
            vec![
                "delta 0",
                "definite 0 Error: invalid arguments: \"path\" must be a string"
            ],
            // `tr` is not a value yet.
            vec!["delta 0"],
            vec!["delta 0", both],
            vec!["delta 0"],
            vec!["finish 0"],
        ]
        .map(|lines| lines.into_iter().map(String::from).collect::<Vec<_>>())
    );
    let calls = stream.into_tool_calls().unwrap();
    let result = registry.execute(calls.inputs[0].clone()).await;
    assert_eq!(result.error_code(), Some("INVALID_ARGS"));
    assert_eq!(format!("definite 0 {}", result.text()), both);
}

/// Broken streams: the provider's own errors, shapes the documentation does not have, events
/// about calls that never started or already ended — each a clear error that sticks.
#[test]
fn malformed_streams_are_clear_errors() {
    let registry = registry();
    let chat = ProviderTools::new(&registry, Dialect::OpenAiChat { strict: false }).tools(None);
    let anthropic = ProviderTools::new(&registry, Dialect::Anthropic { strict: false }).tools(None);
    let responses =
        ProviderTools::new(&registry, Dialect::OpenAiResponses { strict: false }).tools(None);
    let chunk =
        |delta: Value| json!({"choices": [{"index": 0, "delta": delta, "finish_reason": null}]});
    let cases: Vec<(&LoweredTools, Vec<Value>, &str)> = vec![
        (
            &chat,
            vec![chunk(
                json!({"tool_calls": [{"index": 0, "function": {"arguments": "{"}}]}),
            )],
            "stream tool call 0 starts without its id and function.name",
        ),
        (
            &chat,
            vec![json!({"choices": 5})],
            "response chunk choices must be an array",
        ),
        (
            &chat,
            vec![json!({"error": {"type": "rate_limit_error", "message": "Rate limit reached"}})],
            "the provider reported an error: rate_limit_error: Rate limit reached",
        ),
        (
            &chat,
            vec![
                chunk(
                    json!({"tool_calls": [{"index": 0, "id": "call_1", "function": {"name": "read_file", "arguments": "{}"}}]}),
                ),
                chunk(
                    json!({"tool_calls": [{"index": 0, "id": "call_2", "function": {"arguments": ""}}]}),
                ),
            ],
            "stream tool call 0 changes its id to \"call_2\"",
        ),
        (
            &chat,
            vec![
                chunk(
                    json!({"tool_calls": [{"index": 0, "id": "call_1", "function": {"name": "read_file", "arguments": "{}"}}]}),
                ),
                json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
                chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": " "}}]})),
            ],
            "stream tool call 0 has arguments after finish_reason",
        ),
        (
            &chat,
            vec![
                chunk(
                    json!({"tool_calls": [{"index": 0, "id": "call_1", "function": {"name": "read_file", "arguments": "{}"}}]}),
                ),
                chunk(
                    json!({"tool_calls": [{"index": 1, "id": "call_2", "function": {"name": "read_file", "arguments": "{"}}]}),
                ),
                chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": "}"}}]})),
            ],
            "stream tool call 0 has arguments after they ended and a later call started",
        ),
        (
            &anthropic,
            vec![json!({"type": "content_block_delta", "index": 3,
                "delta": {"type": "input_json_delta", "partial_json": "{"}})],
            "stream event content_block_delta is about content block 3, which no tool_use \
             content_block_start opened",
        ),
        (
            &anthropic,
            vec![
                json!({"type": "content_block_start", "index": 0, "content_block":
                    {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {}}}),
                json!({"type": "content_block_stop", "index": 0}),
                json!({"type": "content_block_delta", "index": 0,
                    "delta": {"type": "input_json_delta", "partial_json": "{"}}),
            ],
            "stream event content_block_delta is about content block 0, which already stopped",
        ),
        (
            &anthropic,
            vec![
                json!({"type": "content_block_start", "index": 0, "content_block":
                    {"type": "tool_use", "id": "toolu_1", "name": "read_file",
                     "input": {"path": "a"}}}),
                json!({"type": "content_block_delta", "index": 0,
                    "delta": {"type": "input_json_delta", "partial_json": "{"}}),
            ],
            "stream content block 0 has input_json_delta after a tool_use start that carried \
             its input",
        ),
        (
            &anthropic,
            vec![
                json!({"type": "content_block_start", "index": 0, "content_block":
                    {"type": "text", "text": ""}}),
                json!({"type": "content_block_start", "index": 0, "content_block":
                    {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {}}}),
            ],
            "stream content block 0 starts twice",
        ),
        (
            &anthropic,
            vec![
                json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
            ],
            "the provider reported an error: overloaded_error: Overloaded",
        ),
        (
            &anthropic,
            vec![json!({"index": 0})],
            "response event.type must be a string",
        ),
        (
            &responses,
            vec![
                json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1",
                "output_index": 1, "delta": "{"}),
            ],
            "stream event response.function_call_arguments.delta is about a function call no \
             response.output_item.added started",
        ),
    ];
    for (tools, events, message) in cases {
        let mut stream = tools.stream();
        let mut error = None;
        for event in &events {
            if let Err(found) = stream.push(event) {
                error = Some(found);
                break;
            }
        }
        let error = error.unwrap_or_else(|| panic!("no error for {events:?}"));
        assert_eq!(error.to_string(), message);
        assert_eq!(
            stream.push(&json!({})).unwrap_err(),
            error,
            "the error sticks"
        );
        assert_eq!(stream.end().unwrap_err(), error);
    }

    // Whitespace after arguments that ended when a later call started changes nothing.
    let mut stream = chat.stream();
    for delta in [
        json!({"tool_calls": [{"index": 0, "id": "call_1", "function": {"name": "read_file", "arguments": "{}"}}]}),
        json!({"tool_calls": [{"index": 1, "id": "call_2", "function": {"name": "read_file", "arguments": "{}"}}]}),
        json!({"tool_calls": [{"index": 0, "function": {"arguments": " \n"}}]}),
    ] {
        let _ = stream.push(&chunk(delta)).unwrap();
    }
    assert_eq!(stream.into_tool_calls().unwrap().calls.len(), 2);

    // A call started and never stopped; an event after the end.
    let mut stream = anthropic.stream();
    let _ = stream
        .push(
            &json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {}}}),
        )
        .unwrap();
    assert_eq!(
        stream.end().unwrap_err().to_string(),
        "the stream ended before its tool calls did: tool call 0 (\"read_file\", id \
         \"toolu_1\") after 0 bytes of arguments"
    );
    let mut stream = anthropic.stream();
    let _ = stream.end().unwrap();
    assert_eq!(
        stream
            .push(&json!({"type": "ping"}))
            .unwrap_err()
            .to_string(),
        "stream event after the stream ended"
    );
}

/// The `partialArgs` that stream `value` in document order: one piece per scalar at its JSON
/// Path (names as shorthand or quoted), each string cut at the given points.
fn vertex_pieces(value: &Value, cuts: &[usize]) -> Vec<Value> {
    fn path_step(path: &str, key: &str) -> String {
        let shorthand = key
            .chars()
            .next()
            .is_some_and(|first| first == '_' || first.is_alphabetic())
            && key.chars().all(|c| c == '_' || c.is_alphanumeric());
        if shorthand {
            format!("{path}.{key}")
        } else {
            let quoted = key.replace('\\', "\\\\").replace('\'', "\\'");
            format!("{path}['{quoted}']")
        }
    }
    fn walk(value: &Value, path: &str, cuts: &[usize], pieces: &mut Vec<Value>) {
        match value {
            Value::Object(members) => {
                for (key, member) in members {
                    walk(member, &path_step(path, key), cuts, pieces);
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    walk(item, &format!("{path}[{index}]"), cuts, pieces);
                }
            }
            Value::String(text) => {
                let chars: Vec<char> = text.chars().collect();
                let cut = cuts
                    .get(pieces.len() % cuts.len().max(1))
                    .copied()
                    .unwrap_or(0);
                let at = if chars.is_empty() {
                    0
                } else {
                    cut % (chars.len() + 1)
                };
                let (head, tail): (String, String) =
                    (chars[..at].iter().collect(), chars[at..].iter().collect());
                if !head.is_empty() && !tail.is_empty() {
                    pieces
                        .push(json!({"jsonPath": path, "stringValue": head, "willContinue": true}));
                    pieces.push(json!({"jsonPath": path, "stringValue": tail}));
                } else {
                    pieces.push(json!({"jsonPath": path, "stringValue": text}));
                }
            }
            Value::Number(number) => pieces.push(json!({"jsonPath": path, "numberValue": number})),
            Value::Bool(flag) => pieces.push(json!({"jsonPath": path, "boolValue": flag})),
            Value::Null => pieces.push(json!({"jsonPath": path, "nullValue": "NULL_VALUE"})),
        }
    }
    let mut pieces = Vec::new();
    walk(value, "$", cuts, &mut pieces);
    pieces
}

/// Whether `value` holds an empty array or object below its root: `partialArgs` name scalars
/// only, so those cannot be streamed.
fn has_empty_container(value: &Value) -> bool {
    match value {
        Value::Object(members) => members.values().any(|member| {
            matches!(member, Value::Object(m) if m.is_empty())
                || matches!(member, Value::Array(a) if a.is_empty())
                || has_empty_container(member)
        }),
        Value::Array(items) => items.iter().any(|item| {
            matches!(item, Value::Object(m) if m.is_empty())
                || matches!(item, Value::Array(a) if a.is_empty())
                || has_empty_container(item)
        }),
        _ => false,
    }
}

/// Vertex carries numbers as doubles: a whole one arrives as an integer.
fn as_vertex_numbers(value: &Value) -> Value {
    match value {
        Value::Number(number) if number.is_f64() => {
            let float = number.as_f64().unwrap_or_default();
            if float.fract() == 0.0 && float.abs() < 9_007_199_254_740_992.0 {
                json!(float as i64)
            } else {
                value.clone()
            }
        }
        Value::Array(items) => Value::Array(items.iter().map(as_vertex_numbers).collect()),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(key, member)| (key.clone(), as_vertex_numbers(member)))
                .collect(),
        ),
        other => other.clone(),
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(
        dsh_tools_tests::json_values::cases()
    ))]

    /// Any object Vertex streams piece by piece, in chunks of any size, finishes as that object,
    /// and the text streamed for it is that object.
    #[test]
    fn vertex_pieces_of_any_object_finish_as_the_object(
        members in proptest::collection::vec(
            (proptest::sample::select(dsh_tools_tests::json_values::NAMES),
             dsh_tools_tests::json_values::any_json()),
            0..4,
        ),
        cuts in proptest::collection::vec(0usize..6, 1..6),
        chunk in 1usize..4,
    ) {
        let value = Value::Object(
            members.into_iter().map(|(key, member)| (key.to_owned(), member)).collect(),
        );
        proptest::prop_assume!(!has_empty_container(&value));
        let registry = ToolRegistry::new();
        let _ = registry
            .register(
                FnTool::builder("take", "Takes anything.")
                    .raw_parameters(json!({"type": "object"}))
                    .handler(|arguments, _| async move { Ok(arguments) }),
            )
            .expect("fresh name");
        let tools = ProviderTools::new(&registry, Dialect::Gemini { schema: GeminiSchema::OpenApi }).tools(None);
        let part = |call: Value| {
            json!({"candidates": [{"content": {"role": "model", "parts": [{"functionCall": call}]}}]})
        };
        let mut events = vec![part(json!({"name": "take", "willContinue": true}))];
        for pieces in vertex_pieces(&value, &cuts).chunks(chunk) {
            events.push(part(json!({"partialArgs": pieces, "willContinue": true})));
        }
        events.push(part(json!({})));
        let (seen, calls) = read(&tools, &events);
        let expected = as_vertex_numbers(&value);
        proptest::prop_assert_eq!(&calls.inputs[0].arguments, &expected);
        let text = &streamed_text(&seen)[0];
        if !text.is_empty() {
            let parsed: Value = serde_json::from_str(text).expect("the text is JSON");
            proptest::prop_assert_eq!(parsed, expected);
        }
        proptest::prop_assert!(
            !seen.iter().any(|event| matches!(event, StreamEvent::Definite { .. })),
            "{:?}", seen
        );
    }
}
