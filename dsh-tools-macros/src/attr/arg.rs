//! `#[arg(..)]` on a field or a `#[tool]` parameter: description, rename, default, value
//! constraints and how the type plugs in.

use proc_macro2::Span;
use syn::{Expr, Ident, LitStr};

use super::{MetaItem, MetaValue, for_each_item, unknown_key};
use crate::errors::Errors;
use crate::literal::JsonLiteral;

/// The keys `#[arg(..)]` accepts.
pub(crate) const ARG_KEYS: &[&str] = &[
    "description",
    "title",
    "rename",
    "default",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusive_minimum",
    "exclusive_maximum",
    "multiple_of",
    "min_length",
    "max_length",
    "pattern",
    "format",
    "min_items",
    "max_items",
    "unique_items",
    "min_properties",
    "max_properties",
    "examples",
    "required",
    "schemars",
];

/// A literal with the expression it was read from (for spans and type checks).
#[derive(Clone)]
pub(crate) struct Spanned<T> {
    pub(crate) value: T,
    pub(crate) expr: Expr,
}

/// Where an absent property's value comes from.
#[derive(Clone)]
pub(crate) enum DefaultSpec {
    /// `default = <literal>`: shown in the schema and converted like any argument.
    Literal(Spanned<JsonLiteral>),
    /// `default` alone (or `#[serde(default)]`): `Default::default()`.
    Trait,
    /// `#[serde(default = "path")]`: calls `path()`.
    Function(syn::Path),
}

/// Parsed `#[arg(..)]` keys of one field or parameter.
#[derive(Default, Clone)]
pub(crate) struct ArgAttrs {
    pub(crate) description: Option<LitStr>,
    pub(crate) title: Option<LitStr>,
    pub(crate) rename: Option<LitStr>,
    pub(crate) default: Option<DefaultSpec>,
    pub(crate) enum_values: Option<Spanned<Vec<JsonLiteral>>>,
    pub(crate) constant: Option<Spanned<JsonLiteral>>,
    pub(crate) minimum: Option<Spanned<JsonLiteral>>,
    pub(crate) maximum: Option<Spanned<JsonLiteral>>,
    pub(crate) exclusive_minimum: Option<Spanned<JsonLiteral>>,
    pub(crate) exclusive_maximum: Option<Spanned<JsonLiteral>>,
    /// `multiple_of = N`, above 0.
    pub(crate) multiple_of: Option<Spanned<JsonLiteral>>,
    pub(crate) min_length: Option<(u64, Span)>,
    pub(crate) max_length: Option<(u64, Span)>,
    pub(crate) pattern: Option<LitStr>,
    /// `format = "date-time"`: published, and checked when the runtime knows the format.
    pub(crate) format: Option<LitStr>,
    pub(crate) min_items: Option<(u64, Span)>,
    pub(crate) max_items: Option<(u64, Span)>,
    /// The `unique_items` key, kept for its span.
    pub(crate) unique_items: Option<Ident>,
    pub(crate) min_properties: Option<(u64, Span)>,
    pub(crate) max_properties: Option<(u64, Span)>,
    pub(crate) examples: Vec<Spanned<JsonLiteral>>,
    /// The `required` key, kept for its span.
    pub(crate) required: Option<Ident>,
    /// The type's schema comes from `schemars::JsonSchema`, its conversion from `serde::Deserialize`.
    pub(crate) schemars: Option<Ident>,
}

impl ArgAttrs {
    /// Reads every `#[arg(..)]` in `attrs`.
    pub(crate) fn from_attrs(attrs: &[syn::Attribute], errors: &mut Errors) -> Self {
        let mut parsed = Self::default();
        for_each_item(attrs, "arg", errors, |item| parsed.apply(item));
        parsed
    }

    /// Whether only naming keys (`rename`, `description`) are set, the ones a variant takes.
    pub(crate) fn names_only(&self) -> bool {
        self.title.is_none()
            && self.default.is_none()
            && self.enum_values.is_none()
            && self.constant.is_none()
            && self.minimum.is_none()
            && self.maximum.is_none()
            && self.exclusive_minimum.is_none()
            && self.exclusive_maximum.is_none()
            && self.multiple_of.is_none()
            && self.min_length.is_none()
            && self.max_length.is_none()
            && self.pattern.is_none()
            && self.format.is_none()
            && self.min_items.is_none()
            && self.max_items.is_none()
            && self.unique_items.is_none()
            && self.min_properties.is_none()
            && self.max_properties.is_none()
            && self.examples.is_empty()
            && self.required.is_none()
            && self.schemars.is_none()
    }

