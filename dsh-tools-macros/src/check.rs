//! Rules that span several fields or keys: duplicate and colliding JSON names, an `Option` marked
//! required, contradictory keys, bounds that exclude every value. Each error is spanned on the
//! user's tokens that cause it.

use std::collections::HashMap;

use std::cmp::Ordering;

use crate::ast::{ArgsType, Field, Payload, Shape, Tagging};
use crate::attr::arg::{ArgAttrs, DefaultSpec};
use crate::errors::Errors;
use crate::keyword_table::{Side, Takes};
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
        // A pattern belongs to the type's own schema, as its `enum` and `const` do.
        let pattern = attrs
            .constraints
            .iter()
            .any(|constraint| matches!(constraint.keyword().takes, Takes::Pattern(_)));
        if attrs.enum_values.is_some() || attrs.constant.is_some() || pattern {
            errors.error_at(
                schemars,
                "a `schemars` field takes its schema from `JsonSchema`; put `enum`, `const` and `pattern` there",
            );
        }
    }
    check_ranges(attrs, errors);
    if let Some(DefaultSpec::Literal(default)) = &field.default
        && let JsonLiteral::Integer(value) = default.value
        && i64::try_from(value).is_err()
        && u64::try_from(value).is_err()
    {
        errors.error_at(&default.expr, "a default must fit in a 64-bit integer");
    }
}

/// Every upper bound must leave some value above each lower bound of the same kind of field
/// (`keyword_table.rs` says which keywords are bounds): `maximum` below `minimum`, `max_length`
/// below `min_length`, or an exclusive bound at the other bound, lets none pass.
fn check_ranges(attrs: &ArgAttrs, errors: &mut Errors) {
    let bounds = |wanted: Side| {
        attrs.constraints.iter().filter_map(move |constraint| {
            let (side, exclusive) = constraint.keyword().check.bound()?;
            (side == wanted).then_some((constraint, exclusive))
        })
    };
    for (upper, upper_exclusive) in bounds(Side::Upper) {
        let blocking = bounds(Side::Lower)
            .filter(|(lower, _)| lower.keyword().suits == upper.keyword().suits)
            .find_map(|(lower, lower_exclusive)| {
                let order = lower.value.compare(&upper.value)?;
                let equal = order == Ordering::Equal;
                let empty =
                    order == Ordering::Greater || (equal && (lower_exclusive || upper_exclusive));
                empty.then_some((lower.keyword().name, equal))
            });
        if let Some((lower_name, equal)) = blocking {
            let relation = if equal { "is not above" } else { "is below" };
            errors.push(upper.value.error(format!(
                "`{}` {relation} `{lower_name}`: no value could pass",
                upper.keyword().name
            )));
        }
    }
}

/// A skipped field is not an argument: argument keys on it are mistakes.
fn check_skipped(field: &Field, errors: &mut Errors) {
    let attrs = &field.attrs;
    let has_arg_keys = attrs.description.is_some()
        || attrs.default.is_some()
        || attrs.enum_values.is_some()
        || attrs.constant.is_some()
        || !attrs.constraints.is_empty()
        || !attrs.examples.is_empty()
        || attrs.required.is_some();
    if has_arg_keys {
        errors.push(syn::Error::new(
            field.span,
            "a `#[serde(skip)]` field is not an argument; remove its `#[arg(..)]` keys",
        ));
    }
}
