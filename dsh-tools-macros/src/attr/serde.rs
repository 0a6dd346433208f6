//! The `#[serde(..)]` attributes of a `ToolArgs` type.
//!
//! A type that also derives `Serialize`/`Deserialize` must have one JSON shape: the schema the
//! model sees, the validator and serde's (de)serialization must agree. Attributes that only rename
//! or tag are honoured; attributes whose effect a schema cannot express (aliases, flattening,
//! custom (de)serializers, untagged enums, conversions through other types) are compile errors.
//! Attributes that do not change the JSON shape (`bound`, `crate`, `expecting`, …) are ignored.

use syn::{Ident, LitStr};

use super::{MetaItem, MetaValue, for_each_item};
use crate::case::RenameRule;
use crate::errors::Errors;

/// What `#[serde(..)]` on the type says.
#[derive(Default)]
pub(crate) struct SerdeContainer {
    pub(crate) rename_all: Option<(RenameRule, LitStr)>,
    pub(crate) tag: Option<LitStr>,
    pub(crate) content: Option<LitStr>,
    pub(crate) transparent: Option<Ident>,
}

/// What `#[serde(..)]` on a field says.
#[derive(Default)]
pub(crate) struct SerdeField {
    pub(crate) rename: Option<LitStr>,
    /// `default` (`None` path) or `default = "path"`.
    pub(crate) default: Option<(Ident, Option<syn::Path>)>,
    /// `skip` or `skip_deserializing`: not an argument; filled from `Default`.
    pub(crate) skip: Option<Ident>,
    /// `skip_serializing_if`: the value may be absent from serialized output.
    pub(crate) skip_serializing_if: Option<Ident>,
}

/// What `#[serde(..)]` on a variant says.
#[derive(Default)]
pub(crate) struct SerdeVariant {
    pub(crate) rename: Option<LitStr>,
    pub(crate) skip: Option<Ident>,
}

const SHAPE_NEUTRAL: &[&str] = &["bound", "crate", "expecting", "deny_unknown_fields"];

fn drift(item: &MetaItem, why: &str) -> syn::Error {
    syn::Error::new_spanned(
        item.span_tokens(),
        format!(
            "`#[serde({})]` is not supported on a `ToolArgs` type: {why}, so the schema and the deserialization would drift",
            item.name()
        ),
    )
}

/// `rename = "x"` (the split `rename(serialize = .., deserialize = ..)` form cannot be one schema).
fn single_name(item: &MetaItem) -> syn::Result<LitStr> {
    match &item.value {
        MetaValue::List(_) => Err(drift(item, "serialized and deserialized names differ")),
        _ => item.string(),
    }
}

impl SerdeContainer {
    pub(crate) fn from_attrs(attrs: &[syn::Attribute], errors: &mut Errors) -> Self {
        let mut parsed = Self::default();
        for_each_item(attrs, "serde", errors, |item| {
            match item.name().as_str() {
                "rename_all" => {
                    let text = single_name(item)?;
                    let rule = RenameRule::from_str(&text.value()).ok_or_else(|| {
                        syn::Error::new_spanned(&text, RenameRule::unknown_message(&text.value()))
                    })?;
                    parsed.rename_all = Some((rule, text));
                }
                "tag" => parsed.tag = Some(item.string()?),
                "content" => parsed.content = Some(item.string()?),
                "transparent" => parsed.transparent = Some(item.key.clone()),
                "rename" => {}
                "untagged" => {
                    return Err(drift(
                        item,
                        "an untagged enum accepts the first variant that parses, which a `oneOf` schema cannot say",
                    ));
                }
                "default" => {
                    return Err(drift(
                        item,
                        "container defaults fill fields the schema would call required",
                    ));
                }
                "from" | "try_from" | "into" => {
                    return Err(drift(item, "the JSON shape is another type's"));
                }
                "remote" | "variant_identifier" | "field_identifier" | "rename_all_fields" => {
                    return Err(drift(item, "its JSON shape is not derived from this type"));
                }
                name if SHAPE_NEUTRAL.contains(&name) => {}
                _ => {
                    return Err(drift(
                        item,
                        "its effect on the JSON shape is unknown to dsh-tools",
                    ));
                }
            }
            Ok(())
        });
        parsed
    }
}

impl SerdeField {
    pub(crate) fn from_attrs(attrs: &[syn::Attribute], errors: &mut Errors) -> Self {
        let mut parsed = Self::default();
        for_each_item(attrs, "serde", errors, |item| {
            match item.name().as_str() {
                "rename" => parsed.rename = Some(single_name(item)?),
                "default" => {
                    let path = match &item.value {
                        MetaValue::Flag => None,
                        _ => Some(item.path()?),
                    };
                    parsed.default = Some((item.key.clone(), path));
                }
                "skip" | "skip_deserializing" => parsed.skip = Some(item.key.clone()),
                "skip_serializing_if" => parsed.skip_serializing_if = Some(item.key.clone()),
                "alias" => return Err(drift(item, "a schema has one name per property")),
                "flatten" => {
                    return Err(drift(
                        item,
                        "flattened fields merge another type's properties at runtime",
                    ));
                }
                "with" | "serialize_with" | "deserialize_with" => {
                    return Err(drift(
                        item,
                        "a custom (de)serializer has its own JSON shape",
                    ));
                }
                "skip_serializing" => {
                    return Err(drift(
                        item,
                        "the field would be accepted but never produced",
                    ));
                }
                "borrow" | "getter" => {
                    return Err(drift(item, "tool arguments are owned values"));
                }
                "bound" => {}
                _ => {
                    return Err(drift(
                        item,
                        "its effect on the JSON shape is unknown to dsh-tools",
                    ));
                }
            }
            Ok(())
        });
        parsed
    }
}

impl SerdeVariant {
    pub(crate) fn from_attrs(attrs: &[syn::Attribute], errors: &mut Errors) -> Self {
        let mut parsed = Self::default();
        for_each_item(attrs, "serde", errors, |item| {
            match item.name().as_str() {
                "rename" => parsed.rename = Some(single_name(item)?),
                "skip" => parsed.skip = Some(item.key.clone()),
                "alias" => return Err(drift(item, "a schema has one name per variant")),
                "other" | "untagged" => {
                    return Err(drift(
                        item,
                        "a catch-all variant accepts values the schema forbids",
                    ));
                }
                "with" | "serialize_with" | "deserialize_with" => {
                    return Err(drift(
                        item,
                        "a custom (de)serializer has its own JSON shape",
                    ));
                }
                "skip_serializing" | "skip_deserializing" => {
                    return Err(drift(
                        item,
                        "the variant would be produced or accepted only one way",
                    ));
                }
                "bound" | "borrow" => {}
                _ => {
                    return Err(drift(
                        item,
                        "its effect on the JSON shape is unknown to dsh-tools",
                    ));
                }
            }
            Ok(())
        });
        parsed
    }
}
