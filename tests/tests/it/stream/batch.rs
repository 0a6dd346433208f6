//! Calls started while the response streams: a [`BatchFeed`](dsh_tools::registry::BatchFeed)
//! fed as each call finishes runs concurrency-safe calls before the stream has ended, keeps the
//! schedule of `execute_batch` (exclusive calls alone) and gives the results in the model's
//! order. On tokio's paused clock.

use std::time::Duration;

use dsh_tools::providers::{Dialect, ProviderTools};
use dsh_tools::{FnTool, ToolExecutionInput, ToolRegistry, json, schema::Schema};
use dsh_tools_tests::{Log, registry_with};
use tokio::time::sleep;

/// A tool sleeping `ms` that logs its start and end and returns its `id` argument.
fn tool(name: &'static str, ms: u64, safe: bool, log: &Log) -> FnTool {
    let log = log.clone();
    FnTool::builder(name, "Sleeps, then returns its id.")
        .arguments(Schema::object().required("id", Schema::string()))
        .concurrency_classifier(move |_| safe)
        .handler(move |arguments, _| {
            let log = log.clone();
            async move {
                let id = arguments["id"].as_str().unwrap_or("?").to_owned();
                log.push(format!("start {id}"));
                sleep(Duration::from_millis(ms)).await;
                log.push(format!("end {id}"));
                Ok(json!(id))
            }
        })
}

fn registry(log: &Log) -> ToolRegistry {
    registry_with([tool("read", 200, true, log), tool("write", 100, false, log)])
}

fn input(name: &str, id: &str) -> ToolExecutionInput {
    ToolExecutionInput::new(format!("call_{id}"), name.to_owned(), json!({"id": id}))
}

/// An Anthropic stream of `calls` (tool, id), each call's arguments in two deltas.
fn anthropic_stream(calls: &[(&str, &str)]) -> Vec<dsh_tools::Value> {
    let mut events = vec![
        json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
        "role": "assistant", "content": [], "model": "claude", "stop_reason": null,
        "usage": {"input_tokens": 1, "output_tokens": 1}}}),
    ];
    for (index, (name, id)) in calls.iter().enumerate() {
        events.push(json!({"type": "content_block_start", "index": index,
            "content_block": {"type": "tool_use", "id": format!("toolu_{id}"), "name": name, "input": {}}}));
        events.push(json!({"type": "content_block_delta", "index": index,
            "delta": {"type": "input_json_delta", "partial_json": "{\"id\": \""}}));
        events.push(json!({"type": "content_block_delta", "index": index,
            "delta": {"type": "input_json_delta", "partial_json": format!("{id}\"}}")}}));
        events.push(json!({"type": "content_block_stop", "index": index}));
    }
    events.push(
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"},
        "usage": {"output_tokens": 10}}),
    );
    events.push(json!({"type": "message_stop"}));
    events
}

