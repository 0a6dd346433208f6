//! What stands in for the expansion when the macro reported errors: the tool and arguments
//! structs with impls that compile, so uses of them (`registry.register(ReadFileTool)`, a
//! presenter taking `&ReadFileToolArgs`) add no errors of their own.

use proc_macro2::TokenStream;
use quote::quote;
use syn::FnArg;

use super::args::{args_struct, deref};
use super::model::{ToolModel, lone_parameter};

/// The stand-ins for the tool struct, the arguments struct and their impls.
pub(super) fn expand_stubs(model: &ToolModel<'_>) -> TokenStream {
    let sig = &model.function.sig;
    // Inside an `impl` block (a method), items cannot be emitted.
    if sig
        .inputs
        .iter()
        .any(|input| matches!(input, FnArg::Receiver(_)))
    {
        return TokenStream::new();
    }
    let private = &model.private;
    let vis = &model.function.vis;
    let (tool_name, tool, args) = (&model.names.tool_name, &model.names.tool, &model.names.args);
    // A generic fn's parameter types may name its generics, which the struct does not have.
    let fields = if sig.generics.params.is_empty() {
        model.fields.as_slice()
    } else {
        &[]
    };
    let args_struct = args_struct(
        vis,
        args,
        fields,
        "The arguments of a tool that did not compile.",
    );
    let deref = lone_parameter(fields).map(|field| deref(args, field));
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

                const INFO: #private::ToolInfo = #private::ToolInfo::new(#tool_name, "");

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
    use quote::quote;

    use super::*;
    use crate::errors::Errors;
    use crate::expand::tool::model::sample;
    use crate::expand::tool::signature::ToolItem;

    /// The stubs of `#[tool(attr)] function`, which may have errors.
    fn stubs(attr: TokenStream, function: syn::ItemFn) -> syn::File {
        let mut errors = Errors::new();
        let item = ToolItem::read(attr, function, &mut errors);
        let stubs = expand_stubs(&ToolModel::build(&item, &mut errors));
        syn::parse2(stubs).expect("the stubs parse")
    }

    fn struct_named<'a>(file: &'a syn::File, name: &str) -> &'a syn::ItemStruct {
        file.items
            .iter()
            .find_map(|item| match item {
                syn::Item::Struct(item) if item.ident == name => Some(item),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no struct `{name}`"))
    }

    #[test]
    fn stand_ins_name_the_structs_and_keep_the_fields() {
        let file = stubs(
            quote!(name = "fs read"),
            syn::parse_quote!(
                async fn read_file(path: String, limit: u32) {}
            ),
        );
        assert!(matches!(
            struct_named(&file, "ReadFileTool").fields,
            syn::Fields::Unit
        ));
        assert_eq!(struct_named(&file, "ReadFileToolArgs").fields.len(), 2);
        let tokens = quote!(#file);
        assert!(sample::contains(
            &tokens,
            quote!(
                const INFO: ::dsh_tools::__private::ToolInfo =
                    ::dsh_tools::__private::ToolInfo::new("fs read", "");
            )
        ));
        assert!(sample::contains(
            &tokens,
            quote!(impl ::dsh_tools::__private::Tool for ReadFileTool)
        ));
    }

    #[test]
    fn a_generic_fn_gets_an_empty_arguments_struct() {
        let file = stubs(
            quote!(),
            syn::parse_quote!(
                async fn pick<T>(value: T) {}
            ),
        );
        assert!(struct_named(&file, "PickToolArgs").fields.is_empty());
    }

    #[test]
    fn a_lone_parameter_keeps_its_deref() {
        let file = stubs(
            quote!(),
            syn::parse_quote!(
                async fn read(args: ReadFile) {}
            ),
        );
        assert!(sample::contains(
            &quote!(#file),
            quote!(impl ::core::ops::Deref for ReadToolArgs)
        ));
    }

    #[test]
    fn a_method_gets_no_stand_ins() {
        let mut errors = Errors::new();
        let item = ToolItem::read(
            quote!(),
            syn::parse_quote!(
                async fn read(&self) {}
            ),
            &mut errors,
        );
        assert!(expand_stubs(&ToolModel::build(&item, &mut errors)).is_empty());
    }
}
