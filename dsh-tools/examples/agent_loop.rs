//! A model loop through the provider adapters, with a scripted model instead of a network: the
//! same registry speaks OpenAI Chat Completions (strict) and Anthropic Messages.
//!
//! Each turn prints the request's tools (names, strict flags and what the view changed), the
//! tool calls read from the model's recorded response, and the result messages appended for
//! the next request. The scripted model makes parallel calls, one call with a mistake it then
//! corrects, and ends its turn with text.
//!
//! With `--stream` it plays instead one recorded streamed response per provider (OpenAI Chat,
//! OpenAI Responses, Anthropic, Gemini, and Vertex AI streaming arguments; `examples/streams/`, each the event sequence of the
//! provider's documented stream shape): the pending card of each call as its arguments grow, the
//! error of a malformed call as soon as it is certain (before the call has ended), and the calls
//! started while the response is still arriving, and the turn rebuilt as the next request
//! repeats it.
//!
//! With `--programmatic` (feature `code-mode`) it plays a turn of programmatic tool calling
//! run by the provider: in Code Mode `Both`, Anthropic's request carries its code execution
//! tool and each tool's `allowed_callers`; the program Anthropic runs calls two tools, whose
//! calls are read with the program as their caller and run through the registry's pipeline as
//! nested calls, and their results go back as `tool_result` blocks only.
//!
//! Run with `cargo run -p dsh-tools --example agent_loop` (or `-- --stream`, or
//! `--features code-mode -- --programmatic`).

pub mod coding_tools;

use dsh_tools::providers::stream::StreamEvent;
use dsh_tools::providers::{Dialect, GeminiSchema, LoweredTools, ProviderTools};
use dsh_tools::{ToolRegistry, Value, json};

use coding_tools::{Workspace, create_workspace};

/// What the scripted model answers to each request, in the OpenAI Chat shape.
fn openai_script() -> Vec<Value> {
    let call = |id: &str, name: &str, arguments: Value| {
        json!({"id": id, "type": "function",
               "function": {"name": name, "arguments": arguments.to_string()}})
    };
    let turn = |calls: Vec<Value>| {
        json!({"choices": [{"index": 0, "finish_reason": "tool_calls",
               "message": {"role": "assistant", "content": null, "tool_calls": calls}}]})
    };
    vec![
        turn(vec![
            call(
                "call_1",
                "read_file",
                json!({"path": "src/lib.rs", "offset": null, "limit": null}),
            ),
            call(
                "call_2",
                "search_files",
                json!({"pattern": "greeting", "path": ".",
                "max_results": null, "case_sensitive": null, "include": ["*.rs"], "mode": null,
                "options": null}),
            ),
        ]),
        turn(vec![call(
            "call_3",
            "edit_file",
            json!({"path": "src/lib.rs",
            "old_text": "Hello, world!", "new_text": "Hello, providers!", "replace_all": null}),
        )]),
        json!({"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant",
            "content": "The greeting now says \"Hello, providers!\"."}}]}),
    ]
}

/// What the scripted model answers to each request, in the Anthropic Messages shape.
fn anthropic_script() -> Vec<Value> {
    let turn = |blocks: Vec<Value>| json!({"type": "message", "role": "assistant", "stop_reason": "tool_use", "content": blocks});
    vec![
        turn(vec![
            json!({"type": "text", "text": "Let me look for the greeting."}),
            // A mistake: `pattern` is missing.
            json!({"type": "tool_use", "id": "toolu_1", "name": "search_files",
                   "input": {"path": "."}}),
        ]),
        turn(vec![
            json!({"type": "tool_use", "id": "toolu_2", "name": "search_files",
                   "input": {"pattern": "providers", "path": "."}}),
            json!({"type": "tool_use", "id": "toolu_3", "name": "run_command",
                   "input": {"command": "wc -l src/lib.rs", "description": "Count lines"}}),
        ]),
        json!({"type": "message", "role": "assistant", "stop_reason": "end_turn",
               "content": [{"type": "text", "text": "The edit is in place; lib.rs has 4 lines."}]}),
    ]
}

fn show_tools(tools: &LoweredTools) {
    let names: Vec<String> = tools
        .tools
        .iter()
        .map(|tool| {
            let renamed = if tool.provider_name == tool.name {
                String::new()
            } else {
                format!(" (as {})", tool.provider_name)
            };
            let strict = if tool.strict { " [strict]" } else { "" };
            format!("{}{renamed}{strict}", tool.name)
        })
        .collect();
    println!("  tools: {}", names.join(", "));
    for entry in &tools.report.entries {
        println!("    view: {entry}");
    }
}

