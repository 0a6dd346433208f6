//! OpenAI: the Chat Completions and Responses shapes of tool lists, tool calls and results.
//!
//! - Chat tools: `{"type":"function","function":{"name","description","parameters","strict"?}}`;
//!   calls: `choices[0].message.tool_calls[]` with `function.arguments` as a JSON string;
//!   results: one `{"role":"tool","tool_call_id","content"}` message per call.
//! - Responses tools: `{"type":"function","name","description","parameters","strict"}` (the
//!   Responses API defaults to strict, so `strict` is always written); calls: `function_call`
//!   items of `output`; results: `function_call_output` items. With programmatic tool calling
//!   (`programmatic.rs`), a call a program made carries `caller: {"type": "program",
//!   "caller_id"}`, which its `function_call_output` echoes.
//!
//! Tool messages carry text only. An image a tool returned is replaced in its tool message by a
//! note, and sent — as OpenAI documents for images — in a user message after all results, with
//! the additional contexts. Audio gets a note (it cannot be carried here).

use std::sync::OnceLock;

use serde_json::Value;

use super::calls::{
    ProviderError, ToolCall, ToolCalls, data_url, field, link_text, object, omitted_note, str_field,
};
use super::dialect::Dialect;
use super::programmatic;
use super::report::{Change, LoweringReport};
use super::{LoweredTool, LoweredTools};
use crate::content::ContentBlock;
use crate::result::ToolExecutionResult;

/// Most functions one Chat Completions request may declare.
const MAX_TOOLS: usize = 128;

pub(crate) fn chat_tools(tools: &[LoweredTool], strict_dialect: bool) -> Value {
    Value::Array(
        tools
            .iter()
            .map(|tool| {
                let mut function = serde_json::Map::new();
                function.insert("name".to_owned(), Value::from(tool.provider_name.as_str()));
                function.insert(
                    "description".to_owned(),
                    Value::from(tool.description.as_str()),
                );
                function.insert("parameters".to_owned(), tool.parameters.clone());
                // A tool strict by its own setting says so in a non-strict list too.
                if strict_dialect || tool.strict {
                    function.insert("strict".to_owned(), Value::Bool(tool.strict));
                }
                object([
                    ("type", Value::from("function")),
                    ("function", Value::Object(function)),
                ])
            })
            .collect(),
    )
}

pub(crate) fn responses_tools(tools: &[LoweredTool]) -> Value {
    let mut list: Vec<Value> = tools
        .iter()
        .map(|tool| {
            let mut entry = object([
                ("type", Value::from("function")),
                ("name", Value::from(tool.provider_name.as_str())),
                ("description", Value::from(tool.description.as_str())),
                ("parameters", tool.parameters.clone()),
                ("strict", Value::Bool(tool.strict)),
            ]);
            if tool.deferred
                && let Value::Object(entry) = &mut entry
            {
                entry.insert("defer_loading".to_owned(), Value::Bool(true));
            }
            entry
        })
        .collect();
    if tools.iter().any(|tool| tool.deferred) {
        // The hosted search: OpenAI runs it and loads what it finds.
        list.push(object([("type", Value::from("tool_search"))]));
    }
    Value::Array(list)
}

pub(crate) fn check_tool_count(dialect: Dialect, count: usize, report: &mut LoweringReport) {
    let limited = matches!(
        dialect,
        Dialect::OpenAiChat { .. } | Dialect::OpenAiResponses { .. }
    );
    if limited && count > MAX_TOOLS {
        report.push(
            "",
            "",
            Change::Warning,
            format!("{count} tools; OpenAI accepts at most {MAX_TOOLS} functions per request"),
        );
    }
}

/// `choices[0].message`, from a completion or the message itself.
fn chat_message(response: &Value) -> Result<&Value, ProviderError> {
    let message = match field(response, "choices") {
        Some(Value::Array(choices)) => choices
            .first()
            .and_then(|choice| field(choice, "message"))
            .ok_or_else(|| ProviderError::shape("choices[0].message", "an object"))?,
        Some(_) => return Err(ProviderError::shape("choices", "an array")),
        None => response,
    };
    if !message.is_object() {
        return Err(ProviderError::shape("message", "an object"));
    }
    Ok(message)
}

