//! The model the expansions work from: an argument type (struct or enum) with its fields and
//! variants resolved — JSON names after renames, descriptions from doc comments, defaults and
//! constraints — keeping the user's tokens for spans.
//!
//! Built from a `DeriveInput` for `#[derive(ToolArgs)]` and from the parameters of an `async fn`
//! for `#[tool]`'s hidden arguments struct, so both expand through the same code.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::spanned::Spanned;
use syn::{Ident, LitStr, Type};

use crate::attr::arg::{ArgAttrs, DefaultSpec};
use crate::attr::container::ContainerAttrs;
use crate::attr::doc_text;
use crate::attr::serde::{SerdeContainer, SerdeField, SerdeVariant};
use crate::case::RenameRule;
use crate::errors::Errors;

/// A type deriving `ToolArgs`.
pub(crate) struct ArgsType {
    pub(crate) ident: Ident,
    pub(crate) generics: syn::Generics,
    /// The path to the runtime crate (`::dsh_tools` unless `crate = ..`).
    pub(crate) krate: TokenStream,
    pub(crate) description: Option<String>,
    pub(crate) title: Option<String>,
    /// `additional_properties = true`.
    pub(crate) open: bool,
    pub(crate) shape: Shape,
}

/// The JSON shape of the type.
pub(crate) enum Shape {
    /// Named fields: an object.
    Struct(Vec<Field>),
    /// One unnamed field (or `#[serde(transparent)]`): the inner value itself. `field` is that
    /// field when it carries `#[arg(..)]` keys or a doc comment: the type's schema is then the
    /// field's, with its rules (`struct Tag(#[arg(min_length = 3)] String)`).
    Newtype {
        ty: Type,
        member: syn::Member,
        field: Option<Box<Field>>,
    },
    /// `struct Marker;`: `null`.
    Unit,
    /// An enum, represented as serde represents it.
    Enum {
        variants: Vec<Variant>,
        tagging: Tagging,
    },
}

/// How an enum's variants are told apart in JSON (serde's representations).
#[derive(Clone)]
pub(crate) enum Tagging {
    /// `{"Variant": payload}`, or `"Variant"` for a unit variant.
    External,
    /// `{"<tag>": "Variant", ..fields}`.
    Internal { tag: String },
    /// `{"<tag>": "Variant", "<content>": payload}`.
    Adjacent { tag: String, content: String },
}

/// One property of an object.
#[derive(Clone)]
pub(crate) struct Field {
    /// The Rust field name (or parameter name).
    pub(crate) ident: Ident,
    pub(crate) ty: Type,
    /// The JSON key.
    pub(crate) key: String,
    pub(crate) description: Option<String>,
    pub(crate) attrs: ArgAttrs,
    /// Where an absent value comes from, when it is not `Option`'s `None`.
    pub(crate) default: Option<DefaultSpec>,
    /// `#[serde(skip)]`: not an argument at all; filled from `Default`.
    pub(crate) skip: bool,
    /// The tokens naming this field, for errors.
    pub(crate) span: Span,
    /// The `rename` literal that produced `key`, when there was one.
    pub(crate) rename: Option<LitStr>,
    /// For an `#[arg(schemars)]` field of a concrete type: the constant whose check of the type
    /// (`SchemarsType`) every use of the type goes through, so a type that fails is reported
    /// once, at the field (`expand/derive.rs` emits it).
    pub(crate) schemars_check: Option<Ident>,
}

/// One enum variant.
pub(crate) struct Variant {
    pub(crate) ident: Ident,
    /// The JSON name.
    pub(crate) name: String,
    pub(crate) description: Option<String>,
    pub(crate) payload: Payload,
    pub(crate) rename: Option<LitStr>,
}

/// What a variant carries.
pub(crate) enum Payload {
    Unit,
    Newtype(Type),
    Struct(Vec<Field>),
}

