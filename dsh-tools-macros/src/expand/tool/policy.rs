//! The policy hints of the `Tool` impl: the kind, the title and the MCP-style annotations, the
//! icons, who may call the tool, the timeout,
//! the result budget, whether the registry may move the call's arguments, and whether calls may
//! run concurrently: fields of the `Tool::INFO` constant, and provided methods. A key left out
//! emits nothing, so the default applies (`ToolInfo::new`'s field, or the trait's method).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use super::model::{ToolModel, upper_camel};
use super::signature::Param;
use crate::attr::tool::ConcurrencySafe;
use crate::errors::Errors;

/// The `ToolCallKind` of `kind = ".."` (`Other` without one), also the kind of a declarative card.
pub(super) fn kind_tokens(model: &ToolModel<'_>) -> TokenStream {
    let private = &model.private;
    match &model.attrs.kind {
        Some((kind, _)) => {
            let variant = format_ident!("{}", upper_camel(kind));
            quote!(#private::ToolCallKind::#variant)
        }
        None => quote!(#private::ToolCallKind::Other),
    }
}

/// `Tool::annotations`: the title, the kind and the behaviour hints, `None` where not given;
/// nothing (the trait's empty default) when none is.
pub(super) fn expand_annotations(model: &ToolModel<'_>) -> TokenStream {
    let (private, attrs) = (&model.private, model.attrs);
    let hints = [
        attrs.read_only,
        attrs.destructive,
        attrs.idempotent,
        attrs.open_world,
    ];
    if attrs.title.is_none() && attrs.kind.is_none() && hints.iter().all(Option::is_none) {
        // The trait's default is the same empty annotations, compiled once.
        return TokenStream::new();
    }
    let title = match &attrs.title {
        Some(title) => quote!(::core::option::Option::Some(::std::string::String::from(#title))),
        None => quote!(::core::option::Option::None),
    };
    let kind = match &attrs.kind {
        Some(_) => {
            let kind = kind_tokens(model);
            quote!(::core::option::Option::Some(#kind))
        }
        None => quote!(::core::option::Option::None),
    };
    let hint = |value: Option<bool>| match value {
        Some(flag) => quote!(::core::option::Option::Some(#flag)),
        None => quote!(::core::option::Option::None),
    };
    let (read_only, destructive, idempotent, open_world) = (
        hint(attrs.read_only),
        hint(attrs.destructive),
        hint(attrs.idempotent),
        hint(attrs.open_world),
    );
    quote! {
        fn annotations() -> #private::ToolAnnotations {
            #private::ToolAnnotations {
                title: #title,
                kind: #kind,
                read_only: #read_only,
                destructive: #destructive,
                idempotent: #idempotent,
                open_world: #open_world,
            }
        }
    }
}

/// `Tool::icons` of the `icon` keys, in order (each checked when read).
pub(super) fn expand_icons(model: &ToolModel<'_>) -> TokenStream {
    let icons = &model.attrs.icons;
    if icons.is_empty() {
        return TokenStream::new();
    }
    let private = &model.private;
    let icons = icons.iter().map(|icon| {
        let src = &icon.src;
        let mime_type = icon
            .mime_type
            .iter()
            .map(|mime_type| quote!(.with_mime_type(#mime_type)));
        let sizes = icon.sizes.iter().map(|size| quote!(.with_size(#size)));
        let theme = icon.theme.iter().map(|(theme, text)| {
            let variant = format_ident!("{}", upper_camel(theme), span = text.span());
            quote!(.with_theme(#private::IconTheme::#variant))
        });
        quote!(<#private::ToolIcon as ::std::convert::From<&str>>::from(#src) #(#mime_type)* #(#sizes)* #(#theme)*)
    });
    quote! {
        fn icons() -> ::std::vec::Vec<#private::ToolIcon> {
            ::std::vec![#(#icons),*]
        }
    }
}

/// The `allowed_callers` field of `Tool::INFO` of `callers = ".."`, spanned on the value.
pub(super) fn expand_allowed_callers(model: &ToolModel<'_>) -> TokenStream {
    let Some((callers, text)) = &model.attrs.callers else {
        return TokenStream::new();
    };
    let private = &model.private;
    let variant = format_ident!("{}", upper_camel(callers), span = text.span());
    quote_spanned! {text.span()=>
        allowed_callers: #private::ToolCallers::#variant,
    }
}

/// The `task_support` field of `Tool::INFO` of `task` / `task = ".."`, spanned on the
/// attribute.
pub(super) fn expand_task_support(model: &ToolModel<'_>) -> TokenStream {
    let Some((task, span)) = &model.attrs.task else {
        return TokenStream::new();
    };
    let private = &model.private;
    let variant = format_ident!("{}", upper_camel(task), span = *span);
    quote_spanned! {*span=>
        task_support: #private::TaskSupport::#variant,
    }
}

/// The `journal` field of `Tool::INFO` of `journal = false` / `journal_ttl_ms = ..`, spanned on
/// the attribute.
pub(super) fn expand_journal(model: &ToolModel<'_>) -> TokenStream {
    let private = &model.private;
    match (model.attrs.journal, model.attrs.journal_ttl_ms) {
        (Some((false, span)), _) => quote_spanned! {span=>
            journal: #private::JournalPolicy {
                enabled: false,
                answer_within_ms: ::core::option::Option::None,
            },
        },
        (_, Some((ms, span))) => quote_spanned! {span=>
            journal: #private::JournalPolicy {
                enabled: true,
                answer_within_ms: ::core::option::Option::Some(#ms),
            },
        },
        _ => TokenStream::new(),
    }
}

/// The `timeout_ms` and `timeout_grace_ms` fields of `Tool::INFO` of `timeout_ms = ..` and
/// `timeout_grace_ms = ..`, each spanned on its value.
pub(super) fn expand_timeout(model: &ToolModel<'_>) -> TokenStream {
    let budget = model.attrs.timeout_ms.map(|(ms, span)| {
        quote_spanned! {span=>
            timeout_ms: ::core::option::Option::Some(#ms),
        }
    });
    let grace = model.attrs.timeout_grace_ms.map(|(ms, span)| {
        quote_spanned! {span=>
            timeout_grace_ms: ::core::option::Option::Some(#ms),
        }
    });
    quote!(#budget #grace)
}

/// The `max_result_chars` field of `Tool::INFO` of `max_result_chars = ..`, spanned on the
/// value.
pub(super) fn expand_max_result_chars(model: &ToolModel<'_>) -> TokenStream {
    let Some((chars, span)) = model.attrs.max_result_chars else {
        return TokenStream::new();
    };
    let chars = proc_macro2::Literal::u64_unsuffixed(chars);
    quote_spanned! {span=>
        max_result_chars: ::core::option::Option::Some(#chars),
    }
}

/// The `reads_call_arguments: false` field of `Tool::INFO` when the call's arguments may be
/// moved into the tool's types.
pub(super) fn expand_reads_call_arguments(model: &ToolModel<'_>) -> TokenStream {
    // Only a `&ToolRun` parameter reaches the call's arguments as the model sent them (a
    // `render = fn` gets the value alone, and no finalizer is generated), so a function without
    // one lets the registry move the arguments into its types instead of copying them; a
    // function without arguments has nothing to move.
    let moves_arguments =
        !model.fields.is_empty() && !model.params.iter().any(|param| matches!(param, Param::Run));
    if !moves_arguments {
        return TokenStream::new();
    }
    quote!(
        reads_call_arguments: false,
    )
}

/// The `defer_loading` field of `Tool::INFO` of `defer_loading`.
pub(super) fn expand_defer_loading(model: &ToolModel<'_>) -> TokenStream {
    if !model.attrs.defer_loading {
        return TokenStream::new();
    }
    quote!(
        defer_loading: true,
    )
}

/// The `input_examples` field of `Tool::INFO` of the `example = ".."` keys. Each text was checked
/// to be a JSON object when the attribute was read; here its keys are checked against the tool's
/// arguments (when the parameters are the arguments: a lone struct argument's keys are its own),
/// and the runtime checks every value against the argument schema at registration.
pub(super) fn expand_examples(model: &ToolModel<'_>, errors: &mut Errors) -> TokenStream {
    let examples = &model.attrs.examples;
    if examples.is_empty() {
        return TokenStream::new();
    }
    if model.lone.is_none() {
        let known: Vec<&str> = model
            .fields
            .iter()
            .filter(|field| !field.skip)
            .map(|field| field.key.as_str())
            .collect();
        for example in examples {
            let keys = crate::json_text::object_keys(&example.value()).unwrap_or_default();
            for key in keys.iter().filter(|key| !known.contains(&key.as_str())) {
                errors.error_at(
                    example,
                    format!(
                        "input example has key \"{key}\", which is not an argument of this \
                         tool; its arguments: {}",
                        if known.is_empty() {
                            "none".to_owned()
                        } else {
                            known.join(", ")
                        }
                    ),
                );
            }
        }
    }
    quote!(
        input_examples: &[#(#examples),*],
    )
}

/// `Tool::concurrency_safe` of `concurrency_safe` (always) or `concurrency_safe = classifier`.
pub(super) fn expand_concurrency(model: &ToolModel<'_>) -> TokenStream {
    let Some(safe) = &model.attrs.concurrency_safe else {
        return TokenStream::new();
    };
    let body = match safe {
        ConcurrencySafe::Always => quote!(true),
        ConcurrencySafe::Classifier(path) => quote!(#path(__args)),
    };
    quote! {
        fn concurrency_safe(&self, __args: &Self::Args) -> bool {
            let _ = __args;
            #body
        }
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;
    use crate::expand::tool::model::sample;
    use crate::expand::tool::signature::ToolItem;

    fn item(attr: TokenStream) -> ToolItem {
        sample::item(
            attr,
            syn::parse_quote!(
                /// D.
                async fn f(path: String) {}
            ),
        )
    }

    #[test]
    fn the_timeout_carries_its_value() {
        let item = item(quote!(timeout_ms = 1500));
        assert_eq!(
            expand_timeout(&sample::model(&item)).to_string(),
            quote!(
                timeout_ms: ::core::option::Option::Some(1500u64),
            )
            .to_string()
        );
        assert!(expand_timeout(&sample::model(&self::item(quote!()))).is_empty());
    }

    #[test]
    fn the_result_budget_is_an_unsuffixed_usize() {
        let item = item(quote!(max_result_chars = 2000));
        assert_eq!(
            expand_max_result_chars(&sample::model(&item)).to_string(),
            quote!(
                max_result_chars: ::core::option::Option::Some(2000),
            )
            .to_string()
        );
        assert!(expand_max_result_chars(&sample::model(&self::item(quote!()))).is_empty());
    }

    #[test]
    fn annotations_carry_the_kind_and_hints() {
        let item = item(quote!(kind = "read", read_only = true, open_world = false));
        let annotations = expand_annotations(&sample::model(&item));
        let expected = quote! {
            kind: ::core::option::Option::Some(::dsh_tools::__private::ToolCallKind::Read),
            read_only: ::core::option::Option::Some(true),
            destructive: ::core::option::Option::None,
            idempotent: ::core::option::Option::None,
            open_world: ::core::option::Option::Some(false),
        };
        assert!(sample::contains(&annotations, expected), "{annotations}");

        let plain = expand_annotations(&sample::model(&self::item(quote!())));
        assert!(plain.is_empty(), "{plain}");
        let titled = expand_annotations(&sample::model(&self::item(quote!(title = "T"))));
        assert!(sample::contains(
            &titled,
            quote!(kind: ::core::option::Option::None,)
        ));
        assert_eq!(
            kind_tokens(&sample::model(&self::item(quote!()))).to_string(),
            quote!(::dsh_tools::__private::ToolCallKind::Other).to_string()
        );
    }

    #[test]
    fn arguments_move_unless_the_run_is_a_parameter() {
        let moves = expand_reads_call_arguments(&sample::model(&item(quote!())));
        assert_eq!(
            moves.to_string(),
            quote!(
                reads_call_arguments: false,
            )
            .to_string()
        );
        let reads = sample::item(
            quote!(),
            syn::parse_quote!(
                /// D.
                async fn f(run: &ToolRun, path: String) {}
            ),
        );
        assert!(expand_reads_call_arguments(&sample::model(&reads)).is_empty());
        let none = sample::item(
            quote!(),
            syn::parse_quote!(
                /// D.
                async fn f() {}
            ),
        );
        assert!(expand_reads_call_arguments(&sample::model(&none)).is_empty());
    }

    #[test]
    fn concurrency_is_always_or_classified() {
        let always = expand_concurrency(&sample::model(&item(quote!(concurrency_safe))));
        assert!(sample::contains(&always, quote!(let _ = __args; true)));
        let item = item(quote!(concurrency_safe = only_reads));
        let classified = expand_concurrency(&sample::model(&item));
        assert!(sample::contains(
            &classified,
            quote!(let _ = __args; only_reads(__args))
        ));
        assert!(expand_concurrency(&sample::model(&self::item(quote!()))).is_empty());
    }
}
