//! Emits the code of `ToolArgs::schema()`: each field as constant data (its type's schema as a
//! function pointer, its `#[arg]` annotations and constraints as steps) handed to the runtime's
//! `__private::struct_schema`/`object_schema` (`macro_support/schema_data.rs`), which applies
//! them and checks when the schema is built that a default or `enum` value fits it. Enums and
//! newtypes of another type keep their few calls of the `__private` steps.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use crate::ast::{ArgsType, Field, Payload, Shape, Tagging, Variant};
use crate::attr::arg::{DefaultSpec, KeywordValue};
use crate::literal::JsonLiteral;

/// The body of `fn schema() -> Result<Schema, SchemaError>` for `args`.
pub(crate) fn expand_schema_body(args: &ArgsType, private: &TokenStream) -> TokenStream {
    let annotate = annotate_container(args, None, private);
    if let Shape::Enum {
        variants,
        tagging: Tagging::External,
    } = &args.shape
        && variants
            .iter()
            .all(|variant| matches!(variant.payload, Payload::Unit))
    {
        // Plain strings: one `enum`; each variant's doc is listed after the type's own.
        let names = variants.iter().map(|variant| &variant.name);
        let description = option_tokens(args.description.as_deref());
        let notes = variant_notes(variants);
        let title = args
            .title
            .as_ref()
            .map(|title| quote!(let __schema = #private::titled(__schema, #title);));
        return quote! {
            let __schema = #private::string_enum(&[#(#names),*], #description, #notes);
            #title
            ::core::result::Result::Ok(__schema)
        };
    }
    match &args.shape {
        Shape::Struct(fields) => {
            // One call of the runtime with the fields' data, the type's doc and title.
            let fields = field_list(fields, private);
            let open = args.open;
            let description = args
                .description
                .as_ref()
                .map(|description| quote!(#private::SchemaStep::Describe(#description, &[])));
            let title = args
                .title
                .as_ref()
                .map(|title| quote!(#private::SchemaStep::Title(#title)));
            let steps = description.into_iter().chain(title);
            quote!(#private::struct_schema(#fields, #open, &[#(#steps),*]))
        }
        Shape::Newtype {
            field: Some(field), ..
        } => {
            // The field's schema with its rules; the type's doc replaces the field's.
            let field = field_data(field, private);
            quote! {
                let __schema = #private::field_schema(&#field)?;
                ::core::result::Result::Ok(#annotate)
            }
        }
        Shape::Newtype { ty, .. } => {
            // The type's doc replaces its inner type's, keeping the notes on its values.
            let annotate = annotate_container(
                args,
                Some(quote_spanned!(ty.span()=> <#ty as #private::ToolArgs>::VALUE_NOTES)),
                private,
            );
            quote_spanned! {ty.span()=>
                let __schema = <#ty as #private::ToolArgs>::schema()?;
                ::core::result::Result::Ok(#annotate)
            }
        }
        Shape::Unit => quote! {
            let __schema = #private::null_schema();
            ::core::result::Result::Ok(#annotate)
        },
        Shape::Enum { variants, tagging } => {
            let body = expand_enum(variants, tagging, args.open, private);
            quote! {
                let __schema = #body;
                ::core::result::Result::Ok(#annotate)
            }
        }
    }
}

/// `__schema` with the type's description and title applied; `notes` are the value notes to keep
/// after the description (`ToolArgs::VALUE_NOTES` of a newtype's inner type).
fn annotate_container(
    args: &ArgsType,
    notes: Option<TokenStream>,
    private: &TokenStream,
) -> TokenStream {
    let mut expr = quote!(__schema);
    if let Some(description) = &args.description {
        expr = match notes {
            Some(notes) => quote!(#private::describe_value(#expr, #description, #notes)),
            None => quote!(#private::describe(#expr, #description)),
        };
    }
    if let Some(title) = &args.title {
        expr = quote!(#private::titled(#expr, #title));
    }
    expr
}

/// An object schema from `fields` (skipped fields left out); `tag` prepends `{tag: const name}`:
/// the fields' data handed to the runtime's `object_schema`.
fn expand_object(
    fields: &[Field],
    open: bool,
    tag: Option<(&str, &str)>,
    private: &TokenStream,
) -> TokenStream {
    let fields = field_list(fields, private);
    let tag = match tag {
        Some((tag, name)) => quote!(::core::option::Option::Some((#tag, #name))),
        None => quote!(::core::option::Option::None),
    };
    quote!(#private::object_schema(#fields, #open, #tag)?)
}

/// `&[FieldSchema { .. }, ..]` of the fields that are arguments, in declaration order.
fn field_list(fields: &[Field], private: &TokenStream) -> TokenStream {
    let fields = fields
        .iter()
        .filter(|field| !field.skip)
        .map(|field| field_data(field, private));
    quote!(&[#(#fields),*])
}

/// One field as constant data (`__private::FieldSchema`): its type's schema as a function
/// pointer, whether it is required, and every `#[arg]` key and its doc as steps, in the order the
/// runtime applies them.
fn field_data(field: &Field, private: &TokenStream) -> TokenStream {
    let ty = &field.ty;
    let attrs = &field.attrs;
    let key = &field.key;
    let schema = match &attrs.schemars {
        Some(marker) => {
            let checked = field.schemars_type();
            quote_spanned!(marker.span()=> #private::schemars_schema::<#checked>)
        }
        None => quote_spanned!(ty.span()=> <#ty as #private::ToolArgs>::schema),
    };
    let mut steps = Vec::new();
    if let Some(values) = &attrs.enum_values {
        let members = values
            .value
            .iter()
            .map(|value| literal_tokens(value, private));
        steps.push(quote!(#private::SchemaStep::Enum(&[#(#members),*])));
    }
    if let Some(constant) = &attrs.constant {
        let value = literal_tokens(&constant.value, private);
        steps.push(quote!(#private::SchemaStep::Const(#value)));
    }
    // The value keywords, each through the step its row names (`keyword_table.rs`).
    for constraint in attrs.constraints_in_step_order() {
        let step = Ident::new(constraint.keyword().step, Span::call_site());
        steps.push(match &constraint.value {
            KeywordValue::Number(number) => {
                let number = number_tokens(&number.value, private);
                quote!(#private::SchemaStep::Number(#private::#step, #number))
            }
            KeywordValue::Count(count, _) => {
                quote!(#private::SchemaStep::Count(#private::#step, #count))
            }
            KeywordValue::Flag(_) => quote!(#private::SchemaStep::Flag(#private::#step)),
            KeywordValue::Text(text) => quote!(#private::SchemaStep::Text(#private::#step, #text)),
        });
    }
    if let Some(description) = &field.description {
        // The field's doc replaces its type's; a string enum's notes on its values stay.
        let notes = match &attrs.schemars {
            Some(_) => quote!(&[]),
            None => quote_spanned!(ty.span()=> <#ty as #private::ToolArgs>::VALUE_NOTES),
        };
        steps.push(quote!(#private::SchemaStep::Describe(#description, #notes)));
    }
    if let Some(title) = &attrs.title {
        steps.push(quote!(#private::SchemaStep::Title(#title)));
    }
    if let Some(DefaultSpec::Literal(default)) = &field.default {
        let value = literal_tokens(&default.value, private);
        steps.push(quote!(#private::SchemaStep::Default(#value)));
    }
    if !attrs.examples.is_empty() {
        let values = attrs
            .examples
            .iter()
            .map(|example| literal_tokens(&example.value, private));
        steps.push(quote!(#private::SchemaStep::Examples(&[#(#values),*])));
    }
    let required = required_tokens(field, private);
    quote! {
        #private::FieldSchema {
            key: #key,
            schema: #schema,
            required: #required,
            steps: &[#(#steps),*],
        }
    }
}

/// Whether the property is required: never with a default; always with `required`; otherwise
/// unless the type may be absent (`Option`).
fn required_tokens(field: &Field, private: &TokenStream) -> TokenStream {
    if field.default.is_some() {
        quote!(false)
    } else if field.attrs.required.is_some() {
        quote!(true)
    } else if field.attrs.schemars.is_some() {
        // No `ToolArgs` to ask; `schemars` itself decides optionality by the `Option` name too.
        let required = !crate::types::is_option(&field.ty);
        quote!(#required)
    } else {
        let ty = &field.ty;
        quote!(!<#ty as #private::ToolArgs>::OPTIONAL)
    }
}

/// A keyword's number as `__private::NumberLiteral`.
fn number_tokens(literal: &JsonLiteral, private: &TokenStream) -> TokenStream {
    match literal {
        JsonLiteral::Integer(value) => match i64::try_from(*value) {
            Ok(small) => quote!(#private::NumberLiteral::Int(#small)),
            Err(_) => {
                let unsigned = u64::try_from(*value).unwrap_or(u64::MAX);
                quote!(#private::NumberLiteral::Uint(#unsigned))
            }
        },
        JsonLiteral::Float(value) => quote!(#private::NumberLiteral::Float(#value)),
        _ => quote!(#private::NumberLiteral::Int(0_i64)),
    }
}

/// A JSON literal as `__private::Literal`, the value `JsonLiteral::to_value_tokens` builds.
fn literal_tokens(literal: &JsonLiteral, private: &TokenStream) -> TokenStream {
    match literal {
        JsonLiteral::String(text) => quote!(#private::Literal::Str(#text)),
        JsonLiteral::Integer(value) => {
            if let Ok(small) = i64::try_from(*value) {
                quote!(#private::Literal::Int(#small))
            } else if let Ok(unsigned) = u64::try_from(*value) {
                quote!(#private::Literal::Uint(#unsigned))
            } else {
                // Out of JSON's 64-bit range: refused at build time by `check`, kept valid here.
                quote!(#private::Literal::Null)
            }
        }
        JsonLiteral::Float(value) => quote!(#private::Literal::Float(#value)),
        JsonLiteral::Bool(flag) => quote!(#private::Literal::Bool(#flag)),
        JsonLiteral::Null => quote!(#private::Literal::Null),
        JsonLiteral::Array(items) => {
            let items = items.iter().map(|item| literal_tokens(item, private));
            quote!(#private::Literal::Array(&[#(#items),*]))
        }
    }
}

/// The schema of an enum, following serde's representation of `tagging`.
fn expand_enum(
    variants: &[Variant],
    tagging: &Tagging,
    open: bool,
    private: &TokenStream,
) -> TokenStream {
    let mut branches = Vec::new();
    let unit_names: Vec<&String> = variants
        .iter()
        .filter(|variant| matches!(variant.payload, Payload::Unit))
        .map(|variant| &variant.name)
        .collect();
    if matches!(tagging, Tagging::External) && !unit_names.is_empty() {
        let notes = variant_notes(
            variants
                .iter()
                .filter(|variant| matches!(variant.payload, Payload::Unit)),
        );
        branches.push(quote!(#private::string_enum(&[#(#unit_names),*], ::core::option::Option::None, #notes)));
    }
    for variant in variants {
        let name = &variant.name;
        let branch = match (tagging, &variant.payload) {
            (Tagging::External, Payload::Unit) => continue,
            (Tagging::External, Payload::Newtype(ty)) => quote! {
                #private::object(
                    ::std::vec![#private::property(#name, <#ty as #private::ToolArgs>::schema()?, true)?],
                    false,
                )
            },
            (Tagging::External, Payload::Struct(fields)) => {
                let inner = expand_object(fields, open, None, private);
                quote!(#private::object(::std::vec![#private::property(#name, #inner, true)?], false))
            }
            (Tagging::Internal { tag }, Payload::Unit) => {
                expand_object(&[], open, Some((tag, name)), private)
            }
            (Tagging::Internal { tag }, Payload::Struct(fields)) => {
                expand_object(fields, open, Some((tag, name)), private)
            }
            (Tagging::Internal { tag }, Payload::Newtype(ty)) => quote! {
                #private::internally_tagged(#tag, #name, <#ty as #private::ToolArgs>::schema()?)?
            },
            (Tagging::Adjacent { tag, .. }, Payload::Unit) => {
                expand_object(&[], false, Some((tag, name)), private)
            }
            (Tagging::Adjacent { tag, content }, Payload::Newtype(ty)) => quote! {
                #private::object(::std::vec![
                    #private::property(#tag, #private::const_string(#name), true)?,
                    #private::property(#content, <#ty as #private::ToolArgs>::schema()?, true)?,
                ], false)
            },
            (Tagging::Adjacent { tag, content }, Payload::Struct(fields)) => {
                let inner = expand_object(fields, open, None, private);
                quote! {
                    #private::object(::std::vec![
                        #private::property(#tag, #private::const_string(#name), true)?,
                        #private::property(#content, #inner, true)?,
                    ], false)
                }
            }
        };
        let branch = match &variant.description {
            Some(description) => quote!(#private::describe(#branch, #description)),
            None => branch,
        };
        branches.push(branch);
    }
    quote!(#private::one_of(::std::vec![#(#branches),*]))
}

/// `("name", "doc")` pairs of documented unit variants, for the enum's description.
fn variant_notes<'a>(variants: impl IntoIterator<Item = &'a Variant>) -> TokenStream {
    let notes = variants.into_iter().filter_map(|variant| {
        let name = &variant.name;
        variant
            .description
            .as_ref()
            .map(|description| quote!((#name, #description)))
    });
    quote!(&[#(#notes),*])
}

fn option_tokens(text: Option<&str>) -> TokenStream {
    match text {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}
