//! The stream readers on any events: a first byte choosing the dialect, then a JSON array of
//! events (each a provider's server-sent event, well formed or not) fed to a
//! [`ToolCallStream`](dsh_tools::providers::stream::ToolCallStream) of a small tool list. Reading
//! must never panic; once an event fails, every later one returns the same error; the calls so
//! far and their arguments can always be asked for; and a stream that reads to its end gives
//! exactly the calls that finished, in the model's order.

#![no_main]

use std::sync::OnceLock;

use dsh_tools::call::ToolOptions;
use dsh_tools::providers::{Dialect, GeminiSchema, ProviderTools};
use dsh_tools::{FnTool, ToolRegistry, json};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn registry() -> &'static ToolRegistry {
    static REGISTRY: OnceLock<ToolRegistry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let registry = ToolRegistry::new();
        let tools = [
            FnTool::builder("read_file", "Read a file.").raw_parameters(json!({
                "type": "object",
                "properties": {"path": {"type": "string"}, "limit": {"type": "integer", "minimum": 1}},
                "required": ["path"],
                "additionalProperties": false
            })),
            FnTool::builder("tag", "Tag things.").raw_parameters(json!({
                "type": "object",
                "properties": {"tags": {"type": "object", "additionalProperties": {"type": "string"}}},
                "additionalProperties": false
            })),
            // Deferred: Anthropic and Responses get the native tool search, whose results the
            // readers load into the registry as they arrive.
            FnTool::builder("get_weather", "The weather forecast for a city.")
                .raw_parameters(json!({
                    "type": "object",
                    "properties": {"city": {"type": "string"}},
                    "additionalProperties": false
                }))
                .options(ToolOptions {
                    defer_loading: true,
                    ..ToolOptions::default()
                }),
        ];
        for tool in tools {
            let _ = registry
                .register(tool.handler(|arguments, _| async move { Ok(arguments) }))
                .expect("fresh names");
        }
        registry
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, text)) = data.split_first() else {
        return;
    };
    let Ok(Value::Array(events)) = serde_json::from_slice::<Value>(text) else {
        return;
    };
    let dialect = match choice % 6 {
        0 => Dialect::OpenAiChat { strict: false },
        1 => Dialect::OpenAiChat { strict: true },
        2 => Dialect::OpenAiResponses { strict: true },
        3 => Dialect::Anthropic { strict: false },
        4 => Dialect::DeepSeek { strict: false },
        _ => Dialect::Gemini { schema: GeminiSchema::OpenApi },
    };
    let tools = ProviderTools::new(registry(), dialect).tools(None);
    let mut stream = tools.stream();
    let mut failed = None;
    for event in &events {
        match stream.push(event) {
            Ok(_) => assert!(failed.is_none(), "an event read after a failure"),
            Err(error) => {
                if let Some(first) = &failed {
                    assert_eq!(first, &error, "a failed stream repeats its first error");
                }
                failed = Some(error);
            }
        }
        for index in 0..stream.calls().len() {
            let _ = stream.arguments_so_far(index);
        }
    }
    // The stream's end finishes the calls only it marks (OpenAI Chat without a finish reason).
    let ended = stream.end();
    if let (Some(first), Err(error)) = (&failed, &ended) {
        assert_eq!(first, error, "a failed stream repeats its first error");
    }
    let finished = stream
        .calls()
        .iter()
        .filter(|call| call.input().is_some())
        .count();
    match stream.into_tool_calls() {
        Ok(calls) => {
            assert!(failed.is_none(), "a failed stream gave calls");
            assert_eq!(calls.inputs.len(), finished, "every finished call, no other");
        }
        Err(error) => {
            if let Some(first) = failed {
                assert_eq!(first, error);
            }
        }
    }
});
