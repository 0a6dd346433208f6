//! How a tool's calls and results are shown: `render = fn` (the content the model receives) and
//! the presenters of the call card (`present_call`, or the declarative `card_title`/`location`), of
//! progress and of the result. A key left out emits nothing, so the trait's default applies.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::LitStr;
use syn::spanned::Spanned;

use super::model::ToolModel;
use super::policy::kind_tokens;
use crate::errors::Errors;
use crate::expand::present::expand_declarative_presenter;

/// `Tool::render_value` of `render = fn(&T) -> impl IntoContent`.
pub(super) fn expand_render(model: &ToolModel<'_>) -> TokenStream {
    let Some(path) = &model.attrs.render else {
        return TokenStream::new();
    };
    let private = &model.private;
    // Spanned on the path, where a function returning something that is not content is reported.
    let content =
        quote_spanned!(path.span()=> #private::IntoContent::into_content(#path(&__output)));
    quote! {
        fn render_value(
            &self,
            _arguments: &#private::Value,
            __value: &#private::Value,
        ) -> ::core::result::Result<::std::vec::Vec<#private::ContentBlock>, #private::ToolError> {
            let __output = #private::tool_output::<Self>(__value)?;
            ::core::result::Result::Ok(#content)
        }
    }
}

/// `Tool::call_view` of `present_call = fn`, or of the declarative `card_title`/`location` card;
/// using both, or a template naming no argument, goes to `errors`.
pub(super) fn expand_present_call(model: &ToolModel<'_>, errors: &mut Errors) -> TokenStream {
    let (private, attrs) = (&model.private, model.attrs);
    let declarative = attrs.card_title.is_some() || attrs.location.is_some();
    let body = match &attrs.present_call {
        Some(path) => {
            if declarative {
                errors.error_at(
                    path,
                    "`present_call` and the declarative `card_title`/`location` keys exclude each other",
                );
            }
            quote!(#path(__args))
        }
        None if declarative => {
            // Known field names let a title template's typo be reported on the template; a lone
            // parameter's card may name the fields of the struct it dereferences to instead.
            let field_names: Option<Vec<String>> = model.lone.is_none().then(|| {
                use syn::ext::IdentExt;
                model
                    .fields
                    .iter()
                    .map(|field| field.ident.unraw().to_string())
                    .collect()
            });
            // A card without a template is titled as the tool is: its title, else its name.
            let fallback_title = attrs
                .title
                .as_ref()
                .map_or_else(|| model.names.tool_name.clone(), LitStr::value);
            expand_declarative_presenter(
                attrs.card_title.as_ref(),
                attrs.location.as_ref(),
                &kind_tokens(model),
                &fallback_title,
                field_names.as_deref(),
                private,
                errors,
            )
        }
        None => return TokenStream::new(),
    };
    quote! {
        fn call_view(&self, __args: &Self::Args) -> ::core::option::Option<#private::ToolCallView> {
            #body
        }
    }
}

/// `Tool::progress_view` of `present_progress = fn`.
pub(super) fn expand_present_progress(model: &ToolModel<'_>) -> TokenStream {
    let Some(path) = &model.attrs.present_progress else {
        return TokenStream::new();
    };
    let private = &model.private;
    quote! {
        fn progress_view(
            &self,
            __args: &Self::Args,
            __progress: &#private::ToolProgress,
        ) -> ::core::option::Option<#private::ToolCallView> {
            #path(__args, __progress)
        }
    }
}

/// `Tool::result_view` of `present_result = fn`.
pub(super) fn expand_present_result(model: &ToolModel<'_>) -> TokenStream {
    let Some(path) = &model.attrs.present_result else {
        return TokenStream::new();
    };
    let private = &model.private;
    quote! {
        fn result_view(
            &self,
            __args: &Self::Args,
            __result: &#private::ResultSummary<'_>,
        ) -> ::core::option::Option<#private::ToolResultView> {
            #path(__args, __result)
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
                async fn read(path: String) -> String {
                    path
                }
            ),
        )
    }

    /// `expand_present_call`, which must report nothing.
    fn present_call(item: &ToolItem) -> TokenStream {
        let mut errors = Errors::new();
        let tokens = expand_present_call(&sample::model(item), &mut errors);
        assert!(errors.finish().is_ok());
        tokens
    }

    #[test]
    fn no_presenter_emits_nothing() {
        let item = item(quote!());
        let model = sample::model(&item);
        assert!(expand_render(&model).is_empty());
        assert!(present_call(&item).is_empty());
        assert!(expand_present_progress(&model).is_empty());
        assert!(expand_present_result(&model).is_empty());
    }

    #[test]
    fn presenters_call_the_named_functions() {
        let item = item(quote!(
            render = show,
            present_call = card,
            present_progress = ui::progress,
            present_result = ui::result
        ));
        let model = sample::model(&item);
        assert!(sample::contains(
            &expand_render(&model),
            quote!(into_content(show(&__output)))
        ));
        assert!(sample::contains(
            &present_call(&item),
            quote!(fn call_view(&self, __args: &Self::Args))
        ));
        assert!(sample::contains(
            &present_call(&item),
            quote!({ card(__args) })
        ));
        assert!(sample::contains(
            &expand_present_progress(&model),
            quote!(ui::progress(__args, __progress))
        ));
        assert!(sample::contains(
            &expand_present_result(&model),
            quote!(ui::result(__args, __result))
        ));
    }

    #[test]
    fn a_declarative_card_has_the_title_and_kind() {
        let item = item(quote!(
            card_title = "Read {path}",
            location = path,
            kind = "read"
        ));
        let card = present_call(&item);
        assert!(
            sample::contains(&card, quote!(__title.push_str("Read ");)),
            "{card}"
        );
        assert!(
            sample::contains(&card, quote!(push_title(&__args.path, &mut __title);)),
            "{card}"
        );
        assert!(
            sample::contains(
                &card,
                quote!(kind: ::dsh_tools::__private::ToolCallKind::Read,)
            ),
            "{card}"
        );
        assert!(
            sample::contains(&card, quote!(locations(&__args.path))),
            "{card}"
        );
    }

    #[test]
    fn reports_a_call_presenter_beside_a_declarative_card() {
        let item = item(quote!(present_call = card, card_title = "Read"));
        let mut errors = Errors::new();
        let tokens = expand_present_call(&sample::model(&item), &mut errors);
        assert!(sample::contains(&tokens, quote!(card(__args))));
        let error = errors.finish().expect_err("the conflict is reported");
        assert!(error.to_string().contains("exclude each other"), "{error}");
    }

    #[test]
    fn reports_a_title_naming_no_argument() {
        let item = item(quote!(card_title = "Read {file}"));
        let mut errors = Errors::new();
        expand_present_call(&sample::model(&item), &mut errors);
        let error = errors.finish().expect_err("the typo is reported");
        assert!(
            error
                .to_string()
                .contains("names `file`, which is not an argument; arguments: path"),
            "{error}"
        );
    }
}
