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
    "timeout_grace_ms",
    "blocking",
    "schemars_output",
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
    "icon",
    "callers",
    "task",
    "journal",
    "journal_ttl_ms",
    "card_title",
    "location",
    "crate",
];

/// The `ToolCallKind` names `kind` accepts.
pub(crate) const KINDS: &[&str] = &[
    "read", "edit", "delete", "move", "search", "execute", "fetch", "other",
];

/// The `TaskSupport` names `task = ".."` accepts (a bare `task` is `optional`).
pub(crate) const TASKS: &[&str] = &["forbidden", "optional", "required"];

/// The `ToolCallers` names `callers` accepts.
pub(crate) const CALLERS: &[&str] = &["model", "program", "both"];

/// The schemes an icon's source may have: MCP clients refuse others (`javascript:`, `file:`).
const ICON_SCHEMES: &[&str] = &["https:", "http:", "data:"];

/// The keys of the long form `icon(src = .., ..)`.
const ICON_KEYS: &[&str] = &["src", "mime_type", "sizes", "theme"];

/// The themes `icon(theme = ..)` accepts.
const ICON_THEMES: &[&str] = &["light", "dark"];

/// One `icon = ".."`, or `icon(src = "..", mime_type = "..", sizes = [..], theme = "..")`.
pub(crate) struct IconSpec {
    pub(crate) src: LitStr,
    pub(crate) mime_type: Option<LitStr>,
    pub(crate) sizes: Vec<LitStr>,
    /// The `IconTheme` variant's name (`light`, `dark`) and its literal.
    pub(crate) theme: Option<(String, LitStr)>,
}

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
    /// `timeout_grace_ms = N`: this tool's grace after its deadline.
    pub(crate) timeout_grace_ms: Option<(u64, Span)>,
    /// `blocking`: the body is a plain `fn`, run on tokio's blocking pool.
    pub(crate) blocking: bool,
    /// `schemars_output`: the value's schema comes from `schemars::JsonSchema` (a type of
    /// another crate), its conversion back from `serde::Deserialize`.
    pub(crate) schemars_output: bool,
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
    /// `title = ".."`: the tool's human-readable title, fixed text.
    pub(crate) title: Option<LitStr>,
    /// `icon = ".."` or `icon(..)`, once per icon, in order.
    pub(crate) icons: Vec<IconSpec>,
    /// `callers = ".."`: the `ToolCallers` variant's name (`Model`, `Program`, `Both`).
    pub(crate) callers: Option<(String, LitStr)>,
    /// `task` or `task = ".."`: the `TaskSupport` variant's name, and where it was written.
    pub(crate) task: Option<(String, Span)>,
    /// `journal = false`: calls are not journaled by a registry with a call store.
    pub(crate) journal: Option<(bool, Span)>,
    /// `journal_ttl_ms = ..`: a read-only call is answered from the journal within this time.
    pub(crate) journal_ttl_ms: Option<(u64, Span)>,
    /// `card_title = "Read {path}"`: the declarative card's title template.
    pub(crate) card_title: Option<LitStr>,
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
            // `example` and `icon` are the keys given once per value.
            if seen.contains(&name) && name != "example" && name != "icon" {
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
            "timeout_grace_ms" => self.timeout_grace_ms = Some(item.unsigned()?),
            "blocking" => self.blocking = item.flag()?,
            "schemars_output" => self.schemars_output = item.flag()?,
            "journal" => self.journal = Some((item.flag()?, item.key.span())),
            "journal_ttl_ms" => {
                let (value, span) = item.unsigned()?;
                if value == 0 {
                    return Err(syn::Error::new(
                        span,
                        "`journal_ttl_ms` must be a positive number of milliseconds",
                    ));
                }
                self.journal_ttl_ms = Some((value, span));
            }
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
            "title" => self.title = Some(check_title(item.string()?)?),
            "icon" => self.icons.push(IconSpec::parse(item)?),
            "callers" => {
                let text = item.string()?;
                let callers = text.value();
                if !CALLERS.contains(&callers.as_str()) {
                    return Err(syn::Error::new_spanned(
                        &text,
                        format!(
                            "unknown `callers` value `{callers}`; expected one of: {}",
                            CALLERS.join(", ")
                        ),
                    ));
                }
                self.callers = Some((callers, text));
            }
            "task" => {
                self.task = Some(match &item.value {
                    MetaValue::Flag => ("optional".to_owned(), item.key.span()),
                    _ => {
                        let text = item.string()?;
                        let task = text.value();
                        if !TASKS.contains(&task.as_str()) {
                            return Err(syn::Error::new_spanned(
                                &text,
                                format!(
                                    "unknown `task` value `{task}`; expected one of: {}",
                                    TASKS.join(", ")
                                ),
                            ));
                        }
                        (task, text.span())
                    }
                });
            }
            "card_title" => self.card_title = Some(item.string()?),
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

/// A tool title: fixed text, not empty. A title with `{field}` placeholders was the declarative
/// card's template before `card_title` existed, so the error names the key it moved to.
fn check_title(title: LitStr) -> syn::Result<LitStr> {
    let text = title.value();
    if text.trim().is_empty() {
        return Err(syn::Error::new_spanned(
            &title,
            "`title` must not be empty: it is the tool's human-readable title, e.g. `title = \"Read file\"`",
        ));
    }
    let templated = crate::expand::present::parse_title(&text).is_ok_and(|parts| {
        parts
            .iter()
            .any(|part| matches!(part, crate::expand::present::TitlePart::Field(_)))
    });
    if templated {
        return Err(syn::Error::new_spanned(
            &title,
            "`title` is the tool's fixed title (MCP listings, the default card title); a card title naming the arguments is `card_title = \"..\"`",
        ));
    }
    Ok(title)
}

impl IconSpec {
    /// `icon = "src"`, or the long form with its keys (`src` required).
    fn parse(item: &MetaItem) -> syn::Result<Self> {
        let MetaValue::List(tokens) = &item.value else {
            return Ok(Self {
                src: check_icon(item.string().map_err(|_| {
                    syn::Error::new_spanned(
                        item.span_tokens(),
                        "expected `icon = \"https://…\"` or `icon(src = \"…\", mime_type = \"…\", sizes = [\"48x48\"], theme = \"light\" | \"dark\")`",
                    )
                })?)?,
                mime_type: None,
                sizes: Vec::new(),
                theme: None,
            });
        };
        let items = Punctuated::<MetaItem, Token![,]>::parse_terminated.parse2(tokens.clone())?;
        let (mut src, mut mime_type, mut sizes, mut theme) = (None, None, Vec::new(), None);
        let mut seen: Vec<String> = Vec::new();
        for key in &items {
            let name = key.name();
            if seen.contains(&name) {
                return Err(syn::Error::new_spanned(
                    &key.key,
                    format!("duplicate `icon` key `{name}`"),
                ));
            }
            seen.push(name.clone());
            match name.as_str() {
                "src" => src = Some(check_icon(key.string()?)?),
                "mime_type" => {
                    let text = key.string()?;
                    if !text.value().starts_with("image/") {
                        return Err(syn::Error::new_spanned(
                            &text,
                            "an icon's `mime_type` is an image type, e.g. `image/png`",
                        ));
                    }
                    mime_type = Some(text);
                }
                "sizes" => sizes = icon_sizes(key)?,
                "theme" => {
                    let text = key.string()?;
                    let value = text.value();
                    if !ICON_THEMES.contains(&value.as_str()) {
                        return Err(syn::Error::new_spanned(
                            &text,
                            format!("unknown icon theme `{value}`; expected one of: light, dark"),
                        ));
                    }
                    theme = Some((value, text));
                }
                _ => return Err(unknown_key(key, "icon", ICON_KEYS)),
            }
        }
        let src = src.ok_or_else(|| {
            syn::Error::new_spanned(item.span_tokens(), "`icon(..)` needs `src = \"…\"`")
        })?;
        Ok(Self {
            src,
            mime_type,
            sizes,
            theme,
        })
    }
}

/// `sizes = ["48x48", "any"]`: each `WxH` in pixels, or `any` for a scalable image.
fn icon_sizes(item: &MetaItem) -> syn::Result<Vec<LitStr>> {
    let expected = || {
        syn::Error::new_spanned(
            item.span_tokens(),
            "expected `sizes = [\"48x48\", ..]` (each `WxH` or `any`)",
        )
    };
    let syn::Expr::Array(array) = item.expr()? else {
        return Err(expected());
    };
    array
        .elems
        .iter()
        .map(|element| {
            let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(size),
                ..
            }) = element
            else {
                return Err(expected());
            };
            let value = size.value();
            let pixels = value.split_once('x').is_some_and(|(width, height)| {
                [width, height]
                    .iter()
                    .all(|side| !side.is_empty() && side.bytes().all(|byte| byte.is_ascii_digit()))
            });
            if pixels || value == "any" {
                Ok(size.clone())
            } else {
                Err(syn::Error::new_spanned(
                    size,
                    format!(
                        "an icon size is `WxH` in pixels (`48x48`) or `any`; `{value}` is neither"
                    ),
                ))
            }
        })
        .collect()
}

