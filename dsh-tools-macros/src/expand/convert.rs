//! Emits the code of `ToolArgs::from_json()`: the conversion of an already-validated value into
//! the Rust type. Objects are walked once, matching keys by string (no hashing); absent properties
//! take their default, `None`, or fail as missing (which validation has ruled out already).
//!
//! `ToolArgs::from_json_owned()` does the same with a value it may take apart: structs and
//! newtypes move their properties out (strings and arrays are not copied); enums, whose values
//! are mostly short tags, convert by reference.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{ArgsType, Field, Payload, Shape, Tagging, Variant};
use crate::attr::arg::DefaultSpec;

/// The body of `fn from_json(__value: &Value) -> Result<Self, ConvertError>` for `args`.
pub(crate) fn expand_convert_body(args: &ArgsType, private: &TokenStream) -> TokenStream {
    match &args.shape {
        Shape::Struct(fields) => {
            let build = expand_fields(fields, &quote!(Self), private, Ownership::Borrowed);
            quote! {
                let __map = #private::expect_object(__value)?;
                #build
            }
        }
        Shape::Newtype {
            member,
            field: Some(field),
            ..
        } if is_schemars(Some(field)) => {
            let checked = field.schemars_type();
            quote! {
                ::core::result::Result::Ok(Self { #member: #private::schemars_value::<#checked>(__value)? })
            }
        }
        Shape::Newtype { ty, member, .. } => quote! {
            ::core::result::Result::Ok(Self { #member: <#ty as #private::ToolArgs>::from_json(__value)? })
        },
        Shape::Unit => quote! {
            #private::expect_null(__value)?;
            ::core::result::Result::Ok(Self)
        },
        Shape::Enum { variants, tagging } => expand_enum(variants, tagging, private),
    }
}

/// The body of `fn from_json_owned(__value: Value) -> Result<Self, ConvertError>` for `args`.
pub(crate) fn expand_convert_owned_body(args: &ArgsType, private: &TokenStream) -> TokenStream {
    match &args.shape {
        Shape::Struct(fields) => {
            let build = expand_fields(fields, &quote!(Self), private, Ownership::Owned);
            quote! {
                let __map = #private::into_object(__value)?;
                #build
            }
        }
        Shape::Newtype { ty, member, field } if !is_schemars(field.as_deref()) => quote! {
            ::core::result::Result::Ok(Self { #member: <#ty as #private::ToolArgs>::from_json_owned(__value)? })
        },
        Shape::Newtype { .. } | Shape::Unit | Shape::Enum { .. } => quote! {
            <Self as #private::ToolArgs>::from_json(&__value)
        },
    }
}

/// Whether a newtype's field takes its schema and conversion from `schemars`.
fn is_schemars(field: Option<&Field>) -> bool {
    field.is_some_and(|field| field.attrs.schemars.is_some())
}

/// Whether a conversion reads the value (`&Value`) or takes it apart (`Value`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ownership {
    Borrowed,
    Owned,
}

/// Converts the object `__map` into `constructor { fields }`.
pub(crate) fn expand_fields(
    fields: &[Field],
    constructor: &TokenStream,
    private: &TokenStream,
    ownership: Ownership,
) -> TokenStream {
    let arguments: Vec<&Field> = fields.iter().filter(|field| !field.skip).collect();
    let slots: Vec<_> = (0..arguments.len())
        .map(|index| format_ident!("__f{}", index))
        .collect();
    let declarations = arguments.iter().zip(&slots).map(|(field, slot)| {
        let ty = &field.ty;
        quote!(let mut #slot: ::core::option::Option<#ty> = ::core::option::Option::None;)
    });
    let arms = arguments.iter().zip(&slots).map(|(field, slot)| {
        let key = &field.key;
        let ty = &field.ty;
        let convert = match (field.attrs.schemars.is_some(), ownership) {
            (true, Ownership::Borrowed) => {
                let checked = field.schemars_type();
                quote!(#private::schemars_field::<#checked>(__item, #key)?)
            }
            (true, Ownership::Owned) => {
                let checked = field.schemars_type();
                quote!(#private::schemars_field::<#checked>(&__item, #key)?)
            }
            // The same `<T as ToolArgs>` path as the schema code, so a type without `ToolArgs`
            // is reported once. The conversion is passed to a helper generic over the field's
            // type alone, which every field of that type in the crate shares, where a closure
            // would instantiate `map_err` again for each field.
            (false, Ownership::Borrowed) => {
                let convert = quote_spanned!(ty.span()=> <#ty as #private::ToolArgs>::from_json);
                quote!(#private::convert_at(#convert, __item, #key)?)
            }
            (false, Ownership::Owned) => {
                let convert =
                    quote_spanned!(ty.span()=> <#ty as #private::ToolArgs>::from_json_owned);
                quote!(#private::convert_owned_at(#convert, __item, #key)?)
            }
        };
        quote!(#key => #slot = ::core::option::Option::Some(#convert),)
    });
    let loop_ = if arguments.is_empty() {
        quote!(let _ = __map;)
    } else {
        quote! {
            for (__key, __item) in __map {
                match __key.as_str() {
                    #(#arms)*
                    _ => {}
                }
            }
        }
    };
    let inits = fields.iter().map(|field| {
        let ident = &field.ident;
        if field.skip {
            return quote!(#ident: ::core::default::Default::default(),);
        }
        let position = arguments
            .iter()
            .position(|argument| argument.ident == field.ident)
            .unwrap_or_default();
        let slot = &slots[position];
        let absent = absent_value(field, private);
        quote! {
            #ident: match #slot {
                ::core::option::Option::Some(__present) => __present,
                ::core::option::Option::None => #absent,
            },
        }
    });
    quote! {
        #(#declarations)*
        #loop_
        ::core::result::Result::Ok(#constructor { #(#inits)* })
    }
}

/// The value of an absent property.
fn absent_value(field: &Field, private: &TokenStream) -> TokenStream {
    let ty = &field.ty;
    let key = &field.key;
    match &field.default {
        Some(DefaultSpec::Literal(default)) => {
            let value = default.value.to_value_tokens(private);
            if field.attrs.schemars.is_some() {
                let checked = field.schemars_type();
                quote!(#private::schemars_field::<#checked>(&#value, #key)?)
            } else {
                quote!(#private::convert_field::<#ty>(&#value, #key)?)
            }
        }
        Some(DefaultSpec::Trait) => quote!(<#ty as ::core::default::Default>::default()),
        Some(DefaultSpec::Function(path)) => quote!(#path()),
        None if field.attrs.schemars.is_some() => {
            let checked = field.schemars_type();
            quote!(#private::schemars_absent::<#checked>(#key)?)
        }
        None => {
            let absent = quote_spanned!(ty.span()=> <#ty as #private::ToolArgs>::absent());
            quote!(#private::absent_or_missing(#absent, #key)?)
        }
    }
}

fn expand_enum(variants: &[Variant], tagging: &Tagging, private: &TokenStream) -> TokenStream {
    match tagging {
        Tagging::External => {
            let unit_arms = variants.iter().filter_map(|variant| {
                let (ident, name) = (&variant.ident, &variant.name);
                matches!(variant.payload, Payload::Unit)
                    .then(|| quote!(#name => ::core::result::Result::Ok(Self::#ident),))
            });
            let payload_arms = variants.iter().filter_map(|variant| {
                let (ident, name) = (&variant.ident, &variant.name);
                match &variant.payload {
                    Payload::Unit => None,
                    Payload::Newtype(ty) => Some(quote! {
                        #name => ::core::result::Result::Ok(Self::#ident(
                            #private::convert_field::<#ty>(__item, #name)?
                        )),
                    }),
                    Payload::Struct(fields) => {
                        let build = expand_fields(fields, &quote!(Self::#ident), private, Ownership::Borrowed);
                        Some(quote! {
                            #name => {
                                let __map = #private::expect_object(__item).map_err(|__e| __e.at_key(#name))?;
                                #build
                            }
                        })
                    }
                }
            });
            quote! {
                match __value {
                    #private::Value::String(__name) => match __name.as_str() {
                        #(#unit_arms)*
                        __other => ::core::result::Result::Err(#private::unknown_variant(__other)),
                    },
                    #private::Value::Object(__outer) => {
                        let (__name, __item) = #private::single_entry(__outer)?;
                        match __name {
                            #(#payload_arms)*
                            __other => ::core::result::Result::Err(#private::unknown_variant(__other)),
                        }
                    }
                    __other => ::core::result::Result::Err(#private::ConvertError::expected("a variant", __other)),
                }
            }
        }
        Tagging::Internal { tag } => {
            let arms = variants.iter().map(|variant| {
                let (ident, name) = (&variant.ident, &variant.name);
                match &variant.payload {
                    Payload::Unit => quote!(#name => ::core::result::Result::Ok(Self::#ident),),
                    Payload::Newtype(ty) => quote! {
                        #name => ::core::result::Result::Ok(Self::#ident(
                            <#ty as #private::ToolArgs>::from_json(__value)?
                        )),
                    },
                    Payload::Struct(fields) => {
                        let build = expand_fields(
                            fields,
                            &quote!(Self::#ident),
                            private,
                            Ownership::Borrowed,
                        );
                        quote!(#name => { #build })
                    }
                }
            });
            quote! {
                let __map = #private::expect_object(__value)?;
                match #private::tag_of(__map, #tag)? {
                    #(#arms)*
                    __other => ::core::result::Result::Err(#private::unknown_variant(__other)),
                }
            }
        }
        Tagging::Adjacent { tag, content } => {
            let arms = variants.iter().map(|variant| {
                let (ident, name) = (&variant.ident, &variant.name);
                match &variant.payload {
                    Payload::Unit => quote!(#name => ::core::result::Result::Ok(Self::#ident),),
                    Payload::Newtype(ty) => quote! {
                        #name => ::core::result::Result::Ok(Self::#ident(
                            #private::convert_field::<#ty>(#private::content_of(__outer, #content)?, #content)?
                        )),
                    },
                    Payload::Struct(fields) => {
                        let build = expand_fields(fields, &quote!(Self::#ident), private, Ownership::Borrowed);
                        quote! {
                            #name => {
                                let __map = #private::expect_object(#private::content_of(__outer, #content)?)
                                    .map_err(|__e| __e.at_key(#content))?;
                                #build
                            }
                        }
                    }
                }
            });
            quote! {
                let __outer = #private::expect_object(__value)?;
                match #private::tag_of(__outer, #tag)? {
                    #(#arms)*
                    __other => ::core::result::Result::Err(#private::unknown_variant(__other)),
                }
            }
        }
    }
}
