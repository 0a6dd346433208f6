//! Gemini `generateContent`: tool lists (`[{"functionDeclarations": […]}]` with `parameters` or
//! `parametersJsonSchema`), calls (`functionCall` parts of `candidates[0].content`; older models
//! send no ids, so a stable one is made from the call's position, name and arguments) and
//! results (one user content of `functionResponse` parts, `{"output": …}` or `{"error": …}`,
//! images as the response's inline-data `parts`; additional contexts as text parts after them).

use serde_json::Value;

use super::calls::{
    ProviderError, ToolCall, ToolCalls, field, link_text, object, omitted_note, str_field,
};
use super::dialect::GeminiSchema;
use super::report::{Change, LoweringReport};
use super::{LoweredTool, LoweredTools};
use crate::content::ContentBlock;
use crate::result::ToolExecutionResult;

pub(crate) fn tools(tools: &[LoweredTool], schema: GeminiSchema) -> Value {
    let declarations: Vec<Value> = tools
        .iter()
        .map(|tool| {
            let mut entry = serde_json::Map::new();
            entry.insert("name".to_owned(), Value::from(tool.provider_name.as_str()));
            entry.insert(
                "description".to_owned(),
                Value::from(tool.description.as_str()),
            );
            let no_arguments = tool
                .parameters
                .get("properties")
                .and_then(Value::as_object)
                .is_none_or(serde_json::Map::is_empty);
            match schema {
                // Gemini rejects an OBJECT with empty properties; a tool without arguments
                // leaves `parameters` out, as Google documents.
                GeminiSchema::OpenApi if no_arguments => {}
                GeminiSchema::OpenApi => {
                    entry.insert("parameters".to_owned(), tool.parameters.clone());
                }
                GeminiSchema::JsonSchema => {
                    entry.insert("parametersJsonSchema".to_owned(), tool.parameters.clone());
                }
            }
            Value::Object(entry)
        })
        .collect();
    Value::Array(vec![object([(
        "functionDeclarations",
        Value::Array(declarations),
    )])])
}

/// Warns about property names Gemini's OpenAPI `parameters` does not take (a letter or `_`,
/// then letters, digits and `_`, at most 64).
pub(crate) fn check_property_names(tool: &str, schema: &Value, report: &mut LoweringReport) {
    walk_property_names(tool, schema, "", report);
}

fn walk_property_names(tool: &str, schema: &Value, path: &str, report: &mut LoweringReport) {
    let Value::Object(node) = schema else {
        return;
    };
    if let Some(Value::Object(properties)) = node.get("properties") {
        for (name, child) in properties {
            let child_path = format!("{path}/properties/{}", super::lower::escape(name));
            let mut chars = name.chars();
            let fits = chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
                && name.len() <= 64;
            if !fits {
                report.push(
                    tool,
                    &child_path,
                    Change::Warning,
                    format!(
                        "property name {name:?} does not fit Gemini's parameter names \
                         (^[a-zA-Z_][a-zA-Z0-9_]{{0,63}}$); use parametersJsonSchema if the \
                         request is rejected"
                    ),
                );
            }
            walk_property_names(tool, child, &child_path, report);
        }
    }
    if let Some(items) = node.get("items") {
        walk_property_names(tool, items, &format!("{path}/items"), report);
    }
    if let Some(Value::Array(branches)) = node.get("anyOf") {
        for (index, branch) in branches.iter().enumerate() {
            walk_property_names(tool, branch, &format!("{path}/anyOf/{index}"), report);
        }
    }
}

