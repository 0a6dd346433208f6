//! Gemini `streamGenerateContent` streams: each chunk is a `GenerateContentResponse` whose
//! `candidates[0].content.parts` carry text and `functionCall`s. On the Gemini API a call's
//! `args` arrive whole in one part; calls without an id get the one the non-streamed reader
//! makes, from their position in the turn.
//!
//! Vertex AI can also stream a call's arguments (`streamFunctionCallArguments`): the call
//! starts with its `name` and `willContinue: true`, its arguments come in later parts'
//! `partialArgs` (read by `streamed_arguments.rs`), and a part without `willContinue` — an
//! empty `functionCall: {}` — ends it. Such a call without an id gets one from its position
//! and name only, since its arguments are not known when it starts.
//!
//! A candidate whose `finishReason` says the call the model wrote is invalid
//! (`MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL`) ends the stream with the error the
//! non-streamed reader gives for it.

use serde_json::Value;

use super::failure::provider_error;
use super::streamed_arguments::StreamedArguments;
use super::turn::Turn;
use crate::providers::ProviderError;
use crate::providers::calls::field;
use crate::providers::gemini::{invalid_call, stable_id};

#[derive(Debug, Default)]
pub(super) struct GeminiStream {
    /// The Vertex call whose arguments are still streaming.
    open: Option<OpenCall>,
}

#[derive(Debug)]
struct OpenCall {
    /// Its position in the turn.
    index: usize,
    arguments: StreamedArguments,
}

impl GeminiStream {
    pub(super) fn read(&mut self, turn: &mut Turn<'_>, chunk: &Value) -> Result<(), ProviderError> {
        if let Some(error) = field(chunk, "error") {
            return Err(provider_error(error));
        }
        let candidate = match field(chunk, "candidates") {
            Some(Value::Array(candidates)) => match candidates.first() {
                Some(candidate) => candidate,
                None => return Ok(()),
            },
            None | Some(Value::Null) => return Ok(()),
            Some(_) => return Err(ProviderError::shape("chunk candidates", "an array")),
        };
        // The finish reason comes in the last chunk, often alone: a call the model wrote that
        // Gemini could not take ends the stream as it ends the response's reading.
        if let Some(error) = invalid_call(candidate) {
            return Err(error);
        }
        let Some(content) = field(candidate, "content") else {
            return Ok(());
        };
        let parts = match field(content, "parts") {
            None | Some(Value::Null) => return Ok(()),
            Some(Value::Array(parts)) => parts,
            Some(_) => return Err(ProviderError::shape("chunk content.parts", "an array")),
        };
        for (at, part) in parts.iter().enumerate() {
            if let Some(call) = field(part, "functionCall") {
                self.call(turn, call, at)?;
            } else if field(part, "thought").and_then(Value::as_bool) != Some(true)
                && let Some(text) = field(part, "text").and_then(Value::as_str)
            {
                turn.text(text);
            }
        }
        Ok(())
    }

    /// One `functionCall` part: a whole call, or the start, a piece or the end of a streamed one.
    fn call(
        &mut self,
        turn: &mut Turn<'_>,
        call: &Value,
        part: usize,
    ) -> Result<(), ProviderError> {
        // Named only for an error: most parts have none.
        let at = || format!("chunk content.parts[{part}].functionCall");
        let continues = field(call, "willContinue").and_then(Value::as_bool) == Some(true);
        let name = field(call, "name").and_then(Value::as_str);
        if let Some(open) = &self.open
            && !open.goes_on_with(turn, name, field(call, "id").and_then(Value::as_str))
            && let Some(open) = self.open.take()
        {
            // A part naming another tool or id while a call streams starts the next call:
            // the open one ended (Vertex ends one with an empty part first).
            finish(turn, open, None);
        }
        let mut open = match self.open.take() {
            Some(open) => open,
            None => {
                let name = name
                    .ok_or_else(|| ProviderError::shape(&format!("{}.name", at()), "a string"))?;
                let order = turn.calls.len();
                let streams = continues || field(call, "partialArgs").is_some();
                let (id, generated) = match field(call, "id").and_then(Value::as_str) {
                    Some(id) if !id.is_empty() => (id.to_owned(), false),
                    _ if streams => (stable_id(order, name, &Value::Null), true),
                    _ => {
                        let arguments = arguments_of(call);
                        (stable_id(order, name, &arguments), true)
                    }
                };
                let index = turn.start(id, name, generated, order as u64);
                if !streams {
                    turn.finish_value(index, arguments_of(call));
                    return Ok(());
                }
                OpenCall {
                    index,
                    arguments: StreamedArguments::default(),
                }
            }
        };
        match field(call, "partialArgs") {
            None | Some(Value::Null) => {}
            Some(Value::Array(pieces)) => {
                for (number, piece) in pieces.iter().enumerate() {
                    let fragment = open
                        .arguments
                        .apply(piece, &|| format!("{}.partialArgs[{number}]", at()))?;
                    turn.append(open.index, &fragment);
                }
            }
            Some(_) => {
                return Err(ProviderError::shape(
                    &format!("{}.partialArgs", at()),
                    "an array",
                ));
            }
        }
        if continues {
            self.open = Some(open);
        } else {
            // Whole `args` on the last part are the arguments, as they would be unstreamed.
            let whole = field(call, "args").filter(|args| !args.is_null()).cloned();
            finish(turn, open, whole);
        }
        Ok(())
    }
}

impl OpenCall {
    /// Whether a part with this name and id belongs to the open call: a part names no tool, or
    /// the same tool under no id or the same one.
    fn goes_on_with(&self, turn: &Turn<'_>, name: Option<&str>, id: Option<&str>) -> bool {
        let Some(name) = name.filter(|name| !name.is_empty()) else {
            return true;
        };
        let Some(call) = turn.calls.get(self.index).map(|streaming| streaming.call()) else {
            return false;
        };
        let same_id = id.is_none_or(|id| id.is_empty() || id == call.id());
        same_id && call.provider_name() == name
    }
}

/// A whole call's `args` (`{}` when it has none).
fn arguments_of(call: &Value) -> Value {
    field(call, "args")
        .filter(|args| !args.is_null())
        .cloned()
        .unwrap_or_else(|| Value::Object(serde_json::Map::new()))
}

/// Ends a streamed call: its text closed, its arguments the value built (or `whole`).
fn finish(turn: &mut Turn<'_>, mut open: OpenCall, whole: Option<Value>) {
    let closing = open.arguments.close();
    turn.append(open.index, &closing);
    let arguments = whole.unwrap_or_else(|| open.arguments.into_value());
    turn.finish_value(open.index, arguments);
}
