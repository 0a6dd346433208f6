//! Tool calls while the model is still writing them: a [`ToolCallStream`] reads a provider's
//! stream events and reports, per call and in the model's order, that it started, its
//! arguments as they grow, what is already wrong with it, and its finished
//! [`ToolExecutionInput`](crate::ToolExecutionInput) — the same input
//! [`LoweredTools::parse_response`] makes from the non-streamed response of the same turn.
//!
//! Feed it the parsed JSON of each server-sent event's `data`, in order (OpenAI Chat and
//! DeepSeek: each chunk, leaving out the final `[DONE]`; OpenAI Responses and Anthropic: each
//! typed event; Gemini and Vertex AI: each `GenerateContentResponse` chunk, with or without
//! `streamFunctionCallArguments`), then [`end`](ToolCallStream::end)
//! it. A stream that breaks the provider's shape, reports an error, or ends inside a call is a
//! [`ProviderError`] naming what went wrong; nothing panics, and no call is dropped silently.
//! What the non-streamed reader makes of the rest of the turn, the stream reader makes of it
//! too: a server tool's blocks are not calls, what a provider's native tool search found is
//! loaded for the scope as it arrives ([`StreamEvent::ToolsLoaded`]), and a Gemini turn ended
//! by an invalid call is the same error. The turn as the next request repeats it, opaque
//! reasoning fields included, is [`ToolCallStream::assistant_turn`].
//!
//! Arguments are read by [`PartialJson`], whose work over a whole stream is about one parse of
//! the arguments however finely they are cut; a finished call's input takes the reader's value
//! rather than parsing the text again. While a call streams, its arguments are checked
//! against the tool's canonical schema for what no continuation can fix
//! ([`Schema::definite_violations`](dsh_tools_schema::Schema::definite_violations)), reported as
//! [`StreamEvent::Definite`]; the checks of one call walk each of its finished parts about once
//! ([`Schema::definite_violations_since`](dsh_tools_schema::Schema::definite_violations_since)),
//! and together count a bounded multiple of its length. A tool whose strict view sends a map as `{key, value}` pairs streams in the view's
//! shape, not the tool's, so it has no early checks; its arguments so far
//! ([`ToolCallStream::arguments_so_far`]) and its finished input are mapped back to maps, and
//! the input is validated like any other.
//!
//! ```
//! # use dsh_tools::{FnTool, ToolRegistry, json, schema::Schema};
//! use dsh_tools::providers::stream::StreamEvent;
//! use dsh_tools::providers::{Dialect, ProviderTools};
//!
//! # let registry = ToolRegistry::new();
//! # let _ = registry.register(FnTool::builder("echo", "Echo the text back.")
//! #     .arguments(Schema::object().required("text", Schema::string()))
//! #     .handler(|arguments, _| async move { Ok(arguments["text"].clone()) })).unwrap();
//! let tools = ProviderTools::new(&registry, Dialect::Anthropic { strict: false }).tools(None);
//! let mut stream = tools.stream();
//! let events = [
//!     json!({"type": "content_block_start", "index": 0,
//!            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "echo", "input": {}}}),
//!     json!({"type": "content_block_delta", "index": 0,
//!            "delta": {"type": "input_json_delta", "partial_json": "{\"text\": \"he"}}),
//!     json!({"type": "content_block_delta", "index": 0,
//!            "delta": {"type": "input_json_delta", "partial_json": "llo\"}"}}),
//!     json!({"type": "content_block_stop", "index": 0}),
//! ];
//! let mut so_far = Vec::new();
//! for event in &events {
//!     for update in stream.push(event).unwrap() {
//!         if let StreamEvent::ArgumentsDelta { index, .. } = update {
//!             // What a pending card would show.
//!             so_far.push(stream.arguments_so_far(index));
//!         }
//!     }
//! }
//! assert_eq!(so_far, [Some(json!({"text": "he"})), Some(json!({"text": "hello"}))]);
//! let calls = stream.into_tool_calls().unwrap();
//! assert_eq!(calls.inputs[0].arguments, json!({"text": "hello"}));
//! ```
//!
//! | file | owns |
//! |---|---|
//! | `event.rs` | [`StreamEvent`] |
//! | `failure.rs` | the errors a provider reports inside its stream |
//! | `feed.rs` | finished calls into a [`BatchFeed`](crate::registry::BatchFeed) |
//! | `call.rs` | [`StreamingCall`]: one call's state as it streams |
//! | `turn.rs` | the calls of a turn: inputs made as the non-streamed reader makes them, definite checks, events |
//! | `openai_chat.rs`, `openai_responses.rs`, `anthropic.rs`, `gemini.rs` | each dialect's stream events |
//! | `streamed_arguments.rs`, `json_path.rs` | Vertex AI's `partialArgs`: pieces at JSON Paths into a value and its text |
//!
//! The partial reader itself lives in the schema engine (`dsh_tools_schema::partial_json`), whose
//! definite checks read it too.

