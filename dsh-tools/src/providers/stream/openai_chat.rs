//! OpenAI Chat Completions streams (and DeepSeek's, which have the same shape): each chunk's
//! `choices[0].delta` carries text (`content`) and tool-call fragments
//! (`tool_calls[i]` with its `index`; the first fragment of a call has its `id` and
//! `function.name`, every fragment may carry more `function.arguments` text).
//!
//! The providers stream calls one after another, so a call is over when the next one starts:
//! a call whose arguments are a whole JSON value is finished then (or, if its last fragment comes
//! after a later call started, with that fragment), and a batch fed while the response streams
//! starts it while the next call is still being written. Fragments of several calls may
//! interleave (some compatible servers do), which is why only whole arguments finish early:
//! arguments still open, or not JSON, wait for the choice's `finish_reason` (or the stream's
//! end), as every call did before a later one started.
//!
//! The text, DeepSeek's `reasoning_content` and a refusal are kept with the calls, to rebuild the
//! assistant message the next request repeats.

use std::collections::HashMap;

use serde_json::Value;

use super::call::StreamingCall;
use super::failure::provider_error;
use super::turn::Turn;
use crate::providers::calls::field;
use crate::providers::{ProviderError, openai};

#[derive(Debug, Default)]
pub(super) struct ChatStream {
    /// The provider's call index → the call's position.
    positions: HashMap<u64, usize>,
    /// The highest call index started so far.
    latest: Option<u64>,
    /// Whether the choice's `finish_reason` came.
    finished: bool,
    /// The message's text, reasoning (DeepSeek's `reasoning_content`) and refusal so far.
    content: Option<String>,
    reasoning: Option<String>,
    refusal: Option<String>,
}

impl ChatStream {
    pub(super) fn read(&mut self, turn: &mut Turn<'_>, chunk: &Value) -> Result<(), ProviderError> {
        if let Some(error) = field(chunk, "error") {
            return Err(provider_error(error));
        }
        let choices = match field(chunk, "choices") {
            Some(Value::Array(choices)) => choices,
            // A usage chunk has no choices; neither has a chunk of only metadata.
            None | Some(Value::Null) => return Ok(()),
            Some(_) => return Err(ProviderError::shape("chunk choices", "an array")),
        };
        for choice in choices {
            // The non-streamed reader reads `choices[0]`: the first choice's index is 0.
            if field(choice, "index").and_then(Value::as_u64).unwrap_or(0) != 0 {
                continue;
            }
            if let Some(delta) = field(choice, "delta") {
                self.read_delta(turn, delta)?;
            }
            if field(choice, "finish_reason").is_some_and(|reason| !reason.is_null()) {
                self.finish(turn);
            }
        }
        Ok(())
    }

    fn read_delta(&mut self, turn: &mut Turn<'_>, delta: &Value) -> Result<(), ProviderError> {
        if let Some(Value::String(text)) = field(delta, "content") {
            turn.text(text);
            self.content.get_or_insert_default().push_str(text);
        }
        if let Some(Value::String(text)) = field(delta, "reasoning_content") {
            self.reasoning.get_or_insert_default().push_str(text);
        }
        if let Some(Value::String(text)) = field(delta, "refusal") {
            self.refusal.get_or_insert_default().push_str(text);
        }
        let fragments = match field(delta, "tool_calls") {
            None | Some(Value::Null) => return Ok(()),
            Some(Value::Array(fragments)) => fragments,
            Some(_) => return Err(ProviderError::shape("delta.tool_calls", "an array")),
        };
        for (at, fragment) in fragments.iter().enumerate() {
            let index = field(fragment, "index")
                .and_then(Value::as_u64)
                .ok_or_else(|| {
                    ProviderError::shape(&format!("delta.tool_calls[{at}].index"), "an integer")
                })?;
            let function = field(fragment, "function");
            let position = match self.positions.get(&index) {
                Some(&position) => position,
                None => {
                    let id = field(fragment, "id").and_then(Value::as_str);
                    let name = function
                        .and_then(|function| field(function, "name"))
                        .and_then(Value::as_str);
                    let (Some(id), Some(name)) = (id, name) else {
                        return Err(ProviderError::new(format!(
                            "stream tool call {index} starts without its id and function.name"
                        )));
                    };
                    if self.finished {
                        return Err(ProviderError::new(format!(
                            "stream tool call {index} starts after finish_reason"
                        )));
                    }
                    // The calls before this one are over, as far as their arguments are whole.
                    self.finish_whole(turn, |earlier| earlier < index);
                    let position = turn.start(id.to_owned(), name, false, index);
                    self.positions.insert(index, position);
                    self.latest = self.latest.max(Some(index));
                    position
                }
            };
            if let Some(id) = field(fragment, "id").and_then(Value::as_str)
                && turn
                    .calls
                    .get(position)
                    .is_some_and(|call| call.call.id.as_str() != id)
            {
                return Err(ProviderError::new(format!(
                    "stream tool call {index} changes its id to {id:?}"
                )));
            }
            let arguments = function.and_then(|function| field(function, "arguments"));
            match arguments {
                None | Some(Value::Null) => {}
                Some(Value::String(text)) if text.is_empty() => {}
                Some(Value::String(text)) => {
                    if !turn.is_open(position) {
                        if !self.finished && text.trim().is_empty() {
                            // Whitespace after a value finished early changes nothing.
                            continue;
                        }
                        let after = if self.finished {
                            "finish_reason"
                        } else {
                            "they ended and a later call started"
                        };
                        return Err(ProviderError::new(format!(
                            "stream tool call {index} has arguments after {after}"
                        )));
                    }
                    turn.append(position, text);
                    if self.latest > Some(index) {
                        // Interleaved: a later call started before this one's arguments ended.
                        self.finish_whole(turn, |call| call == index);
                    }
                }
                Some(_) => {
                    return Err(ProviderError::shape(
                        &format!("delta.tool_calls[{at}].function.arguments"),
                        "a string",
                    ));
                }
            }
        }
        Ok(())
    }