impl ArgsType {
    /// Reads a `#[derive(ToolArgs)]` input; problems go to `errors`.
    pub(crate) fn from_derive(input: &syn::DeriveInput, errors: &mut Errors) -> Option<Self> {
        let container = ContainerAttrs::from_attrs(&input.attrs, errors);
        let serde = SerdeContainer::from_attrs(&input.attrs, errors);
        let rename_all = merge_rename_all(&container, &serde, errors);
        let tagging = merge_tagging(&container, &serde, errors);
        let description = container
            .description
            .as_ref()
            .map(LitStr::value)
            .or_else(|| doc_text(&input.attrs));
        let shape = match &input.data {
            syn::Data::Struct(data) => {
                if let Some(tag) = container.tag.as_ref().or(serde.tag.as_ref()) {
                    errors.error_at(tag, "`tag` applies to enums");
                }
                match &data.fields {
                    syn::Fields::Named(named) => {
                        if let Some(transparent) = &serde.transparent {
                            match named.named.iter().collect::<Vec<_>>().as_slice() {
                                [only] => Shape::Newtype {
                                    ty: only.ty.clone(),
                                    member: syn::Member::Named(only.ident.clone()?),
                                    field: Field::of_newtype(only, errors),
                                },
                                _ => {
                                    errors.error_at(
                                        transparent,
                                        "`transparent` needs exactly one field",
                                    );
                                    Shape::Unit
                                }
                            }
                        } else {
                            Shape::Struct(
                                named
                                    .named
                                    .iter()
                                    .filter_map(|field| Field::from_syn(field, rename_all, errors))
                                    .collect(),
                            )
                        }
                    }
                    syn::Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => Shape::Newtype {
                        ty: unnamed.unnamed[0].ty.clone(),
                        member: syn::Member::Unnamed(0.into()),
                        field: Field::of_newtype(&unnamed.unnamed[0], errors),
                    },
                    syn::Fields::Unnamed(unnamed) => {
                        errors.error_at(
                            unnamed,
                            "`ToolArgs` cannot describe a tuple struct with several fields: JSON Schema has no fixed-position tuples here; use named fields",
                        );
                        return None;
                    }
                    syn::Fields::Unit => Shape::Unit,
                }
            }
            syn::Data::Enum(data) => {
                if data.variants.is_empty() {
                    errors.error_at(&input.ident, "`ToolArgs` needs at least one enum variant: an empty enum has no JSON value");
                    return None;
                }
                let variants = data
                    .variants
                    .iter()
                    .filter_map(|variant| Variant::from_syn(variant, rename_all, errors))
                    .collect();
                Shape::Enum { variants, tagging }
            }
            syn::Data::Union(data) => {
                errors.error_at(data.union_token, "`ToolArgs` cannot be derived for a union");
                return None;
            }
        };
        let mut shape = shape;
        if !input.generics.params.is_empty() {
            // A generic type's field types name its parameters, which a constant cannot.
            for field in Field::all_of(&mut shape) {
                field.schemars_check = None;
            }
        }
        Some(Self {
            ident: input.ident.clone(),
            generics: input.generics.clone(),
            krate: crate_path(container.krate.as_ref()),
            description,
            title: container.title.as_ref().map(LitStr::value),
            open: container.open.as_ref().is_some_and(|(open, _)| *open),
            shape,
        })
    }
}

/// `::dsh_tools`, or the path given with `crate = ..`.
pub(crate) fn crate_path(krate: Option<&syn::Path>) -> TokenStream {
    match krate {
        Some(path) => path.to_token_stream(),
        None => quote!(::dsh_tools),
    }
}

/// What `#[tool_args(key)]` and `#[serde(key)]` say together: ours wins, and a disagreement is
/// an error on ours (the JSON shape must be one).
fn agreed<'a>(
    ours: Option<&'a LitStr>,
    theirs: Option<&'a LitStr>,
    key: &str,
    errors: &mut Errors,
) -> Option<&'a LitStr> {
    if let (Some(ours), Some(theirs)) = (ours, theirs)
        && ours.value() != theirs.value()
    {
        errors.error_at(
            ours,
            format!("`{key}` disagrees with `#[serde({key})]`; the JSON shape must be one"),
        );
    }
    ours.or(theirs)
}

fn merge_rename_all(
    container: &ContainerAttrs,
    serde: &SerdeContainer,
    errors: &mut Errors,
) -> Option<RenameRule> {
    let ours = container.rename_all.as_ref();
    let theirs = serde.rename_all.as_ref();
    agreed(
        ours.map(|(_, text)| text),
        theirs.map(|(_, text)| text),
        "rename_all",
        errors,
    )?;
    ours.or(theirs).map(|(rule, _)| *rule)
}

