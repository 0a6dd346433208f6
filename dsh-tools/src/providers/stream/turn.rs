//! The calls of one streamed turn, whatever the dialect: each dialect's reader tells it that a
//! call started, that arguments arrived, that a call finished, that text came, or that the
//! provider's native tool search found tools, and it keeps the calls, makes their inputs exactly
//! as the non-streamed reader does, loads what a search found as that reader does, runs the
//! definite checks and queues the events.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::Value;

use super::call::{FinishedInput, StreamingCall};
use super::event::StreamEvent;
use crate::call::execution::ToolExecutionInput;
use crate::errors::tool_error::ToolError;
use crate::providers::{LoweredTools, ProviderError, ToolCalls};
use dsh_tools_schema::Schema;
use dsh_tools_schema::partial_json::PartialNode;

/// Work the definite checks may do beyond what the arguments' own length pays for: small
/// arguments are checked after every fragment.
const CHECK_ALLOWANCE: usize = 4096;

pub(super) struct Turn<'t> {
    tools: &'t LoweredTools,
    pub(super) calls: Vec<StreamingCall>,
    pub(super) events: Vec<StreamEvent>,
    /// Each tool's canonical schema, imported at its first call (`None`: it cannot be).
    schemas: HashMap<String, Option<Schema>>,
    /// The deferred tools the provider's native search found, canonical names in order.
    loaded: Vec<String>,
}

impl<'t> Turn<'t> {
    pub(super) fn new(tools: &'t LoweredTools) -> Self {
        Self {
            tools,
            calls: Vec::new(),
            events: Vec::new(),
            schemas: HashMap::new(),
            loaded: Vec::new(),
        }
    }