fn ids(outcome: &dsh_tools::registry::BatchOutcome) -> Vec<String> {
    outcome
        .results
        .iter()
        .map(|result| {
            result
                .value()
                .and_then(|value| value.as_str())
                .map_or_else(|| format!("{:?}", result.error()), str::to_owned)
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn safe_calls_start_while_the_stream_is_still_arriving() {
    let log = Log::new();
    let registry = registry(&log);
    let tools = ProviderTools::new(&registry, Dialect::Anthropic { strict: false }).tools(None);
    let events = anthropic_stream(&[("read", "a"), ("read", "b")]);
    let (mut feed, batch) = registry.batch_feed(4);
    let reading = {
        let log = log.clone();
        async move {
            let mut stream = tools.stream();
            for event in &events {
                // The network: each event takes a while to arrive.
                sleep(Duration::from_millis(30)).await;
                let updates = stream.push(event).expect("a well-formed stream");
                feed.push_finished(&updates);
            }
            stream.end().expect("every call finished");
            log.push("stream ended");
        }
    };
    let ((), outcome) = tokio::join!(reading, batch);
    assert_eq!(ids(&outcome), ["a", "b"]);
    // `a` finishes with the fifth event (150 ms), `b` with the ninth (270 ms), the stream ends
    // with the eleventh (330 ms): both calls were running before it did.
    assert_eq!(
        log.entries(),
        ["start a", "start b", "stream ended", "end a", "end b"]
    );
}

/// An OpenAI Chat Completions stream of `calls` (tool, id), one call after another as OpenAI
/// streams them (each call's first chunk has its `index`, `id` and name, the next ones more of
/// its `arguments`), the finish reason in a chunk of its own and a last chunk of usage only
/// (<https://platform.openai.com/docs/guides/function-calling#streaming>,
/// <https://platform.openai.com/docs/api-reference/chat-streaming>); DeepSeek streams the same
/// chunks (<https://api-docs.deepseek.com/api/create-chat-completion>).
fn chat_stream(calls: &[(&str, &str)]) -> Vec<dsh_tools::Value> {
    let chunk = |delta: dsh_tools::Value, finish: Option<&str>| {
        json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1,
            "model": "gpt-4.1", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    let mut events = vec![chunk(json!({"role": "assistant", "content": null}), None)];
    for (index, (name, id)) in calls.iter().enumerate() {
        events.push(chunk(
            json!({"tool_calls": [{"index": index, "id": format!("call_{id}"), "type": "function",
                "function": {"name": name, "arguments": ""}}]}),
            None,
        ));
        for fragment in ["{\"id\": \"".to_owned(), format!("{id}\"}}")] {
            events.push(chunk(
                json!({"tool_calls": [{"index": index, "function": {"arguments": fragment}}]}),
                None,
            ));
        }
    }
    events.push(chunk(json!({}), Some("tool_calls")));
    events.push(
        json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1,
        "model": "gpt-4.1", "choices": [], "usage": {"prompt_tokens": 9, "completion_tokens": 9,
        "total_tokens": 18}}),
    );
    events
}

/// OpenAI Chat and DeepSeek stream calls one after another: a call whose arguments are whole is
/// finished when the next call starts, so a batch fed while streaming runs it while the next
/// call's arguments are still arriving.
#[tokio::test(start_paused = true)]
async fn a_chat_call_starts_when_the_next_one_does() {
    for dialect in [
        Dialect::OpenAiChat { strict: false },
        Dialect::DeepSeek { strict: true },
    ] {
        let log = Log::new();
        let registry = registry(&log);
        let tools = ProviderTools::new(&registry, dialect).tools(None);
        let events = chat_stream(&[("read", "a"), ("read", "b")]);
        // The chunk that ends `b`'s arguments.
        let last_of_b = events.len() - 3;
        let (mut feed, batch) = registry.batch_feed(4);
        let reading = {
            let log = log.clone();
            async move {
                let mut stream = tools.stream();
                for (at, event) in events.iter().enumerate() {
                    sleep(Duration::from_millis(30)).await;
                    if at == last_of_b {
                        log.push("b's arguments end");
                    }
                    let updates = stream.push(event).expect("a well-formed stream");
                    feed.push_finished(&updates);
                }
                stream.end().expect("every call finished");
                log.push("stream ended");
            }
        };
        let ((), outcome) = tokio::join!(reading, batch);
        assert_eq!(ids(&outcome), ["a", "b"]);
        // `a` finishes when `b` starts (150 ms), `b` at the finish reason (240 ms), the stream
        // ends with the usage chunk (270 ms).
        assert_eq!(
            log.entries(),
            [
                "start a",
                "b's arguments end",
                "start b",
                "stream ended",
                "end a",
                "end b"
            ],
            "{dialect:?}"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn an_exclusive_call_waits_for_those_before_it_and_holds_back_those_after() {
    let log = Log::new();
    let registry = registry(&log);
    let (mut feed, batch) = registry.batch_feed(4);
    let feeding = async move {
        feed.push(input("read", "a"));
        feed.push(input("write", "w"));
        sleep(Duration::from_millis(10)).await;
        feed.push(input("read", "b"));
    };
    let ((), outcome) = tokio::join!(feeding, batch);
    assert_eq!(ids(&outcome), ["a", "w", "b"]);
    assert_eq!(
        log.entries(),
        ["start a", "end a", "start w", "end w", "start b", "end b"]
    );
}

#[tokio::test(start_paused = true)]
async fn calls_finishing_out_of_order_run_and_return_in_the_models_order() {
    let log = Log::new();
    let registry = registry(&log);
    let (mut feed, batch) = registry.batch_feed(1);
    let feeding = async move {
        feed.push_at(1, input("read", "b"));
        sleep(Duration::from_millis(10)).await;
        feed.push_at(0, input("read", "a"));
        // Given twice: the first stays.
        feed.push_at(1, input("read", "c"));
        feed.push(input("read", "d"));
    };
    let ((), outcome) = tokio::join!(feeding, batch);
    assert_eq!(ids(&outcome), ["a", "b", "d"]);
    assert_eq!(log.entries()[0], "start a");
}

#[tokio::test(start_paused = true)]
async fn finishing_with_a_gap_runs_the_held_calls_and_an_empty_feed_gives_nothing() {
    let log = Log::new();
    let registry = registry(&log);
    let (mut feed, batch) = registry.batch_feed(2);
    let feeding = async move {
        feed.push_at(2, input("read", "c"));
        feed.push_at(1, input("read", "b"));
        drop(feed);
    };
    let ((), outcome) = tokio::join!(feeding, batch);
    assert_eq!(ids(&outcome), ["b", "c"]);

    // Dropping the feed is finishing it: the held calls still run (a call the caller chose not
    // to push, say one already known to be wrong, loses none after it).
    let (mut feed, batch) = registry.batch_feed(2);
    let feeding = async move {
        feed.push_at(0, input("read", "a"));
        feed.push_at(2, input("read", "c"));
        feed.push_at(3, input("read", "d"));
        drop(feed);
    };
    let ((), outcome) = tokio::join!(feeding, batch);
    assert_eq!(ids(&outcome), ["a", "c", "d"]);

    let (feed, batch) = registry.batch_feed(0);
    drop(feed);
    let outcome = batch.await;
    assert!(outcome.results.is_empty());
    assert!(outcome.additional_contexts.is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_batch_feed_keeps_unknown_and_malformed_calls_in_place() {
    let log = Log::new();
    let registry = registry(&log);
    let (mut feed, batch) = registry.batch_feed(2);
    let feeding = async move {
        feed.push(input("read", "a"));
        feed.push(input("missing", "m"));
        feed.push(ToolExecutionInput::from_raw("call_x", "read", "{"));
        feed.push(input("read", "b"));
    };
    let ((), outcome) = tokio::join!(feeding, batch);
    let codes: Vec<Option<&str>> = outcome
        .results
        .iter()
        .map(|result| result.error_code())
        .collect();
    assert_eq!(
        codes,
        [None, Some("UNKNOWN_TOOL"), Some("INVALID_ARGS"), None]
    );
}