/// An icon's source: an `https:`/`http:` URL with a host, or a `data:` URI of base64 image data
/// (what MCP allows; clients refuse other schemes).
fn check_icon(icon: LitStr) -> syn::Result<LitStr> {
    let text = icon.value();
    let problem = match ICON_SCHEMES.iter().find(|scheme| {
        text.get(..scheme.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(scheme))
    }) {
        None => Some(format!(
            "an icon is an `https:` or `http:` URL or a `data:` URI; `{text}` is neither"
        )),
        Some(&"data:") => {
            let rest = &text["data:".len()..];
            match rest.split_once(',') {
                Some((header, payload))
                    if header.starts_with("image/")
                        && header.ends_with(";base64")
                        && !payload.is_empty() =>
                {
                    None
                }
                _ => Some("a `data:` icon is `data:image/<type>;base64,<data>`".to_owned()),
            }
        }
        Some(scheme) => {
            let host = text[scheme.len()..].strip_prefix("//").unwrap_or_default();
            let host = host.split(['/', '?', '#']).next().unwrap_or_default();
            (host.is_empty() || text.chars().any(char::is_whitespace)).then(|| {
                format!("an icon URL is `{scheme}//host/path`, without spaces; `{text}` is not")
            })
        }
    };
    match problem {
        Some(problem) => Err(syn::Error::new_spanned(&icon, problem)),
        None => Ok(icon),
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;

    /// The keys of `#[tool(tokens)]`, and every error reading them gave.
    fn parse(tokens: TokenStream) -> (ToolAttrs, Option<String>) {
        let mut errors = Errors::new();
        let attrs = ToolAttrs::parse(tokens, &mut errors);
        (attrs, errors.finish().err().map(|error| error.to_string()))
    }

    #[test]
    fn reads_title_icons_and_callers() {
        let (attrs, error) = parse(quote!(
            title = "Read file",
            icon = "https://example.com/read.png",
            icon = "data:image/svg+xml;base64,PHN2Zy8+",
            callers = "program",
            card_title = "Read {path}"
        ));
        assert_eq!(error, None);
        assert_eq!(
            attrs.title.map(|title| title.value()).as_deref(),
            Some("Read file")
        );
        let icons: Vec<String> = attrs.icons.iter().map(|icon| icon.src.value()).collect();
        assert_eq!(
            icons,
            [
                "https://example.com/read.png",
                "data:image/svg+xml;base64,PHN2Zy8+"
            ]
        );
        assert_eq!(
            attrs.callers.map(|(callers, _)| callers).as_deref(),
            Some("program")
        );
        assert_eq!(
            attrs.card_title.map(|title| title.value()).as_deref(),
            Some("Read {path}")
        );
    }

    #[test]
    fn refuses_empty_and_templated_titles() {
        let (_, error) = parse(quote!(title = "  "));
        assert_eq!(
            error.as_deref(),
            Some(
                "`title` must not be empty: it is the tool's human-readable title, e.g. `title = \"Read file\"`"
            )
        );
        let (_, error) = parse(quote!(title = "Read {path}"));
        assert_eq!(
            error.as_deref(),
            Some(
                "`title` is the tool's fixed title (MCP listings, the default card title); a card title naming the arguments is `card_title = \"..\"`"
            )
        );
        // Escaped braces are text, not a template.
        let (attrs, error) = parse(quote!(title = "Set {{x}}"));
        assert_eq!(error, None);
        assert!(attrs.title.is_some());
    }

    #[test]
    fn refuses_icons_clients_would_not_load() {
        for (icon, expected) in [
            (
                "file:///icon.png",
                "an icon is an `https:` or `http:` URL or a `data:` URI; `file:///icon.png` is neither",
            ),
            (
                "javascript:alert(1)",
                "an icon is an `https:` or `http:` URL or a `data:` URI; `javascript:alert(1)` is neither",
            ),
            (
                "https:///icon.png",
                "an icon URL is `https://host/path`, without spaces; `https:///icon.png` is not",
            ),
            (
                "data:text/plain;base64,aGk=",
                "a `data:` icon is `data:image/<type>;base64,<data>`",
            ),
            (
                "data:image/png;base64,",
                "a `data:` icon is `data:image/<type>;base64,<data>`",
            ),
        ] {
            let (_, error) = parse(quote!(icon = #icon));
            assert_eq!(error.as_deref(), Some(expected), "{icon}");
        }
    }

    #[test]
    fn reads_the_long_form_of_an_icon() {
        let (attrs, error) = parse(quote!(icon(
            src = "https://example.com/a.svg",
            mime_type = "image/svg+xml",
            sizes = ["48x48", "any"],
            theme = "dark"
        )));
        assert_eq!(error, None);
        let icon = &attrs.icons[0];
        assert_eq!(icon.src.value(), "https://example.com/a.svg");
        assert_eq!(
            icon.mime_type.as_ref().map(LitStr::value).as_deref(),
            Some("image/svg+xml")
        );
        let sizes: Vec<String> = icon.sizes.iter().map(LitStr::value).collect();
        assert_eq!(sizes, ["48x48", "any"]);
        assert_eq!(
            icon.theme.as_ref().map(|(theme, _)| theme.as_str()),
            Some("dark")
        );
        for (tokens, expected) in [
            (
                quote!(icon(mime_type = "image/png")),
                "`icon(..)` needs `src = \"…\"`",
            ),
            (
                quote!(icon(src = "https://e.com/a.png", sizes = ["big"])),
                "an icon size is `WxH` in pixels (`48x48`) or `any`; `big` is neither",
            ),
            (
                quote!(icon(src = "https://e.com/a.png", theme = "dim")),
                "unknown icon theme `dim`; expected one of: light, dark",
            ),
            (
                quote!(icon(src = "https://e.com/a.png", mime_type = "text/html")),
                "an icon's `mime_type` is an image type, e.g. `image/png`",
            ),
            (
                quote!(icon(src = "https://e.com/a.png", size = ["1x1"])),
                "unknown `icon` key `size`; did you mean `sizes`?",
            ),
        ] {
            let (_, error) = parse(tokens.clone());
            assert_eq!(error.as_deref(), Some(expected), "{tokens}");
        }
    }

    #[test]
    fn refuses_unknown_callers() {
        let (_, error) = parse(quote!(callers = "user"));
        assert_eq!(
            error.as_deref(),
            Some("unknown `callers` value `user`; expected one of: model, program, both")
        );
    }
}
