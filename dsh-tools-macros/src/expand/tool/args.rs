//! The generated arguments struct (`ReadFileToolArgs`): its definition with one documented field
//! per argument parameter, its `ToolArgs` impls, and the `Deref` to a lone parameter.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Ident;

use super::model::ToolModel;
use crate::ast::Field;
use crate::expand::derive::{Role, expand_args_type};
use crate::expand::docs;

/// The arguments struct, documented with the arguments' schema.
pub(super) fn expand_args_struct(model: &ToolModel<'_>) -> TokenStream {
    let doc = format!(
        "The arguments of [`{}`], one field per parameter of [`{}`].\n\n{}",
        model.names.tool, model.function.sig.ident, model.arguments_doc
    );
    args_struct(&model.function.vis, &model.names.args, &model.fields, &doc)
}

/// The `ToolArgs` impls of the arguments struct (schema, check, conversion), and its `Deref`
/// to a lone parameter.
pub(super) fn expand_args_impls(model: &ToolModel<'_>) -> TokenStream {
    let impls = expand_args_type(&model.args_type, Role::ToolArguments { lone: model.lone });
    let deref = model.lone.map(|field| deref(&model.names.args, field));
    quote! {
        #impls
        #deref
    }
}

/// `Deref` from the arguments struct to its only parameter, so presenters and classifiers may
/// take that value (`&ReadFile`) as well as the struct.
pub(super) fn deref(args: &Ident, field: &Field) -> TokenStream {
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

/// The arguments struct `ident`: one field per argument parameter, with its doc.
pub(super) fn args_struct(
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

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;
    use crate::expand::tool::model::sample;

    #[test]
    fn the_struct_has_one_documented_field_per_argument() {
        let item = sample::item(
            quote!(),
            syn::parse_quote! {
                /// Read.
                pub async fn read(run: &ToolRun, /// The file.
                    path: String, limit: Option<u32>) {}
            },
        );
        let tokens = expand_args_struct(&sample::model(&item));
        let parsed: syn::ItemStruct = syn::parse2(tokens).expect("a struct");
        assert_eq!(parsed.ident, "ReadToolArgs");
        assert!(matches!(parsed.vis, syn::Visibility::Public(_)));
        let fields: Vec<String> = parsed
            .fields
            .iter()
            .map(|field| {
                let (ident, ty) = (&field.ident, &field.ty);
                quote!(#ident: #ty).to_string()
            })
            .collect();
        assert_eq!(fields, ["path : String", "limit : Option < u32 >"]);
        let field_docs = parsed.fields.iter().map(|field| field.attrs.len());
        assert_eq!(field_docs.collect::<Vec<_>>(), [1, 0]);
        let attrs = &parsed.attrs;
        assert!(sample::contains(
            &quote!(#(#attrs)*),
            quote!(#[doc = " The arguments of [`ReadTool`], one field per parameter of [`read`]."])
        ));
    }

    #[test]
    fn only_a_lone_parameter_gets_a_deref() {
        let item = sample::item(
            quote!(),
            syn::parse_quote!(
                /// D.
                async fn read(args: ReadFile) {}
            ),
        );
        let impls = expand_args_impls(&sample::model(&item));
        assert!(sample::contains(
            &impls,
            quote!(impl ::core::ops::Deref for ReadToolArgs)
        ));
        assert!(sample::contains(
            &impls,
            quote!(
                type Target = ReadFile;
            )
        ));
        assert!(sample::contains(&impls, quote!(&self.args)));
        assert!(sample::contains(&impls, quote!(ToolArgs for ReadToolArgs)));
        // The one-property shape is the runtime's, for the parameter's type seen through the
        // check of that type.
        assert!(sample::contains(
            &impls,
            quote!(
                type __DshLone = <[ReadFile; __DSH_LONE] as ::core::iter::IntoIterator>::Item;
            )
        ));
        for shared in [
            quote!(::dsh_tools::__private::property_schema::<__DshLone>("args")),
            quote!(::dsh_tools::__private::property_is_valid::<__DshLone>(
                __value, "args"
            )),
            quote!(::dsh_tools::__private::property_from_json::<__DshLone>(
                __value, "args"
            )),
        ] {
            assert!(sample::contains(&impls, shared), "{impls}");
        }

        let item = sample::item(
            quote!(),
            syn::parse_quote!(
                /// D.
                async fn read(path: String) {}
            ),
        );
        let impls = expand_args_impls(&sample::model(&item));
        assert!(!sample::contains(&impls, quote!(::core::ops::Deref)));
        assert!(!sample::contains(&impls, quote!(__DshLone)));
        assert!(sample::contains(&impls, quote!(ToolArgs for ReadToolArgs)));
    }
}
