//! Anthropic Messages streams: `content_block_start` opens a block at its `index` (a
//! `tool_use` block carries the call's `id` and `name`, and an empty `input`),
//! `content_block_delta` adds to it (`text_delta` text, `input_json_delta` `partial_json`
//! fragments of the input, possibly empty), `content_block_stop` closes it. `error` events end
//! the stream with the provider's error; `message_start`, `message_delta`, `message_stop`,
//! `ping` and thinking blocks carry nothing about calls.

use std::collections::HashMap;

use serde_json::Value;

use super::failure::provider_error;
use super::turn::Turn;
use crate::providers::ProviderError;
use crate::providers::calls::{field, str_field};

#[derive(Debug, Default)]
pub(super) struct AnthropicStream {
    /// The block's `index` → the call's position (tool_use blocks only).
    positions: HashMap<u64, usize>,
}

impl AnthropicStream {
    pub(super) fn read(&mut self, turn: &mut Turn<'_>, event: &Value) -> Result<(), ProviderError> {
        let kind = str_field(event, "type", || "event".to_owned())?;
        match kind {
            "content_block_start" => {
                let block = field(event, "content_block").ok_or_else(|| {
                    ProviderError::shape("content_block_start.content_block", "an object")
                })?;
                match field(block, "type").and_then(Value::as_str) {
                    Some("tool_use") => {
                        let index = block_index(event, kind)?;
                        if self.positions.contains_key(&index) {
                            return Err(ProviderError::new(format!(
                                "stream content block {index} starts twice"
                            )));
                        }
                        let id = str_field(block, "id", || {
                            "content_block_start.content_block".to_owned()
                        })?;
                        let name = str_field(block, "name", || {
                            "content_block_start.content_block".to_owned()
                        })?;
                        let position = turn.start(id.to_owned(), name, false, index);
                        self.positions.insert(index, position);
                    }
                    Some("text") => {
                        if let Some(text) = field(block, "text").and_then(Value::as_str) {
                            turn.text(text);
                        }
                    }
                    _ => {}
                }
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
                        let position = self.open(turn, index, kind)?;
                        let fragment = str_field(delta, "partial_json", || {
                            "content_block_delta.delta".to_owned()
                        })?;
                        turn.append(position, fragment);
                    }
                    _ => {}
                }
            }
            "content_block_stop" => {
                let index = block_index(event, kind)?;
                if self.positions.contains_key(&index) {
                    let position = self.open(turn, index, kind)?;
                    // No fragment at all (or only empty ones) is a call without arguments: `{}`.
                    turn.finish_raw(position, None);
                }
            }
            "error" => {
                return Err(provider_error(field(event, "error").unwrap_or(event)));
            }
            _ => {}
        }
        Ok(())
    }

    fn open(&self, turn: &Turn<'_>, index: u64, kind: &str) -> Result<usize, ProviderError> {
        match self.positions.get(&index) {
            Some(&position) if turn.is_open(position) => Ok(position),
            Some(_) => Err(ProviderError::new(format!(
                "stream event {kind} is about content block {index}, which already stopped"
            ))),
            None => Err(ProviderError::new(format!(
                "stream event {kind} is about content block {index}, which no tool_use \
                 content_block_start opened"
            ))),
        }
    }
}

fn block_index(event: &Value, kind: &str) -> Result<u64, ProviderError> {
    field(event, "index")
        .and_then(Value::as_u64)
        .ok_or_else(|| ProviderError::shape(&format!("{kind}.index"), "an integer"))
}
