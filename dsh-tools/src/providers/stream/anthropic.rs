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
//!
//! Every block is also rebuilt as the message holds it — text and thinking appended, a
//! thinking block's `signature_delta` set, citations added, input read — for the assistant
//! message the next request repeats.

use std::collections::BTreeMap;

use serde_json::Value;

use super::failure::provider_error;
use super::turn::Turn;
use crate::providers::calls::{field, str_field};
use crate::providers::{ProviderError, anthropic};

#[derive(Debug, Default)]
pub(super) struct AnthropicStream {
    /// The blocks started so far, by their `index` (a few, looked up on every delta: ordered
    /// keys compare cheaper than they hash).
    blocks: BTreeMap<u64, Block>,
    /// Every block as the message will hold it, by its `index`.
    message: BTreeMap<u64, MessageBlock>,
}

/// A block of the message being rebuilt: its start's `content_block` with the deltas applied,
/// and the input JSON text streamed for it.
#[derive(Debug)]
struct MessageBlock {
    block: Value,
    input: String,
    /// A `tool_use` block's call, whose arguments text is the input streamed for the block
    /// (kept once, by the call, rather than also here); `None` once a fragment went to the
    /// block but not to its call (a stream that failed there).
    call: Option<usize>,
}

impl MessageBlock {
    /// Applies a `content_block_delta`'s `delta` of type `kind`: text, thinking and input are
    /// appended (a call's input is its call's), a signature set (it comes whole, once, before
    /// the thinking block stops), a citation added.
    fn apply(&mut self, delta: &Value, kind: Option<&str>) {
        if kind == Some("input_json_delta") && self.call.is_some() {
            return;
        }
        let Value::Object(block) = &mut self.block else {
            return;
        };
        let text = |key: &str| field(delta, key).and_then(Value::as_str);
        let mut append = |key: &str, more: &str| match block.get_mut(key) {
            Some(Value::String(so_far)) => so_far.push_str(more),
            _ => {
                block.insert(key.to_owned(), Value::from(more));
            }
        };
        match kind {
            Some("text_delta") => append("text", text("text").unwrap_or_default()),
            Some("thinking_delta") => append("thinking", text("thinking").unwrap_or_default()),
            Some("signature_delta") => {
                if let Some(signature) = text("signature") {
                    block.insert("signature".to_owned(), Value::from(signature));
                }
            }
            Some("input_json_delta") => {
                self.input
                    .push_str(text("partial_json").unwrap_or_default());
            }
            Some("citations_delta") => {
                if let Some(citation) = field(delta, "citation") {
                    match block.get_mut("citations") {
                        Some(Value::Array(citations)) => citations.push(citation.clone()),
                        _ => {
                            block.insert(
                                "citations".to_owned(),
                                Value::Array(vec![citation.clone()]),
                            );
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// A fragment that went to the block but not to its call: the block keeps its input
    /// itself from then on.
    fn diverge(&mut self, turn: &Turn<'_>, fragment: &str) {
        if let Some(position) = self.call.take() {
            self.input = turn
                .calls
                .get(position)
                .map(|call| call.raw_arguments.clone())
                .unwrap_or_default();
        }
        self.input.push_str(fragment);
    }

    /// The block as the message holds it: the input streamed for it read, if any came; `None`
    /// for a text block that stayed empty (Anthropic refuses empty text blocks in a request).
    fn finished(&self, turn: &Turn<'_>) -> Option<Value> {
        let input = match self.call {
            Some(position) => turn
                .calls
                .get(position)
                .map_or("", |call| call.raw_arguments.as_str()),
            None => self.input.as_str(),
        };
        let mut block = self.block.clone();
        if field(&block, "type").and_then(Value::as_str) == Some("text")
            && field(&block, "text")
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
        {
            return None;
        }
        if !input.trim().is_empty()
            && let Ok(input) = serde_json::from_str::<Value>(input)
            && let Value::Object(block) = &mut block
        {
            block.insert("input".to_owned(), input);
        }
        Some(block)
    }
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
                // A start that carried its input keeps it in its block; deltas write the rest.
                let call = match &read {
                    Block::Call {
                        position,
                        carried: None,
                    } => Some(*position),
                    _ => None,
                };
                self.blocks.insert(index, read);
                self.message.insert(
                    index,
                    MessageBlock {
                        block: block.clone(),
                        input: String::new(),
                        call,
                    },
                );
            }
            "content_block_delta" => {
                let delta = field(event, "delta").ok_or_else(|| {
                    ProviderError::shape("content_block_delta.delta", "an object")
                })?;
                let delta_kind = field(delta, "type").and_then(Value::as_str);
                let index = field(event, "index").and_then(Value::as_u64);
                if let Some(block) = index.and_then(|index| self.message.get_mut(&index)) {
                    block.apply(delta, delta_kind);
                }
                match delta_kind {
                    Some("text_delta") => {
                        if let Some(text) = field(delta, "text").and_then(Value::as_str) {
                            turn.text(text);
                        }
                    }
                    Some("input_json_delta") => {
                        let index = index.ok_or_else(|| {
                            ProviderError::shape(&format!("{kind}.index"), "an integer")
                        })?;
                        let fragment = str_field(delta, "partial_json", || {
                            "content_block_delta.delta".to_owned()
                        })?;
                        // Whether the start carried the call's input is all this needs of it.
                        let open = self.open(turn, index, kind).map(|open| {
                            open.map(|(position, carried)| (position, carried.is_some()))
                        });
                        if !matches!(open, Ok(Some((_, false))))
                            && let Some(block) = self.message.get_mut(&index)
                            && block.call.is_some()
                        {
                            // The call does not take the fragment: its block keeps it.
                            block.diverge(turn, fragment);
                        }
                        match open? {
                            // A server tool's input: Anthropic runs it.
                            None => {}
                            Some((_, true)) if !fragment.is_empty() => {
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

    /// The assistant message of the blocks so far, in order: what the message's `content`
    /// holds, thinking blocks with their signatures.
    pub(super) fn assistant_turn(&self, turn: &Turn<'_>) -> Vec<Value> {
        anthropic::assistant_of(
            self.message
                .values()
                .filter_map(|block| block.finished(turn))
                .collect(),
        )
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
    // Programmatic tool calling: the program that made the call, if one did.
    let program = crate::providers::programmatic::program_caller(turn.tools().dialect, block);
    turn.program(position, program);
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
