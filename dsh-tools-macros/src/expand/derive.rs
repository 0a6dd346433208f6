//! `#[derive(ToolArgs)]`: the `ToolArgs` impl (schema, check, conversion, whether the type is an
//! object struct, its values' notes), the documented schema, and compile-time checks of attribute
//! values against the field types. `#[tool]`'s generated arguments struct expands through here
//! too.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{ArgsType, Field, Payload, Shape, Tagging};
use crate::check::check_type;
use crate::errors::Errors;
use crate::expand::checks::expand_checks;
use crate::expand::convert::{expand_convert_body, expand_convert_json_body};
use crate::expand::docs;
use crate::expand::schema::expand_schema_body;
use crate::expand::validate::expand_is_valid_body;

/// Expands `#[derive(ToolArgs)]`.
pub(crate) fn expand_derive(input: &syn::DeriveInput) -> TokenStream {
    let mut errors = Errors::new();
    let args = ArgsType::from_derive(input, &mut errors);
    if let Some(args) = &args {
        check_type(args, &mut errors);
    }
    match (args, errors.finish()) {
        (Some(args), Ok(())) => expand_args_type(&args, Role::Derived),
        (args, result) => {
            let error = result.err().map(|error| error.to_compile_error());
            // A stub impl keeps one mistake from cascading into "does not implement ToolArgs"
            // errors at every use of the type.
            let krate = args.map_or_else(|| quote!(::dsh_tools), |args| args.krate);
            let stub = stub_impl(input, &krate);
            quote!(#error #stub)
        }
    }
}

/// Who the `ToolArgs` impl is for.
#[derive(Clone, Copy)]
pub(crate) enum Role<'a> {
    /// A `#[derive(ToolArgs)]` type: its impl's docs show its schema.
    Derived,
    /// The arguments struct `#[tool]` generates, which documents itself on the struct.
    ToolArguments {
        /// The only parameter, when its type decides the shape (`ToolArgs::OBJECT_STRUCT`): an
        /// object struct is the whole argument object, anything else one property.
        lone: Option<&'a Field>,
    },
}