fn merge_tagging(
    container: &ContainerAttrs,
    serde: &SerdeContainer,
    errors: &mut Errors,
) -> Tagging {
    let tag = agreed(container.tag.as_ref(), serde.tag.as_ref(), "tag", errors);
    let content = agreed(
        container.content.as_ref(),
        serde.content.as_ref(),
        "content",
        errors,
    );
    match (tag, content) {
        (None, None) => Tagging::External,
        (Some(tag), None) => Tagging::Internal { tag: tag.value() },
        (Some(tag), Some(content)) => Tagging::Adjacent {
            tag: tag.value(),
            content: content.value(),
        },
        (None, Some(content)) => {
            errors.error_at(content, "`content` needs a `tag`");
            Tagging::External
        }
    }
}

impl Field {
    fn from_syn(
        field: &syn::Field,
        rename_all: Option<RenameRule>,
        errors: &mut Errors,
    ) -> Option<Self> {
        let ident = field.ident.clone()?;
        let attrs = ArgAttrs::from_attrs(&field.attrs, errors);
        let serde = SerdeField::from_attrs(&field.attrs, errors);
        Some(Self::build(
            ident,
            field.ty.clone(),
            doc_text(&field.attrs),
            attrs,
            serde,
            rename_all,
            errors,
        ))
    }

    /// The one field of a newtype, when it says anything of the value (`#[arg(..)]` keys or a
    /// doc comment); its schema is then the type's. Keys that name or place a property
    /// (`rename`, `default`, `required`, serde's `rename`, `default`, `skip`) are errors there:
    /// a newtype's value is not a property.
    fn of_newtype(field: &syn::Field, errors: &mut Errors) -> Option<Box<Self>> {
        let attrs = ArgAttrs::from_attrs(&field.attrs, errors);
        let serde = SerdeField::from_attrs(&field.attrs, errors);
        let docs = doc_text(&field.attrs);
        let refuse = |errors: &mut Errors, tokens: &dyn ToTokens, key: &str| {
            errors.error_at(
                tokens,
                format!("`{key}` does not apply to a newtype's field: its value is the type's whole value, not a property"),
            );
        };
        if let Some(rename) = &attrs.rename {
            refuse(errors, rename, "rename");
        }
        if let Some(required) = &attrs.required {
            refuse(errors, required, "required");
        }
        if attrs.default.is_some() || serde.default.is_some() {
            refuse(errors, &field.ty, "default");
        }
        if let Some(rename) = &serde.rename {
            refuse(errors, rename, "rename");
        }
        if let Some(skip) = &serde.skip {
            refuse(errors, skip, "skip");
        }
        if attrs.names_only() && attrs.description.is_none() && docs.is_none() {
            return None;
        }
        let ident = field
            .ident
            .clone()
            .unwrap_or_else(|| Ident::new("__dsh_value", field.ty.span()));
        let mut built = Self::build(
            ident,
            field.ty.clone(),
            docs,
            attrs,
            SerdeField::default(),
            None,
            errors,
        );
        built.default = None;
        built.attrs.rename = None;
        built.attrs.required = None;
        Some(Box::new(built))
    }

    /// A field from its parts (also used for `#[tool]` parameters).
    pub(crate) fn build(
        ident: Ident,
        ty: Type,
        docs: Option<String>,
        attrs: ArgAttrs,
        serde: SerdeField,
        rename_all: Option<RenameRule>,
        errors: &mut Errors,
    ) -> Self {
        use syn::ext::IdentExt;
        let rust_name = ident.unraw().to_string();
        let rename = agreed(
            attrs.rename.as_ref(),
            serde.rename.as_ref(),
            "rename",
            errors,
        )
        .cloned();
        let key = match (&rename, rename_all) {
            (Some(text), _) => text.value(),
            (None, Some(rule)) => rule.apply_to_field(&rust_name),
            (None, None) => rust_name,
        };
        let default = match (&attrs.default, &serde.default) {
            (Some(ours), Some((theirs, _))) => {
                errors.error_at(theirs, "the field already has an `#[arg(default)]`");
                Some(ours.clone())
            }
            (Some(ours), None) => Some(ours.clone()),
            (None, Some((_, None))) => Some(DefaultSpec::Trait),
            (None, Some((_, Some(path)))) => Some(DefaultSpec::Function(path.clone())),
            (None, None) => None,
        };
        let description = attrs.description.as_ref().map(LitStr::value).or(docs);
        if let Some(skip_if) = &serde.skip_serializing_if
            && default.is_none()
            && !crate::types::is_option(&ty)
        {
            errors.error_at(
                    skip_if,
                    "`skip_serializing_if` leaves the property out of serialized values, so it must be optional: use an `Option` or add a `default`",
                );
        }
        let schemars_check = attrs
            .schemars
            .as_ref()
            .map(|_| quote::format_ident!("__DSH_SCHEMARS_{}", rust_name_of(&ident)));
        Self {
            span: ident.span(),
            ident,
            ty,
            key,
            description,
            attrs,
            default,
            skip: serde.skip.is_some(),
            rename,
            schemars_check,
        }
    }