/// `choices[0].message.tool_calls`, from a completion or a message.
pub(crate) fn parse_chat(
    tools: &LoweredTools,
    response: &Value,
) -> Result<ToolCalls, ProviderError> {
    let message = chat_message(response)?;
    let calls = match field(message, "tool_calls") {
        None | Some(Value::Null) => return Ok(ToolCalls::default()),
        Some(Value::Array(calls)) => calls,
        Some(_) => return Err(ProviderError::shape("message.tool_calls", "an array")),
    };
    let mut out = ToolCalls::with_capacity(calls.len());
    for (index, call) in calls.iter().enumerate() {
        let at = || format!("message.tool_calls[{index}]");
        if let Some(kind) = field(call, "type").and_then(Value::as_str)
            && kind != "function"
        {
            return Err(ProviderError::new(format!(
                "response {} is a {kind:?} tool call; only function calls are supported",
                at()
            )));
        }
        let id = str_field(call, "id", at)?;
        let function = field(call, "function")
            .ok_or_else(|| ProviderError::shape(&format!("{}.function", at()), "an object"))?;
        let name = str_field(function, "name", || format!("{}.function", at()))?;
        let record = tools.call(id.to_owned(), name, false);
        let input = match field(function, "arguments") {
            Some(Value::String(raw)) => tools.input_from_raw(&record, raw),
            None | Some(Value::Null) => tools.input_from_raw(&record, ""),
            // Some OpenAI-compatible gateways send the arguments as an object.
            Some(arguments) => tools.input_from_value(&record, arguments.clone()),
        };
        out.push(record, input);
    }
    Ok(out)
}

/// The assistant message of a Chat completion as the next request takes it: `content`, a
/// `refusal`, the `tool_calls` and an `audio` reply's id, the response-only fields
/// (`annotations`, a `null` refusal) left out; with `keep_reasoning` (DeepSeek's thinking mode),
/// its `reasoning_content`, which DeepSeek requires back on every later request once the model
/// called a tool.
pub(crate) fn chat_assistant(
    response: &Value,
    keep_reasoning: bool,
) -> Result<Vec<Value>, ProviderError> {
    let message = chat_message(response)?;
    let text = |key: &str| field(message, key).and_then(Value::as_str);
    let calls = match field(message, "tool_calls") {
        None | Some(Value::Null) => Vec::new(),
        // Each as a request takes it (DeepSeek's response entries carry an `index` too).
        Some(Value::Array(calls)) => calls.iter().map(request_tool_call).collect(),
        Some(_) => return Err(ProviderError::shape("message.tool_calls", "an array")),
    };
    let mut out = assistant_message(
        field(message, "content").cloned().unwrap_or(Value::Null),
        text("refusal"),
        keep_reasoning.then(|| text("reasoning_content")).flatten(),
        calls,
    );
    if let (Some(audio), Value::Object(out)) = (
        field(message, "audio").and_then(|audio| field(audio, "id")),
        &mut out,
    ) {
        out.insert("audio".to_owned(), object([("id", audio.clone())]));
    }
    Ok(vec![out])
}

/// A Chat assistant message: `{"role": "assistant", "content", "refusal"?,
/// "reasoning_content"?, "tool_calls"?}`, the whole response's and the stream's alike.
pub(crate) fn assistant_message(
    content: Value,
    refusal: Option<&str>,
    reasoning: Option<&str>,
    tool_calls: Vec<Value>,
) -> Value {
    let mut message = serde_json::Map::new();
    message.insert("role".to_owned(), Value::from("assistant"));
    message.insert("content".to_owned(), content);
    if let Some(refusal) = refusal {
        message.insert("refusal".to_owned(), Value::from(refusal));
    }
    if let Some(reasoning) = reasoning {
        message.insert("reasoning_content".to_owned(), Value::from(reasoning));
    }
    if !tool_calls.is_empty() {
        message.insert("tool_calls".to_owned(), Value::Array(tool_calls));
    }
    Value::Object(message)
}

