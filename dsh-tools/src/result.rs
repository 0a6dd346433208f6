//! The one well-formed outcome of a call: [`ToolExecutionResult`].
//!
//! A result is either a success (a canonical JSON value plus the content rendered from it) or a
//! failure (a [`ToolError`] plus content, by default `Error: <message>`). Results the registry
//! builds carry the token of the execution they belong to, which is how the pipeline tells its own
//! results from ones a wrapper authored (those are re-checked against the tool's output contract).

use std::borrow::Cow;

use serde::Serialize;
use serde_json::Value;

use crate::content::{ContentBlock, joined_text};
use crate::errors::tool_error::ToolError;
use crate::ids::ToolExecutionToken;

/// Success or failure, each with what only it has (users read it through
/// [`ToolExecutionResult::value`] and [`ToolExecutionResult::error`]).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ToolOutcome {
    /// The call succeeded with this canonical value.
    Success(Value),
    /// The call failed.
    Failure(ToolError),
}

/// The `meta` key of a result the journal gave again instead of running the body (see
/// [`ToolExecutionResult::is_replayed`]): its value
/// is `{"attempt": n, "startedAt": "<time>", "place": "<where>"}` of the attempt that ran.
pub(crate) const REPLAYED_META_KEY: &str = "io.dsh-tools/replayed";

/// The outcome of one call as the model, UIs and code see it.
#[derive(Clone)]
pub struct ToolExecutionResult {
    outcome: ToolOutcome,
    /// Shared when the rendering's blocks are made once for the whole program (`null`, `true`,
    /// `false`: `content::value_content`), so such a result allocates nothing for its content;
    /// copied only if it is edited in place.
    content: Cow<'static, [ContentBlock]>,
    /// Behind one pointer: few results carry any, and a result is moved through every phase
    /// (this keeps it small enough to be copied inline).
    extras: Option<Box<Extras>>,
    origin: Option<ToolExecutionToken>,
}

/// The parts of a result few results have.
#[derive(Clone, Default)]
struct Extras {
    meta: Option<Value>,
    additional_contexts: Vec<ContentBlock>,
}

impl ToolExecutionResult {
    /// A success with `value` and no content yet.
    ///
    /// Returned from an `execute` wrapper, the registry re-validates `value` against the tool's
    /// output schema and renders the content itself; authored content is ignored there.
    #[inline]
    pub fn success(value: Value) -> Self {
        Self {
            outcome: ToolOutcome::Success(value),
            content: Cow::Borrowed(&[]),
            extras: None,
            origin: None,
        }
    }

    /// A failure whose content is the single text block `Error: <message>`.
    pub fn failure(error: ToolError) -> Self {
        let content = vec![ContentBlock::text(error.model_text())];
        Self {
            outcome: ToolOutcome::Failure(error),
            content: Cow::Owned(content),
            extras: None,
            origin: None,
        }
    }

    /// Reassembles a result from its parts. The result is authored by the caller: returned from
    /// an `execute` wrapper, a success is re-checked against the tool's output contract.
    pub(crate) fn from_parts(parts: ToolExecutionResultParts) -> Self {
        Self {
            outcome: parts.outcome,
            content: Cow::Owned(parts.content),
            extras: Extras {
                meta: parts.meta,
                additional_contexts: parts.additional_contexts,
            }
            .boxed_unless_empty(),
            origin: None,
        }
    }

    /// Replaces the content. The result is then authored by the caller, not the registry.
    #[must_use]
    pub fn with_content(mut self, content: Vec<ContentBlock>) -> Self {
        self.content = Cow::Owned(content);
        self.origin = None;
        self
    }

    /// Attaches presentation metadata for UIs. The result is then authored by the caller.
    #[must_use]
    pub fn with_meta(mut self, meta: Value) -> Self {
        self.extras_mut().meta = Some(meta);
        self.origin = None;
        self
    }

    /// Appends context for the model's next request (not part of this call's content).
    #[must_use]
    pub fn with_additional_context(mut self, context: ContentBlock) -> Self {
        self.extras_mut().additional_contexts.push(context);
        self.origin = None;
        self
    }

    /// Whether the call store's journal gave this result again instead of running the tool's
    /// body: an earlier attempt of the same call completed (its `meta` carries
    /// `io.dsh-tools/replayed`: `{"attempt": n, "startedAt": "<time>", "place": "<where>"}` of
    /// the attempt that ran).
    pub fn is_replayed(&self) -> bool {
        self.meta()
            .is_some_and(|meta| meta.get(REPLAYED_META_KEY).is_some())
    }

    /// Whether the call failed.
    #[inline]
    pub fn is_error(&self) -> bool {
        matches!(self.outcome, ToolOutcome::Failure(_))
    }

    /// Success or failure (users read it as [`value`](Self::value) and [`error`](Self::error)).
    #[cfg(feature = "durable")] // the journal reads it
    pub(crate) fn outcome(&self) -> &ToolOutcome {
        &self.outcome
    }

    /// The canonical value of a success.
    pub fn value(&self) -> Option<&Value> {
        match &self.outcome {
            ToolOutcome::Success(value) => Some(value),
            ToolOutcome::Failure(_) => None,
        }
    }

    /// The error of a failure.
    pub fn error(&self) -> Option<&ToolError> {
        match &self.outcome {
            ToolOutcome::Failure(error) => Some(error),
            ToolOutcome::Success(_) => None,
        }
    }

    /// The error code of a failure, when it has one.
    pub fn error_code(&self) -> Option<&str> {
        self.error().and_then(ToolError::code)
    }