/// The impls for an argument type.
pub(crate) fn expand_args_type(args: &ArgsType, role: Role<'_>) -> TokenStream {
    let krate = &args.krate;
    let private = quote!(#krate::__private);
    let ident = &args.ident;
    let mut generics = args.generics.clone();
    for param in generics.type_params_mut() {
        param.bounds.push(syn::parse_quote!(#private::ToolArgs));
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let lone = match role {
        Role::ToolArguments { lone } => lone,
        Role::Derived => None,
    };
    // A lone parameter's bodies are written below, so the struct's are not built for it: the
    // macro's own work is part of every `cargo check` (a fifth of this crate's, in a debug build
    // of the macros, most of it building token streams).
    let (mut schema_body, convert_body, mut json_body, mut is_valid_body) = match lone {
        Some(_) => (TokenStream::new(), None, None, TokenStream::new()),
        None => (
            expand_schema_body(args, &private),
            expand_convert_body(args, &private),
            expand_convert_json_body(args, &private),
            expand_is_valid_body(args, &private),
        ),
    };
    // A lone parameter's type decides the arguments' shape: the whole argument object, or one
    // property, which the runtime's `property_*` functions handle, written once. The constant
    // picks here, where it is known before code is generated, so the other branch folds away
    // (a generic function choosing for itself was compiled whole for every type). The type is
    // checked first, at the user's tokens (a type without `ToolArgs` reported there once); the
    // code names it through that check, so such a type is not reported again at a bound of the
    // runtime's functions.
    let lone_check = lone.map(|field| {
        let (ty, member, key) = (&field.ty, &field.ident, &field.key);
        let checked = quote!(__DshLone);
        let args = quote!(<#checked as #private::ToolArgs>);
        let object = quote!(#args::OBJECT_STRUCT);
        schema_body = quote! {
            if #object {
                #private::whole_arguments(#args::schema()?)
            } else {
                #private::property_schema::<#checked>(#key)
            }
        };
        is_valid_body = quote! {
            if #object {
                #args::is_valid_json(__value)
            } else {
                #private::property_is_valid::<#checked>(__value, #key)
            }
        };
        let converted = quote! {
            if #object {
                #private::convert_whole(__value, #args::from_json, #args::from_json_owned)
            } else {
                #private::property_from_json::<#checked>(__value, #key)
            }
        };
        json_body = Some(quote! {
            match #converted {
                ::core::result::Result::Ok(__converted) => {
                    ::core::result::Result::Ok(Self { #member: __converted })
                }
                ::core::result::Result::Err(__error) => ::core::result::Result::Err(__error),
            }
        });
        let check = quote_spanned! {ty.span()=>
            const __DSH_LONE: usize = {
                let _ = <#ty as #private::ToolArgs>::OBJECT_STRUCT;
                1
            };
        };
        quote! {
            #check
            type __DshLone = <[#ty; __DSH_LONE] as ::core::iter::IntoIterator>::Item;
        }
    });
    // A struct walks its object where the parameter lies (`expand_fields`), so it binds it `mut`;
    // a newtype hands it on whole, and `#[tool]`'s arguments struct with a lone parameter moves
    // it on in both of its branches (above).
    let parameter = match (&args.shape, lone) {
        (Shape::Struct(_), None) => quote!(mut __value),
        _ => quote!(__value),
    };
    let (convert_fns, json_fn) = expand_conversions(convert_body, json_body, &parameter, &private);
    let checks = expand_checks(args, &private);
    let schemars_checks = expand_schemars_checks(args, &private);
    let object_struct = matches!(args.shape, Shape::Struct(_)).then(|| {
        quote!(
            const OBJECT_STRUCT: bool = true;
        )
    });
    let value_notes = expand_value_notes(args, &private);
    let string_default = is_plain_string_enum(args).then(|| {
        quote! {
            #[automatically_derived]
            #[doc(hidden)]
            impl #impl_generics #private::TakesString for #ident #ty_generics #where_clause {}
        }
    });
    let documented = docs::Documented::of_args(args);
    let json = &documented.json;
    // A generic type's schema depends on its parameters, so only concrete types are documented.
    let concrete = args.generics.params.is_empty();
    let doc = (matches!(role, Role::Derived) && concrete).then(|| {
        let section = documented.section("JSON Schema");
        let doc = docs::doc_attrs(
            &format!("The JSON value `{ident}` describes, as the model sees it.\n\n{section}"),
            ident.span(),
        );
        // A public type may have a field of a private type, linked from these docs.
        quote!(#doc #[allow(rustdoc::private_intra_doc_links)])
    });
    let documented_schema = concrete.then(|| {
        let value = match lone {
            Some(field) => {
                let ty = &field.ty;
                let whole = docs::Documented::of_type(ty).json;
                quote_spanned! {ty.span()=>
                    if <#ty as #private::ToolArgs>::OBJECT_STRUCT { #whole } else { #json }
                }
            }
            None => quote!(#json),
        };
        quote! {
            #[automatically_derived]
            #[doc(hidden)]
            impl #private::DocumentedSchema for #ident {
                const DOCUMENTED_SCHEMA: &'static str = #value;
            }
        }
    });
    quote! {
        #[allow(clippy::needless_question_mark, clippy::redundant_closure_call)]
        const _: () = {
            #doc
            #[automatically_derived]
            impl #impl_generics #private::ToolArgs for #ident #ty_generics #where_clause {
                #object_struct
                #value_notes

                fn schema() -> ::core::result::Result<#private::Schema, #private::SchemaError> {
                    #private::type_schema(::core::any::type_name::<Self>(), Self::__dsh_schema)
                }

                fn is_valid_json(__value: &#private::Value) -> bool {
                    #is_valid_body
                }

                #convert_fns
            }
            // The schema's construction, handed to `type_schema` by name (a closure would
            // compile a shim of its own to become a function pointer, for every type), beside
            // the type's one conversion when it has one: one private inherent impl.
            #[automatically_derived]
            impl #impl_generics #ident #ty_generics #where_clause {
                fn __dsh_schema() -> ::core::result::Result<#private::Schema, #private::SchemaError> {
                    #schema_body
                }

                #json_fn
            }
            #string_default
            #documented_schema
            #lone_check
            #checks
            #schemars_checks
        };
    }
}

/// `from_json` and `from_json_owned` in the `ToolArgs` impl, and the type's one conversion
/// (`json_body`) they both call when it has one, for the type's private inherent impl (beside
/// `__dsh_schema`), so neither the docs nor other code see it, and compiled once where two
/// bodies would be.
fn expand_conversions(
    convert_body: Option<TokenStream>,
    json_body: Option<TokenStream>,
    parameter: &TokenStream,
    private: &TokenStream,
) -> (TokenStream, TokenStream) {
    let result = quote!(::core::result::Result<Self, #private::ConvertError>);
    match json_body {
        Some(body) => (
            quote! {
                fn from_json(__value: &#private::Value) -> #result {
                    Self::__dsh_from_json(#private::Json::Read(__value))
                }

                fn from_json_owned(__value: #private::Value) -> #result {
                    Self::__dsh_from_json(#private::Json::Given(__value))
                }
            },
            quote! {
                fn __dsh_from_json(#parameter: #private::Json<'_>) -> #result {
                    #body
                }
            },
        ),
        // The other shapes keep the trait's `from_json_owned`, which reads the value.
        None => (
            quote! {
                fn from_json(__value: &#private::Value) -> #result {
                    #convert_body
                }
            },
            TokenStream::new(),
        ),
    }
}

/// The check constants of the `#[arg(schemars)]` fields (`Field::schemars_check`): each asks
/// `SchemarsType` of the field's type at the type, so a type that is not described by schemars 1
/// (or not `Deserialize`) is reported there once, and every use of the type goes through the
/// constant.
fn expand_schemars_checks(args: &ArgsType, private: &TokenStream) -> TokenStream {
    let mut fields: Vec<&Field> = match &args.shape {
        Shape::Struct(fields) => fields.iter().collect(),
        Shape::Newtype { field, .. } => field.iter().map(|field| &**field).collect(),
        Shape::Unit => Vec::new(),
        Shape::Enum { variants, .. } => variants
            .iter()
            .flat_map(|variant| match &variant.payload {
                Payload::Struct(fields) => fields.iter().collect(),
                Payload::Unit | Payload::Newtype(_) => Vec::new(),
            })
            .collect(),
    };
    fields.retain(|field| field.schemars_check.is_some() && !field.skip);
    let checks = fields.iter().filter_map(|field| {
        let (ty, name) = (&field.ty, field.schemars_check.as_ref()?);
        Some(quote_spanned! {ty.span()=>
            #[allow(non_upper_case_globals, clippy::let_unit_value)]
            const #name: usize = {
                let _ = <#ty as #private::SchemarsType>::CHECK;
                1
            };
        })
    });
    quote!(#(#checks)*)
}

/// `VALUE_NOTES`: a string enum's documented values, or a newtype's inner type's.
fn expand_value_notes(args: &ArgsType, private: &TokenStream) -> Option<TokenStream> {
    let notes = match &args.shape {
        Shape::Enum { variants, .. } if is_plain_string_enum(args) => {
            let notes = variants.iter().filter_map(|variant| {
                let name = &variant.name;
                let description = variant.description.as_ref()?;
                Some(quote!((#name, #description)))
            });
            quote!(&[#(#notes),*])
        }
        // A field with keys of its own (a doc, `enum`, `schemars`) says what its values are.
        Shape::Newtype { field: Some(_), .. } => return None,
        Shape::Newtype { ty, .. } => {
            quote_spanned!(ty.span()=> <#ty as #private::ToolArgs>::VALUE_NOTES)
        }
        _ => return None,
    };
    Some(quote!(const VALUE_NOTES: &'static [(&'static str, &'static str)] = #notes;))
}

fn is_plain_string_enum(args: &ArgsType) -> bool {
    matches!(&args.shape, Shape::Enum { variants, tagging: Tagging::External }
        if variants.iter().all(|variant| matches!(variant.payload, Payload::Unit)))
}

/// Empty impls emitted next to errors, with the shape the type's tokens show (an object struct,
/// a string enum that takes string defaults), so uses of the type add no errors of their own.
fn stub_impl(input: &syn::DeriveInput, krate: &TokenStream) -> TokenStream {
    let private = quote!(#krate::__private);
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let object_struct = match &input.data {
        syn::Data::Struct(data) => matches!(data.fields, syn::Fields::Named(_)),
        _ => false,
    };
    let object_struct = object_struct.then(|| {
        quote!(
            const OBJECT_STRUCT: bool = true;
        )
    });
    let string_enum = match &input.data {
        syn::Data::Enum(data) => {
            !data.variants.is_empty()
                && data
                    .variants
                    .iter()
                    .all(|variant| matches!(variant.fields, syn::Fields::Unit))
        }
        _ => false,
    };
    let string_default = string_enum.then(|| {
        quote! {
            #[automatically_derived]
            impl #impl_generics #private::TakesString for #ident #ty_generics #where_clause {}
        }
    });
    quote! {
        const _: () = {
            #string_default
            #[automatically_derived]
            impl #impl_generics #private::ToolArgs for #ident #ty_generics #where_clause {
                #object_struct
                fn schema() -> ::core::result::Result<#private::Schema, #private::SchemaError> {
                    ::core::result::Result::Err(#private::macro_error_schema())
                }
                fn from_json(
                    _: &#private::Value,
                ) -> ::core::result::Result<Self, #private::ConvertError> {
                    ::core::result::Result::Err(#private::ConvertError::new("invalid ToolArgs derive"))
                }
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rustdoc text on the `ToolArgs` impl the derive generates.
    fn impl_docs(input: TokenStream) -> String {
        let input: syn::DeriveInput = syn::parse2(input).expect("a type");
        let file: syn::File = syn::parse2(expand_derive(&input)).expect("the expansion parses");
        let syn::Item::Const(block) = &file.items[0] else {
            panic!("the impls sit in a `const _` block");
        };
        let syn::Expr::Block(block) = &*block.expr else {
            panic!("a block");
        };
        let imp = block
            .block
            .stmts
            .iter()
            .find_map(|stmt| match stmt {
                syn::Stmt::Item(syn::Item::Impl(imp)) => Some(imp),
                _ => None,
            })
            .expect("the ToolArgs impl");
        imp.attrs
            .iter()
            .filter_map(|attr| match &attr.meta {
                syn::Meta::NameValue(doc) if doc.path.is_ident("doc") => match &doc.value {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(text),
                        ..
                    }) => Some(text.value().trim_start().to_owned()),
                    _ => None,
                },
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn links_the_types_a_schema_references() {
        let docs = impl_docs(quote! {
            struct Search {
                /// How to match.
                mode: Option<Mode>,
                options: [Options; 2],
                #[arg(schemars)]
                imported: Imported,
            }
        });
        assert!(
            docs.ends_with("Referenced types, each showing its schema on its page (the model receives them inlined): [`Mode`], [`Options`]. Keys beside a `$ref` replace the type's own; a `description` keeps a string enum's notes on its values after it.\n\nSchemas from `schemars::JsonSchema`, built when the tool is registered and inlined for the model: `Imported`."),
            "{docs}"
        );
        assert!(docs.starts_with("The JSON value `Search` describes, as the model sees it.\n\n# JSON Schema\n\n```json\n{"), "{docs}");
    }
}
