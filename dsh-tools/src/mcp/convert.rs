//! The vocabulary mapping between dsh-tools and MCP (`rmcp::model`): content blocks both ways,
//! tool annotations and icons both ways, a pipeline result as a `tools/call` result, a failed result's
//! `{name, code}` both ways through the result's `_meta`, and the `_meta` key of a request that
//! carries its call's idempotency key.
//!
//! Content maps 1:1: text, image, audio, resource link and embedded resource are the same five
//! kinds on both sides. Nothing here runs a call or touches a connection.

use rmcp::model as mcp;
use serde_json::{Map, Value};

use crate::call::options::ToolAnnotations;
use crate::content::{ContentBlock, EmbeddedResource};
use crate::errors::tool_error::ErrorInfo;
use crate::present::{IconTheme, ToolIcon};
use crate::result::{ToolExecutionResult, ToolOutcome};

/// The `_meta` key of a failed `tools/call` result that carries the error's
/// `{"name": …, "code": …}` ([`ErrorInfo`](crate::errors::ErrorInfo)), so a client can branch on
/// the code as code inside the registry does; the model still reads only the content.
///
/// MCP lets `_meta` keys carry a prefix of dot-separated labels ending in `/` and reserves the
/// prefixes whose second label is `modelcontextprotocol` or `mcp` (earlier revisions: any label
/// sequence naming them before another label); a one-label prefix named for this crate is
/// neither, and no domain stands behind the crate to spell in reverse.
pub const ERROR_META_KEY: &str = "dsh-tools/error";

/// The `_meta` key of a `tools/call` request that carries the call's idempotency key (see
/// [`ToolExecution::idempotency_key`](crate::call::ToolExecution::idempotency_key)): sent by an
/// imported tool on every attempt of a call, read by a served registry's journal.
pub(crate) const IDEMPOTENCY_META_KEY: &str = "io.dsh-tools/idempotency-key";

/// One of our content blocks as an MCP content block.
pub(crate) fn content_to_mcp(block: ContentBlock) -> mcp::ContentBlock {
    match block {
        ContentBlock::Text { text } => mcp::ContentBlock::text(text),
        ContentBlock::Image { data, mime_type } => mcp::ContentBlock::image(data, mime_type),
        ContentBlock::Audio { data, mime_type } => mcp::ContentBlock::audio(data, mime_type),
        ContentBlock::ResourceLink {
            uri,
            name,
            mime_type,
        } => {
            // MCP requires a name; the URI is the most faithful stand-in.
            let name = name.unwrap_or_else(|| uri.clone());
            let mut link = mcp::Resource::new(uri, name);
            if let Some(mime_type) = mime_type {
                link = link.with_mime_type(mime_type);
            }
            mcp::ContentBlock::resource_link(link)
        }
        ContentBlock::Resource { resource } => {
            let (contents, mime_type) = match resource {
                EmbeddedResource::Text {
                    uri,
                    mime_type,
                    text,
                } => (mcp::ResourceContents::text(text, uri), mime_type),
                EmbeddedResource::Blob {
                    uri,
                    mime_type,
                    blob,
                } => (mcp::ResourceContents::blob(blob, uri), mime_type),
            };
            let contents = match mime_type {
                Some(mime_type) => contents.with_mime_type(mime_type),
                None => contents,
            };
            mcp::ContentBlock::resource(contents)
        }
    }
}

/// An MCP content block as one of ours. A kind newer than this bridge arrives as its JSON text,
/// so nothing the server said is lost.
pub(crate) fn content_from_mcp(block: mcp::ContentBlock) -> ContentBlock {
    match block {
        mcp::ContentBlock::Text(text) => ContentBlock::text(text.text),
        mcp::ContentBlock::Image(image) => ContentBlock::Image {
            data: image.data,
            mime_type: image.mime_type,
        },
        mcp::ContentBlock::Audio(audio) => ContentBlock::Audio {
            data: audio.data,
            mime_type: audio.mime_type,
        },
        mcp::ContentBlock::ResourceLink(link) => ContentBlock::ResourceLink {
            uri: link.uri,
            name: Some(link.name),
            mime_type: link.mime_type,
        },
        mcp::ContentBlock::Resource(embedded) => match embedded.resource {
            mcp::ResourceContents::TextResourceContents {
                uri,
                mime_type,
                text,
                ..
            } => ContentBlock::Resource {
                resource: EmbeddedResource::Text {
                    uri,
                    mime_type,
                    text,
                },
            },
            mcp::ResourceContents::BlobResourceContents {
                uri,
                mime_type,
                blob,
                ..
            } => ContentBlock::Resource {
                resource: EmbeddedResource::Blob {
                    uri,
                    mime_type,
                    blob,
                },
            },
            other => ContentBlock::text(json_text(&other)),
        },
        other => ContentBlock::text(json_text(&other)),
    }
}

