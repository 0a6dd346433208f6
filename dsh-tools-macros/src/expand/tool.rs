//! `#[tool]` on an `async fn`: keeps the function callable as written, and generates a unit
//! struct (`read_file` → `ReadFileTool`) implementing the runtime's typed `Tool` trait — the
//! arguments (one `ToolArgs` struct, or the parameters gathered into a generated
//! `ReadFileToolArgs`), the output, the schemas built once, presenters and policy hints — with
//! its JSON Schema in its docs.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, Ident, ItemFn, Pat, Type};

use crate::ast::{ArgsType, Field, Shape, crate_path};
use crate::attr::arg::ArgAttrs;
use crate::attr::doc_text;
use crate::attr::serde::SerdeField;
use crate::attr::tool::{ConcurrencySafe, ToolAttrs};
use crate::check::check_fields;
use crate::errors::Errors;
use crate::expand::derive::{expand_args_type, field_checks};
use crate::expand::docs;
use crate::expand::present::expand_declarative_presenter;
use crate::types::{is_standard, is_tool_run_ref};

/// The longest tool name the providers accept.
const MAX_NAME_LEN: usize = 64;

/// One parameter of the tool function.
enum Param {
    /// `run: &ToolRun`.
    Run,
    /// `#[state] db: &Db`: shared state provided to the registry.
    State { ident: Ident, ty: Box<Type> },
    /// An argument the model supplies.
    Argument(Box<Field>),
}

