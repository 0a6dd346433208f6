//! Reading attributes into plain structs: `#[arg(..)]` on fields and parameters,
//! `#[tool_args(..)]` on types, `#[tool(..)]` on functions, and the `#[serde(..)]` attributes that
//! change a type's JSON shape (which must be honoured or rejected so schema, validator and
//! deserialization never drift).
//!
//! This module holds the shared grammar (`key`, `key = value`, `key(list)`) and unknown-key
//! suggestions; each attribute's keys live in its own file.

pub(crate) mod arg;
pub(crate) mod container;
pub(crate) mod serde;
pub(crate) mod tool;

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Expr, Ident, LitBool, LitStr, Token};

use crate::errors::Errors;

/// One item of an attribute list: `key`, `key = value` or `key(nested tokens)`.
pub(crate) struct MetaItem {
    pub(crate) key: Ident,
    pub(crate) value: MetaValue,
}

pub(crate) enum MetaValue {
    Flag,
    Assign(Expr),
    List(TokenStream),
}

impl Parse for MetaItem {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        // `enum`, `const`, `crate` and `type` are keys here, so keywords are accepted as idents.
        let key = Ident::parse_any(input)?;
        let value = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            MetaValue::Assign(input.parse()?)
        } else if input.peek(syn::token::Paren) {
            let content;
            syn::parenthesized!(content in input);
            MetaValue::List(content.parse()?)
        } else {
            MetaValue::Flag
        };
        Ok(Self { key, value })
    }
}

impl MetaItem {
    pub(crate) fn name(&self) -> String {
        self.key.unraw().to_string()
    }

    /// The tokens of the whole item, for spans.
    pub(crate) fn span_tokens(&self) -> TokenStream {
        let key = &self.key;
        match &self.value {
            MetaValue::Flag => key.to_token_stream(),
            MetaValue::Assign(expr) => quote::quote!(#key = #expr),
            // The parentheses are not kept; key and contents span the same source range.
            MetaValue::List(tokens) => quote::quote!(#key #tokens),
        }
    }

    /// `key = "text"`.
    pub(crate) fn string(&self) -> syn::Result<LitStr> {
        match &self.value {
            MetaValue::Assign(Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            })) => Ok(text.clone()),
            _ => Err(syn::Error::new_spanned(
                self.span_tokens(),
                format!("expected `{} = \"...\"`", self.name()),
            )),
        }
    }

    /// `key` (true) or `key = true|false`.
    pub(crate) fn flag(&self) -> syn::Result<bool> {
        match &self.value {
            MetaValue::Flag => Ok(true),
            MetaValue::Assign(Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Bool(LitBool { value, .. }),
                ..
            })) => Ok(*value),
            _ => Err(syn::Error::new_spanned(
                self.span_tokens(),
                format!("expected `{0}` or `{0} = true|false`", self.name()),
            )),
        }
    }

    /// `key = <non-negative integer>`.
    pub(crate) fn unsigned(&self) -> syn::Result<(u64, Span)> {
        if let MetaValue::Assign(Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(int),
            ..
        })) = &self.value
            && let Ok(number) = int.base10_parse::<u64>()
        {
            return Ok((number, int.span()));
        }
        Err(syn::Error::new_spanned(
            self.span_tokens(),
            format!("expected `{} = <non-negative integer>`", self.name()),
        ))
    }

    /// `key = some::path`.
    pub(crate) fn path(&self) -> syn::Result<syn::Path> {
        match &self.value {
            MetaValue::Assign(Expr::Path(path)) if path.qself.is_none() => Ok(path.path.clone()),
            // Also accept the serde spelling `key = "some::path"`.
            MetaValue::Assign(Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            })) => text.parse(),
            _ => Err(syn::Error::new_spanned(
                self.span_tokens(),
                format!("expected `{} = path::to::item`", self.name()),
            )),
        }
    }

    /// The assigned expression.
    pub(crate) fn expr(&self) -> syn::Result<&Expr> {
        match &self.value {
            MetaValue::Assign(expr) => Ok(expr),
            _ => Err(syn::Error::new_spanned(
                self.span_tokens(),
                format!("expected `{} = <value>`", self.name()),
            )),
        }
    }
}

