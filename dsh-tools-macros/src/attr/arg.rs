//! `#[arg(..)]` on a field or a `#[tool]` parameter: description, rename, default, value
//! constraints and how the type plugs in. The value keywords (`minimum`, `min_length`, …) are
//! read as their rows in `keyword_table.rs` say, not named here.

use std::cmp::Ordering;

use proc_macro2::Span;
use syn::{Expr, Ident, LitStr};

use super::{MetaItem, MetaValue, for_each_item, unknown_key};
use crate::errors::Errors;
use crate::keyword_table::{KEYWORDS, Keyword, Takes};
use crate::literal::JsonLiteral;

/// The keys `#[arg(..)]` accepts before its value keywords (`keyword_table.rs`) in the list of
/// known keys...
const KEYS_BEFORE_KEYWORDS: &[&str] =
    &["description", "title", "rename", "default", "enum", "const"];

/// ... and after them.
const KEYS_AFTER_KEYWORDS: &[&str] = &["examples", "required", "schemars"];

/// The keys `#[arg(..)]` accepts, in the order its errors list them.
fn arg_keys() -> Vec<&'static str> {
    KEYS_BEFORE_KEYWORDS
        .iter()
        .copied()
        .chain(KEYWORDS.iter().map(|keyword| keyword.name))
        .chain(KEYS_AFTER_KEYWORDS.iter().copied())
        .collect()
}

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

/// A value keyword of `#[arg(..)]` with its value, as written.
#[derive(Clone)]
pub(crate) struct Constraint {
    /// The keyword's row in `KEYWORDS`.
    row: usize,
    pub(crate) value: KeywordValue,
}

impl Constraint {
    /// The keyword's row.
    pub(crate) fn keyword(&self) -> &'static Keyword {
        &KEYWORDS[self.row]
    }
}

/// The value of a value keyword, of the kind its row takes.
#[derive(Clone)]
pub(crate) enum KeywordValue {
    /// A number (`Takes::Number`, `Takes::Positive`).
    Number(Spanned<JsonLiteral>),
    /// A count (`Takes::Count`), with the integer's span.
    Count(u64, Span),
    /// The bare key (`Takes::True`), kept for its span.
    Flag(Ident),
    /// A string (`Takes::Pattern`, `Takes::Text`).
    Text(LitStr),
}

impl KeywordValue {
    /// An error at the value's tokens.
    pub(crate) fn error(&self, message: String) -> syn::Error {
        match self {
            Self::Number(spanned) => syn::Error::new_spanned(&spanned.expr, message),
            Self::Count(_, span) => syn::Error::new(*span, message),
            Self::Flag(key) => syn::Error::new_spanned(key, message),
            Self::Text(text) => syn::Error::new_spanned(text, message),
        }
    }

    /// How the value compares with `other` as a bound, when both are of one kind: counts
    /// exactly, numbers as `f64`.
    pub(crate) fn compare(&self, other: &Self) -> Option<Ordering> {
        match (self, other) {
            (Self::Count(low, _), Self::Count(high, _)) => Some(low.cmp(high)),
            (Self::Number(low), Self::Number(high)) => {
                as_f64(&low.value).partial_cmp(&as_f64(&high.value))
            }
            _ => None,
        }
    }
}

fn as_f64(literal: &JsonLiteral) -> f64 {
    match literal {
        JsonLiteral::Integer(value) => *value as f64,
        JsonLiteral::Float(value) => *value,
        _ => 0.0,
    }
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
    /// The value keywords (`minimum`, `min_length`, …), in the table's order.
    pub(crate) constraints: Vec<Constraint>,
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
            && self.constraints.is_empty()
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
            name => match KEYWORDS.iter().position(|keyword| keyword.name == name) {
                Some(row) => {
                    let value = keyword_value(item, &KEYWORDS[row])?;
                    let at = self
                        .constraints
                        .partition_point(|constraint| constraint.row < row);
                    if self
                        .constraints
                        .get(at)
                        .is_some_and(|constraint| constraint.row == row)
                    {
                        return Err(duplicate());
                    }
                    self.constraints.insert(at, Constraint { row, value });
                }
                None => return Err(unknown_key(item, "arg", &arg_keys())),
            },
        }
        Ok(())
    }

    /// The value keywords in the order their schema steps run (`Takes::step_rank`, then the
    /// table's order).
    pub(crate) fn constraints_in_step_order(&self) -> Vec<&Constraint> {
        let mut constraints: Vec<&Constraint> = self.constraints.iter().collect();
        constraints.sort_by_key(|constraint| constraint.keyword().takes.step_rank());
        constraints
    }
}

/// A value keyword's value, read as its row says.
fn keyword_value(item: &MetaItem, keyword: &Keyword) -> syn::Result<KeywordValue> {
    Ok(match keyword.takes {
        Takes::Number(_) => KeywordValue::Number(number(item)?),
        Takes::Positive(_) => {
            let factor = number(item)?;
            let positive = match factor.value {
                JsonLiteral::Integer(value) => value > 0,
                JsonLiteral::Float(value) => value > 0.0,
                _ => false,
            };
            if !positive {
                return Err(syn::Error::new_spanned(
                    &factor.expr,
                    format!("`{}` must be greater than 0", keyword.name),
                ));
            }
            KeywordValue::Number(factor)
        }
        Takes::Count(_) => {
            let (count, span) = item.unsigned()?;
            KeywordValue::Count(count, span)
        }
        Takes::True(_) => {
            if !item.flag()? {
                return Err(syn::Error::new_spanned(
                    item.span_tokens(),
                    format!("`{} = false` is the default: remove the key", keyword.name),
                ));
            }
            KeywordValue::Flag(item.key.clone())
        }
        Takes::Pattern(_) => {
            let pattern = item.string()?;
            check_pattern(&pattern, keyword.name)?;
            KeywordValue::Text(pattern)
        }
        Takes::Text(_) => KeywordValue::Text(item.string()?),
    })
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
fn check_pattern(pattern: &LitStr, key: &str) -> syn::Result<()> {
    dsh_tools_pattern::compile(&pattern.value())
        .map(drop)
        .map_err(|error| syn::Error::new_spanned(pattern, format!("unusable `{key}`: {error}")))
}
