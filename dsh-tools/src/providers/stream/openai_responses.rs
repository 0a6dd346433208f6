//! OpenAI Responses streams: typed events. A function call is an output item —
//! `response.output_item.added` (its `call_id` and `name`), then
//! `response.function_call_arguments.delta` fragments and `.done` with the whole arguments
//! (both naming the item by `item_id` and `output_index`), then `response.output_item.done` with
//! the finished item. Text arrives as `response.output_text.delta`; `error` and
//! `response.failed` end the stream with the provider's error. The hosted tool search's
//! `tool_search_output` item lists, once done, the deferred tools it loaded, which are loaded
//! then. Every finished item is kept (reasoning items too) for the next request's input.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use super::failure::provider_error;
use super::turn::Turn;
use crate::providers::calls::{field, str_field};
use crate::providers::{ProviderError, openai};

#[derive(Debug, Default)]
pub(super) struct ResponsesStream {
    /// The item's `output_index` → the call's position.
    positions: HashMap<u64, usize>,
    /// The item's `id` → its `output_index`, for events that name only the item.
    items: HashMap<String, u64>,
    /// Every finished output item by its `output_index`, as `response.output_item.done` gave
    /// it: the next request's input repeats them.
    done: BTreeMap<u64, Value>,
}

impl ResponsesStream {
    pub(super) fn read(&mut self, turn: &mut Turn<'_>, event: &Value) -> Result<(), ProviderError> {
        let kind = str_field(event, "type", || "event".to_owned())?;
        match kind {
            "response.output_text.delta" => {
                if let Some(text) = field(event, "delta").and_then(Value::as_str) {
                    turn.text(text);
                }
            }
            "response.output_item.added" => {
                let item = item(event)?;
                if field(item, "type").and_then(Value::as_str) == Some("function_call") {
                    let output_index = output_index(event)?;
                    let id = str_field(item, "call_id", || "output_item.added item".to_owned())?;
                    let name = str_field(item, "name", || "output_item.added item".to_owned())?;
                    if self.positions.contains_key(&output_index) {
                        return Err(ProviderError::new(format!(
                            "stream output item {output_index} is added twice"
                        )));
                    }
                    let position = turn.start(id.to_owned(), name, false, output_index);
                    turn.program(position, program_caller(turn, item));
                    self.positions.insert(output_index, position);
                    if let Some(item_id) = field(item, "id").and_then(Value::as_str) {
                        self.items.insert(item_id.to_owned(), output_index);
                    }
                    if let Some(Value::String(text)) = field(item, "arguments") {
                        turn.append(position, text);
                    }
                }
            }
            "response.function_call_arguments.delta" => {
                let position = self.position(event, kind)?;
                let delta = str_field(event, "delta", || kind.to_owned())?;
                self.open(turn, position, kind)?;
                turn.append(position, delta);
            }
            "response.function_call_arguments.done" => {
                // The whole arguments come again with the finished item; nothing to do here
                // but check that the call is known.
                let position = self.position(event, kind)?;
                self.open(turn, position, kind)?;
            }
            "response.output_item.done" => {
                let item = item(event)?;
                // The finished item, not the added one: a reasoning item's
                // `encrypted_content` is whole only here.
                if let Some(index) = field(event, "output_index").and_then(Value::as_u64) {
                    self.done.insert(index, item.clone());
                }
                if field(item, "type").and_then(Value::as_str) == Some(openai::SEARCH_OUTPUT) {
                    // The hosted tool search's finished output lists what it loaded.
                    turn.found(openai::found_tools(item));
                }
                if field(item, "type").and_then(Value::as_str) == Some("function_call") {
                    let output_index = output_index(event)?;
                    let position = match self.positions.get(&output_index) {
                        Some(&position) => position,
                        // A call announced only by its finished item: start it now.
                        None => {
                            let id =
                                str_field(item, "call_id", || "output_item.done item".to_owned())?;
                            let name =
                                str_field(item, "name", || "output_item.done item".to_owned())?;
                            let position = turn.start(id.to_owned(), name, false, output_index);
                            turn.program(position, program_caller(turn, item));
                            self.positions.insert(output_index, position);
                            position
                        }
                    };
                    self.open(turn, position, kind)?;
                    // The finished item is what the non-streamed response holds: read it alike.
                    match field(item, "arguments") {
                        Some(Value::String(raw)) => turn.finish_raw(position, Some(raw)),
                        None | Some(Value::Null) => turn.finish_raw(position, None),
                        Some(arguments) => turn.finish_value(position, arguments.clone()),
                    }
                }
            }
            "error" => return Err(provider_error(event)),
            "response.failed" => {
                let error = field(event, "response")
                    .and_then(|response| field(response, "error"))
                    .unwrap_or(event);
                return Err(provider_error(error));
            }
            _ => {}
        }
        Ok(())
    }

    /// The output items finished so far, in order: what the response's `output` holds.
    pub(super) fn assistant_turn(&self) -> Vec<Value> {
        self.done.values().cloned().collect()
    }

    /// The call an arguments event is about, by `output_index` or else `item_id`.
    fn position(&self, event: &Value, kind: &str) -> Result<usize, ProviderError> {
        let by_index = field(event, "output_index")
            .and_then(Value::as_u64)
            .and_then(|index| self.positions.get(&index));
        let by_item = || {
            field(event, "item_id")
                .and_then(Value::as_str)
                .and_then(|id| self.items.get(id))
                .and_then(|index| self.positions.get(index))
        };
        by_index.or_else(by_item).copied().ok_or_else(|| {
            ProviderError::new(format!(
                "stream event {kind} is about a function call no response.output_item.added \
                 started"
            ))
        })
    }

    fn open(&self, turn: &Turn<'_>, position: usize, kind: &str) -> Result<(), ProviderError> {
        if turn.is_open(position) {
            Ok(())
        } else {
            Err(ProviderError::new(format!(
                "stream event {kind} is about a function call that already finished"
            )))
        }
    }
}

/// The program that made the call `item`, if one did (programmatic tool calling).
fn program_caller<'v>(turn: &Turn<'_>, item: &'v Value) -> Option<&'v str> {
    crate::providers::programmatic::program_caller(turn.tools().dialect, item)
}

fn item(event: &Value) -> Result<&Value, ProviderError> {
    field(event, "item").ok_or_else(|| ProviderError::shape("event item", "an object"))
}

fn output_index(event: &Value) -> Result<u64, ProviderError> {
    field(event, "output_index")
        .and_then(Value::as_u64)
        .ok_or_else(|| ProviderError::shape("event output_index", "an integer"))
}
