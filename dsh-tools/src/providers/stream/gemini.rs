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
//! The parts are also kept as the model content the next request repeats: each part as it
//! came, `thoughtSignature` included (a streamed call's signature arrives on its first part),
//! unsigned text cut across chunks joined, a streamed call's pieces made one `functionCall`.
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
use crate::providers::gemini::{self, invalid_call, stable_id};

#[derive(Debug, Default)]
pub(super) struct GeminiStream {
    /// The Vertex call whose arguments are still streaming.
    open: Option<OpenCall>,
    /// The model content's parts so far, as the next request repeats them.
    parts: Vec<Value>,
}

#[derive(Debug)]
struct OpenCall {
    /// Its position in the turn.
    index: usize,
    arguments: StreamedArguments,
    /// Its part in [`GeminiStream::parts`], whose `args` are set when it ends.
    part: usize,
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
                self.call(turn, part, call, at)?;
                continue;
            }
            if field(part, "thought").and_then(Value::as_bool) != Some(true)
                && let Some(text) = field(part, "text").and_then(Value::as_str)
            {
                turn.text(text);
            }
            push_part(&mut self.parts, part);
        }
        Ok(())
    }

    /// The model content of the parts so far: what the candidate's `content` would be.
    pub(super) fn assistant_turn(&self) -> Vec<Value> {
        gemini::model_content(self.parts.clone())
    }

    /// One `functionCall` part: a whole call, or the start, a piece or the end of a streamed one.
    fn call(
        &mut self,
        turn: &mut Turn<'_>,
        whole_part: &Value,
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
            finish(turn, &mut self.parts, open, None);
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
                    self.parts.push(whole_part.clone());
                    return Ok(());
                }
                self.parts.push(streamed_part(whole_part));
                OpenCall {
                    index,
                    arguments: StreamedArguments::default(),
                    part: self.parts.len() - 1,
                }
            }
        };
        // A signature on a later piece of the call belongs to the call's part.
        if let (Some(signature), Some(Value::Object(kept))) =
            (field(whole_part, SIGNATURE), self.parts.get_mut(open.part))
        {
            kept.entry(SIGNATURE).or_insert_with(|| signature.clone());
        }
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
            finish(turn, &mut self.parts, open, whole);
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
        let Some(call) = turn.calls.get(self.index).map(|streaming| &streaming.call) else {
            return false;
        };
        let same_id = id.is_none_or(|id| id.is_empty() || id == call.id.as_str());
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

/// Ends a streamed call: its text closed, its arguments the value built (or `whole`), which its
/// part in `parts` gets as `args`.
fn finish(turn: &mut Turn<'_>, parts: &mut [Value], mut open: OpenCall, whole: Option<Value>) {
    let closing = open.arguments.close();
    turn.append(open.index, &closing);
    let arguments = whole.unwrap_or_else(|| open.arguments.into_value());
    if let Some(Value::Object(call)) = parts
        .get_mut(open.part)
        .and_then(|part| part.get_mut("functionCall"))
    {
        call.insert("args".to_owned(), arguments.clone());
    }
    turn.finish_value(open.index, arguments);
}

/// The part key of a thought signature.
const SIGNATURE: &str = "thoughtSignature";

/// The part a streamed call will be once whole: the first piece's part, its `functionCall`
/// reduced to its `name` and `id` (the `args` come when it ends).
fn streamed_part(part: &Value) -> Value {
    let mut part = part.clone();
    if let Some(Value::Object(call)) = part.get_mut("functionCall") {
        call.retain(|key, _| key == "name" || key == "id");
    }
    part
}

/// Adds a part that is not a call: text goes on the text before it when neither carries a
/// signature and both are thoughts or both not (a stream cuts one text into many parts); a part
/// with a `thoughtSignature` stays as it came, since the signature belongs to that part — in a
/// stream often an empty text part at the end. An empty unsigned text part adds nothing.
fn push_part(parts: &mut Vec<Value>, part: &Value) {
    let Some((text, thought)) = plain_text(part) else {
        parts.push(part.clone());
        return;
    };
    if text.is_empty() {
        return;
    }
    if let Some(last) = parts.last_mut()
        && plain_text(last).is_some_and(|(_, last_thought)| last_thought == thought)
        && let Some(Value::String(so_far)) = last.get_mut("text")
    {
        so_far.push_str(text);
        return;
    }
    parts.push(part.clone());
}

/// A part of unsigned text only: its text and whether it is a thought.
fn plain_text(part: &Value) -> Option<(&str, bool)> {
    let Value::Object(members) = part else {
        return None;
    };
    let text = members.get("text")?.as_str()?;
    let only_text = members.keys().all(|key| key == "text" || key == "thought");
    only_text.then(|| {
        let thought = members.get("thought").and_then(Value::as_bool) == Some(true);
        (text, thought)
    })
}
