//! `#[tool_args(..)]` on a type: naming, openness, enum tagging and the runtime crate path.

use syn::{Ident, LitStr};

use super::{for_each_item, unknown_key};
use crate::case::RenameRule;
use crate::errors::Errors;

/// The keys `#[tool_args(..)]` accepts.
pub(crate) const CONTAINER_KEYS: &[&str] = &[
    "rename_all",
    "additional_properties",
    "tag",
    "content",
    "title",
    "description",
    "crate",
];

/// Parsed `#[tool_args(..)]` keys.
#[derive(Default)]
pub(crate) struct ContainerAttrs {
    pub(crate) rename_all: Option<(RenameRule, LitStr)>,
    /// `additional_properties = true`, with the key for spans.
    pub(crate) open: Option<(bool, Ident)>,
    pub(crate) tag: Option<LitStr>,
    pub(crate) content: Option<LitStr>,
    pub(crate) title: Option<LitStr>,
    pub(crate) description: Option<LitStr>,
    pub(crate) krate: Option<syn::Path>,
}

impl ContainerAttrs {
    pub(crate) fn from_attrs(attrs: &[syn::Attribute], errors: &mut Errors) -> Self {
        let mut parsed = Self::default();
        for_each_item(attrs, "tool_args", errors, |item| {
            match item.name().as_str() {
                "rename_all" => {
                    let text = item.string()?;
                    let rule = RenameRule::from_str(&text.value()).ok_or_else(|| {
                        syn::Error::new_spanned(&text, RenameRule::unknown_message(&text.value()))
                    })?;
                    parsed.rename_all = Some((rule, text));
                }
                "additional_properties" => parsed.open = Some((item.flag()?, item.key.clone())),
                "tag" => parsed.tag = Some(item.string()?),
                "content" => parsed.content = Some(item.string()?),
                "title" => parsed.title = Some(item.string()?),
                "description" => parsed.description = Some(item.string()?),
                "crate" => parsed.krate = Some(item.path()?),
                _ => return Err(unknown_key(item, "tool_args", CONTAINER_KEYS)),
            }
            Ok(())
        });
        parsed
    }
}
