//! Emits `ToolArgs::is_valid_json()`: the type's schema checked by code specialized for the type.
//!
//! Objects are walked once, matching keys by string and checking each property in place with the
//! `__private` fast checks; no schema is built and nothing is allocated. Enums with data fall back
//! to the interpreter over the type's schema (built once per concrete type). The interpreter
//! remains the reference: property tests hold both to the same answer on every value.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use crate::ast::{ArgsType, Field, Payload, Shape, Tagging};
use crate::attr::arg::KeywordValue;
use crate::keyword_table::{Check, Side};
use crate::literal::JsonLiteral;

/// The body of `fn is_valid_json(__value: &Value) -> bool` for `args`.
pub(crate) fn expand_is_valid_body(args: &ArgsType, private: &TokenStream) -> TokenStream {
    let generic = !args.generics.params.is_empty();
    match &args.shape {
        Shape::Struct(fields) => expand_object_check(fields, args.open, generic, private),
        Shape::Newtype {
            field: Some(field), ..
        } => {
            // The field's checks, on the whole value.
            let mut statics = Vec::new();
            let check = field_check(field, 0, generic, private, &mut statics);
            quote! {
                #(#statics)*
                let __item = __value;
                #check
            }
        }
        Shape::Newtype { ty, .. } => quote!(<#ty as #private::ToolArgs>::is_valid_json(__value)),
        Shape::Unit => quote!(__value.is_null()),
        Shape::Enum { variants, tagging } => {
            let plain_strings = matches!(tagging, Tagging::External)
                && variants
                    .iter()
                    .all(|variant| matches!(variant.payload, Payload::Unit));
            if plain_strings {
                let names = variants.iter().map(|variant| &variant.name);
                quote!(
                    ::core::matches!(__value.as_str(), ::core::option::Option::Some(#(#names)|*))
                )
            } else {
                interpreted(args, generic, private)
            }
        }
    }
}

/// The interpreter over the type's own schema, built once for a concrete type.
fn interpreted(args: &ArgsType, generic: bool, private: &TokenStream) -> TokenStream {
    if generic {
        return quote! {
            <Self as #private::ToolArgs>::schema().is_ok_and(|__schema| __schema.is_valid(__value))
        };
    }
    let ident = &args.ident;
    quote! {
        static __DSH_SCHEMA: #private::LazyLock<::core::option::Option<#private::Schema>> =
            #private::LazyLock::new(|| <#ident as #private::ToolArgs>::schema().ok());
        __DSH_SCHEMA
            .as_ref()
            .is_some_and(|__schema| __schema.is_valid(__value))
    }
}

/// The check of an object with `fields`.
fn expand_object_check(
    fields: &[Field],
    open: bool,
    generic: bool,
    private: &TokenStream,
) -> TokenStream {
    let arguments: Vec<&Field> = fields.iter().filter(|field| !field.skip).collect();
    // Only a property that must or may have to be present is tracked: one that may always be
    // absent (a default) needs no flag and no term.
    let seen: Vec<Option<(Ident, Option<TokenStream>)>> = arguments
        .iter()
        .enumerate()
        .map(|(index, field)| {
            let flag = format_ident!("__seen{}", index);
            match may_be_absent(field, private) {
                Absence::Never => Some((flag, None)),
                Absence::Always => None,
                Absence::ByType(optional) => Some((flag, Some(optional))),
            }
        })
        .collect();
    let mut statics = Vec::new();
    let arms = arguments
        .iter()
        .zip(&seen)
        .enumerate()
        .map(|(index, (field, seen))| {
            let key = &field.key;
            let check = field_check(field, index, generic, private, &mut statics);
            let mark = seen.as_ref().map(|(flag, _)| quote!(#flag = true;));
            quote!(#key => { #mark #check })
        });
    let arms: Vec<TokenStream> = arms.collect();
    let flags = seen.iter().flatten().map(|(flag, _)| flag);
    let required = seen
        .iter()
        .flatten()
        .map(|(flag, optional)| match optional {
            Some(optional) => quote!((#flag || #optional)),
            None => quote!(#flag),
        });
    quote! {
        #(#statics)*
        let ::core::option::Option::Some(__map) = __value.as_object() else {
            return false;
        };
        #(let mut #flags = false;)*
        for (__key, __item) in __map {
            let __ok = match __key.as_str() {
                #(#arms)*
                _ => #open,
            };
            if !__ok {
                return false;
            }
        }
        true #(&& #required)*
    }
}

/// Whether a property may be absent: the opposite of what the schema's `required` says of it
/// (`expand/schema.rs`).
enum Absence {
    Never,
    Always,
    /// As the type says: `<T as ToolArgs>::OPTIONAL`.
    ByType(TokenStream),
}

fn may_be_absent(field: &Field, private: &TokenStream) -> Absence {
    if field.default.is_some() {
        Absence::Always
    } else if field.attrs.required.is_some() {
        Absence::Never
    } else if field.attrs.schemars.is_some() {
        // No `ToolArgs` to ask; `schemars` itself decides optionality by the `Option` name too.
        if crate::types::is_option(&field.ty) {
            Absence::Always
        } else {
            Absence::Never
        }
    } else {
        let ty = &field.ty;
        Absence::ByType(quote!(<#ty as #private::ToolArgs>::OPTIONAL))
    }
}

/// The check of one property's value `__item`.
fn field_check(
    field: &Field,
    index: usize,
    generic: bool,
    private: &TokenStream,
    statics: &mut Vec<TokenStream>,
) -> TokenStream {
    let ty = &field.ty;
    let attrs = &field.attrs;
    if attrs.schemars.is_some() {
        let checked = field.schemars_type();
        if generic {
            return quote! {
                #private::schemars_schema::<#checked>().is_ok_and(|__schema| __schema.is_valid(__item))
            };
        }
        let name = format_ident!("__DSH_FIELD{}", index);
        statics.push(quote! {
            static #name: #private::LazyLock<::core::option::Option<#private::Schema>> =
                #private::LazyLock::new(|| #private::schemars_schema::<#checked>().ok());
        });
        return quote!(#name.as_ref().is_some_and(|__schema| __schema.is_valid(__item)));
    }
    let members: Option<Vec<&JsonLiteral>> = attrs
        .enum_values
        .as_ref()
        .map(|values| values.value.iter().collect())
        .or_else(|| {
            attrs
                .constant
                .as_ref()
                .map(|constant| vec![&constant.value])
        });
    if let Some(members) = members {
        let lits = members.iter().map(|member| lit_tokens(member, private));
        return quote_spanned! {ty.span()=>
            (<#ty as #private::ToolArgs>::OPTIONAL && __item.is_null())
                || #private::is_one_of(__item, &[#(#lits),*])
        };
    }
    // The value keywords' checks, as their rows say (`keyword_table.rs`), in the table's order;
    // the two ends of a range in one call, where the first of them comes.
    let mut constraints = Vec::new();
    let mut ranges: Vec<&str> = Vec::new();
    for constraint in &attrs.constraints {
        let keyword = constraint.keyword();
        constraints.push(match keyword.check {
            Check::Bound { call, .. } => {
                if ranges.contains(&call) {
                    continue;
                }
                ranges.push(call);
                let end = |wanted: Side| {
                    attrs
                        .constraints
                        .iter()
                        .find(|other| {
                            matches!(other.keyword().check, Check::Bound { call: other_call, side, .. }
                                if other_call == call && side == wanted)
                        })
                        .map_or_else(
                            || quote!(::core::option::Option::None),
                            |other| argument_tokens(&other.value, private),
                        )
                };
                let (lower, upper) = (end(Side::Lower), end(Side::Upper));
                let call = Ident::new(call, Span::call_site());
                quote!(#private::#call(__item, #lower, #upper))
            }
            Check::With(call) => {
                let call = Ident::new(call, Span::call_site());
                let value = argument_tokens(&constraint.value, private);
                quote!(#private::#call(__item, #value))
            }
            Check::Plain(call) => {
                let call = Ident::new(call, Span::call_site());
                quote!(#private::#call(__item))
            }
            Check::Compiled {
                compile,
                into,
                call,
            } => {
                let name = format_ident!("__DSH_{}{}", keyword.name.to_uppercase(), index);
                let (compile, into, call) = (
                    Ident::new(compile, Span::call_site()),
                    Ident::new(into, Span::call_site()),
                    Ident::new(call, Span::call_site()),
                );
                let value = argument_tokens(&constraint.value, private);
                statics.push(quote! {
                    static #name: #private::LazyLock<::core::option::Option<#private::#into>> =
                        #private::LazyLock::new(|| #private::#compile(#value));
                });
                quote!(#private::#call(__item, &#name))
            }
        });
    }
    let type_check = quote_spanned!(ty.span()=> <#ty as #private::ToolArgs>::is_valid_json(__item));
    if constraints.is_empty() {
        type_check
    } else {
        // `null` passes a nullable type's check and skips the value constraints, as in the schema.
        quote!(#type_check && (__item.is_null() || (#(#constraints)&&*)))
    }
}

/// A keyword's value as its check takes it: a bound or a factor as an `Option<Number>`, a count
/// as an `Option<u64>`, a string as itself.
fn argument_tokens(value: &KeywordValue, private: &TokenStream) -> TokenStream {
    match value {
        KeywordValue::Number(number) => match &number.value {
            JsonLiteral::Integer(value) => match i64::try_from(*value) {
                Ok(small) => quote!(::core::option::Option::Some(#private::Number::from(#small))),
                Err(_) => {
                    let unsigned = u64::try_from(*value).unwrap_or(u64::MAX);
                    quote!(::core::option::Option::Some(#private::Number::from(#unsigned)))
                }
            },
            JsonLiteral::Float(value) => quote!(#private::Number::from_f64(#value)),
            _ => quote!(::core::option::Option::None),
        },
        KeywordValue::Count(count, _) => quote!(::core::option::Option::Some(#count)),
        KeywordValue::Flag(_) => quote!(true),
        KeywordValue::Text(text) => quote!(#text),
    }
}

fn lit_tokens(literal: &JsonLiteral, private: &TokenStream) -> TokenStream {
    match literal {
        JsonLiteral::String(text) => quote!(#private::Lit::Str(#text)),
        JsonLiteral::Integer(value) => match i64::try_from(*value) {
            Ok(small) => quote!(#private::Lit::Int(#small)),
            Err(_) => {
                let unsigned = u64::try_from(*value).unwrap_or(u64::MAX);
                quote!(#private::Lit::Uint(#unsigned))
            }
        },
        JsonLiteral::Float(value) => quote!(#private::Lit::Float(#value)),
        JsonLiteral::Bool(flag) => quote!(#private::Lit::Bool(#flag)),
        JsonLiteral::Null | JsonLiteral::Array(_) => quote!(#private::Lit::Null),
    }
}
