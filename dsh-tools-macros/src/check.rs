//! Rules that span several fields or keys: duplicate and colliding JSON names, an `Option` marked
//! required, contradictory keys, bounds that exclude every value. Each error is spanned on the
//! user's tokens that cause it.

use std::collections::HashMap;

use proc_macro2::Span;
use quote::ToTokens;

use crate::ast::{ArgsType, Field, Payload, Shape, Tagging};
use crate::attr::arg::{ArgAttrs, DefaultSpec};
use crate::errors::Errors;
use crate::literal::JsonLiteral;
use crate::types::is_option;

/// Checks a whole argument type.
pub(crate) fn check_type(args: &ArgsType, errors: &mut Errors) {
    match &args.shape {
        Shape::Struct(fields) => check_fields(fields, None, errors),
        Shape::Enum { variants, tagging } => {
            let mut names: HashMap<&str, ()> = HashMap::new();
            for variant in variants {
                if names.insert(variant.name.as_str(), ()).is_some() {
                    let message = format!("two variants are named \"{}\" in JSON", variant.name);
                    match &variant.rename {
                        Some(rename) => errors.error_at(rename, message),
                        None => errors.error_at(&variant.ident, message),
                    }
                }
                match &variant.payload {
                    Payload::Struct(fields) => {
                        let tag = match tagging {
                            Tagging::Internal { tag } => Some(tag.as_str()),
                            _ => None,
                        };
                        check_fields(fields, tag, errors);
                    }
                    Payload::Newtype(_) | Payload::Unit => {}
                }
            }
        }
        Shape::Newtype { .. } | Shape::Unit => {}
    }
}

/// Checks the fields of one object; `tag` is an internal enum tag that shares the object.
pub(crate) fn check_fields(fields: &[Field], tag: Option<&str>, errors: &mut Errors) {
    let mut seen: HashMap<&str, &Field> = HashMap::new();
    for field in fields.iter().filter(|field| !field.skip) {
        if tag == Some(field.key.as_str()) {
            errors.push(name_error(
                field,
                format!(
                    "the field's JSON name \"{}\" collides with the enum's tag",
                    field.key
                ),
            ));
        }
        if let Some(first) = seen.insert(field.key.as_str(), field) {
            let message = if first.rename.is_some() || field.rename.is_some() {
                format!(
                    "`{}` and `{}` are both named \"{}\" in JSON",
                    first.ident, field.ident, field.key
                )
            } else {
                format!("duplicate property \"{}\"", field.key)
            };
            errors.push(name_error(field, message));
        }
        check_field(field, errors);
    }
    for field in fields.iter().filter(|field| field.skip) {
        check_skipped(field, errors);
    }
}

fn name_error(field: &Field, message: String) -> syn::Error {
    match &field.rename {
        Some(rename) => syn::Error::new_spanned(rename, message),
        None => syn::Error::new(field.span, message),
    }
}

fn check_field(field: &Field, errors: &mut Errors) {
    let attrs = &field.attrs;
    if let Some(required) = &attrs.required {
        if is_option(&field.ty) {
            errors.error_at(
                required,
                "an `Option` field is optional by definition; use the inner type to make it required",
            );
        } else if field.default.is_some() {
            errors.error_at(
                required,
                "a field with a `default` is optional; remove `required` or the default",
            );
        }
    }
    if let (Some(values), Some(constant)) = (&attrs.enum_values, &attrs.constant) {
        errors.error_at(&constant.expr, "`const` and `enum` exclude each other");
        let _ = values;
    }
    if let Some(schemars) = &attrs.schemars {
        let bad = [
            attrs
                .enum_values
                .as_ref()
                .map(|spanned| spanned.expr.to_token_stream()),
            attrs
                .constant
                .as_ref()
                .map(|spanned| spanned.expr.to_token_stream()),
            attrs.pattern.as_ref().map(ToTokens::to_token_stream),
        ];
        if bad.iter().any(Option::is_some) {
            errors.error_at(
                schemars,
                "a `schemars` field takes its schema from `JsonSchema`; put `enum`, `const` and `pattern` there",
            );
        }
    }
    check_order(
        attrs.min_length,
        attrs.max_length,
        "min_length",
        "max_length",
        errors,
    );
    check_order(
        attrs.min_items,
        attrs.max_items,
        "min_items",
        "max_items",
        errors,
    );
    check_order(
        attrs.min_properties,
        attrs.max_properties,
        "min_properties",
        "max_properties",
        errors,
    );
    check_bounds(attrs, errors);
    if let Some(DefaultSpec::Literal(default)) = &field.default
        && let JsonLiteral::Integer(value) = default.value
        && i64::try_from(value).is_err()
        && u64::try_from(value).is_err()
    {
        errors.error_at(&default.expr, "a default must fit in a 64-bit integer");
    }
}

