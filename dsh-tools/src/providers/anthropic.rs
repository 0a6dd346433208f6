//! Anthropic Messages: tool lists (`{"name","description","input_schema","strict"?,
//! "eager_input_streaming"?}`, each switch written only when on, as Anthropic's defaults are
//! off), calls
//! (`tool_use` blocks of the response `content`) and results (one user message whose content is
//! a `tool_result` block per call, `is_error` on failures, text and image content; additional
//! contexts as text blocks after every `tool_result`, which must come first). With
//! programmatic tool calling (`programmatic.rs`), a `tool_use` a program made names it in
//! `caller: {"type": "code_execution_20260120", "tool_id"}`; the answer to such calls holds
//! `tool_result` blocks only, so the contexts go inside the last one.
//!
//! Strict mode has request-wide limits (20 strict tools, 24 optional parameters and 16
//! parameters with unions across them); [`StrictBudget`] keeps a request within them by sending
//! the tools past a limit non-strict.

use serde_json::Value;

use super::calls::{
    ProviderError, ToolCall, ToolCalls, field, link_text, object, omitted_note, str_field,
};
use super::names::NameMap;
use super::programmatic;
use super::{LoweredTool, LoweredTools};
use crate::call::tool_search::TOOL_SEARCH;
use crate::content::ContentBlock;
use crate::result::ToolExecutionResult;

const MAX_STRICT_TOOLS: usize = 20;
const MAX_OPTIONAL_PARAMETERS: usize = 24;
const MAX_UNION_PARAMETERS: usize = 16;

/// The native search tool sent beside deferred tools: BM25 over natural-language queries.
pub(crate) const NATIVE_SEARCH_TYPE: &str = "tool_search_tool_bm25_20251119";
pub(crate) const NATIVE_SEARCH_NAME: &str = "tool_search_tool_bm25";

/// The request's `tools`; `native_search` adds Anthropic's own search beside the deferred
/// tools (without it, the registry's `tool_search` in the list finds them).
pub(crate) fn tools(tools: &[LoweredTool], native_search: bool) -> Value {
    let mut list: Vec<Value> = tools
        .iter()
        .map(|tool| {
            let mut entry = serde_json::Map::new();
            entry.insert("name".to_owned(), Value::from(tool.provider_name.as_str()));
            entry.insert(
                "description".to_owned(),
                Value::from(tool.description.as_str()),
            );
            entry.insert("input_schema".to_owned(), tool.parameters.clone());
            if tool.strict {
                entry.insert("strict".to_owned(), Value::Bool(true));
            }
            if !tool.input_examples.is_empty() {
                entry.insert(
                    "input_examples".to_owned(),
                    Value::Array(tool.input_examples.clone()),
                );
            }
            if tool.deferred {
                entry.insert("defer_loading".to_owned(), Value::Bool(true));
            }
            if tool.eager_input_streaming {
                entry.insert("eager_input_streaming".to_owned(), Value::Bool(true));
            }
            Value::Object(entry)
        })
        .collect();
    if native_search && tools.iter().any(|tool| tool.deferred) {
        list.push(object([
            ("type", Value::from(NATIVE_SEARCH_TYPE)),
            ("name", Value::from(NATIVE_SEARCH_NAME)),
        ]));
    }
    Value::Array(list)
}

/// What the strict tools of one request have used of Anthropic's limits.
#[derive(Default)]
pub(crate) struct StrictBudget {
    tools: usize,
    optional: usize,
    unions: usize,
}