    pub(super) fn tools(&self) -> &'t LoweredTools {
        self.tools
    }

    pub(super) fn text(&mut self, text: &str) {
        if !text.is_empty() {
            self.events.push(StreamEvent::Text {
                text: text.to_owned(),
            });
        }
    }

    /// A call started; returns its position. `order` is where the provider puts it in the
    /// model's order.
    pub(super) fn start(
        &mut self,
        id: String,
        provider_name: &str,
        generated_id: bool,
        order: u64,
    ) -> usize {
        let call = self.tools.call(id, provider_name, generated_id);
        let index = self.calls.len();
        self.events.push(StreamEvent::CallStarted {
            index,
            id: call.id.clone(),
            name: call.name.clone(),
        });
        // A deferred tool is callable though not listed: only a tool the list's scope has not
        // at all is known to end unknown.
        let known = self.tools.schema_of(call.name.as_str()).is_some();
        let mut streaming = StreamingCall::new(call, order);
        if !known {
            let error = ToolError::unknown_tool(streaming.call.name.as_str());
            streaming.definite_error = Some(error.clone());
            self.events.push(StreamEvent::Definite { index, error });
        }
        self.calls.push(streaming);
        index
    }

    /// The call at `index` was made by the provider's program `program` (if any). A tool only
    /// the model calls is known at once to end `UNKNOWN_TOOL`, as the registry will refuse it.
    pub(super) fn program(&mut self, index: usize, program: Option<&str>) {
        let Some(call) = self.calls.get_mut(index) else {
            return;
        };
        call.call.set_program(program);
        if program.is_some()
            && call.definite_error.is_none()
            && self.tools.refuses_to_programs(call.call.name.as_str())
        {
            let error = ToolError::unknown_tool(call.call.name.as_str());
            call.definite_error = Some(error.clone());
            self.events.push(StreamEvent::Definite { index, error });
        }
    }

    /// More arguments text for the call at `index`.
    pub(super) fn append(&mut self, index: usize, fragment: &str) {
        if fragment.is_empty() {
            return;
        }
        let Some(call) = self.calls.get_mut(index) else {
            return;
        };
        call.raw_arguments.push_str(fragment);
        let had_error = call.partial_arguments.error().is_some();
        let pushed = call.partial_arguments.push(fragment);
        self.events.push(StreamEvent::ArgumentsDelta {
            index,
            fragment: fragment.to_owned(),
        });
        match pushed {
            Err(error) if !had_error => {
                let error = ToolError::invalid_arguments_text(format!(
                    "arguments are not valid JSON: {error}"
                ));
                self.report(index, error);
            }
            Err(_) => {}
            Ok(()) => self.check(index),
        }
    }

    /// Runs the definite checks on the call at `index` when their budget allows: each check
    /// counts the arguments so far against it, and the checks of a call together count at most
    /// three times its length (plus a small allowance), so a stream costs O(its length) however
    /// it is cut. A check walks the reader itself and only what finished since the last one
    /// (`Schema::definite_violations_since`); a strict view's `null`s, which are removed first,
    /// make it walk a copy of the value so far.
    fn check(&mut self, index: usize) {
        let Some(call) = self.calls.get(index) else {
            return;
        };
        let length = call.raw_arguments.len();
        if call.checked > 2 * length + CHECK_ALLOWANCE
            || call
                .definite_error
                .as_ref()
                .is_some_and(|error| error.violations().is_empty())
        {
            // Over budget, or already known to end as an unknown tool or malformed text.
            return;
        }
        let name = call.call.name.clone();
        if self.tools.sends_pairs(&name) {
            // The view sent a map as pairs: what streams has the view's shape, and a pair's
            // key is known only once the pairs are mapped back; the finished call is checked.
            return;
        }
        let tools = self.tools;
        let schema = self.schemas.entry(name.clone()).or_insert_with(|| {
            let parameters = &tools.schema_of(&name)?.parameters;
            Schema::from_json_schema(parameters).ok()
        });
        let Some(schema) = schema.as_ref() else {
            return;
        };
        let call = &mut self.calls[index];
        call.checked += length;
        let checked = if self.tools.sends_nulls(&name) {
            let (Some(mut value), Some(open)) = (
                call.partial_arguments.value(),
                call.partial_arguments.open_path(),
            ) else {
                return;
            };
            // What the strict view's `null`s stand for is removed first, as it is from the
            // input.
            self.tools.strip_nulls(&name, &mut value);
            schema.definite_violations_in(&value, &open)
        } else {
            // The text is the tool's own: checked on the reader, each finished part about once.
            schema.definite_violations_since(&call.partial_arguments, &mut call.progress)
        };
        let Err(found) = checked else {
            return;
        };
        let mut grew = false;
        for violation in found.reported.iter() {
            // A count found so far (`maxItems`) grows with the text: the same path and
            // message is the same violation.
            let known = call.violations.iter().any(|seen| {
                seen.path() == violation.path() && seen.message() == violation.message()
            });
            if !known {
                call.violations.push(violation.clone());
                grew = true;
            }
        }
        if grew {
            let error = ToolError::invalid_arguments(&found);
            self.report(index, error);
        }
    }

    fn report(&mut self, index: usize, error: ToolError) {
        if let Some(call) = self.calls.get_mut(index) {
            call.definite_error = Some(error.clone());
        }
        self.events.push(StreamEvent::Definite { index, error });
    }

    /// The provider's native tool search found the tools of these provider names: the ones not
    /// found before in this turn are loaded into the list's scope, as the non-streamed reader
    /// loads them, and reported.
    pub(super) fn found<'n>(&mut self, provider_names: impl IntoIterator<Item = &'n str>) {
        let mut fresh: Vec<String> = Vec::new();
        for provider_name in provider_names {
            let name = self.tools.names.canonical_name(provider_name);
            if !self.loaded.iter().chain(&fresh).any(|seen| seen == name) {
                fresh.push(name.to_owned());
            }
        }
        if fresh.is_empty() {
            return;
        }
        // Only what is loaded is reported.
        let fresh = self.tools.load_found(&fresh);
        if fresh.is_empty() {
            return;
        }
        self.loaded.extend(fresh.iter().cloned());
        self.events.push(StreamEvent::ToolsLoaded { names: fresh });
    }

    /// The call at `index` finished with its arguments as a JSON string: `raw`, or the text
    /// streamed when the provider does not repeat it.
    ///
    /// When that text is the one streamed and the reader finished it without an error, the
    /// reader's value is the text's parse (the same grammar, the same numbers, a repeated key
    /// an error too), so the text is not parsed again; otherwise it is parsed as the
    /// non-streamed reader parses it, which also words the error.
    pub(super) fn finish_raw(&mut self, index: usize, raw: Option<&str>) {
        let Some(call) = self.calls.get(index) else {
            return;
        };
        let streamed = raw.is_none_or(|raw| raw == call.raw_arguments);
        let value = match call.partial_arguments.node() {
            Some(PartialNode::Finished(value))
                if streamed && call.partial_arguments.error().is_none() =>
            {
                value
            }
            _ => {
                let input = self
                    .tools
                    .input_from_raw(&call.call, raw.unwrap_or(&call.raw_arguments));
                return self.finish(index, input);
            }
        };
        let name = call.call.name.as_str();
        if self.tools.sends_nulls(name) || self.tools.sends_pairs(name) {
            let input = self.tools.input_from_value(&call.call, value.clone());
            return self.finish(index, input);
        }
        // The arguments are the reader's value as it stands: the event takes a copy, the
        // reader keeps them for the call.
        let without_arguments = self.tools.input_from_value(&call.call, Value::Null);
        let mut input = without_arguments.clone();
        input.arguments = value.clone();
        self.events.push(StreamEvent::CallFinished { index, input });
        if let Some(call) = self.calls.get_mut(index) {
            call.input = Some(FinishedInput::FromReader {
                without_arguments,
                asked: OnceLock::new(),
            });
        }
    }

    /// The call at `index` finished with its arguments as JSON.
    pub(super) fn finish_value(&mut self, index: usize, arguments: Value) {
        let Some(call) = self.calls.get(index) else {
            return;
        };
        let input = self.tools.input_from_value(&call.call, arguments);
        self.finish(index, input);
    }

    fn finish(&mut self, index: usize, input: ToolExecutionInput) {
        self.events.push(StreamEvent::CallFinished {
            index,
            input: input.clone(),
        });
        if let Some(call) = self.calls.get_mut(index) {
            call.input = Some(FinishedInput::Whole(input));
        }
    }

    /// Whether the call at `index` exists and has not finished.
    pub(super) fn is_open(&self, index: usize) -> bool {
        self.calls
            .get(index)
            .is_some_and(|call| call.input.is_none())
    }

    /// The error for the calls the stream left open, if it left any.
    pub(super) fn open_error(&self) -> Option<ProviderError> {
        let open: Vec<String> = self
            .calls
            .iter()
            .enumerate()
            .filter(|(_, call)| call.input.is_none())
            .map(|(position, call)| {
                format!(
                    "{} after {} bytes of arguments",
                    call.describe(position),
                    call.raw_arguments.len()
                )
            })
            .collect();
        (!open.is_empty()).then(|| {
            ProviderError::new(format!(
                "the stream ended before its tool calls did: {}",
                open.join("; ")
            ))
        })
    }

    /// The calls and their inputs in the model's order, once every call finished; otherwise an
    /// error naming each call the stream left open.
    pub(super) fn into_calls(self) -> Result<ToolCalls, ProviderError> {
        if let Some(error) = self.open_error() {
            return Err(error);
        }
        let mut calls = self.calls;
        // Stable: calls the provider gives no order keep the order they started in.
        calls.sort_by_key(|call| call.order);
        let mut out = ToolCalls::default();
        for call in calls {
            if let (call, Some(input)) = call.into_input() {
                out.push(call, input);
            }
        }
        for name in self.loaded {
            out.push_loaded(name);
        }
        Ok(out)
    }
}
