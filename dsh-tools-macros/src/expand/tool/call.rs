//! The execute shim: `Tool::call` destructures the arguments, looks up the `#[state]`
//! parameters, calls the user's function and converts what it returns (an `async fn`'s future
//! wrapped in the runtime's `CallFuture`, or awaited in an `async` block when the function takes
//! state; a blocking function run on the blocking pool); and `Tool::required_state`, which declares the `#[state]` types so that the registry
//! refuses the tool when it lacks one, rather than every call failing. The value and error types
//! are named at the user's tokens, so a type that cannot be a tool value, or an error that does
//! not convert into `ToolError`, is reported there.
//!
//! What the value and `#[state]` types must be is checked by code generated here, in the user's
//! crate, rather than by the bounds of the runtime's items: a bound the runtime declares would be
//! reported with a note quoting the runtime's source, which changes whenever the runtime does.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use super::model::{Returns, ToolModel};
use super::signature::Param;

/// The value type as the function's signature names it, asking nothing of it: a `Result`'s `T`
/// (through a trait every `Result` implements) or the type itself, spanned on `T`, which is what
/// an error about the value type is about.
fn value_type(model: &ToolModel<'_>) -> TokenStream {
    let private = &model.private;
    match &model.returns {
        Returns::Unit => quote!(()),
        Returns::Result { ty, value, .. } => {
            quote_spanned!(value.span()=> <#ty as #private::ResultValue>::Value)
        }
        Returns::Value(ty) => ty.to_token_stream(),
    }
}

/// Where the value type is written (the call site for `()`, which has nothing to check).
fn value_span(model: &ToolModel<'_>) -> Span {
    match &model.returns {
        Returns::Unit => Span::call_site(),
        Returns::Result { value, .. } => value.span(),
        Returns::Value(ty) => ty.span(),
    }
}

/// A constant named `name` whose body states `checks` about a type, and that type seen through
/// the constant (`ty`): the same type when every check holds, an error type when one fails. A
/// type that fails is so reported once, by the checks and at the user's tokens, and not again at
/// each bound it meets afterwards.
fn checked_type(
    name: &Ident,
    ty: &TokenStream,
    checks: &TokenStream,
) -> (TokenStream, TokenStream) {
    let constant = quote! {
        #[allow(
            clippy::no_effect_underscore_binding,
            clippy::type_complexity,
            clippy::let_unit_value
        )]
        const #name: usize = {
            #checks
            1
        };
    };
    let checked = quote!(<[#ty; #name] as ::core::iter::IntoIterator>::Item);
    (constant, checked)
}

/// The constant checking the value type and the `Tool` impl's `Output`. The value must have a
/// schema (`ToolArgs`), serialize, and be `Send + 'static`; each requirement is checked on its
/// own, so the message names the one that fails. The docs show the value type itself.
pub(super) fn expand_output_type(model: &ToolModel<'_>) -> (TokenStream, TokenStream) {
    let private = &model.private;
    let value = value_type(model);
    if matches!(model.returns, Returns::Unit) {
        return (
            TokenStream::new(),
            quote!(
                type Output = ();
            ),
        );
    }
    let span = value_span(model);
    // A type of another crate (`schemars_output`) has its schema from `schemars` and is read
    // back through `Deserialize`; any other value is a `ToolArgs` type.
    let schemars = model.attrs.schemars_output;
    let kind_check = if schemars {
        quote_spanned! {span=> let _ = <#value as #private::SchemarsType>::CHECK; }
    } else {
        quote_spanned! {span=> let _ = <#value as #private::ToolArgs>::OBJECT_STRUCT; }
    };
    let wrap = |ty: &TokenStream| {
        if schemars {
            quote!(#private::SchemarsOutput<#ty>)
        } else {
            ty.clone()
        }
    };
    let checks = quote_spanned! {span=>
        #kind_check
        let _ = <#value as #private::serde::Serialize>::serialize::<#private::ValueSerializer>;
        let _: fn(&#value) -> &(dyn ::core::marker::Send + 'static) = |__value| __value;
    };
    let (constant, checked) = checked_type(
        &Ident::new("__DSH_OUTPUT", Span::call_site()),
        &value,
        &checks,
    );
    let (checked, shown) = (wrap(&checked), wrap(&value));
    let output = quote! {
        #[cfg(not(doc))]
        #[allow(clippy::type_complexity)]
        type Output = #checked;
        #[cfg(doc)]
        type Output = #shown;
    };
    (constant, output)
}

/// The `let`s that fetch each `#[state]` parameter from the run, in parameter order. The state's
/// type must be `Send + Sync + 'static`, checked at the state's type, where it is reported.
pub(super) fn expand_state_lookups(model: &ToolModel<'_>) -> TokenStream {
    let private = &model.private;
    model
        .params
        .iter()
        .filter_map(|param| match param {
            Param::State { ident, ty } => Some((ident, ty)),
            _ => None,
        })
        .enumerate()
        .map(|(index, (ident, ty))| {
            let shared = quote!(dyn ::core::any::Any + ::core::marker::Send + ::core::marker::Sync);
            let checks = quote_spanned! {ty.span()=>
                let _: fn(&#ty) -> &(#shared) = |__state| __state;
            };
            let name = format_ident!("__DSH_STATE_{index}");
            let (constant, checked) = checked_type(&name, &ty.to_token_stream(), &checks);
            quote! {
                #constant
                let #ident = #private::require_state::<#checked>(__run)?;
            }
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
    let has_state = model
        .params
        .iter()
        .any(|param| matches!(param, Param::State { .. }));
    let body_future = if model.attrs.blocking {
        blocking_call(model)
    } else if has_state {
        state_call(model)
    } else {
        async_call(model)
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

/// `let Args { a, b } = __args;`: the arguments struct taken apart into the parameters.
fn destructure(model: &ToolModel<'_>) -> TokenStream {
    let args = &model.names.args;
    let idents = model.fields.iter().map(|field| &field.ident);
    quote!(let #args { #(#idents),* } = __args;)
}

/// The call of `fn_ident` (the user's function, or the local `fn` calling it) with the
/// parameters in order.
fn call_function(model: &ToolModel<'_>, fn_ident: &Ident) -> TokenStream {
    let call_args = model.params.iter().map(|param| match param {
        Param::Run => quote!(__run),
        Param::State { ident, .. } => quote!(#ident),
        Param::Argument(field) => field.ident.to_token_stream(),
    });
    quote!(#fn_ident(#(#call_args),*))
}

/// The future of an `async fn`'s call without `#[state]` parameters: the arguments taken apart,
/// the function called, and its future wrapped in the runtime's `CallFuture` with the conversion
/// of what it returns. Its code is the runtime's, where an `async` block here was compiled whole
/// for every tool.
///
/// The function is called through a local `fn` returning `impl Future + Send`, which is where a
/// future that is not `Send` is reported, at the user's function (the compiler names the
/// function and the value held across an `.await`); the `CallFuture` around it is `Send` by
/// that declaration, so it is not reported again with the runtime's type in the message.
fn async_call(model: &ToolModel<'_>) -> TokenStream {
    let private = &model.private;
    let destructure = destructure(model);
    let call = call_function(model, &Ident::new("__dsh_body", Span::call_site()));
    let convert = convert_fn(model);
    let sendable = sendable_body(model);
    quote! {
        #sendable
        #destructure
        #private::CallFuture::new(#call, #convert)
    }
}

/// The future of an `async fn`'s call with `#[state]` parameters: an `async` block that looks
/// the state up, awaits the function and converts what it returns. A state type that is not
/// `Send + Sync` is reported at its check, which makes the lookup's type an error; that taints
/// this block, so the block's own `Send` is not reported again, as the user's future (whose
/// parameters hold the state) through a `CallFuture` would be.
fn state_call(model: &ToolModel<'_>) -> TokenStream {
    let destructure = destructure(model);
    let state_lookups = expand_state_lookups(model);
    let call = call_function(model, &model.function.sig.ident);
    let (into_return, returned) = into_return(model);
    let future_span = model
        .function
        .sig
        .asyncness
        .map_or_else(Span::call_site, |token| token.span());
    quote_spanned! {future_span=>
        async move {
            #destructure
            #state_lookups
            let #returned = #call.await;
            #into_return
        }
    }
}

/// `fn __dsh_body(..) -> impl Future<Output = R> + Send`: the user's function called with its
/// parameters, its future declared `Send`. The return type is spanned on the function's name,
/// where a future that is not `Send` is reported.
fn sendable_body(model: &ToolModel<'_>) -> TokenStream {
    let private = &model.private;
    let fn_ident = &model.function.sig.ident;
    // No `#[state]` parameters here (`state_call` takes those functions).
    let params = model.params.iter().filter_map(|param| match param {
        Param::Run => Some(quote!(__run: &'__dsh_body #private::ToolRun)),
        Param::State { .. } => None,
        Param::Argument(field) => {
            let (ident, ty) = (&field.ident, &field.ty);
            Some(quote!(#ident: #ty))
        }
    });
    let returned = match &model.returns {
        Returns::Unit => quote!(()),
        Returns::Result { ty, .. } => ty.to_token_stream(),
        Returns::Value(ty) => ty.to_token_stream(),
    };
    let future = quote_spanned! {fn_ident.span()=>
        impl ::core::future::Future<Output = #returned> + ::core::marker::Send + '__dsh_body
    };
    let call = call_function(model, fn_ident);
    quote! {
        #[allow(clippy::too_many_arguments)]
        fn __dsh_body<'__dsh_body>(#(#params),*) -> #future {
            #call
        }
    }
}

/// The conversion of what an `async fn` returned into the call's result, as a function pointer:
/// the runtime's `tool_value` for a plain value, shared by the tools of one value type; a closure
/// written at the error type for a `Result`, whose error converts through `Into<ToolError>` named
/// there.
fn convert_fn(model: &ToolModel<'_>) -> TokenStream {
    let private = &model.private;
    if model.attrs.schemars_output || matches!(model.returns, Returns::Result { .. }) {
        let (into_return, returned) = into_return(model);
        let span = returned.span();
        return quote_spanned!(span=> |#returned| #into_return);
    }
    match &model.returns {
        Returns::Value(ty) => quote_spanned!(ty.span()=> #private::tool_value),
        _ => quote!(#private::tool_value),
    }
}

/// The call of a `#[tool(blocking)]` function: the plain `fn` runs on the blocking pool with a
/// clone of the run context, which its `&ToolRun` and `#[state]` parameters borrow from.
fn blocking_call(model: &ToolModel<'_>) -> TokenStream {
    let private = &model.private;
    let destructure = destructure(model);
    let state_lookups = expand_state_lookups(model);
    let call = call_function(model, &model.function.sig.ident);
    let (into_return, returned) = into_return(model);
    quote! {
        let __run_owned = ::core::clone::Clone::clone(__run);
        #private::run_blocking(move || {
            let __run = &__run_owned;
            let _ = __run;
            #destructure
            #state_lookups
            let #returned = #call;
            #into_return
        })
    }
}

/// The expression converting the value bound to the returned name into the call's result,
/// wrapped for a `schemars_output` tool, and that name.
fn into_return(model: &ToolModel<'_>) -> (TokenStream, Ident) {
    let private = &model.private;
    let (into_return, returned) = conversion(model);
    if model.attrs.schemars_output {
        (
            quote!(::core::result::Result::map(#into_return, #private::SchemarsOutput)),
            returned,
        )
    } else {
        (into_return, returned)
    }
}

/// The expression converting the returned value into the call's result, and the name the value
/// is bound to; both are spanned on the error type (on the return type when there is none). The
/// error converts through `Into<ToolError>` named here, so an error type that does not convert
/// is reported at it.
fn conversion(model: &ToolModel<'_>) -> (TokenStream, Ident) {
    let private = &model.private;
    match &model.returns {
        Returns::Unit => {
            let returned = Ident::new("__dsh_returned", model.function.sig.ident.span());
            (quote!(#private::tool_value(#returned)), returned)
        }
        Returns::Result { error_span, .. } => {
            let returned = Ident::new("__dsh_returned", *error_span);
            let convert = quote_spanned! {*error_span=>
                match #returned {
                    ::core::result::Result::Ok(__value) => ::core::result::Result::Ok(__value),
                    ::core::result::Result::Err(__error) => ::core::result::Result::Err(
                        ::core::convert::Into::<#private::ToolError>::into(__error),
                    ),
                }
            };
            (convert, returned)
        }
        Returns::Value(ty) => {
            let returned = Ident::new("__dsh_returned", ty.span());
            (
                quote_spanned!(ty.span()=> #private::tool_value(#returned)),
                returned,
            )
        }
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
            let model = sample::model(&item);
            assert_eq!(value_type(&model).to_string(), expected.to_string());
            let (check, output) = expand_output_type(&model);
            if expected.to_string() == "()" {
                assert!(check.is_empty());
                assert_eq!(
                    output.to_string(),
                    quote!(
                        type Output = ();
                    )
                    .to_string()
                );
            } else {
                let checked =
                    quote!(<[#expected; __DSH_OUTPUT] as ::core::iter::IntoIterator>::Item);
                assert!(
                    sample::contains(&output, quote!(type Output = #checked;)),
                    "{output}"
                );
                assert!(
                    sample::contains(&output, quote!(type Output = #expected;)),
                    "{output}"
                );
                for named in [
                    quote!(<#expected as ::dsh_tools::__private::ToolArgs>::OBJECT_STRUCT),
                    quote!(<#expected as ::dsh_tools::__private::serde::Serialize>::serialize),
                ] {
                    assert!(sample::contains(&check, named), "{check}");
                }
            }
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
        let seen = |name: TokenStream, index: Ident| quote!(<[#name; #index] as ::core::iter::IntoIterator>::Item);
        let (db, cache) = (
            seen(quote!(Db), format_ident!("__DSH_STATE_0")),
            seen(quote!(Cache), format_ident!("__DSH_STATE_1")),
        );
        let text = lookups.to_string();
        let at = |needle: TokenStream| text.find(&needle.to_string());
        let db_at = at(quote!(let db = ::dsh_tools::__private::require_state::< #db >(__run)?;));
        let cache_at =
            at(quote!(let cache = ::dsh_tools::__private::require_state::< #cache >(__run)?;));
        assert!(
            db_at.is_some() && cache_at.is_some() && db_at < cache_at,
            "{lookups}"
        );
        let shared = quote!(dyn ::core::any::Any + ::core::marker::Send + ::core::marker::Sync);
        assert!(
            sample::contains(
                &lookups,
                quote!(let _: fn(&Db) -> &(#shared) = |__state| __state;)
            ),
            "{lookups}"
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
                quote!(::core::result::Result::Err(__error) => ::core::result::Result::Err(
                    ::core::convert::Into::<::dsh_tools::__private::ToolError>::into(__error),
                ))
            ),
            "{call}"
        );
        assert!(!sample::contains(&call, quote!(run_blocking)));
        // With state, an `async` block, whose `Send` is not reported again for a state type
        // that failed its check.
        assert!(sample::contains(&call, quote!(async move)), "{call}");
        assert!(!sample::contains(&call, quote!(CallFuture)), "{call}");
    }

    #[test]
    fn wraps_a_stateless_functions_future_declared_send() {
        let item = sample::item(
            quote!(),
            syn::parse_quote!(
                /// D.
                async fn read(path: String, run: &ToolRun) -> Result<String, E> {
                    todo!()
                }
            ),
        );
        let call = expand_call(&sample::model(&item));
        let declared = quote! {
            fn __dsh_body<'__dsh_body>(path: String, __run: &'__dsh_body ::dsh_tools::__private::ToolRun)
                -> impl ::core::future::Future<Output = Result<String, E> >
                    + ::core::marker::Send + '__dsh_body
            {
                read(path, __run)
            }
        };
        assert!(sample::contains(&call, declared), "{call}");
        assert!(
            sample::contains(&call, quote!(::dsh_tools::__private::CallFuture::new))
                && sample::contains(&call, quote!(__dsh_body(path, __run), |__dsh_returned|)),
            "{call}"
        );
        assert!(!sample::contains(&call, quote!(async move)), "{call}");

        let item = sample::item(
            quote!(),
            syn::parse_quote!(
                /// D.
                async fn read(path: String) -> String {
                    todo!()
                }
            ),
        );
        let call = expand_call(&sample::model(&item));
        assert!(
            sample::contains(
                &call,
                quote!(::dsh_tools::__private::CallFuture::new(
                    __dsh_body(path),
                    ::dsh_tools::__private::tool_value
                ))
            ),
            "{call}"
        );
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
