//! Emits the conversion of an already-validated value into the Rust type (`ToolArgs::from_json`
//! and `from_json_owned`). A struct or a newtype has one conversion, of a `Json` value either read
//! or given up, which both methods call: given up, its properties are moved out (strings and
//! arrays are not copied). An object is walked once, by the runtime (`fill_slots`), which hands
//! each property the struct's match of its keys knows to its field's slot; absent properties take
//! their default, `None`, or fail as missing (which validation has ruled out already). Enums,
//! whose values are mostly short tags, convert by reference.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{ArgsType, Field, Payload, Shape, Tagging, Variant};
use crate::attr::arg::DefaultSpec;

/// The body of `fn from_json(__value: &Value) -> Result<Self, ConvertError>` for `args`, or
/// `None` when the type converts through [`expand_convert_json_body`] instead.
pub(crate) fn expand_convert_body(args: &ArgsType, private: &TokenStream) -> Option<TokenStream> {
    match &args.shape {
        Shape::Struct(_) => None,
        Shape::Newtype {
            member,
            field: Some(field),
            ..
        } if is_schemars(Some(field)) => {
            let checked = field.schemars_type();
            Some(quote! {
                ::core::result::Result::Ok(Self { #member: #private::schemars_value::<#checked>(__value)? })
            })
        }
        Shape::Newtype { .. } => None,
        Shape::Unit => Some(quote! {
            #private::expect_null(__value)?;
            ::core::result::Result::Ok(Self)
        }),
        Shape::Enum { variants, tagging } => Some(expand_enum(variants, tagging, private)),
    }
}

/// The body of the one conversion of a struct or a newtype, `fn(__value: Json<'_>) ->
/// Result<Self, ConvertError>`, which `from_json` (a value read) and `from_json_owned` (a value
/// given up) both call: one body per type rather than two, each field converting its value by
/// reference or by value as it arrived. `None` for the other shapes, whose `from_json_owned` is
/// the trait's default (by reference: enums' values are mostly short tags).
pub(crate) fn expand_convert_json_body(
    args: &ArgsType,
    private: &TokenStream,
) -> Option<TokenStream> {
    match &args.shape {
        Shape::Struct(fields) => Some(expand_fields(fields, &quote!(Self), private, None, None)),
        Shape::Newtype { ty, member, field } if !is_schemars(field.as_deref()) => {
            let whole = or_return(&convert_whole(ty, &quote!(__value), private));
            Some(quote! {
                ::core::result::Result::Ok(Self { #member: #whole })
            })
        }
        Shape::Newtype { .. } | Shape::Unit | Shape::Enum { .. } => None,
    }
}

/// The conversion of the whole `value` (a `Json`) into `ty`, by reference or by value as it
/// arrived.
pub(crate) fn convert_whole(
    ty: &syn::Type,
    value: &TokenStream,
    private: &TokenStream,
) -> TokenStream {
    let (read, given) = conversions(ty, private);
    quote!(#private::convert_whole(#value, #read, #given))
}

/// `<ty as ToolArgs>::from_json` and `from_json_owned`, at the type's tokens: the same
/// `<T as ToolArgs>` path as the schema code, so a type without `ToolArgs` is reported once,
/// there. Passed to helpers generic over the field's type alone, which every field of that type
/// in the crate shares, where a closure would instantiate them again for each field.
fn conversions(ty: &syn::Type, private: &TokenStream) -> (TokenStream, TokenStream) {
    (
        quote_spanned!(ty.span()=> <#ty as #private::ToolArgs>::from_json),
        quote_spanned!(ty.span()=> <#ty as #private::ToolArgs>::from_json_owned),
    )
}

/// Whether a newtype's field takes its schema and conversion from `schemars`.
fn is_schemars(field: Option<&Field>) -> bool {
    field.is_some_and(|field| field.attrs.schemars.is_some())
}

/// Converts the object `source` (a `Json`) into `constructor { fields }`: the runtime's one walk
/// (`fill_slots`) hands each property the struct's match of keys (`__dsh_key`) knows to its
/// field's slot, and each field converts its slot. `at` places the error of a value that is not an object
/// under a key (a variant's). Without a `source`, the object is the conversion's own parameter,
/// `mut __value` (a struct's), walked where it lies: moved into a local first, it was copied
/// whole (a `Value` wide) on every conversion of an optimised build.
pub(crate) fn expand_fields(
    fields: &[Field],
    constructor: &TokenStream,
    private: &TokenStream,
    source: Option<&TokenStream>,
    at: Option<&TokenStream>,
) -> TokenStream {
    let arguments: Vec<&Field> = fields.iter().filter(|field| !field.skip).collect();
    let slots: Vec<_> = (0..arguments.len())
        .map(|index| format_ident!("__f{}", index))
        .collect();
    let arms = arguments.iter().enumerate().map(|(index, field)| {
        let key = &field.key;
        quote!(#key => #index,)
    });
    let unknown = arguments.len();
    let absent = arguments.iter().map(|_| quote!(#private::Slot::Absent));
    let fill = quote!(#private::fill_slots(__object, __dsh_key, &mut __slots));
    let fill = match at {
        Some(key) => quote! {
            if let ::core::result::Result::Err(__error) = #fill {
                return ::core::result::Result::Err(#private::at_key(__error, #key));
            }
        },
        None => quote! {
            if let ::core::result::Result::Err(__error) = #fill {
                return ::core::result::Result::Err(__error);
            }
        },
    };
    // The object is kept here, its properties borrowed by the slots: a field of an object given
    // up takes its value out of it.
    let object = match source {
        Some(source) => quote! {
            let mut __json = #source;
            let __object = &mut __json;
        },
        None => quote!(let __object = &mut __value;),
    };
    // The match of the keys is the struct's own: compiled into a switch on their lengths, it
    // finds a key's field faster than any table could be searched. Always inlined where it is
    // called directly, which only an optimised build does (the walk, inlined there, calls it
    // once per key): a build that does not optimise passes it by pointer, compiled once.
    let walk = quote! {
        #[inline(always)]
        fn __dsh_key(__key: &str) -> usize {
            match __key {
                #(#arms)*
                _ => #unknown,
            }
        }
        #object
        let mut __slots = [#(#absent),*];
        #fill
        let [#(#slots),*] = &mut __slots;
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
        let value = field_value(field, slot, private);
        quote!(#ident: #value,)
    });
    quote! {
        #walk
        ::core::result::Result::Ok(#constructor { #(#inits)* })
    }
}

/// The value of `result`, or its error returned: what `?` does, written out, so that a
/// generated conversion does not instantiate `?`'s conversion of the error for its own type.
pub(crate) fn or_return(result: &TokenStream) -> TokenStream {
    quote! {
        match #result {
            ::core::result::Result::Ok(__converted) => __converted,
            ::core::result::Result::Err(__error) => return ::core::result::Result::Err(__error),
        }
    }
}

/// The value of `field` from its slot (a `&mut Slot`), or its value when absent.
fn field_value(field: &Field, slot: &proc_macro2::Ident, private: &TokenStream) -> TokenStream {
    let ty = &field.ty;
    let key = &field.key;
    if field.attrs.schemars.is_some() {
        let checked = field.schemars_type();
        let absent = absent_value(field, private);
        return quote! {
            match #private::slot_value(#slot) {
                ::core::option::Option::Some(__present) => #private::schemars_field::<#checked>(__present, #key)?,
                ::core::option::Option::None => #absent,
            }
        };
    }
    let (read, given) = conversions(ty, private);
    if field.default.is_none() {
        let absent = quote_spanned!(ty.span()=> <#ty as #private::ToolArgs>::absent);
        return or_return(&quote!(#private::required_at(#slot, #read, #given, #absent, #key)));
    }
    let absent = absent_value(field, private);
    let present = or_return(&quote!(#private::field_at(#slot, #read, #given, #key)));
    quote! {
        match #present {
            ::core::option::Option::Some(__present) => __present,
            ::core::option::Option::None => #absent,
        }
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
                        let build = expand_fields(
                            fields,
                            &quote!(Self::#ident),
                            private,
                            Some(&quote!(#private::Json::Read(__item))),
                            Some(&quote!(#name)),
                        );
                        Some(quote!(#name => { #build }))
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
                    __other => ::core::result::Result::Err(#private::expected("a variant", __other)),
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
                            Some(&quote!(#private::Json::Read(__value))),
                            None,
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
                        let build = expand_fields(
                            fields,
                            &quote!(Self::#ident),
                            private,
                            Some(&quote!(#private::Json::Read(#private::content_of(__outer, #content)?))),
                            Some(&quote!(#content)),
                        );
                        quote!(#name => { #build })
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