async fn run(
    registry: &ToolRegistry,
    dialect: Dialect,
    script: Vec<Value>,
) -> Result<(), Box<dyn std::error::Error>> {
    println!("\n=== {} ===", dialect.id());
    let provider = ProviderTools::new(registry, dialect);
    let mut messages = vec![
        json!({"role": "user", "content": "Change the greeting to say hello to the providers."}),
    ];
    for (turn, response) in script.into_iter().enumerate() {
        let tools = provider.tools(None); // lowered once; cached until the registry changes
        let request = match dialect {
            Dialect::Anthropic { .. } => json!({"model": "claude-sonnet-4-5", "max_tokens": 1024,
                "messages": messages, "tools": tools.request_tools}),
            _ => json!({"model": "gpt-4.1", "messages": messages, "tools": tools.request_tools}),
        };
        println!(
            "\n-- request {} ({} messages, {} bytes) --",
            turn + 1,
            messages.len(),
            request.to_string().len()
        );
        if turn == 0 {
            show_tools(&tools);
        }
        // The scripted model answers instead of an HTTP call.
        // The model's turn as the next request must repeat it (opaque fields included).
        messages.extend(tools.assistant_turn(&response)?);
        let mut calls = tools.parse_response(&response)?;
        if calls.calls.is_empty() {
            let text = match dialect {
                Dialect::Anthropic { .. } => &response["content"][0]["text"],
                _ => &response["choices"][0]["message"]["content"],
            };
            println!("  model: {}", text.as_str().unwrap_or_default());
            break;
        }
        for input in calls.inputs.as_slice() {
            println!(
                "  call {} {} {}",
                input.call_id, input.name, input.arguments
            );
        }
        let outcome = registry
            .execute_batch(std::mem::take(&mut calls.inputs), 4)
            .await;
        let results = tools.format_batch(&calls.calls, &outcome)?;
        for message in &results {
            println!("  result message: {message}");
        }
        messages.extend(results);
    }
    Ok(())
}

/// The recorded streams: each provider's events for one turn in which the model writes a
/// sentence, reads a file and makes a search with a `mode` the tool does not have. Vertex AI
/// speaks the Gemini dialect and may stream a call's arguments piece by piece.
fn recorded_streams() -> Vec<(&'static str, Dialect, &'static str)> {
    vec![
        (
            "openai-chat-strict",
            Dialect::OpenAiChat { strict: true },
            include_str!("streams/openai_chat.json"),
        ),
        (
            "openai-responses-strict",
            Dialect::OpenAiResponses { strict: true },
            include_str!("streams/openai_responses.json"),
        ),
        (
            "anthropic",
            Dialect::Anthropic { strict: false },
            include_str!("streams/anthropic.json"),
        ),
        (
            "gemini",
            Dialect::Gemini {
                schema: GeminiSchema::OpenApi,
            },
            include_str!("streams/gemini.json"),
        ),
        (
            "gemini-vertex",
            Dialect::Gemini {
                schema: GeminiSchema::OpenApi,
            },
            include_str!("streams/vertex.json"),
        ),
    ]
}

/// Plays one recorded stream: prints what a UI would show as each event arrives, feeds the
/// finished calls to a batch that runs them meanwhile, then prints the result messages.
async fn run_streamed(
    registry: &ToolRegistry,
    label: &str,
    dialect: Dialect,
    recorded: &str,
) -> Result<(), Box<dyn std::error::Error>> {
    println!("\n=== {label} (streamed) ===");
    let events: Vec<Value> = serde_json::from_str(recorded)?;
    let tools = ProviderTools::new(registry, dialect).tools(None);
    let (mut feed, batch) = registry.batch_feed(4);
    let reading = async {
        let mut stream = tools.stream();
        let mut text = String::new();
        // The card last shown of each call: a fragment that changes nothing shown is not shown.
        let mut shown: Vec<String> = Vec::new();
        for event in &events {
            for update in stream.push(event)? {
                match update {
                    StreamEvent::Text { text: more } => text.push_str(&more),
                    StreamEvent::CallStarted { index, id, name } => {
                        println!("  [{index}] {name} started ({id})");
                    }
                    StreamEvent::ArgumentsDelta { index, .. } => {
                        // What a UI shows of the call so far, in the tool's own form.
                        let so_far = stream.arguments_so_far(index).unwrap_or_default();
                        let card = registry
                            .present_partial_call(&stream.calls()[index].call.name, &so_far);
                        let line = format!("  [{index}] card: {:?} {so_far}", card.title());
                        if shown.len() <= index {
                            shown.resize(index + 1, String::new());
                        }
                        if shown[index] != line {
                            println!("{line}");
                            shown[index] = line;
                        }
                    }
                    StreamEvent::Definite { index, error } => {
                        let call = &stream.calls()[index];
                        println!(
                            "  [{index}] already wrong after {} bytes, before the call ended: {}",
                            call.raw_arguments.len(),
                            error.message()
                        );
                    }
                    StreamEvent::CallFinished { index, input } => {
                        println!("  [{index}] finished: {} {}", input.name, input.arguments);
                        // Started now, while the rest of the response is still arriving.
                        feed.push_at(index, input);
                    }
                    _ => {}
                }
            }
        }
        stream.end()?;
        println!("  model: {text}");
        // What the next request repeats of this turn, rebuilt from the stream: thinking
        // signatures, reasoning items and thought signatures included.
        for value in stream.assistant_turn() {
            println!("  turn for the next request: {value}");
        }
        drop(feed);
        Ok::<_, Box<dyn std::error::Error>>(stream.into_tool_calls()?)
    };
    let (calls, outcome) = tokio::join!(reading, batch);
    for message in tools.format_batch(&calls?.calls, &outcome)? {
        println!("  result message: {message}");
    }
    Ok(())
}

