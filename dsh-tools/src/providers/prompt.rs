//! The tool catalog as system-prompt text, for models or gateways without native tool calling,
//! and reading the calls such a model writes back.
//!
//! [`render_system_prompt`] is deterministic: the schemas come sorted by name and render with a
//! fixed key order, so an unchanged tool set gives byte-identical text (and a warm prompt
//! cache). The text asks the model to write each call as a `<tool_call>` block holding
//! `{"name": …, "arguments": {…}}`; [`parse_prompt_calls`] reads those blocks back.

use std::fmt::Write as _;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::call::definition::ToolSchema;
use crate::call::execution::ToolExecutionInput;

const OPEN: &str = "<tool_call>";
const CLOSE: &str = "</tool_call>";

/// The system-prompt text describing `schemas` and how to call them.
pub fn render_system_prompt(schemas: &[ToolSchema]) -> String {
    let mut out = String::from(
        "# Tools\n\nYou can call the tools below. To call one, write a block like this in your \
         reply, one block per call:\n\n<tool_call>\n{\"name\": \"<tool name>\", \"arguments\": \
         {<the arguments, as JSON matching the tool's schema>}}\n</tool_call>\n\nEach call's \
         result comes back in the next message.\n",
    );
    for schema in schemas {
        let parameters: &Value = &schema.parameters;
        let _ = write!(
            out,
            "\n## {}\n\n{}\n\nArguments (JSON Schema): {}\n",
            schema.name,
            schema.description.trim_end(),
            serde_json::to_string(parameters).unwrap_or_default()
        );
        for example in &schema.input_examples {
            let _ = writeln!(
                out,
                "Example arguments: {}",
                serde_json::to_string(example).unwrap_or_default()
            );
        }
    }
    out
}

/// The `<tool_call>` blocks of a model's reply, as inputs with ids `prompt-call-<n>` (in order).
/// A block whose JSON is broken still makes an input: its arguments end as `INVALID_ARGS`, or
/// its unknown name as `UNKNOWN_TOOL`.
pub fn parse_prompt_calls(text: &str) -> Vec<ToolExecutionInput> {
    let mut inputs = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        let after = &rest[start + OPEN.len()..];
        let (body, next) = match after.find(CLOSE) {
            Some(end) => (&after[..end], &after[end + CLOSE.len()..]),
            None => (after, ""),
        };
        let id = format!("prompt-call-{}", inputs.len());
        inputs.push(call_from_block(id, body.trim()));
        rest = next;
    }
    inputs
}

/// A `<tool_call>` block. The arguments stay text, so they are parsed like any model's raw
/// arguments (a repeated key is `INVALID_ARGS`, not a value silently dropped).
#[derive(Deserialize)]
struct Block<'a> {
    #[serde(default)]
    name: Option<String>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
}

fn call_from_block(id: String, body: &str) -> ToolExecutionInput {
    if let Ok(block) = serde_json::from_str::<Block<'_>>(body) {
        let name = block.name.unwrap_or_default();
        let Some(arguments) = block.arguments else {
            return ToolExecutionInput::from_raw(id, name, "");
        };
        // Arguments written as a JSON string hold the arguments' text.
        return match serde_json::from_str::<String>(arguments.get()) {
            Ok(raw) => ToolExecutionInput::from_raw(id, name, &raw),
            Err(_) => ToolExecutionInput::from_raw(id, name, arguments.get()),
        };
    }
    // Broken JSON: find the name if it is there, and let the pipeline report the arguments.
    let name = body
        .find("\"name\"")
        .and_then(|at| {
            let after = &body[at + 6..];
            let open = after.find('"')?;
            let close = after[open + 1..].find('"')?;
            Some(after[open + 1..open + 1 + close].to_owned())
        })
        .unwrap_or_default();
    let raw = body
        .find("\"arguments\"")
        .and_then(|at| body[at..].find(':').map(|colon| &body[at + colon + 1..]))
        .map(|tail| tail.trim().trim_end_matches('}').trim())
        .unwrap_or(body);
    let raw = if raw.is_empty() { body } else { raw };
    ToolExecutionInput::from_raw(id, name, raw)
}

#[cfg(test)]
mod tests {
    use super::parse_prompt_calls;
    use serde_json::json;

    #[test]
    fn blocks_are_read_in_order_and_broken_json_still_makes_an_input() {
        let text = "Let me look.\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": \
                    {\"path\": \"a\"}}\n</tool_call>\n<tool_call>{\"name\": \"grep\", \
                    \"arguments\": {\"q\": }</tool_call>";
        let calls = parse_prompt_calls(text);
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[0].name, "read_file");
        assert_eq!(calls[0].arguments, json!({"path": "a"}));
        assert_eq!(calls[0].call_id, "prompt-call-0");
        assert_eq!(calls[1].name, "grep");
        assert!(calls[1].is_malformed());
    }

    #[test]
    fn arguments_repeating_a_key_are_malformed_in_either_form() {
        let text = "<tool_call>{\"name\": \"read_file\", \"arguments\": \
                    {\"path\": \"a\", \"path\": \"b\"}}</tool_call>\
                    <tool_call>{\"name\": \"read_file\", \"arguments\": \
                    \"{\\\"path\\\": 1, \\\"path\\\": 2}\"}</tool_call>\
                    <tool_call>{\"name\": \"read_file\", \"arguments\": \"{\\\"path\\\": 1}\"}</tool_call>\
                    <tool_call>{\"name\": \"list\"}</tool_call>";
        let calls = parse_prompt_calls(text);
        assert_eq!(calls.len(), 4);
        assert!(calls[0].is_malformed() && calls[1].is_malformed());
        assert_eq!(calls[0].name, "read_file");
        assert_eq!(calls[2].arguments, json!({"path": 1}));
        assert_eq!((&*calls[3].name, &calls[3].arguments), ("list", &json!({})));
    }
}
