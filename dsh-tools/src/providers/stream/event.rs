//! [`StreamEvent`]: what a [`ToolCallStream`](super::ToolCallStream) reports as a provider's
//! stream events arrive.

use crate::call::execution::ToolExecutionInput;
use crate::errors::tool_error::ToolError;

/// One thing that happened in the stream, in the order it happened. `index` is the call's
/// position in [`ToolCallStream::calls`](super::ToolCallStream::calls): calls are numbered as
/// they start, which is the model's order.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum StreamEvent {
    /// Text the model wrote (around or between its calls).
    Text {
        /// The new text.
        text: String,
    },
    /// A call began: its id and tool are known.
    CallStarted {
        /// The call's position.
        index: usize,
        /// The provider's id for the call (for Gemini without ids, the one made for it).
        id: String,
        /// The tool's canonical name (mapped back from the provider's name).
        name: String,
    },
    /// More of a call's arguments arrived: `fragment` is the new text; the arguments so far are
    /// the call's ([`ToolCallStream::arguments_so_far`](super::ToolCallStream::arguments_so_far)).
    ArgumentsDelta {
        /// The call's position.
        index: usize,
        /// The text that arrived.
        fragment: String,
    },
    /// The call is already wrong, whatever the rest of it turns out to be: an unknown tool
    /// (`UNKNOWN_TOOL`), arguments that can no longer be JSON, or definite violations of the
    /// tool's schema (`INVALID_ARGS`, every one found so far, with the final validation's paths
    /// and messages). Reported again only when more is found. The call still finishes; what to
    /// do (cancel the response, show the error) is the caller's choice.
    Definite {
        /// The call's position.
        index: usize,
        /// The error the call will end with, as far as it is known.
        error: ToolError,
    },
    /// A call's arguments are complete: the input to run, the same the non-streamed response
    /// would have given.
    CallFinished {
        /// The call's position.
        index: usize,
        /// The input.
        input: ToolExecutionInput,
    },
    /// The provider's native tool search found these deferred tools (canonical names, each
    /// reported once): what [`ToolCalls::loaded_tools`](crate::providers::ToolCalls::loaded_tools)
    /// gives for the turn. A list lowered through
    /// [`ProviderTools`](crate::providers::ProviderTools) has already loaded them into the
    /// agent's scope, as [`parse_response`](crate::providers::LoweredTools::parse_response)
    /// does.
    ToolsLoaded {
        /// The tools found.
        names: Vec<String>,
    },
}
