//! Anthropic Messages streams: `content_block_start` opens a block at its `index`,
//! `content_block_delta` adds to it (`text_delta` text, `input_json_delta` `partial_json`
//! fragments of an input, possibly empty), `content_block_stop` closes it. `error` events end
//! the stream with the provider's error; `message_start`, `message_delta`, `message_stop`,
//! `ping` and thinking blocks carry nothing about calls.
//!
//! A `tool_use` block is a call: its start carries the call's `id` and `name` and, usually, an
//! empty `input` that its deltas then write; a start whose `input` is already whole is the
//! call's input, and no deltas follow it. Every other block is read as the non-streamed reader
//! reads it: a server tool's `server_tool_use` (web search, code execution, the native tool
//! search) streams an input Anthropic runs, not a call to run here, and a server tool's result
//! arrives whole in its block's start; the native tool search's result
//! (`tool_search_tool_result`) names the deferred tools it found, which are loaded then.

use std::collections::HashMap;

use serde_json::Value;

use super::failure::provider_error;
use super::turn::Turn;
use crate::providers::calls::{field, str_field};
use crate::providers::{ProviderError, anthropic};

#[derive(Debug, Default)]
pub(super) struct AnthropicStream {
    /// The blocks started so far, by their `index`.
    blocks: HashMap<u64, Block>,
}

#[derive(Debug)]
enum Block {
    /// A `tool_use` block: the call's position, and the input its start carried, if any.
    Call {
        position: usize,
        carried: Option<Value>,
    },
    /// Any other block: text, thinking, a server tool's use or result.
    Other,
}

impl AnthropicStream {
    pub(super) fn read(&mut self, turn: &mut Turn<'_>, event: &Value) -> Result<(), ProviderError> {
        let kind = str_field(event, "type", || "event".to_owned())?;
        match kind {
            "content_block_start" => {
                let index = block_index(event, kind)?;
                let block = field(event, "content_block").ok_or_else(|| {
                    ProviderError::shape("content_block_start.content_block", "an object")
                })?;
                if self.blocks.contains_key(&index) {
                    return Err(ProviderError::new(format!(
                        "stream content block {index} starts twice"
                    )));
                }
                let read = match field(block, "type").and_then(Value::as_str) {
                    Some("tool_use") => start_call(turn, block, index)?,
                    Some("text") => {
                        if let Some(text) = field(block, "text").and_then(Value::as_str) {
                            turn.text(text);
                        }
                        Block::Other
                    }
                    Some(anthropic::SEARCH_RESULT) => {
                        // What the native tool search found comes whole with its start.
                        turn.found(anthropic::found_tools(block));
                        Block::Other
                    }
                    _ => Block::Other,
                };
                self.blocks.insert(index, read);
            }
            "content_block_delta" => {
                let delta = field(event, "delta").ok_or_else(|| {
                    ProviderError::shape("content_block_delta.delta", "an object")
                })?;
                match field(delta, "type").and_then(Value::as_str) {
                    Some("text_delta") => {
                        if let Some(text) = field(delta, "text").and_then(Value::as_str) {
                            turn.text(text);
                        }
                    }
                    Some("input_json_delta") => {
                        let index = block_index(event, kind)?;
                        let fragment = str_field(delta, "partial_json", || {
                            "content_block_delta.delta".to_owned()
                        })?;
                        match self.open(turn, index, kind)? {
                            // A server tool's input: Anthropic runs it.
                            None => {}
                            Some((_, Some(_))) if !fragment.is_empty() => {
                                return Err(ProviderError::new(format!(
                                    "stream content block {index} has input_json_delta after a \
                                     tool_use start that carried its input"
                                )));
                            }
                            Some((position, _)) => turn.append(position, fragment),
                        }
                    }
                    _ => {}
                }
            }
            "content_block_stop" => {
                let index = block_index(event, kind)?;
                if let Some(Block::Call { .. }) = self.blocks.get(&index) {
                    match self.open(turn, index, kind)? {
                        // The input the start carried, as the message's block holds it.
                        Some((position, Some(input))) => turn.finish_value(position, input.clone()),
                        // No fragment at all (or only empty ones) is a call without arguments:
                        // `{}`.
                        Some((position, None)) => turn.finish_raw(position, None),
                        None => {}
                    }
                }
            }
            "error" => {
                return Err(provider_error(field(event, "error").unwrap_or(event)));
            }
            _ => {}
        }
        Ok(())
    }

    /// The open call of block `index` with the input its start carried (`None` for a block
    /// that is not a call); an error for a block never started or a call already finished.
    fn open(
        &self,
        turn: &Turn<'_>,
        index: u64,
        kind: &str,
    ) -> Result<Option<(usize, Option<&Value>)>, ProviderError> {
        match self.blocks.get(&index) {
            Some(Block::Call { position, carried }) if turn.is_open(*position) => {
                Ok(Some((*position, carried.as_ref())))
            }
            Some(Block::Call { .. }) => Err(ProviderError::new(format!(
                "stream event {kind} is about content block {index}, which already stopped"
            ))),
            Some(Block::Other) => Ok(None),
            None => Err(ProviderError::new(format!(
                "stream event {kind} is about content block {index}, which no tool_use \
                 content_block_start opened"
            ))),
        }
    }
}

/// Starts the call of a `tool_use` block. An `input` already whole (not the empty object the
/// deltas then write) is the call's arguments, shown at once as its text.
fn start_call(turn: &mut Turn<'_>, block: &Value, index: u64) -> Result<Block, ProviderError> {
    let id = str_field(block, "id", || {
        "content_block_start.content_block".to_owned()
    })?;
    let name = str_field(block, "name", || {
        "content_block_start.content_block".to_owned()
    })?;
    let position = turn.start(id.to_owned(), name, false, index);
    let carried = field(block, "input")
        .filter(|input| !matches!(input, Value::Object(members) if members.is_empty()))
        .cloned();
    if let Some(input) = &carried {
        turn.append(position, &input.to_string());
    }
    Ok(Block::Call { position, carried })
}

fn block_index(event: &Value, kind: &str) -> Result<u64, ProviderError> {
    field(event, "index")
        .and_then(Value::as_u64)
        .ok_or_else(|| ProviderError::shape(&format!("{kind}.index"), "an integer"))
}
