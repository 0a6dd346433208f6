//! [`StreamingCall`]: one tool call of a stream, from its start to its input — the raw
//! arguments text, the partial value read from it, and what is already known to be wrong.

use serde_json::Value;

use crate::call::execution::ToolExecutionInput;
use crate::error::ToolError;
use crate::providers::ToolCall;
use dsh_tools_schema::Violation;
use dsh_tools_schema::partial_json::PartialJson;

/// One tool call as it streams.
#[derive(Clone, Debug)]
pub struct StreamingCall {
    pub(super) call: ToolCall,
    /// Where the call stands in the model's order (the provider's index of it).
    pub(super) order: u64,
    /// The arguments' text so far.
    pub(super) raw: String,
    /// The arguments read so far.
    pub(super) partial: PartialJson,
    /// The input, once the call finished.
    pub(super) input: Option<ToolExecutionInput>,
    /// The error the call is known to end with, as far as it is known.
    pub(super) definite: Option<ToolError>,
    /// The definite violations reported so far.
    pub(super) violations: Vec<Violation>,
    /// Bytes of arguments the definite checks have walked so far (their budget).
    pub(super) checked: usize,
}

impl StreamingCall {
    pub(super) fn new(call: ToolCall, order: u64) -> Self {
        Self {
            call,
            order,
            raw: String::new(),
            partial: PartialJson::new(),
            input: None,
            definite: None,
            violations: Vec::new(),
            checked: 0,
        }
    }

    /// The call: its id, its tool's canonical and provider names.
    pub fn call(&self) -> &ToolCall {
        &self.call
    }

    /// The arguments' text as it arrived so far (for providers that send arguments whole,
    /// empty until the call finishes).
    pub fn raw_arguments(&self) -> &str {
        &self.raw
    }

    /// The arguments read so far, with which parts of them are finished.
    pub fn partial_arguments(&self) -> &PartialJson {
        &self.partial
    }

    /// The best value of the arguments text so far, as the model wrote it for the provider's
    /// view (see [`PartialJson::value`]); in the tool's own form, with what the view changed
    /// undone, [`ToolCallStream::arguments_so_far`](super::ToolCallStream::arguments_so_far).
    pub fn raw_arguments_so_far(&self) -> Option<Value> {
        self.partial.value()
    }

    /// Whether the call's arguments are complete.
    pub fn is_finished(&self) -> bool {
        self.input.is_some()
    }

    /// The input to run, once the call finished.
    pub fn input(&self) -> Option<&ToolExecutionInput> {
        self.input.as_ref()
    }

    /// The error the call is already known to end with (see
    /// [`StreamEvent::Definite`](super::StreamEvent::Definite)).
    pub fn definite_error(&self) -> Option<&ToolError> {
        self.definite.as_ref()
    }

    /// Names the call in an error message: `tool call 1 ("read_file", id "call_2")`.
    pub(super) fn describe(&self, position: usize) -> String {
        format!(
            "tool call {position} ({:?}, id {:?})",
            self.call.provider_name(),
            self.call.id()
        )
    }
}
