//! [`ToolIcon`]: an image a UI may show beside a tool (MCP's `Icon`), and [`IconTheme`], the
//! background it is drawn for.

use serde::{Deserialize, Serialize};

/// An icon of a tool: where the image is (an `https:` or `http:` URL, or a `data:` URI with the
/// image inline) and, optionally, its MIME type, sizes and theme, set as fields:
/// `ToolIcon { theme: Some(IconTheme::Dark), ..ToolIcon::from("https://example.com/icon.svg") }`. Published in MCP listings
/// (`icons`) and read back from imported MCP tools; the providers' tool lists have no place for
/// it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolIcon {
    /// The image: an `https:`/`http:` URL or a `data:` URI.
    pub src: String,
    /// The image's MIME type (`image/png`), when the source does not say it well.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// The sizes the image suits, each `WxH` (`48x48`) or `any` (a scalable image); empty: not
    /// said.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<String>,
    /// The background the icon is drawn for; `None`: any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<IconTheme>,
}

/// The background an icon is drawn for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IconTheme {
    /// A light background.
    Light,
    /// A dark background.
    Dark,
}

/// An icon at `src` (an `https:`/`http:` URL or a `data:` URI), with nothing else said.
impl From<String> for ToolIcon {
    fn from(src: String) -> Self {
        Self {
            src,
            mime_type: None,
            sizes: Vec::new(),
            theme: None,
        }
    }
}

/// An icon at `src`, as [`From<String>`](#impl-From%3CString%3E-for-ToolIcon).
impl From<&str> for ToolIcon {
    fn from(src: &str) -> Self {
        Self::from(src.to_owned())
    }
}

impl ToolIcon {
    // The `with_*` setters below duplicate the public fields, so they are not API; the macros'
    // generated code and the MCP import still call them.

    /// Says the image's MIME type.
    #[doc(hidden)]
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Adds a size the image suits (`48x48`, or `any`).
    #[doc(hidden)]
    #[must_use]
    pub fn with_size(mut self, size: impl Into<String>) -> Self {
        self.sizes.push(size.into());
        self
    }

    /// Says the background the icon is drawn for.
    #[doc(hidden)]
    #[must_use]
    pub fn with_theme(mut self, theme: IconTheme) -> Self {
        self.theme = Some(theme);
        self
    }
}
