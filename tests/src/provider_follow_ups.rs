//! Checkers of follow-up requests — the request after a model's turn with tool calls —
//! written from each provider's documentation (the pages named in `provider_turns.rs`),
//! independently of the adapters: each lists every rule the request's conversation breaks,
//! chiefly the opaque fields a provider wants back.

use std::collections::HashSet;

use dsh_tools::Value;
use dsh_tools::providers::Dialect;

/// Every rule `request` (a whole request body for `dialect`) breaks.
pub fn check_follow_up(dialect: Dialect, request: &Value) -> Vec<String> {
    let mut out = Vec::new();
    match dialect {
        Dialect::OpenAiChat { .. } | Dialect::DeepSeek { .. } => {
            // DeepSeek's thinking mode is on unless the request turns it off.
            let thinking = matches!(dialect, Dialect::DeepSeek { .. })
                && request["thinking"]["type"] != "disabled";
            check_chat(request, thinking, &mut out);
        }
        Dialect::OpenAiResponses { .. } => check_responses(request, &mut out),
        Dialect::Anthropic { .. } => check_anthropic(request, &mut out),
        Dialect::Gemini { .. } => check_gemini(request, &mut out),
    }
    out
}

fn list<'a>(request: &'a Value, key: &str, out: &mut Vec<String>) -> &'a [Value] {
    match request[key].as_array() {
        Some(list) => list,
        None => {
            out.push(format!("{key} must be an array"));
            &[]
        }
    }
}

fn check_chat(request: &Value, thinking: bool, out: &mut Vec<String>) {
    let messages = list(request, "messages", out);
    let mut open: HashSet<&str> = HashSet::new();
    for (at, message) in messages.iter().enumerate() {
        match message["role"].as_str() {
            Some("assistant") => {
                let calls = message["tool_calls"]
                    .as_array()
                    .map_or(&[][..], Vec::as_slice);
                if !open.is_empty() {
                    out.push(format!(
                        "messages[{at}]: tool calls {open:?} got no tool message"
                    ));
                    open.clear();
                }
                if thinking && !calls.is_empty() && !message["reasoning_content"].is_string() {
                    out.push(format!(
                        "messages[{at}]: an assistant message with tool calls in thinking mode \
                         must carry its reasoning_content"
                    ));
                }
                for call in calls {
                    let arguments = call["function"]["arguments"].as_str();
                    if !arguments.is_some_and(|text| {
                        serde_json::from_str::<Value>(text).is_ok_and(|value| value.is_object())
                    }) {
                        out.push(format!(
                            "messages[{at}]: tool call arguments must be a JSON object's text"
                        ));
                    }
                    match call["id"].as_str() {
                        Some(id) => {
                            open.insert(id);
                        }
                        None => out.push(format!("messages[{at}]: a tool call needs an id")),
                    }
                }
            }
            Some("tool") => {
                let id = message["tool_call_id"].as_str().unwrap_or_default();
                if !open.remove(id) {
                    out.push(format!(
                        "messages[{at}]: tool message {id:?} answers no open tool call"
                    ));
                }
            }
            _ => {}
        }
    }
}

fn check_responses(request: &Value, out: &mut Vec<String>) {
    let items = list(request, "input", out);
    let stateless = request["store"] == false;
    let mut calls: HashSet<&str> = HashSet::new();
    for (at, item) in items.iter().enumerate() {
        match item["type"].as_str() {
            Some("reasoning") => {
                if !item["id"].is_string() {
                    out.push(format!("input[{at}]: a reasoning item needs its id"));
                }
                if stateless && !item["encrypted_content"].is_string() {
                    out.push(format!(
                        "input[{at}]: with store false a reasoning item needs its \
                         encrypted_content"
                    ));
                }
                if at + 1 == items.len() {
                    out.push(format!(
                        "input[{at}]: a reasoning item must come with the item that followed it"
                    ));
                }
            }
            Some("function_call") => {
                if !item["name"].is_string() || !item["arguments"].is_string() {
                    out.push(format!(
                        "input[{at}]: a function call needs its name and arguments"
                    ));
                }
                match item["call_id"].as_str() {
                    Some(id) => {
                        calls.insert(id);
                    }
                    None => out.push(format!("input[{at}]: a function call needs its call_id")),
                }
            }
            Some("function_call_output") => {
                let id = item["call_id"].as_str().unwrap_or_default();
                if !calls.contains(id) {
                    out.push(format!(
                        "input[{at}]: function_call_output {id:?} follows no function_call"
                    ));
                }
            }
            _ => {}
        }
    }
}

