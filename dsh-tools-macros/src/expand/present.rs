//! The declarative presenter of `#[tool(card_title = "Reading {path}", location = path, kind = "read")]`:
//! a generic card whose title is a template over argument fields, with a field marked as the file
//! the call touches.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::LitStr;

use crate::errors::Errors;

/// One piece of a title template.
#[derive(Debug, PartialEq)]
pub(crate) enum TitlePart {
    Text(String),
    Field(String),
}

/// Splits `"Read {path} ({limit} lines)"` into text and field parts; `{{` and `}}` are braces.
pub(crate) fn parse_title(template: &str) -> Result<Vec<TitlePart>, String> {
    let mut parts = Vec::new();
    let mut text = String::new();
    let mut chars = template.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                text.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                text.push('}');
            }
            '{' => {
                let mut name = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(inner) => name.push(inner),
                        None => return Err("unclosed `{` in the title template".to_owned()),
                    }
                }
                let name = name.trim().to_owned();
                if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    return Err(format!("`{{{name}}}` does not name an argument field"));
                }
                if !text.is_empty() {
                    parts.push(TitlePart::Text(std::mem::take(&mut text)));
                }
                parts.push(TitlePart::Field(name));
            }
            '}' => {
                return Err(
                    "unmatched `}` in the title template (write `}}` for a brace)".to_owned(),
                );
            }
            other => text.push(other),
        }
    }
    if !text.is_empty() {
        parts.push(TitlePart::Text(text));
    }
    Ok(parts)
}

/// The body of `present_call` for a declarative card. `fields` lists the argument fields when
/// they are known (inline parameters), so an unknown name is reported on the template; otherwise
/// the field access itself is checked by the compiler, spanned on the template.
pub(crate) fn expand_declarative_presenter(
    title: Option<&LitStr>,
    location: Option<&syn::Ident>,
    kind: &TokenStream,
    fallback_title: &str,
    fields: Option<&[String]>,
    private: &TokenStream,
    errors: &mut Errors,
) -> TokenStream {
    let title_code = match title {
        Some(template) => match parse_title(&template.value()) {
            Ok(parts) => {
                let pushes = parts.iter().map(|part| match part {
                    TitlePart::Text(text) => quote!(__title.push_str(#text);),
                    TitlePart::Field(name) => {
                        if let Some(known) = fields
                            && !known.contains(name) {
                                errors.error_at(
                                    template,
                                    format!(
                                        "the title template names `{name}`, which is not an argument; arguments: {}",
                                        known.join(", ")
                                    ),
                                );
                            }
                        let field = format_ident!("{}", name, span = template.span());
                        quote_spanned!(template.span()=> #private::TitlePart::push_title(&__args.#field, &mut __title);)
                    }
                });
                quote! {
                    let mut __title = ::std::string::String::new();
                    #(#pushes)*
                }
            }
            Err(message) => {
                errors.error_at(template, message);
                quote!(let __title = ::std::string::String::new();)
            }
        },
        None => quote!(let __title = ::std::string::String::from(#fallback_title);),
    };
    let locations = match location {
        Some(field) => {
            if let Some(known) = fields
                && !known.contains(&field.to_string())
            {
                errors.error_at(
                    field,
                    format!(
                        "`location` names `{field}`, which is not an argument; arguments: {}",
                        known.join(", ")
                    ),
                );
            }
            quote_spanned!(field.span()=> #private::LocationPart::locations(&__args.#field))
        }
        None => quote!(::std::vec::Vec::new()),
    };
    quote! {
        #title_code
        ::core::option::Option::Some(#private::ToolCallView::Generic {
            title: __title,
            kind: #kind,
            raw_input: ::core::option::Option::None,
            content: ::std::vec::Vec::new(),
            locations: #locations,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_title_templates() {
        assert_eq!(
            parse_title("Read {path} ({limit}) {{x}}").unwrap(),
            vec![
                TitlePart::Text("Read ".into()),
                TitlePart::Field("path".into()),
                TitlePart::Text(" (".into()),
                TitlePart::Field("limit".into()),
                TitlePart::Text(") {x}".into()),
            ]
        );
        assert!(parse_title("Read {path").is_err());
        assert!(parse_title("Read }").is_err());
        assert!(parse_title("Read {a b}").is_err());
    }
}