fn json_text(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Our behaviour hints as MCP tool annotations; `None` when no hint is declared.
pub(crate) fn annotations_to_mcp(hints: &ToolAnnotations) -> Option<mcp::ToolAnnotations> {
    let ToolAnnotations {
        title,
        kind: _,
        read_only,
        destructive,
        idempotent,
        open_world,
    } = hints;
    let declared = title.is_some()
        || read_only.is_some()
        || destructive.is_some()
        || idempotent.is_some()
        || open_world.is_some();
    declared.then(|| {
        mcp::ToolAnnotations::from_raw(
            title.clone(),
            *read_only,
            *destructive,
            *idempotent,
            *open_world,
        )
    })
}

/// An MCP tool's title and annotations as our behaviour hints (the tool-level title wins over
/// the annotation's).
pub(crate) fn annotations_from_mcp(tool: &mcp::Tool) -> ToolAnnotations {
    let hints = tool.annotations.clone().unwrap_or_default();
    ToolAnnotations {
        title: tool.title.clone().or(hints.title),
        kind: None,
        read_only: hints.read_only_hint,
        destructive: hints.destructive_hint,
        idempotent: hints.idempotent_hint,
        open_world: hints.open_world_hint,
    }
}

/// One of our tool icons as an MCP icon.
pub(crate) fn icon_to_mcp(icon: &ToolIcon) -> mcp::Icon {
    let mut converted = mcp::Icon::new(icon.src.clone());
    if let Some(mime_type) = &icon.mime_type {
        converted = converted.with_mime_type(mime_type.clone());
    }
    if !icon.sizes.is_empty() {
        converted = converted.with_sizes(icon.sizes.clone());
    }
    if let Some(theme) = icon.theme {
        converted = converted.with_theme(match theme {
            IconTheme::Light => mcp::IconTheme::Light,
            IconTheme::Dark => mcp::IconTheme::Dark,
        });
    }
    converted
}

/// An MCP icon as one of ours; a theme of a later revision we do not know reads as none (the
/// icon suits any background, which is what a client assumes of an unthemed icon).
pub(crate) fn icon_from_mcp(icon: &mcp::Icon) -> ToolIcon {
    ToolIcon {
        src: icon.src.clone(),
        mime_type: icon.mime_type.clone(),
        sizes: icon.sizes.clone().unwrap_or_default(),
        theme: match icon.theme {
            Some(mcp::IconTheme::Light) => Some(IconTheme::Light),
            Some(mcp::IconTheme::Dark) => Some(IconTheme::Dark),
            _ => None,
        },
    }
}

/// Which values of a success a `tools/call` result carries as `structuredContent`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Structured {
    /// None: the tool declares no output schema.
    Never,
    /// Objects only: the peer speaks a revision before 2026-07-28, where `structuredContent`
    /// is an object (another value is in the content as text already).
    Objects,
    /// Any JSON value (2026-07-28 and later).
    AnyValue,
}

impl Structured {
    /// What a call of a tool that does (or does not) `declare_output` carries for a peer that
    /// does (or does not) speak 2026-07-28 or later.
    pub(crate) fn of(declares_output: bool, any_value: bool) -> Self {
        match (declares_output, any_value) {
            (false, _) => Self::Never,
            (true, false) => Self::Objects,
            (true, true) => Self::AnyValue,
        }
    }

    fn carries(self, value: &Value) -> bool {
        match self {
            Self::Never => false,
            Self::Objects => value.is_object(),
            Self::AnyValue => true,
        }
    }
}

/// A pipeline result as a `tools/call` result: the content block for block, then any additional
/// contexts (MCP has no other place the model would read them); `structuredContent` is the value
/// of a success as `structured` says; `isError` for every failure, with the error's
/// `{name, code}` under [`ERROR_META_KEY`] in `_meta`.
pub(crate) fn call_tool_result(
    result: ToolExecutionResult,
    structured: Structured,
) -> mcp::CallToolResult {
    let parts = result.into_parts();
    let mut content: Vec<mcp::ContentBlock> =
        Vec::with_capacity(parts.content.len() + parts.additional_contexts.len());
    content.extend(parts.content.into_iter().map(content_to_mcp));
    content.extend(parts.additional_contexts.into_iter().map(content_to_mcp));
    match parts.outcome {
        ToolOutcome::Success(value) => {
            let mut reply = mcp::CallToolResult::success(content);
            if structured.carries(&value) {
                reply.structured_content = Some(value);
            }
            reply
        }
        ToolOutcome::Failure(error) => {
            let mut reply = mcp::CallToolResult::error(content);
            reply.meta = error.info().map(error_meta);
            reply
        }
    }
}

/// The `_meta` of a failed result: `{"dsh-tools/error": {"name": …, "code": …}}`.
fn error_meta(info: &ErrorInfo) -> mcp::MetaObject {
    let pair = Map::from_iter([
        ("name".to_owned(), Value::from(info.name.as_ref())),
        ("code".to_owned(), Value::from(info.code.as_ref())),
    ]);
    mcp::MetaObject(Map::from_iter([(
        ERROR_META_KEY.to_owned(),
        Value::Object(pair),
    )]))
}

/// The `{name, code}` a failed result's `_meta` carries under [`ERROR_META_KEY`]; `None` when it
/// carries none, or not as two non-empty strings (a server speaking another convention).
pub(crate) fn error_info_from_meta(meta: Option<&mcp::MetaObject>) -> Option<ErrorInfo> {
    let pair = meta?.0.get(ERROR_META_KEY)?;
    let text = |key: &str| {
        pair.get(key)
            .and_then(Value::as_str)
            .filter(|text| !text.is_empty())
            .map(str::to_owned)
    };
    Some(ErrorInfo::new(text("name")?, text("code")?))
}
