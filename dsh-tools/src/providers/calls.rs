//! What a provider response yields ([`ToolCalls`]: the calls in the model's order and the inputs
//! to run them) and the error for a response that is not the provider's shape
//! ([`ProviderError`]), plus the content helpers every result formatter shares.

use std::borrow::Cow;
use std::fmt;

use serde_json::{Map, Value};

use crate::call::execution::ToolExecutionInput;
use crate::content::{ContentBlock, EmbeddedResource};
use crate::result::ToolExecutionResult;

/// One tool call as the provider made it.
///
/// `#[non_exhaustive]`: made by parsing a response ([`LoweredTools::parse_response`](super::LoweredTools::parse_response))
/// or a stream; its fields are read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolCall {
    /// The provider's id for the call, echoed with its result. Gemini may send none: then a
    /// stable one is made from the call's position, name and arguments.
    pub id: String,
    /// The tool's canonical name, which the input carries.
    pub name: String,
    /// The provider's name, only when the tool was renamed for it.
    renamed: Option<String>,
    /// Whether the id was made here rather than sent by the provider (it is then not echoed).
    pub generated_id: bool,
    /// The provider's id of the program that made the call, when the provider ran a program
    /// that called the tool (programmatic tool calling: OpenAI's `caller.caller_id`,
    /// Anthropic's `caller.tool_id`); `None` for a call the model made directly. The call's
    /// input carries it too ([`ToolExecutionInput::program_caller`]), and its result echoes it
    /// where the provider asks.
    pub program_caller: Option<String>,
}

impl ToolCall {
    pub(crate) fn new(
        id: String,
        name: String,
        renamed: Option<String>,
        generated_id: bool,
    ) -> Self {
        Self {
            id,
            name,
            renamed,
            generated_id,
            program_caller: None,
        }
    }

    /// The same call, made by the provider's program `program` (if any).
    pub(crate) fn set_program(&mut self, program: Option<&str>) {
        self.program_caller = program.map(str::to_owned);
    }

    /// The name the provider used (the mapped name when the tool was renamed for it).
    pub fn provider_name(&self) -> &str {
        self.renamed.as_deref().unwrap_or(&self.name)
    }
}

/// The tool calls of one response, in the model's order: who was called (for formatting the
/// results) and the inputs to run.
///
/// `#[non_exhaustive]`: made by parsing a response or a stream; its fields are read (and the
/// inputs taken to run them).
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct ToolCalls {
    /// The calls, in order; none when the model's turn is over.
    pub calls: Vec<ToolCall>,
    /// The inputs to run, in order: take them to run them
    /// (`registry.execute_batch(std::mem::take(&mut calls.inputs), ..)`), keeping the calls for
    /// formatting the results.
    pub inputs: Vec<ToolExecutionInput>,
    /// The deferred tools the provider's native tool search loaded in this response
    /// (Anthropic's `tool_search_tool_result` references, OpenAI's `tool_search_output`
    /// tools), canonical names in the order found. A list lowered through
    /// [`ProviderTools`](super::ProviderTools) has already loaded them into the agent's scope,
    /// so its `schemas()` agree with the provider.
    pub loaded_tools: Vec<String>,
}

impl ToolCalls {
    /// Room for `calls` calls and their inputs, for a response whose call count is known: each
    /// list is then allocated once, at its size.
    pub(crate) fn with_capacity(calls: usize) -> Self {
        Self {
            calls: Vec::with_capacity(calls),
            inputs: Vec::with_capacity(calls),
            loaded_tools: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, call: ToolCall, input: ToolExecutionInput) {
        self.calls.push(call);
        self.inputs.push(input);
    }

    /// Replaces the names a native search reported with the ones actually loaded.
    pub(crate) fn set_loaded(&mut self, loaded: Vec<String>) {
        self.loaded_tools = loaded;
    }

    pub(crate) fn push_loaded(&mut self, name: String) {
        if !self.loaded_tools.contains(&name) {
            self.loaded_tools.push(name);
        }
    }
}

/// A response (or a result list) that cannot be read or formatted: the provider's shape was not
/// what its documentation says, or results and calls do not pair up. `Display` says what went
/// wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderError {
    message: String,
}

impl ProviderError {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }

    /// A response part that is missing or has the wrong JSON type.
    pub(crate) fn shape(path: &str, expected: &str) -> Self {
        Self::new(format!("response {path} must be {expected}"))
    }
}

impl fmt::Display for ProviderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ProviderError {}

