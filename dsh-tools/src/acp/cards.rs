//! [`AcpCards`]: cards ([`ToolCallView`], [`ToolResultView`]) as Agent Client Protocol tool calls
//! and tool-call updates, for one session (its working directory, whether its client shows
//! terminals).
//!
//! Pure mapping, no connection: what the bridge ([`AcpToolCalls`](super::AcpToolCalls)) sends is
//! exactly what these functions return, so they are what the golden and schema tests pin down
//! through it. The functions are the bridge's, not API: a session's settings are.
//!
//! The `tool_call` of a call that starts is `in_progress`; one shown while the model is still
//! writing it is `pending` until it starts (`partial_tool_call`, then `started_update`).
//!
//! | card | pending `tool_call` | progress `tool_call_update` | completion `tool_call_update` |
//! |---|---|---|---|
//! | generic | title, kind, raw input, locations, text content | the same, `in_progress`, plus the progress text | `completed`/`failed`, content, title when given |
//! | diff | kind `edit`, one diff per file, locations (the diffs' files when none) | the same plus the progress text | the diffs (replacing the pending ones) |
//! | terminal | kind `execute`, the command as title and raw input, its description as text; with client terminal support a terminal block (the call id) and `_meta.terminal_info` | the same plus the progress text | with terminal support `_meta.terminal_output` and `_meta.terminal_exit`; without, the output as a fenced console block |
//!
//! The `tool_call` also carries the tool name and the raw input (the card's, else the call's
//! arguments; a terminal card's command), the completion the raw output (the value of a success, the error of a failure).
//! Locations and diff paths are made absolute against the session's working directory (ACP wants
//! absolute paths there); absolute paths inside it are written relative to it in titles.

use std::path::PathBuf;

use agent_client_protocol::v1::schema::{
    self as acp, Meta, ToolCall, ToolCallContent, ToolCallLocation, ToolCallStatus, ToolCallUpdate,
    ToolCallUpdateFields, ToolKind,
};
use serde_json::{Value, json};

use crate::acp::paths::SessionPaths;
use crate::content::{ContentBlock, EmbeddedResource, fenced_block};
use crate::present::text::progress_text;
use crate::present::{FileDiff, FileLocation, ToolCallKind, ToolCallView, ToolResultView};
use crate::progress::ToolProgress;
use crate::result::ToolExecutionResult;

/// How one session's cards become ACP tool calls: the session's working directory and whether
/// the client shows terminals. [`AcpToolCalls`](super::AcpToolCalls) maps and sends them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AcpCards {
    paths: SessionPaths,
    terminal: bool,
}

impl AcpCards {
    /// Cards for a session working in `cwd` (an absolute path), for a client that shows
    /// terminals or not: the `terminal` flag of the `ClientCapabilities` it announced in
    /// `initialize` (`AcpCards::new(cwd, capabilities.terminal)`).
    pub fn new(cwd: impl Into<PathBuf>, terminal: bool) -> Self {
        Self {
            paths: SessionPaths::new(cwd.into()),
            terminal,
        }
    }

    /// The `tool_call` announcing call `call_id` of `tool_name` with `arguments`, shown as `card`,
    /// as the call starts (status `in_progress`).
    pub(crate) fn tool_call(
        &self,
        call_id: &str,
        tool_name: &str,
        arguments: &Value,
        card: &ToolCallView,
    ) -> ToolCall {
        self.announce(
            call_id,
            tool_name,
            arguments,
            card,
            ToolCallStatus::InProgress,
        )
    }

    /// The `tool_call` announcing call `call_id` while the model is still writing it (status
    /// `pending`): `arguments` are those so far.
    pub(crate) fn partial_tool_call(
        &self,
        call_id: &str,
        tool_name: &str,
        arguments: &Value,
        card: &ToolCallView,
    ) -> ToolCall {
        self.announce(call_id, tool_name, arguments, card, ToolCallStatus::Pending)
    }

    fn announce(
        &self,
        call_id: &str,
        tool_name: &str,
        arguments: &Value,
        card: &ToolCallView,
        status: ToolCallStatus,
    ) -> ToolCall {
        let shown = self.pending(call_id, arguments, card);
        let mut call = ToolCall::new(call_id.to_owned(), shown.title)
            .name(tool_name.to_owned())
            .kind(shown.kind)
            .status(status)
            .content(shown.content)
            .locations(shown.locations)
            .raw_input(shown.raw_input);
        if let Some(meta) = shown.meta {
            call = call.meta(meta);
        }
        call
    }

    /// The `tool_call_update` re-showing pending call `call_id` as `card` (status `pending`):
    /// everything its `tool_call` carries, for a call shown while the model was still writing it
    /// whose arguments grew.
    pub(crate) fn pending_update(
        &self,
        call_id: &str,
        tool_name: &str,
        arguments: &Value,
        card: &ToolCallView,
    ) -> ToolCallUpdate {
        self.reshow(call_id, tool_name, arguments, card, ToolCallStatus::Pending)
    }

