//! Compile-time checks of `#[arg(..)]` values against the field types, in a never-called
//! function: a `default`, `enum` member or `const` must be a value of the field's type, and a
//! constraint must suit it (`min_length` on a string, `minimum` on a number, `unique_items` on an
//! array, `min_properties` on a map, …).
//!
//! Each check names a public trait of `dsh_tools::fields` in a path (`<T as TakesString>::CHECK`),
//! which the compiler reports at the path's own tokens with the trait's message and nothing of
//! the runtime's source. A literal's check names the field's type through a local alias spanned
//! on the literal, so the error points at the value that does not fit; a constraint's check
//! names the field's type itself, which is what does not suit the constraint.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Expr, Ident, Lit};

use crate::ast::{ArgsType, Field, Payload, Shape};
use crate::attr::arg::DefaultSpec;
use crate::keyword_table::Suits;

/// The checks of every field of `args`, or nothing for a generic type (whose field types name
/// its parameters).
pub(crate) fn expand_checks(args: &ArgsType, private: &TokenStream) -> TokenStream {
    if !args.generics.params.is_empty() {
        return TokenStream::new();
    }
    let mut checks = Vec::new();
    let mut visit = |fields: &[Field]| {
        checks.extend(
            fields
                .iter()
                .filter(|field| !field.skip)
                .map(|field| field_checks(field, private))
                .filter(|checks| !checks.is_empty()),
        );
    };
    match &args.shape {
        Shape::Struct(fields) => visit(fields),
        Shape::Enum { variants, .. } => {
            for variant in variants {
                if let Payload::Struct(fields) = &variant.payload {
                    visit(fields);
                }
            }
        }
        Shape::Newtype {
            field: Some(field), ..
        } => visit(std::slice::from_ref(&**field)),
        Shape::Newtype { .. } | Shape::Unit => {}
    }
    if checks.is_empty() {
        return TokenStream::new();
    }
    quote! {
        #[allow(dead_code, clippy::let_unit_value)]
        fn __dsh_check_attributes() {
            #(#checks)*
        }
    }
}

/// The checks of one field's `#[arg]` values, in a block of their own with the field's type
/// aliased.
fn field_checks(field: &Field, private: &TokenStream) -> TokenStream {
    let ty = &field.ty;
    let attrs = &field.attrs;
    let mut checks = Vec::new();
    match &field.default {
        Some(DefaultSpec::Literal(default)) => {
            checks.push(value_check(&default.expr, &Target::Field, private));
        }
        Some(DefaultSpec::Function(path)) => {
            checks.push(quote_spanned!(path.span()=> let _: #ty = #path();));
        }
        Some(DefaultSpec::Trait) | None => {}
    }
    if let Some(values) = &attrs.enum_values
        && let Expr::Array(array) = &values.expr
    {
        checks.extend(
            array
                .elems
                .iter()
                .map(|member| value_check(member, &Target::Field, private)),
        );
    }
    if let Some(constant) = &attrs.constant {
        checks.push(value_check(&constant.expr, &Target::Field, private));
    }
    if attrs.schemars.is_none() {
        // One check per kind of field the keywords suit (`keyword_table.rs`), in the table's
        // order.
        let mut suited: Vec<Suits> = Vec::new();
        for constraint in &attrs.constraints {
            let suits = constraint.keyword().suits;
            if !suited.contains(&suits) {
                suited.push(suits);
                let field_trait = Ident::new(suits.field_trait(), Span::call_site());
                checks.push(quote!(let _ = <#ty as #private::#field_trait>::CHECK;));
            }
        }
    }
    if checks.is_empty() {
        return TokenStream::new();
    }
    quote! {
        {
            type __DshField = #ty;
            #(#checks)*
        }
    }
}

/// The type a value is checked against: the field's, or the item type of an array value's type.
enum Target<'a> {
    Field,
    Item(&'a Target<'a>),
}

impl Target<'_> {
    /// The type's path, every token spanned on `span` (where its errors are reported).
    fn path(&self, span: Span, private: &TokenStream) -> TokenStream {
        match self {
            Self::Field => {
                let alias = Ident::new("__DshField", span);
                quote!(#alias)
            }
            Self::Item(parent) => {
                let parent = parent.path(span, private);
                quote_spanned!(span=> <#parent as #private::TakesArray>::Item)
            }
        }
    }
}

/// The check that `expr` (a literal, a negated number, `None` or an array of those) is a value of
/// `target`, spanned on `expr`. Anything else was reported when the attribute was read.
fn value_check(expr: &Expr, target: &Target<'_>, private: &TokenStream) -> TokenStream {
    let span = expr.span();
    let ty = target.path(span, private);
    let takes = |kind: &str| {
        let kind = Ident::new(kind, span);
        quote_spanned!(span=> let _ = <#ty as #private::#kind>::CHECK;)
    };
    // A number is typed as the field's own integer or float type, so the compiler also refuses
    // a literal out of its range.
    let typed = |kind: &str, as_type: &str| {
        let (kind, as_type) = (Ident::new(kind, span), Ident::new(as_type, span));
        quote_spanned!(span=> let _: <#ty as #private::#kind>::#as_type = #expr;)
    };
    let number = |lit: &Lit| match lit {
        Lit::Int(_) => typed("TakesInteger", "Integer"),
        Lit::Float(_) => typed("TakesFloat", "Float"),
        _ => TokenStream::new(),
    };
    match expr {
        Expr::Lit(literal) => match &literal.lit {
            Lit::Str(_) => takes("TakesString"),
            Lit::Char(_) => takes("TakesChar"),
            Lit::Bool(_) => takes("TakesBool"),
            lit => number(lit),
        },
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr: inner,
            ..
        }) => match &**inner {
            Expr::Lit(literal) => number(&literal.lit),
            _ => TokenStream::new(),
        },
        Expr::Path(path) if path.path.is_ident("None") => takes("TakesNone"),
        Expr::Array(array) => {
            // A fixed-size array type's length must be the literal's: the two unit arrays have
            // the same type only then (any length fits a type of no fixed length).
            let len = Literal::usize_unsuffixed(array.elems.len());
            let item = Target::Item(target);
            let items = array
                .elems
                .iter()
                .map(|item_expr| value_check(item_expr, &item, private));
            quote_spanned! {span=>
                let _: [(); match <#ty as #private::TakesArray>::LEN {
                    ::core::option::Option::Some(__len) => __len,
                    ::core::option::Option::None => #len,
                }] = [(); #len];
                #(#items)*
            }
        }
        Expr::Group(group) => value_check(&group.expr, target, private),
        Expr::Paren(paren) => value_check(&paren.expr, target, private),
        _ => TokenStream::new(),
    }
}