    fn apply(&mut self, item: &MetaItem) -> syn::Result<()> {
        let duplicate =
            || syn::Error::new_spanned(&item.key, format!("duplicate `arg` key `{}`", item.name()));
        match item.name().as_str() {
            "description" => set(&mut self.description, item.string()?, duplicate)?,
            "title" => set(&mut self.title, item.string()?, duplicate)?,
            "rename" => set(&mut self.rename, item.string()?, duplicate)?,
            "default" => {
                let spec = match &item.value {
                    MetaValue::Flag => DefaultSpec::Trait,
                    _ => DefaultSpec::Literal(literal(item)?),
                };
                set(&mut self.default, spec, duplicate)?;
            }
            "enum" => {
                let spanned = literal(item)?;
                let JsonLiteral::Array(values) = spanned.value else {
                    return Err(syn::Error::new_spanned(
                        &spanned.expr,
                        "`enum` takes an array of literals, e.g. `enum = [\"a\", \"b\"]`",
                    ));
                };
                if values.is_empty() || !values.iter().all(JsonLiteral::is_scalar) {
                    return Err(syn::Error::new_spanned(
                        &spanned.expr,
                        "`enum` must list at least one string, number, boolean or `None`",
                    ));
                }
                let spanned = Spanned {
                    value: values,
                    expr: spanned.expr,
                };
                set(&mut self.enum_values, spanned, duplicate)?;
            }
            "const" => {
                let spanned = literal(item)?;
                if !spanned.value.is_scalar() {
                    return Err(syn::Error::new_spanned(
                        &spanned.expr,
                        "`const` takes a string, number, boolean or `None`",
                    ));
                }
                set(&mut self.constant, spanned, duplicate)?;
            }
            "minimum" => set(&mut self.minimum, number(item)?, duplicate)?,
            "maximum" => set(&mut self.maximum, number(item)?, duplicate)?,
            "exclusive_minimum" => set(&mut self.exclusive_minimum, number(item)?, duplicate)?,
            "exclusive_maximum" => set(&mut self.exclusive_maximum, number(item)?, duplicate)?,
            "multiple_of" => {
                let factor = number(item)?;
                let positive = match factor.value {
                    JsonLiteral::Integer(value) => value > 0,
                    JsonLiteral::Float(value) => value > 0.0,
                    _ => false,
                };
                if !positive {
                    return Err(syn::Error::new_spanned(
                        &factor.expr,
                        "`multiple_of` must be greater than 0",
                    ));
                }
                set(&mut self.multiple_of, factor, duplicate)?;
            }
            "min_length" => set(&mut self.min_length, item.unsigned()?, duplicate)?,
            "max_length" => set(&mut self.max_length, item.unsigned()?, duplicate)?,
            "min_items" => set(&mut self.min_items, item.unsigned()?, duplicate)?,
            "max_items" => set(&mut self.max_items, item.unsigned()?, duplicate)?,
            "unique_items" => {
                if !item.flag()? {
                    return Err(syn::Error::new_spanned(
                        item.span_tokens(),
                        "`unique_items = false` is the default: remove the key",
                    ));
                }
                set(&mut self.unique_items, item.key.clone(), duplicate)?;
            }
            "min_properties" => set(&mut self.min_properties, item.unsigned()?, duplicate)?,
            "max_properties" => set(&mut self.max_properties, item.unsigned()?, duplicate)?,
            "pattern" => {
                let pattern = item.string()?;
                check_pattern(&pattern)?;
                set(&mut self.pattern, pattern, duplicate)?;
            }
            "format" => set(&mut self.format, item.string()?, duplicate)?,
            "examples" => {
                let spanned = literal(item)?;
                match spanned.value {
                    JsonLiteral::Array(values) => {
                        self.examples
                            .extend(values.into_iter().map(|value| Spanned {
                                value,
                                expr: spanned.expr.clone(),
                            }));
                    }
                    single => self.examples.push(Spanned {
                        value: single,
                        expr: spanned.expr,
                    }),
                }
            }
            "required" => {
                if !item.flag()? {
                    return Err(syn::Error::new_spanned(
                        item.span_tokens(),
                        "`required = false` is not a thing: make the field an `Option` or give it a `default`",
                    ));
                }
                set(&mut self.required, item.key.clone(), duplicate)?;
            }
            "schemars" => {
                item.flag()?;
                set(&mut self.schemars, item.key.clone(), duplicate)?;
            }
            _ => return Err(unknown_key(item, "arg", ARG_KEYS)),
        }
        Ok(())
    }
}

fn set<T>(
    slot: &mut Option<T>,
    value: T,
    duplicate: impl FnOnce() -> syn::Error,
) -> syn::Result<()> {
    if slot.is_some() {
        return Err(duplicate());
    }
    *slot = Some(value);
    Ok(())
}

fn literal(item: &MetaItem) -> syn::Result<Spanned<JsonLiteral>> {
    let expr = item.expr()?;
    Ok(Spanned {
        value: JsonLiteral::from_expr(expr)?,
        expr: expr.clone(),
    })
}

fn number(item: &MetaItem) -> syn::Result<Spanned<JsonLiteral>> {
    let spanned = literal(item)?;
    match &spanned.value {
        JsonLiteral::Integer(value)
            if i64::try_from(*value).is_err() && u64::try_from(*value).is_err() =>
        {
            Err(syn::Error::new_spanned(
                &spanned.expr,
                format!("`{}` must fit in a 64-bit integer", item.name()),
            ))
        }
        JsonLiteral::Integer(_) | JsonLiteral::Float(_) => Ok(spanned),
        _ => Err(syn::Error::new_spanned(
            &spanned.expr,
            format!("`{}` takes a number", item.name()),
        )),
    }
}

/// A `pattern` must be one the runtime enforces: ECMA-262 (as JSON Schema specifies), translated
/// and compiled by the same function the runtime calls, so what it would refuse fails here.
fn check_pattern(pattern: &LitStr) -> syn::Result<()> {
    dsh_tools_pattern::compile(&pattern.value())
        .map(drop)
        .map_err(|error| syn::Error::new_spanned(pattern, format!("unusable `pattern`: {error}")))
}
