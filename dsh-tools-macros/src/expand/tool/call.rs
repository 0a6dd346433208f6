//! The execute shim: `Tool::call` destructures the arguments, looks up the `#[state]`
//! parameters, calls the user's function (awaited, or on the blocking pool) and converts what it
//! returns; and `Tool::required_state`, which declares the `#[state]` types so that the registry
//! refuses the tool when it lacks one, rather than every call failing. The value and error types
//! are named at the user's tokens, so a type that cannot be a tool value, or an error that does
//! not convert into `ToolError`, is reported there.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use super::model::{Returns, ToolModel};
use super::signature::Param;

/// The `Tool` impl's `Output`: the value type, named without asking anything of it (a
/// `Result`'s `T`, through a trait every `Result` implements, or the type itself), so a type
/// that cannot be a tool value is reported once: where `Output` requires `ToolArgs` and
/// `Serialize`.
pub(super) fn expand_output_type(model: &ToolModel<'_>) -> TokenStream {
    let private = &model.private;
    match &model.returns {
        Returns::Unit => quote!(()),
        // Spanned on `T`, which is what an error about the value type is about.
        Returns::Result { ty, value, .. } => {
            quote_spanned!(value.span()=> <#ty as #private::ResultValue>::Value)
        }
        Returns::Value(ty) => ty.to_token_stream(),
    }
}

/// The `let`s that fetch each `#[state]` parameter from the run, in parameter order, spanned on
/// the state's type (where a missing `Send + Sync + 'static` is reported).
pub(super) fn expand_state_lookups(model: &ToolModel<'_>) -> TokenStream {
    let private = &model.private;
    model
        .params
        .iter()
        .filter_map(|param| match param {
            Param::State { ident, ty } => Some(
                quote_spanned!(ty.span()=> let #ident = #private::require_state::<#ty>(__run)?;),
            ),
            _ => None,
        })
        .collect()
}

/// `Tool::required_state`: the `#[state]` types in parameter order; nothing (the trait's empty
/// default) without `#[state]` parameters.
pub(super) fn expand_required_state(model: &ToolModel<'_>) -> TokenStream {
    let private = &model.private;
    let types: Vec<TokenStream> = model
        .params
        .iter()
        .filter_map(|param| match param {
            Param::State { ty, .. } => {
                Some(quote_spanned!(ty.span()=> #private::StateType::of::<#ty>()))
            }
            _ => None,
        })
        .collect();
    if types.is_empty() {
        return TokenStream::new();
    }
    quote! {
        fn required_state() -> ::std::vec::Vec<#private::StateType> {
            ::std::vec![#(#types),*]
        }
    }
}

/// `Tool::call`.
pub(super) fn expand_call(model: &ToolModel<'_>) -> TokenStream {
    let private = &model.private;
    let fn_ident = &model.function.sig.ident;
    let args = &model.names.args;
    let idents = model.fields.iter().map(|field| &field.ident);
    let destructure = quote!(let #args { #(#idents),* } = __args;);
    let state_lookups = expand_state_lookups(model);
    // The call of the user's function, in parameter order.
    let call_args = model.params.iter().map(|param| match param {
        Param::Run => quote!(__run),
        Param::State { ident, .. } => quote!(#ident),
        Param::Argument(field) => field.ident.to_token_stream(),
    });
    let (into_return, returned) = conversion(model);
    let body_future = if model.attrs.blocking {
        // The plain `fn` runs on the blocking pool with a clone of the run context, which its
        // `&ToolRun` and `#[state]` parameters borrow from.
        quote! {
            let __run_owned = ::core::clone::Clone::clone(__run);
            #private::run_blocking(move || {
                let __run = &__run_owned;
                let _ = __run;
                #destructure
                #state_lookups
                let #returned = #fn_ident(#(#call_args),*);
                #into_return(#returned)
            })
        }
    } else {
        let future_span = model
            .function
            .sig
            .asyncness
            .map_or_else(Span::call_site, |token| token.span());
        quote_spanned! {future_span=>
            async move {
                #destructure
                #state_lookups
                let #returned = #fn_ident(#(#call_args),*).await;
                #into_return(#returned)
            }
        }
    };
    quote! {
        fn call<'__dsh>(
            &'__dsh self,
            __args: Self::Args,
            __run: &'__dsh #private::ToolRun,
        ) -> impl ::core::future::Future<
            Output = ::core::result::Result<Self::Output, #private::ToolError>,
        > + ::core::marker::Send + '__dsh {
            let _ = __run;
            #body_future
        }
    }
}

/// The function converting the returned value into the call's result, and the name the value
/// is bound to; both are spanned on the error type (on the return type when there is none),
/// where an error type that does not convert into `ToolError` is reported.
fn conversion(model: &ToolModel<'_>) -> (TokenStream, Ident) {
    let private = &model.private;
    match &model.returns {
        Returns::Unit => (
            quote!(#private::tool_value),
            Ident::new("__dsh_returned", model.function.sig.ident.span()),
        ),
        Returns::Result { error_span, .. } => (
            quote_spanned!(*error_span=> #private::tool_result),
            Ident::new("__dsh_returned", *error_span),
        ),
        Returns::Value(ty) => (
            quote_spanned!(ty.span()=> #private::tool_value),
            Ident::new("__dsh_returned", ty.span()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;
    use crate::expand::tool::model::sample;

    #[test]
    fn names_the_value_type_of_each_return_shape() {
        let cases = [
            (
                quote!(
                    async fn f() {}
                ),
                quote!(()),
            ),
            (
                quote!(
                    async fn f() -> Result<u8, MyError> {
                        todo!()
                    }
                ),
                quote!(<Result<u8, MyError> as ::dsh_tools::__private::ResultValue>::Value),
            ),
            (
                quote!(
                    async fn f() -> Vec<u8> {
                        todo!()
                    }
                ),
                quote!(Vec<u8>),
            ),
        ];
        for (function, expected) in cases {
            let function: syn::ItemFn = syn::parse2(quote!(/// D.
                #function))
            .unwrap();
            let item = sample::item(quote!(), function);
            let output = expand_output_type(&sample::model(&item));
            assert_eq!(output.to_string(), expected.to_string());
        }
    }

    #[test]
    fn looks_up_state_in_parameter_order() {
        let item = sample::item(
            quote!(),
            syn::parse_quote!(
                /// D.
                async fn f(#[state] db: &Db, n: u8, #[state] cache: &Cache) {}
            ),
        );
        let lookups = expand_state_lookups(&sample::model(&item));
        assert_eq!(
            lookups.to_string(),
            quote! {
                let db = ::dsh_tools::__private::require_state::<Db>(__run)?;
                let cache = ::dsh_tools::__private::require_state::<Cache>(__run)?;
            }
            .to_string()
        );
        let item = sample::item(
            quote!(),
            syn::parse_quote!(
                /// D.
                async fn f(n: u8) {}
            ),
        );
        assert!(expand_state_lookups(&sample::model(&item)).is_empty());
    }

    #[test]
    fn declares_the_state_types_in_parameter_order() {
        let item = sample::item(
            quote!(),
            syn::parse_quote!(
                /// D.
                async fn f(#[state] db: &Db, n: u8, #[state] cache: &Cache) {}
            ),
        );
        assert_eq!(
            expand_required_state(&sample::model(&item)).to_string(),
            quote! {
                fn required_state() -> ::std::vec::Vec<::dsh_tools::__private::StateType> {
                    ::std::vec![
                        ::dsh_tools::__private::StateType::of::<Db>(),
                        ::dsh_tools::__private::StateType::of::<Cache>()
                    ]
                }
            }
            .to_string()
        );
        let item = sample::item(
            quote!(),
            syn::parse_quote!(
                /// D.
                async fn f(n: u8) {}
            ),
        );
        assert!(expand_required_state(&sample::model(&item)).is_empty());
    }

    #[test]
    fn awaits_the_function_with_its_parameters_in_order() {
        let item = sample::item(
            quote!(),
            syn::parse_quote!(
                /// D.
                async fn read(path: String, run: &ToolRun, #[state] db: &Db) -> Result<String, E> {
                    todo!()
                }
            ),
        );
        let call = expand_call(&sample::model(&item));
        assert!(sample::contains(
            &call,
            quote!(let ReadToolArgs { path } = __args;)
        ));
        assert!(
            sample::contains(
                &call,
                quote!(let __dsh_returned = read(path, __run, db).await; ::dsh_tools::__private::tool_result(__dsh_returned))
            ),
            "{call}"
        );
        assert!(!sample::contains(&call, quote!(run_blocking)));
    }

    #[test]
    fn a_blocking_tool_runs_on_the_blocking_pool() {
        let item = sample::item(
            quote!(blocking),
            syn::parse_quote!(
                /// D.
                fn list(dir: String) -> Vec<String> {
                    todo!()
                }
            ),
        );
        let call = expand_call(&sample::model(&item));
        assert!(sample::contains(
            &call,
            quote!(::dsh_tools::__private::run_blocking)
        ));
        assert!(sample::contains(&call, quote!(let __run = &__run_owned;)));
        assert!(
            sample::contains(
                &call,
                quote!(let __dsh_returned = list(dir); ::dsh_tools::__private::tool_value(__dsh_returned))
            ),
            "{call}"
        );
        assert!(!sample::contains(&call, quote!(.await)));
    }
}