    /// Finishes the open calls whose index `which` takes and whose arguments are a whole JSON
    /// value, in the model's order.
    fn finish_whole(&self, turn: &mut Turn<'_>, which: impl Fn(u64) -> bool) {
        let mut whole: Vec<(u64, usize)> = self
            .positions
            .iter()
            .map(|(&index, &position)| (index, position))
            .filter(|&(index, position)| {
                which(index)
                    && turn.is_open(position)
                    && turn.calls[position].partial_arguments.is_complete()
            })
            .collect();
        whole.sort_unstable();
        for (_, position) in whole {
            turn.finish_raw(position, None);
        }
    }

    /// The assistant message the stream so far makes: what the completion's message would be,
    /// as [`openai::chat_assistant`] keeps it (the reasoning only with `keep_reasoning`).
    pub(super) fn assistant_turn(&self, turn: &Turn<'_>, keep_reasoning: bool) -> Vec<Value> {
        let mut calls: Vec<(u64, &StreamingCall)> = self
            .positions
            .iter()
            .filter_map(|(&index, &position)| Some((index, turn.calls.get(position)?)))
            .collect();
        calls.sort_unstable_by_key(|&(index, _)| index);
        let calls = calls
            .into_iter()
            .map(|(_, streaming)| {
                let call = &streaming.call;
                openai::chat_tool_call(
                    call.id.as_str(),
                    call.provider_name(),
                    &streaming.raw_arguments,
                )
            })
            .collect();
        let content = self.content.clone().map_or(Value::Null, Value::from);
        let reasoning = self.reasoning.as_deref().filter(|_| keep_reasoning);
        vec![openai::assistant_message(
            content,
            self.refusal.as_deref(),
            reasoning,
            calls,
        )]
    }

    /// Finishes every open call, in the model's order.
    pub(super) fn finish(&mut self, turn: &mut Turn<'_>) {
        self.finished = true;
        let mut open: Vec<(u64, usize)> = self
            .positions
            .iter()
            .map(|(&index, &position)| (index, position))
            .filter(|&(_, position)| turn.is_open(position))
            .collect();
        open.sort_unstable();
        for (_, position) in open {
            turn.finish_raw(position, None);
        }
    }

    /// At the end of the stream: calls no `finish_reason` closed are finished when their
    /// arguments are whole; the others stay open (and the turn reports them cut).
    pub(super) fn end(&mut self, turn: &mut Turn<'_>) {
        if self.finished {
            return;
        }
        let mut open: Vec<(u64, usize)> = self
            .positions
            .iter()
            .map(|(&index, &position)| (index, position))
            .filter(|&(_, position)| turn.is_open(position))
            .collect();
        open.sort_unstable();
        for (_, position) in open {
            let call = &turn.calls[position];
            let whole =
                call.raw_arguments.trim().is_empty() || call.partial_arguments.is_complete();
            if whole {
                turn.finish_raw(position, None);
            }
        }
    }
}