    /// The field's type as the schemars helpers name it: through its check constant when it has
    /// one (the same type when the check holds).
    pub(crate) fn schemars_type(&self) -> TokenStream {
        let ty = &self.ty;
        match &self.schemars_check {
            Some(check) => quote!(<[#ty; #check] as ::core::iter::IntoIterator>::Item),
            None => ty.to_token_stream(),
        }
    }

    /// Every field of `shape` (struct fields, a newtype's, variants' fields).
    pub(crate) fn all_of(shape: &mut Shape) -> Vec<&mut Field> {
        match shape {
            Shape::Struct(fields) => fields.iter_mut().collect(),
            Shape::Newtype { field, .. } => field.iter_mut().map(|field| &mut **field).collect(),
            Shape::Unit => Vec::new(),
            Shape::Enum { variants, .. } => variants
                .iter_mut()
                .flat_map(|variant| match &mut variant.payload {
                    Payload::Struct(fields) => fields.iter_mut().collect(),
                    Payload::Unit | Payload::Newtype(_) => Vec::new(),
                })
                .collect(),
        }
    }
}

/// A field's Rust name without `r#`.
fn rust_name_of(ident: &Ident) -> String {
    use syn::ext::IdentExt;
    ident.unraw().to_string()
}

impl Variant {
    fn from_syn(
        variant: &syn::Variant,
        rename_all: Option<RenameRule>,
        errors: &mut Errors,
    ) -> Option<Self> {
        let serde = SerdeVariant::from_attrs(&variant.attrs, errors);
        let arg = ArgAttrs::from_attrs(&variant.attrs, errors);
        if !arg.names_only() {
            errors.error_at(
                &variant.ident,
                "a variant takes only `#[arg(rename = ..)]` and `#[arg(description = ..)]`; value keys belong on fields",
            );
        }
        if serde.skip.is_some() {
            return None;
        }
        let rename = agreed(arg.rename.as_ref(), serde.rename.as_ref(), "rename", errors).cloned();
        let rust_name = variant.ident.to_string();
        let name = match (&rename, rename_all) {
            (Some(text), _) => text.value(),
            (None, Some(rule)) => rule.apply_to_variant(&rust_name),
            (None, None) => rust_name,
        };
        let payload = match &variant.fields {
            syn::Fields::Unit => Payload::Unit,
            syn::Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => {
                let only = &unnamed.unnamed[0];
                if let Some(arg) = only.attrs.iter().find(|attr| attr.path().is_ident("arg")) {
                    errors.error_at(
                        arg,
                        "`#[arg(..)]` is not supported on a tuple variant's field; use a named field, or a newtype that carries the keys",
                    );
                }
                Payload::Newtype(only.ty.clone())
            }
            syn::Fields::Unnamed(unnamed) => {
                errors.error_at(
                    unnamed,
                    "`ToolArgs` cannot describe a tuple variant with several fields; use named fields",
                );
                return None;
            }
            syn::Fields::Named(named) => Payload::Struct(
                named
                    .named
                    .iter()
                    .filter_map(|field| Field::from_syn(field, None, errors))
                    .map(|mut field| {
                        // Fields of several variants may share a name.
                        if field.schemars_check.is_some() {
                            field.schemars_check = Some(quote::format_ident!(
                                "__DSH_SCHEMARS_{}_{}",
                                variant.ident,
                                rust_name_of(&field.ident)
                            ));
                        }
                        field
                    })
                    .collect(),
            ),
        };
        Some(Self {
            ident: variant.ident.clone(),
            name,
            description: arg
                .description
                .as_ref()
                .map(LitStr::value)
                .or_else(|| doc_text(&variant.attrs)),
            payload,
            rename,
        })
    }
}