    /// The `tool_call_update` of a call shown while the model was still writing it that now
    /// starts with its final arguments (status `in_progress`): everything a `tool_call` carries.
    pub(crate) fn started_update(
        &self,
        call_id: &str,
        tool_name: &str,
        arguments: &Value,
        card: &ToolCallView,
    ) -> ToolCallUpdate {
        self.reshow(
            call_id,
            tool_name,
            arguments,
            card,
            ToolCallStatus::InProgress,
        )
    }

    fn reshow(
        &self,
        call_id: &str,
        tool_name: &str,
        arguments: &Value,
        card: &ToolCallView,
        status: ToolCallStatus,
    ) -> ToolCallUpdate {
        let shown = self.pending(call_id, arguments, card);
        let fields = ToolCallUpdateFields::new()
            .status(status)
            .name(tool_name.to_owned())
            .title(shown.title)
            .kind(shown.kind)
            .content(shown.content)
            .locations(shown.locations)
            .raw_input(shown.raw_input);
        let mut update = ToolCallUpdate::new(call_id.to_owned(), fields);
        if let Some(meta) = shown.meta {
            update = update.meta(meta);
        }
        update
    }

    /// The `tool_call_update` of a progress report of call `call_id` (status `in_progress`):
    /// `card` (the progress card, or the pending one) with the progress as text after its
    /// content.
    pub(crate) fn progress_update(
        &self,
        call_id: &str,
        arguments: &Value,
        card: &ToolCallView,
        progress: &ToolProgress,
    ) -> ToolCallUpdate {
        let mut shown = self.pending(call_id, arguments, card);
        shown.content.push(text_content(progress_text(progress)));
        let locations = (!shown.locations.is_empty()).then_some(shown.locations);
        let fields = ToolCallUpdateFields::new()
            .status(ToolCallStatus::InProgress)
            .title(shown.title)
            .kind(shown.kind)
            .content(shown.content)
            .locations(locations);
        ToolCallUpdate::new(call_id.to_owned(), fields)
    }

    /// The `tool_call_update` completing call `call_id` (status `completed`, or `failed` for an
    /// error result): `card` is its result card, `call` its pending card.
    #[doc(hidden)]
    pub fn completion_update(
        &self,
        call_id: &str,
        call: &ToolCallView,
        card: &ToolResultView,
        result: &ToolExecutionResult,
    ) -> ToolCallUpdate {
        let status = if result.is_error() {
            ToolCallStatus::Failed
        } else {
            ToolCallStatus::Completed
        };
        let raw_output = match result.error() {
            Some(error) => serde_json::to_value(error).unwrap_or(Value::Null),
            None => result.value().cloned().unwrap_or(Value::Null),
        };
        let mut fields = ToolCallUpdateFields::new()
            .status(status)
            .raw_output(raw_output);
        let mut meta = None;
        match card {
            ToolResultView::Generic { title, content } => {
                fields = fields
                    .title(
                        title
                            .as_deref()
                            .map(|title| self.paths.relative_title(title)),
                    )
                    .content(content.iter().map(acp_content).collect::<Vec<_>>());
            }
            ToolResultView::Diff { title, diffs } => {
                fields = fields
                    .title(
                        title
                            .as_deref()
                            .map(|title| self.paths.relative_title(title)),
                    )
                    .content(
                        diffs
                            .iter()
                            .map(|diff| self.diff_content(diff))
                            .collect::<Vec<_>>(),
                    );
            }
            ToolResultView::Terminal {
                title,
                output,
                exit_code,
                signal,
            } => {
                fields = fields.title(
                    title
                        .as_deref()
                        .map(|title| self.paths.relative_title(title)),
                );
                let output = output.as_deref().unwrap_or("");
                if self.terminal && matches!(call, ToolCallView::Terminal { .. }) {
                    meta = Some(terminal_exit_meta(
                        call_id,
                        output,
                        *exit_code,
                        signal.as_deref(),
                    ));
                } else {
                    fields = fields.content(vec![text_content(fenced_block("console", output))]);
                }
            }
        }
        let mut update = ToolCallUpdate::new(call_id.to_owned(), fields);
        if let Some(meta) = meta {
            update = update.meta(meta);
        }
        update
    }