/// Expands `#[tool(..)]` on `item`.
pub(crate) fn expand_tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut function: ItemFn = match syn::parse2(item.clone()) {
        Ok(function) => function,
        Err(error) => {
            let error = syn::Error::new(
                error.span(),
                "#[tool] goes on an `async fn`: the tool's arguments are its parameters and its value is what it returns",
            );
            let error = error.to_compile_error();
            return quote!(#error #item);
        }
    };
    let mut errors = Errors::new();
    let attrs = ToolAttrs::parse(attr, &mut errors);
    let params = read_params(&mut function, &mut errors);
    check_signature(&function, attrs.blocking, &mut errors);
    let expansion = expand(&function, &attrs, &params, &mut errors);
    match errors.finish() {
        Ok(()) => quote!(#function #expansion),
        Err(error) => {
            // The function is still emitted, so calls to it do not cascade into more errors.
            let error = error.to_compile_error();
            quote!(#error #function)
        }
    }
}

/// Reads the parameters, taking their `#[arg]`, `#[state]` and doc attributes off the function
/// (they are not valid on parameters once `#[tool]` is done with them).
fn read_params(function: &mut ItemFn, errors: &mut Errors) -> Vec<Param> {
    let mut params = Vec::new();
    let mut seen_run = false;
    for input in function.sig.inputs.iter_mut() {
        let typed = match input {
            FnArg::Receiver(receiver) => {
                errors.error_at(
                    receiver,
                    "#[tool] goes on a free `async fn`, not a method; reach shared state with a `#[state] name: &Type` parameter",
                );
                continue;
            }
            FnArg::Typed(typed) => typed,
        };
        let docs = doc_text(&typed.attrs);
        let state_attr = typed
            .attrs
            .iter()
            .find(|attr| attr.path().is_ident("state"))
            .cloned();
        let arg_attrs = ArgAttrs::from_attrs(&typed.attrs, errors);
        typed.attrs.retain(|attr| {
            !(attr.path().is_ident("arg")
                || attr.path().is_ident("state")
                || attr.path().is_ident("doc"))
        });
        let ident = match &*typed.pat {
            Pat::Ident(pat) if pat.subpat.is_none() && pat.by_ref.is_none() => pat.ident.clone(),
            other => {
                errors.error_at(other, "#[tool] parameters must be plain names (`name: Type`): the name is the argument's JSON key");
                continue;
            }
        };
        let ty = (*typed.ty).clone();
        if is_tool_run_ref(&ty) {
            if seen_run {
                errors.error_at(&typed.ty, "only one `&ToolRun` parameter is allowed");
            }
            seen_run = true;
            params.push(Param::Run);
            continue;
        }
        if let Some(state) = state_attr {
            match &ty {
                Type::Reference(reference) if reference.mutability.is_none() => params.push(Param::State {
                    ident,
                    ty: reference.elem.clone(),
                }),
                _ => errors.error_at(
                    &state,
                    "a `#[state]` parameter is a shared reference to the state's type, e.g. `#[state] db: &Database`",
                ),
            }
            continue;
        }
        if let Type::Reference(reference) = &ty {
            errors.error_at(
                reference,
                "tool arguments are owned values built from the model's JSON: use an owned type (`String`, not `&str`); `&ToolRun` and `#[state]` references are the exceptions",
            );
            continue;
        }
        if let Type::ImplTrait(impl_trait) = &ty {
            errors.error_at(
                impl_trait,
                "#[tool] parameters need concrete types: the schema is derived from them",
            );
            continue;
        }
        let field = Field::build(
            ident,
            ty,
            docs,
            arg_attrs,
            SerdeField::default(),
            None,
            errors,
        );
        params.push(Param::Argument(Box::new(field)));
    }
    params
}

fn check_signature(function: &ItemFn, blocking: bool, errors: &mut Errors) {
    let sig = &function.sig;
    match (&sig.asyncness, blocking) {
        (None, false) => errors.error_at(
            sig.fn_token,
            "#[tool] requires an `async fn`; for a synchronous body that blocks its thread (file or process I/O), write `#[tool(blocking)]` on a plain `fn`",
        ),
        (Some(asyncness), true) => errors.error_at(
            asyncness,
            "#[tool(blocking)] runs a plain `fn` on tokio's blocking pool: remove `async`",
        ),
        _ => {}
    }
    if !sig.generics.params.is_empty() {
        errors.error_at(
            &sig.generics,
            "#[tool] functions cannot be generic: a tool has one schema, fixed at compile time",
        );
    }
    if let Some(unsafety) = &sig.unsafety {
        errors.error_at(unsafety, "#[tool] functions cannot be `unsafe`");
    }
    if let Some(constness) = &sig.constness {
        errors.error_at(constness, "#[tool] functions cannot be `const`");
    }
    if let Some(abi) = &sig.abi {
        errors.error_at(abi, "#[tool] functions cannot have an `extern` ABI");
    }
    if let Some(variadic) = &sig.variadic {
        errors.error_at(variadic, "#[tool] functions cannot be variadic");
    }
}

/// Whether `name` is a name OpenAI, Anthropic and DeepSeek all accept.
pub(crate) fn is_valid_tool_name(name: &str) -> bool {
    (1..=MAX_NAME_LEN).contains(&name.len())
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-')
}

/// `read_file` → `ReadFile`.
fn upper_camel(name: &str) -> String {
    name.split('_')
        .filter(|word| !word.is_empty())
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

fn expand(
    function: &ItemFn,
    attrs: &ToolAttrs,
    params: &[Param],
    errors: &mut Errors,
) -> TokenStream {
    use syn::ext::IdentExt;
    let krate = crate_path(attrs.krate.as_ref());
    let private = quote!(#krate::__private);
    let fn_ident = &function.sig.ident;
    let vis = &function.vis;
    let fn_name = fn_ident.unraw().to_string();

    let name = match &attrs.name {
        Some(literal) => {
            let name = literal.value();
            if !is_valid_tool_name(&name) {
                errors.error_at(
                    literal,
                    format!("invalid tool name \"{name}\": use 1 to {MAX_NAME_LEN} ASCII letters, digits, `_` or `-` (the rule OpenAI, Anthropic and DeepSeek share)"),
                );
            }
            name
        }
        None => fn_name.clone(),
    };
    let description = match (&attrs.description, doc_text(&function.attrs)) {
        (Some(literal), _) => literal.value(),
        (None, Some(docs)) => docs,
        (None, None) => {
            errors.error_at(
                fn_ident,
                "a tool needs a description for the model: add a `///` doc comment or `#[tool(description = \"...\")]`",
            );
            String::new()
        }
    };
    if description.trim().is_empty()
        && attrs.description.is_some()
        && let Some(literal) = &attrs.description
    {
        errors.error_at(literal, "the tool description is empty");
    }

    let tool_ident = format_ident!("{}Tool", upper_camel(&fn_name), span = fn_ident.span());
    let fields: Vec<&Field> = params
        .iter()
        .filter_map(|param| match param {
            Param::Argument(field) => Some(&**field),
            _ => None,
        })
        .collect();
    let owned_fields: Vec<Field> = fields.iter().map(|field| (*field).clone()).collect();
    check_fields(&owned_fields, None, errors);

    // One parameter of a type of its own (not a standard type, no `#[arg]`) is the whole
    // argument object; otherwise the parameters are gathered into a generated struct.
    let struct_mode = match fields.as_slice() {
        [only] => {
            !is_standard(&only.ty)
                && only.attrs.description.is_none()
                && only.attrs.rename.is_none()
                && only.attrs.names_only()
        }
        _ => false,
    };

    let (args_ty, args_items, parameters_doc, destructure, field_names) = if struct_mode {
        let field = fields[0];
        let ty = &field.ty;
        let ident = &field.ident;
        let assert = quote_spanned! {ty.span()=>
            const _: () = {
                #[allow(dead_code)]
                fn __dsh_assert_arguments_object() {
                    #private::assert_arguments_object::<#ty>();
                }
            };
        };
        let doc = docs::render(&docs::of_type(ty));
        (
            ty.to_token_stream(),
            assert,
            doc,
            quote!(let #ident = __args;),
            None::<Vec<String>>,
        )
    } else {
        let args_ident = format_ident!("{}Args", tool_ident);
        let field_defs = fields.iter().map(|field| {
            let ident = &field.ident;
            let ty = &field.ty;
            let doc = field.description.as_deref().map(docs::doc_attrs);
            quote!(#doc #vis #ident: #ty,)
        });
        let args_type = ArgsType {
            ident: args_ident.clone(),
            generics: syn::Generics::default(),
            krate: krate.clone(),
            description: None,
            title: None,
            open: false,
            shape: Shape::Struct(owned_fields.clone()),
        };
        let impls = expand_args_type(&args_type, false);
        let doc_json = docs::render(&docs::document_type(&args_type));
        let struct_doc = docs::doc_attrs(&format!(
            "The arguments of [`{tool_ident}`], one field per parameter of [`{fn_ident}`].\n\n{}",
            docs::schema_section("JSON Schema", &doc_json, docs::has_refs(&doc_json))
        ));
        let idents: Vec<&Ident> = fields.iter().map(|field| &field.ident).collect();
        let checks: Vec<TokenStream> = fields
            .iter()
            .flat_map(|field| field_checks(field, &private))
            .collect();
        let checks = (!checks.is_empty()).then(|| {
            quote! {
                #[allow(dead_code, unused_must_use, clippy::no_effect)]
                fn __dsh_check_parameters() { #(#checks)* }
            }
        });
        let items = quote! {
            #struct_doc
            #[allow(missing_docs)]
            #vis struct #args_ident {
                #(#field_defs)*
            }
            #impls
            const _: () = { #checks };
        };
        let names = fields
            .iter()
            .map(|field| field.ident.unraw().to_string())
            .collect();
        (
            args_ident.to_token_stream(),
            items,
            doc_json,
            quote!(let #args_ident { #(#idents),* } = __args;),
            Some(names),
        )
    };

    // The call of the user's function, in parameter order.
    let mut state_lets = Vec::new();
    let call_args: Vec<TokenStream> = params
        .iter()
        .map(|param| match param {
            Param::Run => quote!(__run),
            Param::State { ident, ty } => {
                state_lets.push(quote_spanned!(ty.span()=> let #ident = #private::require_state::<#ty>(__run)?;));
                quote!(#ident)
            }
            Param::Argument(field) => field.ident.to_token_stream(),
        })
        .collect();

    let return_ty = match &function.sig.output {
        syn::ReturnType::Default => quote!(()),
        syn::ReturnType::Type(_, ty) => ty.to_token_stream(),
    };
    let return_span = match &function.sig.output {
        syn::ReturnType::Default => fn_ident.span(),
        syn::ReturnType::Type(_, ty) => ty.span(),
    };
    let output_ty = quote_spanned!(return_span=> <#return_ty as #private::IntoToolReturn>::Output);
    let into_return =
        quote_spanned!(return_span=> <#return_ty as #private::IntoToolReturn>::into_tool_return);

    let kind_tokens = match &attrs.kind {
        Some((kind, _)) => {
            let variant = format_ident!("{}", upper_camel(kind));
            quote!(#private::ToolCallKind::#variant)
        }
        None => quote!(#private::ToolCallKind::Other),
    };
    let kind_option = match &attrs.kind {
        Some(_) => quote!(::core::option::Option::Some(#kind_tokens)),
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
    let timeout = attrs.timeout_ms.map(|(ms, span)| {
        quote_spanned! {span=>
            const TIMEOUT_MS: ::core::option::Option<u64> = ::core::option::Option::Some(#ms);
        }
    });
    let max_result_chars = attrs.max_result_chars.map(|(chars, span)| {
        let chars = proc_macro2::Literal::u64_unsuffixed(chars);
        quote_spanned! {span=>
            const MAX_RESULT_CHARS: ::core::option::Option<usize> = ::core::option::Option::Some(#chars);
        }
    });
    let render = attrs.render.as_ref().map(|path| {
        quote! {
            fn render_value(
                &self,
                _arguments: &#private::Value,
                __value: &#private::Value,
            ) -> ::core::result::Result<::std::vec::Vec<#private::ContentBlock>, #private::ToolError> {
                let __output = #private::output_from_json::<Self::Output>(#name, __value)?;
                ::core::result::Result::Ok(#private::IntoContent::into_content(#path(&__output)))
            }
        }
    });
    let present_call = match (
        &attrs.present_call,
        attrs.title.is_some() || attrs.location.is_some(),
    ) {
        (Some(path), declarative) => {
            if declarative {
                errors.error_at(
                    path,
                    "`present_call` and the declarative `title`/`location` keys exclude each other",
                );
            }
            Some(quote! {
                fn call_view(&self, __args: &Self::Args) -> ::core::option::Option<#private::ToolCallView> {
                    #path(__args)
                }
            })
        }
        (None, true) => {
            let body = expand_declarative_presenter(
                attrs.title.as_ref(),
                attrs.location.as_ref(),
                &kind_tokens,
                &name,
                field_names.as_deref(),
                &private,
                errors,
            );
            Some(quote! {
                fn call_view(&self, __args: &Self::Args) -> ::core::option::Option<#private::ToolCallView> {
                    #body
                }
            })
        }
        (None, false) => None,
    };
    let present_result = attrs.present_result.as_ref().map(|path| {
        quote! {
            fn result_view(
                &self,
                __args: &Self::Args,
                __result: &#private::ToolResult<'_>,
            ) -> ::core::option::Option<#private::ToolResultView> {
                #path(__args, __result)
            }
        }
    });
    let concurrency = attrs.concurrency_safe.as_ref().map(|safe| {
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
    });

    let tool_doc = docs::doc_attrs(&format!(
        "Tool `{name}`, generated by `#[tool]` from [`{fn_ident}`]: register it with `registry.register({tool_ident})`.\n\n{description}\n\n{}",
        docs::schema_section(
            "JSON Schema of the arguments",
            &parameters_doc,
            docs::has_refs(&parameters_doc)
        )
    ));
    let future_span = function
        .sig
        .asyncness
        .map_or_else(Span::call_site, |token| token.span());
    let body_future = if attrs.blocking {
        // The plain `fn` runs on the blocking pool with a clone of the run context, which its
        // `&ToolRun` and `#[state]` parameters borrow from.
        quote! {
            let __run_owned = ::core::clone::Clone::clone(__run);
            #private::run_blocking(move || {
                let __run = &__run_owned;
                let _ = __run;
                #destructure
                #(#state_lets)*
                #into_return(#fn_ident(#(#call_args),*))
            })
        }
    } else {
        quote_spanned! {future_span=>
            async move {
                #destructure
                #(#state_lets)*
                #into_return(#fn_ident(#(#call_args),*).await)
            }
        }
    };

    quote! {
        #tool_doc
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #tool_ident;

        #args_items

        #[allow(clippy::needless_question_mark)]
        const _: () = {
            static __DSH_CONTRACT: #private::LazyLock<#private::ToolContract> =
                #private::LazyLock::new(#private::ToolContract::of::<
                    <#tool_ident as #private::Tool>::Args,
                    <#tool_ident as #private::Tool>::Output,
                >);

            #[automatically_derived]
            impl #private::Tool for #tool_ident {
                type Args = #args_ty;
                type Output = #output_ty;

                const NAME: &'static str = #name;
                const DESCRIPTION: &'static str = #description;
                #timeout
                #max_result_chars

                fn contract() -> &'static #private::ToolContract {
                    &__DSH_CONTRACT
                }

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

                fn annotations() -> #private::ToolAnnotations {
                    #private::ToolAnnotations {
                        title: ::core::option::Option::None,
                        kind: #kind_option,
                        read_only: #read_only,
                        destructive: #destructive,
                        idempotent: #idempotent,
                        open_world: #open_world,
                    }
                }

                #render
                #present_call
                #present_result
                #concurrency
            }

            #[automatically_derived]
            #[doc(hidden)]
            impl #private::DocumentedSchema for #tool_ident {
                const DOCUMENTED_SCHEMA: &'static str = #parameters_doc;
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validates_tool_names() {
        assert!(is_valid_tool_name("read_file"));
        assert!(is_valid_tool_name("a-b_C9"));
        assert!(!is_valid_tool_name(""));
        assert!(!is_valid_tool_name("read file"));
        assert!(!is_valid_tool_name("read.file"));
        assert!(!is_valid_tool_name(&"x".repeat(65)));
        assert!(is_valid_tool_name(&"x".repeat(64)));
    }

    #[test]
    fn names_the_tool_struct() {
        assert_eq!(upper_camel("read_file"), "ReadFile");
        assert_eq!(upper_camel("greet"), "Greet");
        assert_eq!(upper_camel("__x_y"), "XY");
    }
}