impl StrictBudget {
    /// Counts a strict schema in, or says which limit it would break (and counts nothing).
    pub(crate) fn admit(&mut self, parameters: &Value) -> Result<(), String> {
        let (mut optional, mut unions) = (0, 0);
        count_parameters(parameters, &mut optional, &mut unions);
        if self.tools + 1 > MAX_STRICT_TOOLS {
            return Err(format!(
                "Anthropic takes at most {MAX_STRICT_TOOLS} strict tools per request"
            ));
        }
        if self.optional + optional > MAX_OPTIONAL_PARAMETERS {
            return Err(format!(
                "Anthropic takes at most {MAX_OPTIONAL_PARAMETERS} optional parameters across a \
                 request's strict tools ({} already, {optional} here)",
                self.optional
            ));
        }
        if self.unions + unions > MAX_UNION_PARAMETERS {
            return Err(format!(
                "Anthropic takes at most {MAX_UNION_PARAMETERS} parameters with anyOf or type \
                 arrays across a request's strict tools ({} already, {unions} here)",
                self.unions
            ));
        }
        self.tools += 1;
        self.optional += optional;
        self.unions += unions;
        Ok(())
    }
}

/// Counts optional properties and properties whose schema is a union, at every level.
fn count_parameters(schema: &Value, optional: &mut usize, unions: &mut usize) {
    let Value::Object(node) = schema else {
        return;
    };
    if let Some(Value::Object(properties)) = node.get("properties") {
        let required: Vec<&str> = node
            .get("required")
            .and_then(Value::as_array)
            .map(|list| list.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for (name, child) in properties {
            if !required.contains(&name.as_str()) {
                *optional += 1;
            }
            if child.get("anyOf").is_some() || child.get("type").is_some_and(Value::is_array) {
                *unions += 1;
            }
            count_parameters(child, optional, unions);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(child) = node.get(key) {
            count_parameters(child, optional, unions);
        }
    }
    for key in ["anyOf", "allOf"] {
        if let Some(Value::Array(branches)) = node.get(key) {
            for branch in branches {
                count_parameters(branch, optional, unions);
            }
        }
    }
}

/// The block type of the native tool search's result.
pub(crate) const SEARCH_RESULT: &str = "tool_search_tool_result";

/// The provider names of the tools a `tool_search_tool_result` block found:
/// `{"content": {"tool_references": [{"type": "tool_reference", "tool_name": …}]}}`.
pub(crate) fn found_tools(block: &Value) -> impl Iterator<Item = &str> {
    field(block, "content")
        .and_then(|content| field(content, "tool_references"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|reference| field(reference, "tool_name").and_then(Value::as_str))
}

/// A message's `content`, from the message or the block list itself.
fn content_blocks(response: &Value) -> Result<&Vec<Value>, ProviderError> {
    match response {
        Value::Array(blocks) => Ok(blocks),
        _ => match field(response, "content") {
            Some(Value::Array(blocks)) => Ok(blocks),
            _ => Err(ProviderError::shape("content", "an array")),
        },
    }
}

/// The assistant message the next request needs: every block of the response in order,
/// thinking and redacted thinking blocks with their signatures untouched (Anthropic rejects a
/// follow-up whose tool use lost the thinking before it); none for an empty turn.
pub(crate) fn assistant(response: &Value) -> Result<Vec<Value>, ProviderError> {
    Ok(assistant_of(content_blocks(response)?.clone()))
}

/// `{"role": "assistant", "content": blocks}`, or nothing for no blocks.
pub(crate) fn assistant_of(blocks: Vec<Value>) -> Vec<Value> {
    if blocks.is_empty() {
        return Vec::new();
    }
    vec![object([
        ("role", Value::from("assistant")),
        ("content", Value::Array(blocks)),
    ])]
}

/// The `tool_use` blocks of a message's `content`.
pub(crate) fn parse(tools: &LoweredTools, response: &Value) -> Result<ToolCalls, ProviderError> {
    let blocks = content_blocks(response)?;
    let mut out = ToolCalls::default();
    for (index, block) in blocks.iter().enumerate() {
        let kind = field(block, "type").and_then(Value::as_str);
        if kind == Some(SEARCH_RESULT) {
            for name in found_tools(block) {
                out.push_loaded(tools.names.canonical_name(name).to_owned());
            }
            continue;
        }
        if kind != Some("tool_use") {
            continue;
        }
        let at = || format!("content[{index}]");
        let id = str_field(block, "id", at)?;
        let name = str_field(block, "name", at)?;
        let arguments = field(block, "input")
            .cloned()
            .unwrap_or_else(|| Value::Object(serde_json::Map::new()));
        let mut record = tools.call(id.to_owned(), name, false);
        record.set_program(programmatic::program_caller(tools.dialect, block));
        let input = tools.input_from_value(&record, arguments);
        out.push(record, input);
    }
    Ok(out)
}

/// One user message of `tool_result` blocks, then the contexts. With `references` (the names
/// of a list searched by the registry's `tool_search` on Anthropic's side), a successful
/// `tool_search` that found tools answers with a `tool_reference` block per tool, under the
/// provider's name: Anthropic then loads those deferred tools.
pub(crate) fn format(
    calls: &[ToolCall],
    results: &[ToolExecutionResult],
    contexts: &[ContentBlock],
    references: Option<&NameMap>,
) -> Vec<Value> {
    let mut blocks = Vec::with_capacity(results.len() + contexts.len());
    for (call, result) in calls.iter().zip(results) {
        let mut entry = serde_json::Map::new();
        entry.insert("type".to_owned(), Value::from("tool_result"));
        entry.insert("tool_use_id".to_owned(), Value::from(call.id.as_str()));
        let found = references
            .filter(|_| call.name.as_str() == TOOL_SEARCH)
            .map(|names| tool_references(result, names))
            .filter(|found| !found.is_empty());
        let content = found.unwrap_or_else(|| result.content().iter().map(content_block).collect());
        entry.insert("content".to_owned(), Value::Array(content));
        if result.is_error() {
            entry.insert("is_error".to_owned(), Value::Bool(true));
        }
        blocks.push(Value::Object(entry));
    }
    let contexts = contexts.iter().map(content_block);
    // A program waits on its calls: the answer is tool_result blocks only.
    let last_result = blocks.last_mut().and_then(|block| match block {
        Value::Object(entry) => entry.get_mut("content"),
        _ => None,
    });
    match last_result {
        Some(Value::Array(content)) if calls.iter().any(|call| call.program_caller.is_some()) => {
            content.extend(contexts);
        }
        // Text after every tool_result: Anthropic wants tool results first in the message.
        _ => blocks.extend(contexts),
    }
    if blocks.is_empty() {
        return Vec::new();
    }
    vec![object([
        ("role", Value::from("user")),
        ("content", Value::Array(blocks)),
    ])]
}

/// A `tool_reference` block for each tool a successful `tool_search` found, best first.
fn tool_references(result: &ToolExecutionResult, names: &NameMap) -> Vec<Value> {
    result
        .value()
        .and_then(|answer| field(answer, "tools"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|hit| field(hit, "name").and_then(Value::as_str))
        .map(|name| {
            object([
                ("type", Value::from("tool_reference")),
                ("tool_name", Value::from(names.provider_name(name))),
            ])
        })
        .collect()
}

fn content_block(block: &ContentBlock) -> Value {
    match block {
        ContentBlock::Text { text } => text_block(text),
        ContentBlock::Image { data, mime_type } => object([
            ("type", Value::from("image")),
            (
                "source",
                object([
                    ("type", Value::from("base64")),
                    ("media_type", Value::from(mime_type.as_str())),
                    ("data", Value::from(data.as_str())),
                ]),
            ),
        ]),
        ContentBlock::Audio { .. } => {
            text_block(&omitted_note(block, "Anthropic", "it is not sent"))
        }
        ContentBlock::ResourceLink { .. } | ContentBlock::Resource { .. } => {
            text_block(&link_text(block))
        }
    }
}

fn text_block(text: &str) -> Value {
    object([("type", Value::from("text")), ("text", Value::from(text))])
}