    /// What the pending card shows, shared by the `tool_call` and progress updates.
    fn pending(&self, call_id: &str, arguments: &Value, card: &ToolCallView) -> Shown {
        match card {
            ToolCallView::Generic {
                title,
                kind,
                raw_input,
                content,
                locations,
            } => Shown {
                title: self.paths.relative_title(title),
                kind: acp_kind(*kind),
                content: content.iter().map(acp_content).collect(),
                locations: self.locations(locations),
                raw_input: raw_input.clone().unwrap_or_else(|| arguments.clone()),
                meta: None,
            },
            ToolCallView::Diff {
                title,
                diffs,
                locations,
            } => {
                let locations = if locations.is_empty() {
                    diffs
                        .iter()
                        .map(|diff| FileLocation {
                            path: diff.path.clone(),
                            line: None,
                        })
                        .collect()
                } else {
                    locations.clone()
                };
                Shown {
                    title: self.paths.relative_title(title),
                    kind: ToolKind::Edit,
                    content: diffs.iter().map(|diff| self.diff_content(diff)).collect(),
                    locations: self.locations(&locations),
                    raw_input: arguments.clone(),
                    meta: None,
                }
            }
            ToolCallView::Terminal {
                title,
                description,
                cwd,
            } => {
                let mut content: Vec<ToolCallContent> = description
                    .iter()
                    .map(|description| text_content(description.clone()))
                    .collect();
                let mut meta = None;
                if self.terminal {
                    content.push(ToolCallContent::Terminal(acp::Terminal::new(
                        call_id.to_owned(),
                    )));
                    let cwd = match cwd {
                        Some(cwd) => self.paths.absolute(cwd),
                        None => self.paths.cwd().to_path_buf(),
                    };
                    meta = Some(meta_of(json!({
                        "terminal_info": {
                            "terminal_id": call_id,
                            "cwd": cwd.to_string_lossy(),
                        }
                    })));
                }
                Shown {
                    title: title.clone(),
                    kind: ToolKind::Execute,
                    content,
                    locations: Vec::new(),
                    // The command the card shows, as a client's terminal view expects it.
                    raw_input: Value::String(title.clone()),
                    meta,
                }
            }
        }
    }

    fn locations(&self, locations: &[FileLocation]) -> Vec<ToolCallLocation> {
        locations
            .iter()
            .map(|location| {
                ToolCallLocation::new(self.paths.absolute(&location.path)).line(location.line)
            })
            .collect()
    }

    fn diff_content(&self, diff: &FileDiff) -> ToolCallContent {
        ToolCallContent::Diff(
            acp::Diff::new(self.paths.absolute(&diff.path), diff.new_text.clone())
                .old_text(diff.old_text.clone()),
        )
    }
}

/// The fields a pending card fills, before they go into a `tool_call` or an update.
struct Shown {
    title: String,
    kind: ToolKind,
    content: Vec<ToolCallContent>,
    locations: Vec<ToolCallLocation>,
    raw_input: Value,
    meta: Option<Meta>,
}

fn acp_kind(kind: ToolCallKind) -> ToolKind {
    match kind {
        ToolCallKind::Read => ToolKind::Read,
        ToolCallKind::Edit => ToolKind::Edit,
        ToolCallKind::Delete => ToolKind::Delete,
        ToolCallKind::Move => ToolKind::Move,
        ToolCallKind::Search => ToolKind::Search,
        ToolCallKind::Execute => ToolKind::Execute,
        ToolCallKind::Fetch => ToolKind::Fetch,
        ToolCallKind::Other => ToolKind::Other,
    }
}

fn text_content(text: String) -> ToolCallContent {
    ToolCallContent::from(acp::ContentBlock::Text(acp::TextContent::new(text)))
}

/// A content block of a card as ACP content.
fn acp_content(block: &ContentBlock) -> ToolCallContent {
    let block = match block {
        ContentBlock::Text { text } => acp::ContentBlock::Text(acp::TextContent::new(text.clone())),
        ContentBlock::Image { data, mime_type } => {
            acp::ContentBlock::Image(acp::ImageContent::new(data.clone(), mime_type.clone()))
        }
        ContentBlock::Audio { data, mime_type } => {
            acp::ContentBlock::Audio(acp::AudioContent::new(data.clone(), mime_type.clone()))
        }
        ContentBlock::ResourceLink {
            uri,
            name,
            mime_type,
        } => acp::ContentBlock::ResourceLink(
            acp::ResourceLink::new(name.clone().unwrap_or_else(|| uri.clone()), uri.clone())
                .mime_type(mime_type.clone()),
        ),
        ContentBlock::Resource { resource } => {
            let resource = match resource {
                EmbeddedResource::Text {
                    uri,
                    mime_type,
                    text,
                } => acp::EmbeddedResourceResource::TextResourceContents(
                    acp::TextResourceContents::new(text.clone(), uri.clone())
                        .mime_type(mime_type.clone()),
                ),
                EmbeddedResource::Blob {
                    uri,
                    mime_type,
                    blob,
                } => acp::EmbeddedResourceResource::BlobResourceContents(
                    acp::BlobResourceContents::new(blob.clone(), uri.clone())
                        .mime_type(mime_type.clone()),
                ),
            };
            acp::ContentBlock::Resource(acp::EmbeddedResource::new(resource))
        }
    };
    ToolCallContent::from(block)
}

/// The terminal `_meta` of a finished command: its output, then how it exited (the signal when
/// it was killed, else its exit code when known).
fn terminal_exit_meta(
    call_id: &str,
    output: &str,
    exit_code: Option<i32>,
    signal: Option<&str>,
) -> Meta {
    let exit = match (signal, exit_code) {
        (Some(signal), _) => json!({ "terminal_id": call_id, "signal": signal }),
        (None, Some(code)) => json!({ "terminal_id": call_id, "exit_code": code }),
        (None, None) => json!({ "terminal_id": call_id }),
    };
    meta_of(json!({
        "terminal_output": { "terminal_id": call_id, "data": output },
        "terminal_exit": exit,
    }))
}

fn meta_of(value: Value) -> Meta {
    match value {
        Value::Object(map) => map,
        _ => Meta::new(),
    }
}
