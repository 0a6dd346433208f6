//! `#[tool]` on an `async fn`: keeps the function callable as written, and generates a unit
//! struct (`read_file` → `ReadFileTool`) implementing the runtime's typed `Tool` trait — the
//! arguments (the parameters gathered into a generated `ReadFileToolArgs`; a lone object struct
//! is the whole argument object), the output, the schemas built once, presenters and policy
//! hints — with its argument and output schemas in its docs. On errors it emits stand-ins for
//! the generated items, so one mistake is reported once.

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
use crate::expand::derive::{Role, expand_args_type};
use crate::expand::docs;
use crate::expand::present::expand_declarative_presenter;
use crate::types::{is_standard, is_tool_run_ref, last_segment};

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
    let names = Names::of(&function, &attrs);
    let expansion = expand(&function, &attrs, &params, &names, &mut errors);
    match errors.finish() {
        Ok(()) => quote!(#function #expansion),
        Err(error) => {
            // The function and stand-ins for the generated items are still emitted, so uses of
            // them do not cascade into more errors.
            let error = error.to_compile_error();
            let stubs = expand_stubs(&function, &attrs, &params, &names);
            quote!(#error #function #stubs)
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

/// What the generated items are called.
struct Names {
    /// The tool name the model calls.
    tool_name: String,
    /// `ReadFileTool`.
    tool: Ident,
    /// `ReadFileToolArgs`.
    args: Ident,
}

impl Names {
    fn of(function: &ItemFn, attrs: &ToolAttrs) -> Self {
        use syn::ext::IdentExt;
        let fn_ident = &function.sig.ident;
        let fn_name = fn_ident.unraw().to_string();
        let tool = format_ident!("{}Tool", upper_camel(&fn_name), span = fn_ident.span());
        Self {
            tool_name: attrs.name.as_ref().map_or(fn_name, syn::LitStr::value),
            args: format_ident!("{}Args", tool, span = fn_ident.span()),
            tool,
        }
    }
}

/// The arguments the model supplies: the `Argument` parameters.
fn argument_fields(params: &[Param]) -> Vec<&Field> {
    params
        .iter()
        .filter_map(|param| match param {
            Param::Argument(field) => Some(&**field),
            _ => None,
        })
        .collect()
}

/// The only parameter, when its type alone decides whether it is the whole argument object: a
/// type named by the user (not a standard type), neither documented nor given `#[arg]` keys
/// (which describe a property).
fn lone_parameter<'a>(fields: &[&'a Field]) -> Option<&'a Field> {
    match fields {
        [only]
            if !is_standard(&only.ty)
                && only.description.is_none()
                && only.attrs.rename.is_none()
                && only.attrs.names_only() =>
        {
            Some(only)
        }
        _ => None,
    }
}

/// `T` of a return type named `Result` (`Result<T, E>`, `io::Result<T>`, `anyhow::Result<T>`):
/// such a return type is a result, and any other is the value itself.
fn result_value(ty: &Type) -> Option<&Type> {
    match last_segment(ty) {
        Some((ident, args)) if ident == "Result" && (1..=2).contains(&args.len()) => Some(args[0]),
        _ => None,
    }
}

/// The value type of the function's return type; `()` for none.
fn output_type(function: &ItemFn) -> Type {
    match &function.sig.output {
        syn::ReturnType::Default => syn::parse_quote!(()),
        syn::ReturnType::Type(_, ty) => result_value(ty).unwrap_or(ty).clone(),
    }
}

fn expand(
    function: &ItemFn,
    attrs: &ToolAttrs,
    params: &[Param],
    names: &Names,
    errors: &mut Errors,
) -> TokenStream {
    let krate = crate_path(attrs.krate.as_ref());
    let private = quote!(#krate::__private);
    let fn_ident = &function.sig.ident;
    let vis = &function.vis;
    let Names {
        tool_name: name,
        tool: tool_ident,
        args: args_ident,
    } = names;

    if let Some(literal) = &attrs.name
        && !is_valid_tool_name(name)
    {
        errors.error_at(
            literal,
            format!("invalid tool name \"{name}\": use 1 to {MAX_NAME_LEN} ASCII letters, digits, `_` or `-` (the rule OpenAI, Anthropic and DeepSeek share)"),
        );
    }
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

    let fields = argument_fields(params);
    let owned_fields: Vec<Field> = fields.iter().map(|field| (*field).clone()).collect();
    check_fields(&owned_fields, None, errors);
    let lone = lone_parameter(&fields);

    // The parameters always gather into a generated struct. A lone parameter of a type of the
    // user's own is the whole argument object when that type is an object struct; the trait
    // system decides (`ToolArgs::OBJECT_STRUCT`), so schema, check and conversion agree.
    let args_type = ArgsType {
        ident: args_ident.clone(),
        generics: syn::Generics::default(),
        krate: krate.clone(),
        description: None,
        title: None,
        open: false,
        shape: Shape::Struct(owned_fields),
    };
    let args_impls = expand_args_type(&args_type, Role::ToolArguments { lone });
    let properties = docs::Documented::of(&docs::document_type(&args_type));
    let arguments_doc = match lone {
        Some(field) => lone_parameter_doc(field),
        None => properties.section("Arguments"),
    };
    let output = docs::Documented::of(&docs::of_type(&output_type(function)));
    let output_doc = output.section("Output");
    let output_json = &output.json;
    let args_struct = expand_args_struct(
        vis,
        args_ident,
        &fields,
        &format!(
            "The arguments of [`{tool_ident}`], one field per parameter of [`{fn_ident}`].\n\n{arguments_doc}"
        ),
    );
    let deref = lone.map(|field| expand_deref(args_ident, field));
    let idents: Vec<&Ident> = fields.iter().map(|field| &field.ident).collect();
    let destructure = quote!(let #args_ident { #(#idents),* } = __args;);
    // Known field names let a title template's typo be reported on the template; a lone
    // parameter's card may name the fields of the struct it dereferences to instead.
    let field_names: Option<Vec<String>> = lone.is_none().then(|| {
        use syn::ext::IdentExt;
        fields
            .iter()
            .map(|field| field.ident.unraw().to_string())
            .collect()
    });

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

    // The value type is named without asking anything of it (a `Result`'s `T`, through a trait
    // every `Result` implements, or the type itself), so a type that cannot be a tool value is
    // reported once: where the `Tool` impl's `Output` requires `ToolArgs` and `Serialize`.
    // The returned value is converted under a name spanned on the error type, where an error
    // type that does not convert into `ToolError` is reported.
    let (output_ty, into_return, returned) = match &function.sig.output {
        syn::ReturnType::Default => (
            quote!(()),
            quote!(#private::tool_value),
            Ident::new("__dsh_returned", fn_ident.span()),
        ),
        syn::ReturnType::Type(_, ty) => match result_value(ty) {
            // Spanned on `T`, which is what an error about the value type is about.
            Some(value) => {
                let error_span = match last_segment(ty) {
                    Some((_, args)) if args.len() == 2 => args[1].span(),
                    _ => ty.span(),
                };
                (
                    quote_spanned!(value.span()=> <#ty as #private::ResultValue>::Value),
                    quote_spanned!(error_span=> #private::tool_result),
                    Ident::new("__dsh_returned", error_span),
                )
            }
            None => (
                ty.to_token_stream(),
                quote_spanned!(ty.span()=> #private::tool_value),
                Ident::new("__dsh_returned", ty.span()),
            ),
        },
    };

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
    // Only a `&ToolRun` parameter reaches the call's arguments as the model sent them (a
    // `render = fn` gets the value alone, and no finalizer is generated), so a function without
    // one lets the registry move the arguments into its types instead of copying them; a
    // function without arguments has nothing to move.
    let moves_arguments =
        !fields.is_empty() && !params.iter().any(|param| matches!(param, Param::Run));
    let reads_call_arguments = moves_arguments.then(|| {
        quote!(
            const READS_CALL_ARGUMENTS: bool = false;
        )
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
                let __output = #private::tool_output::<Self>(__value)?;
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
                name,
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
    let present_progress = attrs.present_progress.as_ref().map(|path| {
        quote! {
            fn progress_view(
                &self,
                __args: &Self::Args,
                __progress: &#private::ToolProgress,
            ) -> ::core::option::Option<#private::ToolCallView> {
                #path(__args, __progress)
            }
        }
    });
    let present_result = attrs.present_result.as_ref().map(|path| {
        quote! {
            fn result_view(
                &self,
                __args: &Self::Args,
                __result: &#private::ResultSummary<'_>,
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

    let tool_doc = docs::doc_attrs(
        &format!(
            "Tool `{name}`, generated by `#[tool]` from [`{fn_ident}`]: register it with `registry.register({tool_ident})`.\n\n{description}\n\n{arguments_doc}\n\n{output_doc}"
        ),
        fn_ident.span(),
    );
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
                let #returned = #fn_ident(#(#call_args),*);
                #into_return(#returned)
            })
        }
    } else {
        quote_spanned! {future_span=>
            async move {
                #destructure
                #(#state_lets)*
                let #returned = #fn_ident(#(#call_args),*).await;
                #into_return(#returned)
            }
        }
    };
    let call = quote! {
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
    };

    quote! {
        #tool_doc
        #[allow(rustdoc::private_intra_doc_links)]
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #tool_ident;

        #args_struct

        #[allow(clippy::needless_question_mark)]
        const _: () = {
            #args_impls
            #deref

            static __DSH_CONTRACT: #private::LazyLock<#private::ToolContract> =
                #private::LazyLock::new(#private::contract_of::<#tool_ident>);

            #[automatically_derived]
            impl #private::Tool for #tool_ident {
                type Args = #args_ident;
                type Output = #output_ty;

                const NAME: &'static str = #name;
                const DESCRIPTION: &'static str = #description;
                #timeout
                #max_result_chars
                #reads_call_arguments

                fn contract() -> &'static #private::ToolContract {
                    &__DSH_CONTRACT
                }

                #call

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
                #present_progress
                #present_result
                #concurrency
            }

            #[automatically_derived]
            #[doc(hidden)]
            impl #private::DocumentedSchema for #tool_ident {
                const DOCUMENTED_SCHEMA: &'static str =
                    <#args_ident as #private::DocumentedSchema>::DOCUMENTED_SCHEMA;
            }

            #[automatically_derived]
            #[doc(hidden)]
            impl #private::DocumentedOutput for #tool_ident {
                const DOCUMENTED_OUTPUT_SCHEMA: &'static str = #output_json;
            }
        };
    }
}

/// The arguments section of a tool whose only parameter's type decides the shape; the docs are
/// written before the compiler knows that type, so they say what each shape means.
fn lone_parameter_doc(field: &Field) -> String {
    use syn::ext::IdentExt;
    let ty = docs::type_link(&field.ty);
    let param = field.ident.unraw().to_string();
    format!(
        "# Arguments\n\nThe fields of {ty} (its page shows their schema), the type of the only parameter, `{param}`, provided that is a `#[derive(ToolArgs)]` struct with named fields. Any other type (an enum, a newtype, …) would be the one property `\"{param}\"`."
    )
}

/// `Deref` from the arguments struct to its only parameter, so presenters and classifiers may
/// take that value (`&ReadFile`) as well as the struct.
fn expand_deref(args: &Ident, field: &Field) -> TokenStream {
    let (ty, member) = (&field.ty, &field.ident);
    quote! {
        #[automatically_derived]
        impl ::core::ops::Deref for #args {
            type Target = #ty;

            fn deref(&self) -> &#ty {
                &self.#member
            }
        }
    }
}

/// The generated arguments struct: one field per argument parameter, with its doc.
fn expand_args_struct(
    vis: &syn::Visibility,
    ident: &Ident,
    fields: &[&Field],
    doc: &str,
) -> TokenStream {
    let field_defs = fields.iter().map(|field| {
        let ident = &field.ident;
        let ty = &field.ty;
        let doc = field
            .description
            .as_deref()
            .map(|text| docs::doc_attrs(text, ident.span()));
        quote!(#doc #vis #ident: #ty,)
    });
    let doc = docs::doc_attrs(doc, ident.span());
    quote! {
        #doc
        #[allow(missing_docs, rustdoc::private_intra_doc_links)]
        #vis struct #ident {
            #(#field_defs)*
        }
    }
}

/// What stands in for the expansion when the macro reported errors: the tool and arguments
/// structs with impls that compile, so uses of them (`registry.register(ReadFileTool)`, a
/// presenter taking `&ReadFileToolArgs`) add no errors of their own.
fn expand_stubs(
    function: &ItemFn,
    attrs: &ToolAttrs,
    params: &[Param],
    names: &Names,
) -> TokenStream {
    let sig = &function.sig;
    // Inside an `impl` block (a method), items cannot be emitted.
    if sig
        .inputs
        .iter()
        .any(|input| matches!(input, FnArg::Receiver(_)))
    {
        return TokenStream::new();
    }
    let krate = crate_path(attrs.krate.as_ref());
    let private = quote!(#krate::__private);
    let vis = &function.vis;
    let Names {
        tool_name,
        tool,
        args,
    } = names;
    // A generic fn's parameter types may name its generics, which the struct does not have.
    let fields = if sig.generics.params.is_empty() {
        argument_fields(params)
    } else {
        Vec::new()
    };
    let args_struct = expand_args_struct(
        vis,
        args,
        &fields,
        "The arguments of a tool that did not compile.",
    );
    let deref = lone_parameter(&fields).map(|field| expand_deref(args, field));
    quote! {
        /// A tool that did not compile.
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #tool;

        #args_struct

        const _: () = {
            #deref

            #[automatically_derived]
            impl #private::ToolArgs for #args {
                const OBJECT_STRUCT: bool = true;
                fn schema() -> ::core::result::Result<#private::Schema, #private::SchemaError> {
                    ::core::result::Result::Err(#private::macro_error_schema())
                }
                fn from_json(
                    _: &#private::Value,
                ) -> ::core::result::Result<Self, #private::ConvertError> {
                    ::core::result::Result::Err(#private::ConvertError::new("invalid #[tool]"))
                }
            }

            static __DSH_CONTRACT: #private::LazyLock<#private::ToolContract> =
                #private::LazyLock::new(#private::ToolContract::of::<#args, ()>);

            #[automatically_derived]
            impl #private::Tool for #tool {
                type Args = #args;
                type Output = ();

                const NAME: &'static str = #tool_name;
                const DESCRIPTION: &'static str = "";

                fn contract() -> &'static #private::ToolContract {
                    &__DSH_CONTRACT
                }

                fn call<'__dsh>(
                    &'__dsh self,
                    _: Self::Args,
                    _: &'__dsh #private::ToolRun,
                ) -> impl ::core::future::Future<
                    Output = ::core::result::Result<(), #private::ToolError>,
                > + ::core::marker::Send + '__dsh {
                    async { ::core::result::Result::Err(#private::ToolError::new("invalid #[tool]")) }
                }
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rustdoc text the expansion of `#[tool(attr)] item` puts on the struct `name`.
    fn struct_docs(attr: TokenStream, item: TokenStream, name: &str) -> String {
        let file: syn::File = syn::parse2(expand_tool(attr, item)).expect("the expansion parses");
        let item = file
            .items
            .iter()
            .find_map(|item| match item {
                syn::Item::Struct(item) if item.ident == name => Some(item),
                _ => None,
            })
            .expect("the struct is generated");
        item.attrs
            .iter()
            .filter_map(|attr| match &attr.meta {
                syn::Meta::NameValue(doc) if doc.path.is_ident("doc") => match &doc.value {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(text),
                        ..
                    }) => Some(text.value().strip_prefix(' ').map(str::to_owned)?),
                    _ => None,
                },
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn documents_arguments_and_output_with_linked_types() {
        let docs = struct_docs(
            quote!(),
            quote! {
                /// Search files.
                async fn search(
                    /// What to look for.
                    pattern: String,
                    options: Option<crate::SearchOptions>,
                    modes: Vec<Mode>,
                ) -> Result<Vec<Match>, ToolError> {
                    Ok(Vec::new())
                }
            },
            "SearchTool",
        );
        let expected = r#"Tool `search`, generated by `#[tool]` from [`search`]: register it with `registry.register(SearchTool)`.

Search files.

# Arguments

```json
{
  "type": "object",
  "properties": {
    "pattern": {
      "description": "What to look for.",
      "type": "string"
    },
    "options": {
      "anyOf": [
        {
          "$ref": "crate::SearchOptions"
        },
        {
          "type": "null"
        }
      ]
    },
    "modes": {
      "type": "array",
      "items": {
        "$ref": "Mode"
      }
    }
  },
  "required": [
    "pattern",
    "modes"
  ],
  "additionalProperties": false
}
```

Referenced types, each showing its schema on its page (the model receives them inlined): [`crate::SearchOptions`], [`Mode`].

# Output

```json
{
  "type": "array",
  "items": {
    "$ref": "Match"
  }
}
```

Referenced types, each showing its schema on its page (the model receives them inlined): [`Match`]."#;
        assert_eq!(docs, expected);
    }

    #[test]
    fn documents_a_lone_parameter_by_the_rule_its_type_decides() {
        let item = quote! {
            /// Read a file.
            async fn read_file(args: ReadFile) -> String {
                args.path
            }
        };
        let docs = struct_docs(quote!(), item.clone(), "ReadFileTool");
        assert!(
            docs.contains("# Arguments\n\nThe fields of [`ReadFile`] (its page shows their schema), the type of the only parameter, `args`, provided that is a `#[derive(ToolArgs)]` struct with named fields. Any other type (an enum, a newtype, …) would be the one property `\"args\"`.\n\n# Output\n\n```json\n{\n  \"type\": \"string\"\n}\n```"),
            "{docs}"
        );
        let docs = struct_docs(quote!(), item, "ReadFileToolArgs");
        assert!(
            docs.starts_with("The arguments of [`ReadFileTool`], one field per parameter of [`read_file`].\n\n# Arguments\n\nThe fields of [`ReadFile`]"),
            "{docs}"
        );
    }

    #[test]
    fn a_documented_reference_states_how_its_keys_apply() {
        let docs = struct_docs(
            quote!(),
            quote! {
                /// Edit.
                async fn edit(/// What to do.
                    mode: EditMode, count: u8) {}
            },
            "EditToolArgs",
        );
        assert!(
            docs.contains("[`EditMode`]. Keys beside a `$ref` replace the type's own; a `description` keeps a string enum's notes on its values after it."),
            "{docs}"
        );
    }

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