fn check_anthropic(request: &Value, out: &mut Vec<String>) {
    let messages = list(request, "messages", out);
    let thinking = request["thinking"]["type"] == "enabled";
    for (at, message) in messages.iter().enumerate() {
        if message["role"] == "user" {
            check_tool_results(messages, at, out);
            continue;
        }
        let Some(blocks) = message["content"].as_array() else {
            continue;
        };
        let mut uses = Vec::new();
        for block in blocks {
            match block["type"].as_str() {
                Some("text") if block["text"].as_str().is_none_or(str::is_empty) => {
                    out.push(format!("messages[{at}]: text blocks must be non-empty"));
                }
                Some("thinking") if block["signature"].as_str().is_none_or(str::is_empty) => {
                    out.push(format!(
                        "messages[{at}]: a thinking block needs its signature"
                    ));
                }
                Some("redacted_thinking") if !block["data"].is_string() => {
                    out.push(format!(
                        "messages[{at}]: a redacted_thinking block needs its data"
                    ));
                }
                Some("tool_use") => uses.push(block["id"].as_str().unwrap_or_default()),
                _ => {}
            }
        }
        let starts_thinking = blocks.first().is_some_and(|block| {
            matches!(
                block["type"].as_str(),
                Some("thinking" | "redacted_thinking")
            )
        });
        if thinking && !uses.is_empty() && !starts_thinking {
            out.push(format!(
                "messages[{at}]: with thinking on, an assistant message with tool use must start \
                 with its thinking block"
            ));
        }
        if uses.is_empty() {
            continue;
        }
        let answers: Vec<&str> = messages
            .get(at + 1)
            .and_then(|next| next["content"].as_array())
            .map(|blocks| {
                blocks
                    .iter()
                    .take_while(|block| block["type"] == "tool_result")
                    .filter_map(|block| block["tool_use_id"].as_str())
                    .collect()
            })
            .unwrap_or_default();
        for id in uses {
            if !answers.contains(&id) {
                out.push(format!(
                    "messages[{at}]: tool use {id:?} has no tool_result first in the next message"
                ));
            }
        }
    }
}

/// Each `tool_result` of the user message at `at` answers a `tool_use` of the message before.
fn check_tool_results(messages: &[Value], at: usize, out: &mut Vec<String>) {
    let Some(blocks) = messages[at]["content"].as_array() else {
        return;
    };
    let uses: Vec<&str> = at
        .checked_sub(1)
        .and_then(|before| messages[before]["content"].as_array())
        .map(|blocks| {
            blocks
                .iter()
                .filter(|block| block["type"] == "tool_use")
                .filter_map(|block| block["id"].as_str())
                .collect()
        })
        .unwrap_or_default();
    for block in blocks.iter().filter(|block| block["type"] == "tool_result") {
        let id = block["tool_use_id"].as_str().unwrap_or_default();
        if !uses.contains(&id) {
            out.push(format!(
                "messages[{at}]: tool_result {id:?} answers no tool_use of the message before"
            ));
        }
    }
}

fn check_gemini(request: &Value, out: &mut Vec<String>) {
    let contents = list(request, "contents", out);
    for (at, content) in contents.iter().enumerate() {
        let answers = content["parts"].as_array().is_some_and(|parts| {
            parts
                .iter()
                .any(|part| part.get("functionResponse").is_some())
        });
        let after_model = at
            .checked_sub(1)
            .is_some_and(|before| contents[before]["role"] == "model");
        if answers && !after_model {
            out.push(format!(
                "contents[{at}]: function responses must follow the model's function calls"
            ));
        }
        if content["role"] != "model" {
            continue;
        }
        let parts = content["parts"].as_array().map_or(&[][..], Vec::as_slice);
        let calls: Vec<&Value> = parts
            .iter()
            .filter(|part| part.get("functionCall").is_some())
            .collect();
        let Some(first) = calls.first() else {
            continue;
        };
        if !first["thoughtSignature"].is_string() {
            out.push(format!(
                "contents[{at}]: the first functionCall part of a turn needs its thoughtSignature"
            ));
        }
        let responses = contents
            .get(at + 1)
            .and_then(|next| next["parts"].as_array())
            .map_or(0, |parts| {
                parts
                    .iter()
                    .filter(|part| part.get("functionResponse").is_some())
                    .count()
            });
        if responses != calls.len() {
            out.push(format!(
                "contents[{at}]: {} function calls but {responses} function responses next",
                calls.len()
            ));
        }
    }
}
