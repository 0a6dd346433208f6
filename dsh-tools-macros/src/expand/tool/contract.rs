//! The schema side of a tool: the contract (argument and output schemas, validator) built once
//! for the `Tool` impl, and the documented schemas that the docs tests compare with it.

use proc_macro2::TokenStream;
use quote::quote;

use super::model::ToolModel;

/// The static the `Tool` impl's `contract()` returns, built on first use.
pub(super) fn expand_contract(model: &ToolModel<'_>) -> TokenStream {
    let private = &model.private;
    let tool = &model.names.tool;
    quote! {
        static __DSH_CONTRACT: #private::LazyLock<#private::ToolContract> =
            #private::LazyLock::new(#private::contract_of::<#tool>);
    }
}

/// `DocumentedSchema` and `DocumentedOutput` of the tool struct: the schemas its docs show.
pub(super) fn expand_documented_impls(model: &ToolModel<'_>) -> TokenStream {
    let private = &model.private;
    let (tool, args) = (&model.names.tool, &model.names.args);
    let output_json = &model.output_json;
    quote! {
        #[automatically_derived]
        #[doc(hidden)]
        impl #private::DocumentedSchema for #tool {
            const DOCUMENTED_SCHEMA: &'static str =
                <#args as #private::DocumentedSchema>::DOCUMENTED_SCHEMA;
        }

        #[automatically_derived]
        #[doc(hidden)]
        impl #private::DocumentedOutput for #tool {
            const DOCUMENTED_OUTPUT_SCHEMA: &'static str = #output_json;
        }
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;
    use crate::expand::tool::model::sample;

    #[test]
    fn the_contract_is_built_for_the_tool_struct() {
        let item = sample::item(
            quote!(crate = ::reexport::tools),
            syn::parse_quote!(
                /// D.
                async fn greet(name: String) {}
            ),
        );
        let contract = expand_contract(&sample::model(&item));
        assert!(sample::contains(
            &contract,
            quote!(::reexport::tools::__private::LazyLock::new(
                ::reexport::tools::__private::contract_of::<GreetTool>
            ))
        ));
    }

    #[test]
    fn documents_the_output_schema() {
        let item = sample::item(
            quote!(),
            syn::parse_quote!(
                /// D.
                async fn count() -> Result<u32, ToolError> {
                    Ok(1)
                }
            ),
        );
        let impls = expand_documented_impls(&sample::model(&item));
        let json = "{\n  \"type\": \"integer\",\n  \"minimum\": 0,\n  \"maximum\": 4294967295\n}";
        assert!(
            sample::contains(
                &impls,
                quote!(const DOCUMENTED_OUTPUT_SCHEMA: &'static str = #json;)
            ),
            "{impls}"
        );
        assert!(sample::contains(
            &impls,
            quote!(<CountToolArgs as ::dsh_tools::__private::DocumentedSchema>::DOCUMENTED_SCHEMA)
        ));
    }
}
