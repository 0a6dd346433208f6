//! Model-facing content: the blocks a tool result is made of.
//!
//! This module owns only the content vocabulary; how a value becomes content is the definition's
//! `render` (see [`crate::ToolDefinition::render`]), and what a `#[tool(render = path)]` function
//! may return is [`IntoContent`].

use std::borrow::Cow;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use crate::lossless::{NotLossless, to_lossless_value};

/// One block of model-facing content, serialized in the shape MCP and most providers use
/// (`{"type":"text","text":"…"}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ContentBlock {
    /// Plain text.
    Text {
        /// The text itself.
        text: String,
    },
    /// An image, base64-encoded.
    Image {
        /// Base64 data.
        data: String,
        /// MIME type such as `image/png`.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// Audio, base64-encoded.
    Audio {
        /// Base64 data.
        data: String,
        /// MIME type such as `audio/wav`.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// A link to a resource the model may fetch or the host may show.
    ResourceLink {
        /// The resource URI.
        uri: String,
        /// Optional human-readable name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// Optional MIME type.
        #[serde(default, rename = "mimeType", skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
    },
    /// A resource embedded whole: its URI and its contents (text or base64 data).
    Resource {
        /// The resource itself.
        resource: EmbeddedResource,
    },
}

/// The contents of a resource embedded in a result, in MCP's shape (`{"uri", "mimeType"?, "text"}`
/// or `{"uri", "mimeType"?, "blob"}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum EmbeddedResource {
    /// A text resource.
    Text {
        /// The resource URI.
        uri: String,
        /// Optional MIME type.
        #[serde(default, rename = "mimeType", skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// The text.
        text: String,
    },
    /// A binary resource, base64-encoded.
    Blob {
        /// The resource URI.
        uri: String,
        /// Optional MIME type.
        #[serde(default, rename = "mimeType", skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// Base64 data.
        blob: String,
    },
}

impl ContentBlock {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text { text: text.into() }
    }

    /// The text of a text block (users match on [`ContentBlock::Text`]).
    pub(crate) fn as_text(&self) -> Option<&str> {
        match self {
            Self::Text { text } => Some(text),
            _ => None,
        }
    }
}

/// The text blocks of `content` joined by newlines (non-text blocks are skipped).
pub(crate) fn joined_text(content: &[ContentBlock]) -> String {
    let mut out = String::new();
    for text in content.iter().filter_map(ContentBlock::as_text) {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(text);
    }
    out
}

/// `text` as a fenced Markdown block of `language`, trailing newlines trimmed; the fence is
/// longer than any run of backticks inside, so nothing in the text can close the block.
#[cfg(any(feature = "acp", feature = "code-mode"))]
pub(crate) fn fenced_block(language: &str, text: &str) -> String {
    let text = text.trim_end_matches(['\n', '\r']);
    let longest_run = text
        .split(|character| character != '`')
        .map(str::len)
        .max()
        .unwrap_or(0);
    let fence = "`".repeat(longest_run.max(2) + 1);
    format!("{fence}{language}\n{text}\n{fence}")
}

/// The default rendering: a string as its text, anything else as compact JSON.
#[inline]
pub(crate) fn render_value_as_text(value: &Value) -> ContentBlock {
    // Scalars skip the formatting machinery: this runs on every successful call.
    let text = match value {
        Value::String(text) => text.clone(),
        Value::Null => "null".to_owned(),
        Value::Bool(true) => "true".to_owned(),
        Value::Bool(false) => "false".to_owned(),
        other => serde_json::to_string(other).unwrap_or_else(|_| other.to_string()),
    };
    ContentBlock::text(text)
}

/// The default rendering as a result's content: [`render_value_as_text`]'s one block. `null`,
/// `true` and `false` share blocks made once, so a tool returning nothing (`()`) or a flag
/// allocates nothing for its content; anything else is rendered into a block of its own.
///
/// Always inlined, the rendering of other values kept out of line: a shared block is then a
/// test and a load in the caller, without the frame the rendering needs.
#[inline(always)]
pub(crate) fn value_content(value: &Value) -> Cow<'static, [ContentBlock]> {
    static SCALARS: LazyLock<[ContentBlock; 3]> = LazyLock::new(|| {
        [
            ContentBlock::text("null"),
            ContentBlock::text("true"),
            ContentBlock::text("false"),
        ]
    });
    let shared = match value {
        Value::Null => 0,
        Value::Bool(true) => 1,
        Value::Bool(false) => 2,
        other => return Cow::Owned(rendered_content(other)),
    };
    Cow::Borrowed(std::slice::from_ref(&SCALARS[shared]))
}

/// [`render_value_as_text`]'s block as content of its own. A string, the most common value of a
/// tool, is copied into its block here: through the general rendering, out of line, the block was
/// built in that call's frame and then moved into the list.
#[inline(never)]
fn rendered_content(value: &Value) -> Vec<ContentBlock> {
    if let Value::String(text) = value {
        return vec![ContentBlock::text(text.clone())];
    }
    vec![render_value_as_text(value)]
}

/// What a `#[tool(render = path)]` function returns: the content the model receives for the
/// tool's value.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be tool content",
    label = "a render function returns a `String`, a `ContentBlock` or a `Vec<ContentBlock>`"
)]
pub trait IntoContent {
    /// The content blocks.
    fn into_content(self) -> Vec<ContentBlock>;
}

#[diagnostic::do_not_recommend]
impl IntoContent for String {
    fn into_content(self) -> Vec<ContentBlock> {
        vec![ContentBlock::text(self)]
    }
}

#[diagnostic::do_not_recommend]
impl IntoContent for &str {
    fn into_content(self) -> Vec<ContentBlock> {
        vec![ContentBlock::text(self)]
    }
}

#[diagnostic::do_not_recommend]
impl IntoContent for ContentBlock {
    fn into_content(self) -> Vec<ContentBlock> {
        vec![self]
    }
}

#[diagnostic::do_not_recommend]
impl IntoContent for Vec<ContentBlock> {
    fn into_content(self) -> Vec<ContentBlock> {
        self
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use serde_json::{Value, json};

    use super::{render_value_as_text, value_content};

    #[test]
    fn the_shared_content_is_the_default_rendering() {
        for value in [json!(null), json!(true), json!(false)] {
            let content = value_content(&value);
            assert!(matches!(content, Cow::Borrowed(_)), "{value} is shared");
            assert_eq!(*content, [render_value_as_text(&value)]);
        }
        for value in [json!("text"), json!(1), json!({"a": [null]})] {
            let content = value_content(&value);
            assert!(matches!(content, Cow::Owned(_)), "{value} is its own");
            assert_eq!(*content, [render_value_as_text(&value)]);
        }
        assert!(value_content(&Value::Null)[0].as_text() == Some("null"));
    }
}