mod anthropic;
mod call;
mod event;
mod failure;
mod feed;
mod gemini;
mod json_path;
mod openai_chat;
mod openai_responses;
mod streamed_arguments;
mod turn;

use serde_json::Value;

pub use self::call::StreamingCall;
pub use self::event::StreamEvent;
pub use dsh_tools_schema::{PartialJson, PartialJsonError};
// The reader's node view: not API (the stream's own readers and the tests walk it; users read
// `PartialJson::value`).
#[doc(hidden)]
pub use dsh_tools_schema::partial_json::{PartialArray, PartialNode, PartialObject};

use self::anthropic::AnthropicStream;
use self::gemini::GeminiStream;
use self::openai_chat::ChatStream;
use self::openai_responses::ResponsesStream;
use self::turn::Turn;
use super::{Dialect, LoweredTools, ProviderError, ToolCalls};

/// The reader of one streamed response (one model turn) for the dialect of a
/// [`LoweredTools`]; made by [`LoweredTools::stream`].
pub struct ToolCallStream<'t> {
    turn: Turn<'t>,
    dialect: DialectStream,
    /// The first error: the stream cannot be read past it.
    failed: Option<ProviderError>,
    ended: bool,
}

enum DialectStream {
    Chat(ChatStream),
    Responses(ResponsesStream),
    Anthropic(AnthropicStream),
    Gemini(GeminiStream),
}

impl LoweredTools {
    /// A reader for a streamed response to a request made with this tool list (see
    /// [`stream`](crate::providers::stream)).
    pub fn stream(&self) -> ToolCallStream<'_> {
        let dialect = match self.dialect {
            Dialect::OpenAiChat { .. } | Dialect::DeepSeek { .. } => {
                DialectStream::Chat(ChatStream::default())
            }
            Dialect::OpenAiResponses { .. } => DialectStream::Responses(ResponsesStream::default()),
            Dialect::Anthropic { .. } => DialectStream::Anthropic(AnthropicStream::default()),
            Dialect::Gemini { .. } => DialectStream::Gemini(GeminiStream::default()),
        };
        ToolCallStream {
            turn: Turn::new(self),
            dialect,
            failed: None,
            ended: false,
        }
    }
}

impl<'t> ToolCallStream<'t> {
    /// Reads the next event (the parsed JSON of one server-sent event's data) and returns what
    /// it made happen, in order. After an error, every later call returns the same error.
    pub fn push(&mut self, event: &Value) -> Result<Vec<StreamEvent>, ProviderError> {
        if let Some(error) = &self.failed {
            return Err(error.clone());
        }
        if self.ended {
            return Err(self.fail(ProviderError::new("stream event after the stream ended")));
        }
        let read = match &mut self.dialect {
            DialectStream::Chat(reader) => reader.read(&mut self.turn, event),
            DialectStream::Responses(reader) => reader.read(&mut self.turn, event),
            DialectStream::Anthropic(reader) => reader.read(&mut self.turn, event),
            DialectStream::Gemini(reader) => reader.read(&mut self.turn, event),
        };
        match read {
            Ok(()) => Ok(std::mem::take(&mut self.turn.events)),
            Err(error) => Err(self.fail(error)),
        }
    }