/// Parses the items of every attribute named `name` among `attrs`.
fn items_of(attrs: &[syn::Attribute], name: &str, errors: &mut Errors) -> Vec<MetaItem> {
    let mut items = Vec::new();
    for attr in attrs.iter().filter(|attr| attr.path().is_ident(name)) {
        match &attr.meta {
            syn::Meta::List(list) => {
                let parsed =
                    list.parse_args_with(Punctuated::<MetaItem, Token![,]>::parse_terminated);
                if let Some(parsed) = errors.take(parsed) {
                    items.extend(parsed);
                }
            }
            syn::Meta::Path(_) => {}
            syn::Meta::NameValue(_) => {
                errors.error_at(attr, format!("expected `#[{name}(...)]`"));
            }
        }
    }
    items
}

/// Applies `apply` to every item of every attribute named `name`, collecting its errors.
pub(crate) fn for_each_item(
    attrs: &[syn::Attribute],
    name: &str,
    errors: &mut Errors,
    mut apply: impl FnMut(&MetaItem) -> syn::Result<()>,
) {
    for item in items_of(attrs, name, errors) {
        if let Err(error) = apply(&item) {
            errors.push(error);
        }
    }
}

/// The error for a key that `attribute` does not know, with the closest known key suggested.
pub(crate) fn unknown_key(item: &MetaItem, attribute: &str, known: &[&str]) -> syn::Error {
    let name = item.name();
    let message = match closest(&name, known) {
        Some(suggestion) => {
            format!("unknown `{attribute}` key `{name}`; did you mean `{suggestion}`?")
        }
        None => format!(
            "unknown `{attribute}` key `{name}`; expected one of: {}",
            known.join(", ")
        ),
    };
    syn::Error::new_spanned(&item.key, message)
}

/// The known key nearest to `name` by edit distance, when it is close enough to be a typo.
pub(crate) fn closest<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|candidate| (edit_distance(name, candidate), *candidate))
        .filter(|(distance, candidate)| *distance <= (candidate.len().max(name.len()) / 3).max(1))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

/// The text of the `///` doc comments in `attrs`, trimmed and joined (`None` when empty).
pub(crate) fn doc_text(attrs: &[syn::Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("doc")) {
        if let syn::Meta::NameValue(syn::MetaNameValue {
            value:
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(text),
                    ..
                }),
            ..
        }) = &attr.meta
        {
            let text = text.value();
            if text.trim().is_empty() {
                lines.push(String::new());
            } else {
                lines.extend(text.lines().map(|line| line.trim().to_owned()));
            }
        }
    }
    // Paragraphs join with a blank line; lines within a paragraph join with a space.
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in lines {
        if line.is_empty() {
            if !current.is_empty() {
                paragraphs.push(std::mem::take(&mut current));
            }
        } else {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(&line);
        }
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    (!paragraphs.is_empty()).then(|| paragraphs.join("\n\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_nearest_key() {
        let known = ["description", "rename", "default", "minimum", "maximum"];
        assert_eq!(closest("descripton", &known), Some("description"));
        assert_eq!(closest("maximun", &known), Some("maximum"));
        assert_eq!(closest("zzz", &known), None);
    }

    #[test]
    fn joins_doc_paragraphs() {
        let attrs: Vec<syn::Attribute> = vec![
            syn::parse_quote!(#[doc = " First line"]),
            syn::parse_quote!(#[doc = " continues."]),
            syn::parse_quote!(#[doc = ""]),
            syn::parse_quote!(#[doc = " Second."]),
        ];
        assert_eq!(
            doc_text(&attrs).as_deref(),
            Some("First line continues.\n\nSecond.")
        );
    }
}