    /// The model-facing content.
    pub fn content(&self) -> &[ContentBlock] {
        &self.content
    }

    /// The text blocks of the content joined by newlines.
    pub fn text(&self) -> String {
        joined_text(&self.content)
    }

    /// Presentation metadata for UIs.
    pub fn meta(&self) -> Option<&Value> {
        self.extras.as_ref()?.meta.as_ref()
    }

    /// Context for the model's next request, in the order it was attached.
    pub fn additional_contexts(&self) -> &[ContentBlock] {
        match &self.extras {
            Some(extras) => &extras.additional_contexts,
            None => &[],
        }
    }

    /// Takes the result apart, to move its parts rather than copy them.
    pub(crate) fn into_parts(self) -> ToolExecutionResultParts {
        let Extras {
            meta,
            additional_contexts,
        } = self.extras.map(|extras| *extras).unwrap_or_default();
        ToolExecutionResultParts {
            outcome: self.outcome,
            content: self.content.into_owned(),
            meta,
            additional_contexts,
        }
    }

    /// The execution that built this result, when the registry built it.
    pub(crate) fn origin(&self) -> Option<ToolExecutionToken> {
        self.origin
    }

    /// Replaces the content in place, keeping the stamp (the registry's own rewrites).
    #[inline]
    pub(crate) fn set_content(&mut self, content: Vec<ContentBlock>) {
        self.content = Cow::Owned(content);
    }

    /// The content, to edit in place, keeping the stamp (the registry's own rewrites); shared
    /// content is copied by the edit (`Cow::to_mut`), not by this.
    #[inline]
    pub(crate) fn content_mut(&mut self) -> &mut Cow<'static, [ContentBlock]> {
        &mut self.content
    }

    /// Puts `contexts` before the ones already attached.
    #[inline]
    pub(crate) fn prepend_additional_contexts(&mut self, mut contexts: Vec<ContentBlock>) {
        if contexts.is_empty() {
            return;
        }
        let extras = self.extras_mut();
        contexts.append(&mut extras.additional_contexts);
        extras.additional_contexts = contexts;
    }

    /// Appends `contexts` after the ones already attached.
    pub(crate) fn extend_additional_contexts(&mut self, contexts: Vec<ContentBlock>) {
        if contexts.is_empty() {
            return;
        }
        self.extras_mut().additional_contexts.extend(contexts);
    }

    /// Removes and returns the attached contexts.
    pub(crate) fn take_additional_contexts(&mut self) -> Vec<ContentBlock> {
        match &mut self.extras {
            Some(extras) => std::mem::take(&mut extras.additional_contexts),
            None => Vec::new(),
        }
    }

    /// A success the registry rendered for `token`, built in one go.
    #[inline]
    pub(crate) fn rendered(
        value: Value,
        content: Cow<'static, [ContentBlock]>,
        token: ToolExecutionToken,
    ) -> Self {
        Self {
            outcome: ToolOutcome::Success(value),
            content,
            extras: None,
            origin: Some(token),
        }
    }

    /// The extras, created on first use.
    fn extras_mut(&mut self) -> &mut Extras {
        self.extras.get_or_insert_default()
    }

    /// Stamps the result as built by the registry for `token`.
    #[inline]
    pub(crate) fn stamped(mut self, token: ToolExecutionToken) -> Self {
        self.origin = Some(token);
        self
    }
}

impl Extras {
    fn boxed_unless_empty(self) -> Option<Box<Self>> {
        (self.meta.is_some() || !self.additional_contexts.is_empty()).then(|| Box::new(self))
    }
}

impl PartialEq for ToolExecutionResult {
    fn eq(&self, other: &Self) -> bool {
        self.outcome == other.outcome
            && self.content == other.content
            && self.meta() == other.meta()
            && self.additional_contexts() == other.additional_contexts()
            && self.origin == other.origin
    }
}

impl std::fmt::Debug for ToolExecutionResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolExecutionResult")
            .field("outcome", &self.outcome)
            .field("content", &self.content)
            .field("meta", &self.meta())
            .field("additional_contexts", &self.additional_contexts())
            .field("origin", &self.origin)
            .finish()
    }
}

/// A result taken apart ([`ToolExecutionResult::into_parts`]) and put together again
/// ([`ToolExecutionResult::from_parts`]): how the crate's own layers move a result's parts
/// rather than copy them. Users read a result with its getters and build one with
/// [`success`](ToolExecutionResult::success)/[`failure`](ToolExecutionResult::failure) and the
/// `with_*` methods.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ToolExecutionResultParts {
    /// Success or failure.
    pub outcome: ToolOutcome,
    /// The model-facing content.
    pub content: Vec<ContentBlock>,
    /// Presentation metadata.
    pub meta: Option<Value>,
    /// Context for the model's next request.
    pub additional_contexts: Vec<ContentBlock>,
}

impl Serialize for ToolExecutionResult {
    /// `{"isError", "content", "value"?, "error"?, "meta"?, "additionalContexts"?}`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("isError", &self.is_error())?;
        map.serialize_entry("content", &self.content)?;
        match &self.outcome {
            ToolOutcome::Success(value) => map.serialize_entry("value", value)?,
            ToolOutcome::Failure(error) => map.serialize_entry("error", error)?,
        }
        if let Some(meta) = self.meta() {
            map.serialize_entry("meta", meta)?;
        }
        if !self.additional_contexts().is_empty() {
            map.serialize_entry("additionalContexts", self.additional_contexts())?;
        }
        map.end()
    }
}
