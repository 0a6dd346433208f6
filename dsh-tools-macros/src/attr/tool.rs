//! `#[tool(..)]` keys: identity, policy hints, presentation and rendering.

use proc_macro2::{Span, TokenStream};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Ident, LitStr, Token};

use super::{MetaItem, MetaValue, unknown_key};
use crate::errors::Errors;

/// The keys `#[tool(..)]` accepts.
pub(crate) const TOOL_KEYS: &[&str] = &[
    "name",
    "description",
    "kind",
    "timeout_ms",
    "blocking",
    "max_result_chars",
    "concurrency_safe",
    "defer_loading",
    "example",
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
    "render",
    "present_call",
    "present_progress",
    "present_result",
    "title",
    "location",
    "crate",
];

/// The `ToolCallKind` names `kind` accepts.
pub(crate) const KINDS: &[&str] = &[
    "read", "edit", "delete", "move", "search", "execute", "fetch", "other",
];

/// Whether calls may run concurrently.
pub(crate) enum ConcurrencySafe {
    Always,
    /// A classifier `fn(&Args) -> bool`.
    Classifier(syn::Path),
}

/// Parsed `#[tool(..)]` keys.
#[derive(Default)]
pub(crate) struct ToolAttrs {
    pub(crate) name: Option<LitStr>,
    pub(crate) description: Option<LitStr>,
    pub(crate) kind: Option<(String, LitStr)>,
    pub(crate) timeout_ms: Option<(u64, Span)>,
    /// `blocking`: the body is a plain `fn`, run on tokio's blocking pool.
    pub(crate) blocking: bool,
    pub(crate) max_result_chars: Option<(u64, Span)>,
    pub(crate) concurrency_safe: Option<ConcurrencySafe>,
    /// `defer_loading`: listed only once a search loads it.
    pub(crate) defer_loading: bool,
    /// `example = "{…}"`, once per example, in order.
    pub(crate) examples: Vec<LitStr>,
    pub(crate) read_only: Option<bool>,
    pub(crate) destructive: Option<bool>,
    pub(crate) idempotent: Option<bool>,
    pub(crate) open_world: Option<bool>,
    pub(crate) render: Option<syn::Path>,
    pub(crate) present_call: Option<syn::Path>,
    pub(crate) present_progress: Option<syn::Path>,
    pub(crate) present_result: Option<syn::Path>,
    pub(crate) title: Option<LitStr>,
    pub(crate) location: Option<Ident>,
    pub(crate) krate: Option<syn::Path>,
}

impl ToolAttrs {
    pub(crate) fn parse(tokens: TokenStream, errors: &mut Errors) -> Self {
        let mut parsed = Self::default();
        let Some(items) =
            errors.take(Punctuated::<MetaItem, Token![,]>::parse_terminated.parse2(tokens))
        else {
            return parsed;
        };
        let mut seen: Vec<String> = Vec::new();
        for item in items {
            let name = item.name();
            // `example` is the one key given once per value.
            if seen.contains(&name) && name != "example" {
                errors.error_at(&item.key, format!("duplicate `tool` key `{name}`"));
                continue;
            }
            seen.push(name);
            if let Err(error) = parsed.apply(&item) {
                errors.push(error);
            }
        }
        parsed
    }

    fn apply(&mut self, item: &MetaItem) -> syn::Result<()> {
        match item.name().as_str() {
            "name" => self.name = Some(item.string()?),
            "description" => self.description = Some(item.string()?),
            "kind" => {
                let text = item.string()?;
                let kind = text.value();
                if !KINDS.contains(&kind.as_str()) {
                    return Err(syn::Error::new_spanned(
                        &text,
                        format!(
                            "unknown tool kind `{kind}`; expected one of: {}",
                            KINDS.join(", ")
                        ),
                    ));
                }
                self.kind = Some((kind, text));
            }
            "timeout_ms" => {
                let (value, span) = item.unsigned()?;
                if value == 0 {
                    return Err(syn::Error::new(
                        span,
                        "`timeout_ms` must be a positive number of milliseconds",
                    ));
                }
                self.timeout_ms = Some((value, span));
            }
            "blocking" => self.blocking = item.flag()?,
            "max_result_chars" => {
                let (value, span) = item.unsigned()?;
                if value == 0 {
                    return Err(syn::Error::new(
                        span,
                        "`max_result_chars` must be a positive number of characters",
                    ));
                }
                self.max_result_chars = Some((value, span));
            }
            "concurrency_safe" => {
                self.concurrency_safe = match &item.value {
                    MetaValue::Assign(syn::Expr::Path(_)) => {
                        Some(ConcurrencySafe::Classifier(item.path()?))
                    }
                    _ => item.flag()?.then_some(ConcurrencySafe::Always),
                };
            }
            "defer_loading" => self.defer_loading = item.flag()?,
            "example" => {
                let text = item.string()?;
                if let Err(problem) = crate::json_text::object_keys(&text.value()) {
                    return Err(syn::Error::new_spanned(&text, problem));
                }
                self.examples.push(text);
            }
            "read_only" => self.read_only = Some(item.flag()?),
            "destructive" => self.destructive = Some(item.flag()?),
            "idempotent" => self.idempotent = Some(item.flag()?),
            "open_world" => self.open_world = Some(item.flag()?),
            "render" => self.render = Some(item.path()?),
            "present_call" => self.present_call = Some(item.path()?),
            "present_progress" => self.present_progress = Some(item.path()?),
            "present_result" => self.present_result = Some(item.path()?),
            "title" => self.title = Some(item.string()?),
            "location" => {
                let path = item.path()?;
                let ident = path.get_ident().cloned().ok_or_else(|| {
                    syn::Error::new_spanned(
                        &path,
                        "`location` names one argument field, e.g. `location = path`",
                    )
                })?;
                self.location = Some(ident);
            }
            "crate" => self.krate = Some(item.path()?),
            _ => return Err(unknown_key(item, "tool", TOOL_KEYS)),
        }
        Ok(())
    }
}