/// A response's `tool_calls` entry as a request takes it: its id, type and function's name
/// and arguments (arguments a gateway sent as an object written as text).
fn request_tool_call(call: &Value) -> Value {
    let function = field(call, "function");
    let text = |value: Option<&Value>, key: &str| {
        value
            .and_then(|value| field(value, key))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let arguments = match function.and_then(|function| field(function, "arguments")) {
        Some(Value::String(raw)) => raw.clone(),
        None | Some(Value::Null) => String::new(),
        Some(arguments) => arguments.to_string(),
    };
    chat_tool_call(&text(Some(call), "id"), &text(function, "name"), &arguments)
}

/// A Chat `tool_calls` entry as an assistant message carries it; arguments never streamed are
/// `{}`, since a request's arguments must be JSON text.
pub(crate) fn chat_tool_call(id: &str, provider_name: &str, arguments: &str) -> Value {
    let arguments = if arguments.is_empty() {
        "{}"
    } else {
        arguments
    };
    object([
        ("id", Value::from(id)),
        ("type", Value::from("function")),
        (
            "function",
            object([
                ("name", Value::from(provider_name)),
                ("arguments", Value::from(arguments)),
            ]),
        ),
    ])
}

/// The item type of the hosted tool search's output.
pub(crate) const SEARCH_OUTPUT: &str = "tool_search_output";

/// The provider names of the tools a `tool_search_output` item loaded:
/// `{"tools": [{"type": "function", "name": …}, …]}`.
pub(crate) fn found_tools(item: &Value) -> impl Iterator<Item = &str> {
    field(item, "tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|tool| field(tool, "name").and_then(Value::as_str))
}

/// A Responses `output`, from a response or the item list itself.
fn output_items(response: &Value) -> Result<&Vec<Value>, ProviderError> {
    match response {
        Value::Array(items) => Ok(items),
        _ => match field(response, "output") {
            Some(Value::Array(items)) => Ok(items),
            _ => Err(ProviderError::shape("output", "an array")),
        },
    }
}

/// The items of a Responses `output` as the next request's `input` takes them: every item, in
/// order — reasoning items with their ids and `encrypted_content`, messages, function calls and
/// the hosted tools' items — since a reasoning item must come back with the items it preceded.
pub(crate) fn responses_assistant(response: &Value) -> Result<Vec<Value>, ProviderError> {
    output_items(response).cloned()
}

/// The `function_call` items of a Responses `output`.
pub(crate) fn parse_responses(
    tools: &LoweredTools,
    response: &Value,
) -> Result<ToolCalls, ProviderError> {
    let items = output_items(response)?;
    let mut out = ToolCalls::default();
    for (index, item) in items.iter().enumerate() {
        let kind = field(item, "type").and_then(Value::as_str);
        if kind == Some(SEARCH_OUTPUT) {
            for name in found_tools(item) {
                out.push_loaded(tools.names.canonical_name(name).to_owned());
            }
            continue;
        }
        if kind != Some("function_call") {
            continue;
        }
        let at = || format!("output[{index}]");
        let id = str_field(item, "call_id", at)?;
        let name = str_field(item, "name", at)?;
        let mut record = tools.call(id.to_owned(), name, false);
        record.set_program(programmatic::program_caller(tools.dialect, item));
        let input = match field(item, "arguments") {
            Some(Value::String(raw)) => tools.input_from_raw(&record, raw),
            None | Some(Value::Null) => tools.input_from_raw(&record, ""),
            Some(arguments) => tools.input_from_value(&record, arguments.clone()),
        };
        out.push(record, input);
    }
    Ok(out)
}

/// Which Chat Completions provider the messages are for (DeepSeek takes no images).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ChatFlavor {
    OpenAi,
    DeepSeek,
}

impl ChatFlavor {
    fn name(self) -> &'static str {
        match self {
            Self::OpenAi => "an OpenAI tool message",
            Self::DeepSeek => "DeepSeek",
        }
    }
}

pub(crate) fn format_chat(
    calls: &[ToolCall],
    results: &[ToolExecutionResult],
    contexts: &[ContentBlock],
    flavor: ChatFlavor,
) -> Vec<Value> {
    let mut messages = Vec::with_capacity(results.len() + 1);
    // Images go to a user message after every tool message (tool messages carry text only).
    let mut follow_up: Vec<Value> = Vec::new();
    for (call, result) in calls.iter().zip(results) {
        let content = chat_tool_content(call, result.content(), flavor, &mut follow_up);
        messages.push(tool_message(call.id.as_str(), content));
    }
    for block in contexts {
        push_user_part(block, flavor, &mut follow_up);
    }
    if !follow_up.is_empty() {
        messages.push(object([
            ("role", Value::from("user")),
            ("content", Value::Array(follow_up)),
        ]));
    }
    messages
}

/// `{"role": "tool", "tool_call_id": id, "content": content}`, made by filling a copy of a
/// template: copying a small map copies its key hashes, where building one hashes every key
/// again (most of what building a message costs, on a path that runs for every call).
fn tool_message(id: &str, content: Value) -> Value {
    static TEMPLATE: OnceLock<Value> = OnceLock::new();
    let template = TEMPLATE.get_or_init(|| {
        object([
            ("role", Value::from("tool")),
            ("tool_call_id", Value::Null),
            ("content", Value::Null),
        ])
    });
    let mut message = template.clone();
    if let Value::Object(map) = &mut message {
        let mut slots = map.values_mut().skip(1);
        if let (Some(id_slot), Some(content_slot)) = (slots.next(), slots.next()) {
            // The slots hold the template's `null`s, which own nothing: they are replaced
            // without a call to `Value`'s destructor for each.
            std::mem::forget(std::mem::replace(id_slot, Value::from(id)));
            std::mem::forget(std::mem::replace(content_slot, content));
        }
    }
    message
}