    /// Ends the stream: finishes the calls whose end only the stream's end marks (OpenAI Chat
    /// without a `finish_reason`, when their arguments are whole) and returns those last
    /// events; a call the stream left open is an error naming it, with how much of its
    /// arguments came.
    pub fn end(&mut self) -> Result<Vec<StreamEvent>, ProviderError> {
        if let Some(error) = &self.failed {
            return Err(error.clone());
        }
        if !self.ended {
            self.ended = true;
            if let DialectStream::Chat(reader) = &mut self.dialect {
                reader.end(&mut self.turn);
            }
            if let Some(error) = self.turn.open_error() {
                return Err(self.fail(error));
            }
        }
        Ok(std::mem::take(&mut self.turn.events))
    }

    /// The calls and inputs of the turn, in the model's order: what
    /// [`LoweredTools::parse_response`] gives for the non-streamed response. Ends the stream
    /// first if [`end`](Self::end) was not called (its events are dropped).
    pub fn into_tool_calls(mut self) -> Result<ToolCalls, ProviderError> {
        self.end()?;
        self.turn.into_calls()
    }

    /// The arguments so far of the call at `index`, in the tool's own form: what the text so far
    /// holds ([`PartialJson::value`]) with what the provider's view changed undone, as the input
    /// will have it (a strict view's `null`s for absent properties removed, its `{key, value}`
    /// pairs mapped back to the map they stand for); the input's
    /// arguments once the call finished; `{}` before any of the arguments could be read, and
    /// `None` for no such call. What a pending card shows
    /// ([`ToolScope::present_partial_call`](crate::ToolScope::present_partial_call)).
    /// Each call copies the value so far.
    pub fn arguments_so_far(&self, index: usize) -> Option<Value> {
        let call = self.turn.calls.get(index)?;
        if let Some(input) = call.input() {
            return Some(input.arguments.clone());
        }
        let mut value = call
            .raw_arguments_so_far()
            .unwrap_or_else(|| Value::Object(serde_json::Map::new()));
        self.turn
            .tools()
            .canonical_so_far(call.call.name.as_str(), &mut value);
        Some(value)
    }

    /// The model's turn as the next request must repeat it, from the events so far (call it
    /// once the stream ended): what [`LoweredTools::assistant_turn`] gives for the
    /// non-streamed response, opaque fields included — OpenAI Chat's assistant message
    /// (DeepSeek's with its `reasoning_content`), the Responses output items as each
    /// `response.output_item.done` gave them (a reasoning item's `encrypted_content` is whole
    /// only there), one Anthropic assistant message of every block with the thinking blocks'
    /// signatures, Gemini's model content with each part's `thoughtSignature` (text cut across
    /// chunks joined, a Vertex call streamed in pieces made one `functionCall`). Append the
    /// values to the request before the results' messages.
    pub fn assistant_turn(&self) -> Vec<Value> {
        match &self.dialect {
            DialectStream::Chat(reader) => reader.assistant_turn(
                &self.turn,
                matches!(self.turn.tools().dialect, Dialect::DeepSeek { .. }),
            ),
            DialectStream::Responses(reader) => reader.assistant_turn(),
            DialectStream::Anthropic(reader) => reader.assistant_turn(&self.turn),
            DialectStream::Gemini(reader) => reader.assistant_turn(),
        }
    }

    /// The calls so far, in the order they started.
    pub fn calls(&self) -> &[StreamingCall] {
        &self.turn.calls
    }

    fn fail(&mut self, error: ProviderError) -> ProviderError {
        self.failed = Some(error.clone());
        error
    }
}

impl std::fmt::Debug for ToolCallStream<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolCallStream")
            .field("dialect", &self.turn.tools().dialect)
            .field("calls", &self.turn.calls)
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}