/// Checks that results pair up with calls one to one.
pub(crate) fn check_pairs(calls: &[ToolCall], results: usize) -> Result<(), ProviderError> {
    if calls.len() != results {
        return Err(ProviderError::new(format!(
            "{} tool call(s) but {results} result(s): every call needs exactly one result, in \
             the calls' order",
            calls.len()
        )));
    }
    Ok(())
}

/// The additional contexts of `results`, in order (a batch already collected its own).
/// Borrowed when at most one result carries any, as most do: nothing is copied then.
pub(crate) fn contexts_of(results: &[ToolExecutionResult]) -> Cow<'_, [ContentBlock]> {
    let mut carrying = results
        .iter()
        .map(ToolExecutionResult::additional_contexts)
        .filter(|contexts| !contexts.is_empty());
    let Some(first) = carrying.next() else {
        return Cow::Borrowed(&[]);
    };
    let Some(second) = carrying.next() else {
        return Cow::Borrowed(first);
    };
    let mut all = first.to_vec();
    all.extend_from_slice(second);
    for contexts in carrying {
        all.extend_from_slice(contexts);
    }
    Cow::Owned(all)
}

/// A text note standing in for a block a provider cannot carry where it appears.
pub(crate) fn omitted_note(block: &ContentBlock, provider: &str, whereto: &str) -> String {
    match block {
        ContentBlock::Image { mime_type, .. } => {
            format!("[{mime_type} image: {provider} cannot carry it here; {whereto}]")
        }
        ContentBlock::Audio { mime_type, .. } => {
            format!("[{mime_type} audio omitted: {provider} cannot carry audio here]")
        }
        ContentBlock::ResourceLink { .. }
        | ContentBlock::Resource { .. }
        | ContentBlock::Text { .. } => link_text(block),
    }
}

/// A resource link or an embedded resource as text (providers have no resource blocks for tool
/// results): a link as `[resource name: uri (type)]`; an embedded text resource as that header
/// followed by its text; an embedded binary one as its header saying its contents are not sent.
pub(crate) fn link_text(block: &ContentBlock) -> String {
    match block {
        ContentBlock::ResourceLink {
            uri,
            name,
            mime_type,
        } => {
            let mut text = String::from("[resource");
            if let Some(name) = name {
                text.push(' ');
                text.push_str(name);
            }
            text.push_str(": ");
            text.push_str(uri);
            if let Some(mime_type) = mime_type {
                text.push_str(" (");
                text.push_str(mime_type);
                text.push(')');
            }
            text.push(']');
            text
        }
        ContentBlock::Resource { resource } => {
            let (uri, mime_type, text) = match resource {
                EmbeddedResource::Text {
                    uri,
                    mime_type,
                    text,
                } => (uri, mime_type, Some(text)),
                EmbeddedResource::Blob { uri, mime_type, .. } => (uri, mime_type, None),
            };
            let mut out = format!("[resource {uri}");
            if let Some(mime_type) = mime_type {
                out.push_str(" (");
                out.push_str(mime_type);
                out.push(')');
            }
            match text {
                Some(text) => {
                    out.push_str("]\n");
                    out.push_str(text);
                }
                None => out.push_str(": binary contents not sent]"),
            }
            out
        }
        ContentBlock::Text { text } => text.clone(),
        _ => String::new(),
    }
}

/// A `data:` URL of base64 content.
pub(crate) fn data_url(mime_type: &str, data: &str) -> String {
    format!("data:{mime_type};base64,{data}")
}

/// `{key: value, …}` from pairs, in order.
pub(crate) fn object<const N: usize>(pairs: [(&str, Value); N]) -> Value {
    let mut map = Map::with_capacity(N);
    for (key, value) in pairs {
        map.insert(key.to_owned(), value);
    }
    Value::Object(map)
}

/// A field of a JSON object. Response objects are small, so a scan of their keys is cheaper
/// than hashing the key (this runs for every field of every call a response carries).
pub(crate) fn field<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    let Value::Object(map) = value else {
        return None;
    };
    if map.len() > 16 {
        return map.get(key);
    }
    map.iter()
        .find(|(name, _)| name.as_str() == key)
        .map(|(_, found)| found)
}

/// A field of a JSON object as a string; `at` names the object for the error (only built
/// when the field is missing). Inlined, so the scan compares with the literal key it is
/// given rather than calling `memcmp` for each key of the same length.
#[inline]
pub(crate) fn str_field<'a>(
    value: &'a Value,
    key: &str,
    at: impl Fn() -> String,
) -> Result<&'a str, ProviderError> {
    field(value, key)
        .and_then(Value::as_str)
        .ok_or_else(|| ProviderError::shape(&format!("{}.{key}", at()), "a string"))
}