/// The `functionCall` parts of a response's first candidate (or of a content).
pub(crate) fn parse(tools: &LoweredTools, response: &Value) -> Result<ToolCalls, ProviderError> {
    let content = match field(response, "candidates") {
        Some(Value::Array(candidates)) => match candidates.first() {
            Some(candidate) => field(candidate, "content")
                .ok_or_else(|| ProviderError::shape("candidates[0].content", "an object"))?,
            None => return Ok(ToolCalls::default()),
        },
        Some(_) => return Err(ProviderError::shape("candidates", "an array")),
        None => response,
    };
    let mut out = ToolCalls::default();
    let parts = match field(content, "parts") {
        None | Some(Value::Null) => return Ok(out),
        Some(Value::Array(parts)) => parts,
        Some(_) => return Err(ProviderError::shape("content.parts", "an array")),
    };
    for (index, part) in parts.iter().enumerate() {
        let Some(call) = field(part, "functionCall") else {
            continue;
        };
        let name = str_field(call, "name", || {
            format!("content.parts[{index}].functionCall")
        })?;
        let arguments = field(call, "args")
            .cloned()
            .unwrap_or_else(|| Value::Object(serde_json::Map::new()));
        let (id, generated) = match field(call, "id").and_then(Value::as_str) {
            Some(id) if !id.is_empty() => (id.to_owned(), false),
            _ => (stable_id(out.len(), name, &arguments), true),
        };
        let record = tools.call(id, name, generated);
        let input = tools.input_from_value(&record, arguments);
        out.push(record, input);
    }
    Ok(out)
}

/// `gemini-call-<position>-<hash of name and arguments>`: the same response always gets the
/// same ids, and calls of one turn never share one.
pub(crate) fn stable_id(position: usize, name: &str, arguments: &Value) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let text = serde_json::to_string(arguments).unwrap_or_default();
    for byte in name.bytes().chain([0]).chain(text.bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!(
        "gemini-call-{position}-{:08x}",
        (hash ^ (hash >> 32)) as u32
    )
}

pub(crate) fn format(
    calls: &[ToolCall],
    results: &[ToolExecutionResult],
    contexts: &[ContentBlock],
) -> Vec<Value> {
    let mut parts = Vec::with_capacity(results.len() + contexts.len());
    for (call, result) in calls.iter().zip(results) {
        let mut texts = Vec::new();
        let mut media = Vec::new();
        for block in result.content() {
            match block {
                ContentBlock::Text { text } => texts.push(text.clone()),
                ContentBlock::Image { data, mime_type } => media.push(object([(
                    "inlineData",
                    object([
                        ("mimeType", Value::from(mime_type.as_str())),
                        ("data", Value::from(data.as_str())),
                    ]),
                )])),
                ContentBlock::Audio { .. } => {
                    texts.push(omitted_note(
                        block,
                        "a Gemini function response",
                        "not sent",
                    ));
                }
                ContentBlock::ResourceLink { .. } | ContentBlock::Resource { .. } => {
                    texts.push(link_text(block))
                }
            }
        }
        let key = if result.is_error() { "error" } else { "output" };
        let mut response = serde_json::Map::new();
        response.insert(key.to_owned(), Value::from(texts.join("\n")));
        let mut function_response = serde_json::Map::new();
        if !call.has_generated_id() {
            function_response.insert("id".to_owned(), Value::from(call.id()));
        }
        function_response.insert("name".to_owned(), Value::from(call.provider_name()));
        function_response.insert("response".to_owned(), Value::Object(response));
        if !media.is_empty() {
            function_response.insert("parts".to_owned(), Value::Array(media));
        }
        parts.push(object([(
            "functionResponse",
            Value::Object(function_response),
        )]));
    }
    for block in contexts {
        match block {
            ContentBlock::Image { data, mime_type } => parts.push(object([(
                "inlineData",
                object([
                    ("mimeType", Value::from(mime_type.as_str())),
                    ("data", Value::from(data.as_str())),
                ]),
            )])),
            ContentBlock::Text { text } => {
                parts.push(object([("text", Value::from(text.as_str()))]))
            }
            other => parts.push(object([(
                "text",
                Value::from(omitted_note(other, "Gemini", "not sent")),
            )])),
        }
    }
    if parts.is_empty() {
        return Vec::new();
    }
    vec![object([
        ("role", Value::from("user")),
        ("parts", Value::Array(parts)),
    ])]
}