fn check_order(
    min: Option<(u64, Span)>,
    max: Option<(u64, Span)>,
    min_name: &str,
    max_name: &str,
    errors: &mut Errors,
) {
    if let (Some((min, _)), Some((max, span))) = (min, max)
        && min > max
    {
        errors.push(syn::Error::new(
            span,
            format!("`{max_name}` is below `{min_name}`: no value could pass"),
        ));
    }
}

/// Every pair of a lower and an upper bound must leave some number between them: `maximum`
/// below `minimum`, or an exclusive bound at the other bound, lets none pass.
fn check_bounds(attrs: &ArgAttrs, errors: &mut Errors) {
    let lower = [
        ("minimum", attrs.minimum.as_ref(), false),
        ("exclusive_minimum", attrs.exclusive_minimum.as_ref(), true),
    ];
    let upper = [
        ("maximum", attrs.maximum.as_ref(), false),
        ("exclusive_maximum", attrs.exclusive_maximum.as_ref(), true),
    ];
    for (upper_name, upper_bound, upper_exclusive) in upper {
        let Some(upper_bound) = upper_bound else {
            continue;
        };
        let blocking = lower
            .iter()
            .find_map(|(lower_name, lower_bound, lower_exclusive)| {
                let lower_bound = (*lower_bound)?;
                let (low, high) = (number(&lower_bound.value), number(&upper_bound.value));
                let empty = low > high || (low == high && (*lower_exclusive || upper_exclusive));
                empty.then_some((*lower_name, low == high))
            });
        if let Some((lower_name, equal)) = blocking {
            let relation = if equal { "is not above" } else { "is below" };
            errors.error_at(
                &upper_bound.expr,
                format!("`{upper_name}` {relation} `{lower_name}`: no value could pass"),
            );
        }
    }
}

fn number(literal: &JsonLiteral) -> f64 {
    match literal {
        JsonLiteral::Integer(value) => *value as f64,
        JsonLiteral::Float(value) => *value,
        _ => 0.0,
    }
}

/// A skipped field is not an argument: argument keys on it are mistakes.
fn check_skipped(field: &Field, errors: &mut Errors) {
    let attrs = &field.attrs;
    let has_arg_keys = attrs.description.is_some()
        || attrs.default.is_some()
        || attrs.enum_values.is_some()
        || attrs.constant.is_some()
        || attrs.minimum.is_some()
        || attrs.maximum.is_some()
        || attrs.exclusive_minimum.is_some()
        || attrs.exclusive_maximum.is_some()
        || attrs.multiple_of.is_some()
        || attrs.min_length.is_some()
        || attrs.max_length.is_some()
        || attrs.pattern.is_some()
        || attrs.format.is_some()
        || attrs.min_items.is_some()
        || attrs.max_items.is_some()
        || attrs.unique_items.is_some()
        || attrs.min_properties.is_some()
        || attrs.max_properties.is_some()
        || !attrs.examples.is_empty()
        || attrs.required.is_some();
    if has_arg_keys {
        errors.push(syn::Error::new(
            field.span,
            "a `#[serde(skip)]` field is not an argument; remove its `#[arg(..)]` keys",
        ));
    }
}