/// One programmatic turn: the request's tools with their callers, the program's calls read
/// with their caller, their results answering the program.
#[cfg(feature = "code-mode")]
async fn run_programmatic(registry: &ToolRegistry) -> Result<(), Box<dyn std::error::Error>> {
    use dsh_tools::code_mode::CodeMode;

    println!("\n=== anthropic (programmatic) ===");
    // Programs may call tools here: the provider's programs as well as `run_code`'s.
    registry.set_code_mode(CodeMode::Both)?;
    let tools = ProviderTools::new(registry, Dialect::Anthropic { strict: false })
        .programmatic(true)
        .tools(None);
    for tool in tools.request_tools.as_array().into_iter().flatten() {
        let name = tool["name"].as_str().unwrap_or_default();
        match tool.get("allowed_callers") {
            Some(callers) => println!("  tool {name}: allowed_callers {callers}"),
            None => println!("  tool {name}: {}", tool["type"]),
        }
    }
    // The scripted model writes a program; Anthropic runs it, and the program calls two tools.
    let program = "srvtoolu_1";
    let caller = json!({"type": "code_execution_20260120", "tool_id": program});
    let response = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
    "content": [
        {"type": "server_tool_use", "id": program, "name": "code_execution",
         "input": {"code": "const text = await read_file({path: 'src/lib.rs'});\n\
                            const hits = await search_files({pattern: 'Hello'});"}},
        {"type": "tool_use", "id": "toolu_p1", "name": "read_file",
         "input": {"path": "src/lib.rs"}, "caller": caller},
        {"type": "tool_use", "id": "toolu_p2", "name": "search_files",
         "input": {"pattern": "Hello", "path": "."}, "caller": caller}
    ]});
    let mut calls = tools.parse_response(&response)?;
    for (call, input) in calls.calls.iter().zip(&calls.inputs) {
        println!(
            "  call {} {} from program {}",
            call.id,
            call.name,
            input.program_caller().unwrap_or("-")
        );
    }
    let outcome = registry
        .execute_batch(std::mem::take(&mut calls.inputs), 4)
        .await;
    for message in tools.format_batch(&calls.calls, &outcome)? {
        println!("  result message: {message}");
    }
    registry.set_code_mode(CodeMode::Native)?;
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let scratch = create_workspace()?;
    let root = scratch.root().to_path_buf();
    let registry = coding_tools::registry(Workspace { root: root.clone() })?;
    if std::env::args().any(|argument| argument == "--programmatic") {
        #[cfg(feature = "code-mode")]
        run_programmatic(&registry).await?;
        #[cfg(not(feature = "code-mode"))]
        println!("programmatic tool calling needs the `code-mode` feature");
        return Ok(());
    }
    if std::env::args().any(|argument| argument == "--stream") {
        for (label, dialect, recorded) in recorded_streams() {
            run_streamed(&registry, label, dialect, recorded).await?;
        }
        return Ok(());
    }
    run(
        &registry,
        Dialect::OpenAiChat { strict: true },
        openai_script(),
    )
    .await?;
    run(
        &registry,
        Dialect::Anthropic { strict: false },
        anthropic_script(),
    )
    .await?;
    Ok(())
}
