//! [`StreamingCall`]: one tool call of a stream, from its start to its input — the raw
//! arguments text, the partial value read from it, and what is already known to be wrong.

use std::sync::OnceLock;

use serde_json::Value;

use crate::call::execution::ToolExecutionInput;
use crate::errors::tool_error::ToolError;
use crate::providers::ToolCall;
use dsh_tools_schema::partial_json::PartialJson;
use dsh_tools_schema::{DefiniteProgress, Violation};

/// A finished call's input. When its arguments are the reader's value as it stands (the view
/// put no `null`s in for absent properties and sent no map as pairs), the reader keeps them and
/// they are copied only when asked for: the turn's calls take them from the reader.
#[derive(Clone, Debug)]
pub(super) enum FinishedInput {
    /// The input as it was made.
    Whole(ToolExecutionInput),
    /// The input but for its arguments (`null`), which are the reader's value.
    FromReader {
        without_arguments: ToolExecutionInput,
        /// The whole input, once asked for.
        asked: OnceLock<ToolExecutionInput>,
    },
}

/// One tool call as it streams.
///
/// `#[non_exhaustive]`: made by a [`ToolCallStream`](super::ToolCallStream), which keeps it up to
/// date; its public fields are read.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct StreamingCall {
    /// The call: its id, its tool's canonical and provider names.
    pub call: ToolCall,
    /// Where the call stands in the model's order (the provider's index of it).
    pub(super) order: u64,
    /// The arguments' text as it arrived so far (for providers that send arguments whole,
    /// empty until the call finishes).
    pub raw_arguments: String,
    /// The arguments read so far, with which parts of them are finished.
    pub partial_arguments: PartialJson,
    /// The input, once the call finished.
    pub(super) input: Option<FinishedInput>,
    /// The error the call is already known to end with, as far as it is known (see
    /// [`StreamEvent::Definite`](super::StreamEvent::Definite)).
    pub definite_error: Option<ToolError>,
    /// The definite violations reported so far.
    pub(super) violations: Vec<Violation>,
    /// Bytes of arguments the definite checks have walked so far (their budget).
    pub(super) checked: usize,
    /// The finished parts of the arguments the definite checks found clean.
    pub(super) progress: DefiniteProgress,
}

impl StreamingCall {
    pub(super) fn new(call: ToolCall, order: u64) -> Self {
        Self {
            call,
            order,
            raw_arguments: String::new(),
            partial_arguments: PartialJson::default(),
            input: None,
            definite_error: None,
            violations: Vec::new(),
            checked: 0,
            progress: DefiniteProgress::default(),
        }
    }

    /// The best value of the arguments text so far, as the model wrote it for the provider's
    /// view (see [`PartialJson::value`]); in the tool's own form, with what the view changed
    /// undone, [`ToolCallStream::arguments_so_far`](super::ToolCallStream::arguments_so_far).
    pub(crate) fn raw_arguments_so_far(&self) -> Option<Value> {
        self.partial_arguments.value()
    }

    /// The input to run, once the call finished (`None` while its arguments are incomplete).
    pub fn input(&self) -> Option<&ToolExecutionInput> {
        match self.input.as_ref()? {
            FinishedInput::Whole(input) => Some(input),
            FinishedInput::FromReader {
                without_arguments,
                asked,
            } => Some(asked.get_or_init(|| {
                let mut input = without_arguments.clone();
                input.arguments = self.partial_arguments.value().unwrap_or_default();
                input
            })),
        }
    }

    /// The call and its input (once it finished), the arguments moved out of the reader when
    /// they were left there.
    pub(super) fn into_input(self) -> (ToolCall, Option<ToolExecutionInput>) {
        let input = match self.input {
            None => None,
            Some(FinishedInput::Whole(input)) => Some(input),
            Some(FinishedInput::FromReader {
                without_arguments,
                asked,
            }) => Some(asked.into_inner().unwrap_or_else(|| {
                let mut input = without_arguments;
                input.arguments = self.partial_arguments.into_value().unwrap_or_default();
                input
            })),
        };
        (self.call, input)
    }

    /// Names the call in an error message: `tool call 1 ("read_file", id "call_2")`.
    pub(super) fn describe(&self, position: usize) -> String {
        format!(
            "tool call {position} ({:?}, id {:?})",
            self.call.provider_name(),
            self.call.id.as_str()
        )
    }
}