fn chat_tool_content(
    call: &ToolCall,
    content: &[ContentBlock],
    flavor: ChatFlavor,
    follow_up: &mut Vec<Value>,
) -> Value {
    // The common case, one text block, is a plain string.
    if let [ContentBlock::Text { text }] = content {
        return Value::from(text.as_str());
    }
    let mut parts = Vec::with_capacity(content.len());
    for block in content {
        let text = match block {
            ContentBlock::Text { text } => text.clone(),
            ContentBlock::Image { data, mime_type } if flavor == ChatFlavor::OpenAi => {
                follow_up.push(text_part(&format!(
                    "Image returned by tool call {} ({}):",
                    call.id.as_str(),
                    call.provider_name()
                )));
                follow_up.push(object([
                    ("type", Value::from("image_url")),
                    (
                        "image_url",
                        object([("url", Value::from(data_url(mime_type, data)))]),
                    ),
                ]));
                omitted_note(block, flavor.name(), "it follows in the next user message")
            }
            ContentBlock::Image { .. } | ContentBlock::Audio { .. } => {
                omitted_note(block, flavor.name(), "it is not sent")
            }
            ContentBlock::ResourceLink { .. } | ContentBlock::Resource { .. } => link_text(block),
        };
        parts.push(text_part(&text));
    }
    if parts.is_empty() {
        return Value::from("");
    }
    Value::Array(parts)
}

fn text_part(text: &str) -> Value {
    object([("type", Value::from("text")), ("text", Value::from(text))])
}

/// An additional context as a user-message content part.
fn push_user_part(block: &ContentBlock, flavor: ChatFlavor, parts: &mut Vec<Value>) {
    match block {
        ContentBlock::Text { text } => parts.push(text_part(text)),
        ContentBlock::Image { data, mime_type } if flavor == ChatFlavor::OpenAi => {
            parts.push(object([
                ("type", Value::from("image_url")),
                (
                    "image_url",
                    object([("url", Value::from(data_url(mime_type, data)))]),
                ),
            ]));
        }
        other => parts.push(text_part(&omitted_note(
            other,
            flavor.name(),
            "it is not sent",
        ))),
    }
}

pub(crate) fn format_responses(
    calls: &[ToolCall],
    results: &[ToolExecutionResult],
    contexts: &[ContentBlock],
) -> Vec<Value> {
    let mut items = Vec::with_capacity(results.len() + 1);
    let mut follow_up: Vec<Value> = Vec::new();
    for (call, result) in calls.iter().zip(results) {
        let mut texts = Vec::with_capacity(result.content().len());
        for block in result.content() {
            match block {
                ContentBlock::Text { text } => texts.push(text.clone()),
                ContentBlock::Image { data, mime_type } => {
                    follow_up.push(input_text(&format!(
                        "Image returned by tool call {} ({}):",
                        call.id.as_str(),
                        call.provider_name()
                    )));
                    follow_up.push(input_image(mime_type, data));
                    texts.push(omitted_note(
                        block,
                        "a function_call_output",
                        "it follows in the next user message",
                    ));
                }
                ContentBlock::Audio { .. } => {
                    texts.push(omitted_note(
                        block,
                        "a function_call_output",
                        "it is not sent",
                    ));
                }
                ContentBlock::ResourceLink { .. } | ContentBlock::Resource { .. } => {
                    texts.push(link_text(block))
                }
            }
        }
        let mut item = object([
            ("type", Value::from("function_call_output")),
            ("call_id", Value::from(call.id.as_str())),
            ("output", Value::from(texts.join("\n"))),
        ]);
        // A program's call: the output goes back to the program that made it.
        if let (Some(program), Value::Object(item)) = (call.program_caller.as_deref(), &mut item) {
            item.insert(
                "caller".to_owned(),
                object([
                    ("type", Value::from("program")),
                    ("caller_id", Value::from(program)),
                ]),
            );
        }
        items.push(item);
    }
    for block in contexts {
        match block {
            ContentBlock::Text { text } => follow_up.push(input_text(text)),
            ContentBlock::Image { data, mime_type } => follow_up.push(input_image(mime_type, data)),
            other => follow_up.push(input_text(&omitted_note(
                other,
                "a Responses message",
                "it is not sent",
            ))),
        }
    }
    if !follow_up.is_empty() {
        items.push(object([
            ("type", Value::from("message")),
            ("role", Value::from("user")),
            ("content", Value::Array(follow_up)),
        ]));
    }
    items
}

fn input_text(text: &str) -> Value {
    object([
        ("type", Value::from("input_text")),
        ("text", Value::from(text)),
    ])
}

fn input_image(mime_type: &str, data: &str) -> Value {
    object([
        ("type", Value::from("input_image")),
        ("image_url", Value::from(data_url(mime_type, data))),
    ])
}
