//! Gemini `streamGenerateContent` streams: each chunk is a `GenerateContentResponse` whose
//! `candidates[0].content.parts` carry text and whole `functionCall`s (a call's `args` arrive
//! in one part). Calls without an id get the one the non-streamed reader makes, from their
//! position in the turn.

use serde_json::Value;

use super::failure::provider_error;
use super::turn::Turn;
use crate::providers::ProviderError;
use crate::providers::calls::{field, str_field};
use crate::providers::gemini::stable_id;

#[derive(Debug, Default)]
pub(super) struct GeminiStream;

impl GeminiStream {
    pub(super) fn read(&mut self, turn: &mut Turn<'_>, chunk: &Value) -> Result<(), ProviderError> {
        if let Some(error) = field(chunk, "error") {
            return Err(provider_error(error));
        }
        let content = match field(chunk, "candidates") {
            Some(Value::Array(candidates)) => match candidates.first() {
                Some(candidate) => match field(candidate, "content") {
                    Some(content) => content,
                    // A last chunk may carry only the finish reason.
                    None => return Ok(()),
                },
                None => return Ok(()),
            },
            None | Some(Value::Null) => return Ok(()),
            Some(_) => return Err(ProviderError::shape("chunk candidates", "an array")),
        };
        let parts = match field(content, "parts") {
            None | Some(Value::Null) => return Ok(()),
            Some(Value::Array(parts)) => parts,
            Some(_) => return Err(ProviderError::shape("chunk content.parts", "an array")),
        };
        for (at, part) in parts.iter().enumerate() {
            if let Some(call) = field(part, "functionCall") {
                let name = str_field(call, "name", || {
                    format!("chunk content.parts[{at}].functionCall")
                })?;
                let arguments = field(call, "args")
                    .cloned()
                    .unwrap_or_else(|| Value::Object(serde_json::Map::new()));
                let order = turn.calls.len();
                let (id, generated) = match field(call, "id").and_then(Value::as_str) {
                    Some(id) if !id.is_empty() => (id.to_owned(), false),
                    _ => (stable_id(order, name, &arguments), true),
                };
                let position = turn.start(id, name, generated, order as u64);
                turn.finish_value(position, arguments);
            } else if field(part, "thought").and_then(Value::as_bool) != Some(true)
                && let Some(text) = field(part, "text").and_then(Value::as_str)
            {
                turn.text(text);
            }
        }
        Ok(())
    }
}
