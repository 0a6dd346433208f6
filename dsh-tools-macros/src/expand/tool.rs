//! `#[tool]` on an `async fn`: keeps the function callable as written, and generates a unit
//! struct (`read_file` → `ReadFileTool`) implementing the runtime's typed `Tool` trait — the
//! arguments (the parameters gathered into a generated `ReadFileToolArgs`; a lone object struct
//! is the whole argument object), the output, the schemas built once, presenters and policy
//! hints — with its argument and output schemas in its docs. On errors it emits stand-ins for
//! the generated items, so one mistake is reported once.
//!
//! This file reads the function and lays the generated items out; each piece comes from an
//! emitter of its own, working from one [`ToolModel`]:
//! - `signature.rs`: the parameters (run context, state, arguments) and the signature rules;
//! - `model.rs`: the names, description, argument fields and return type every emitter uses;
//! - `tool_struct.rs`: the tool struct and its docs;
//! - `args.rs`: the arguments struct, its `ToolArgs` impls and the `Deref` to a lone parameter;
//! - `contract.rs`: the contract built once and the documented schemas;
//! - `call.rs`: the execute shim, its state lookups and the conversion of the returned value, and
//!   the state types the tool declares;
//! - `policy.rs`: the kind, title, annotations, icons, timeout, result budget, concurrency
//!   hints, deferral, callers and input examples;
//! - `presenters.rs`: `render` and the call, progress and result presenters;
//! - `stubs.rs`: the stand-ins emitted on errors.

mod args;
mod call;
mod contract;
mod model;
mod policy;
mod presenters;
mod signature;
mod stubs;
mod tool_struct;

use proc_macro2::TokenStream;
use quote::quote;
use syn::ItemFn;

use crate::errors::Errors;
use args::{expand_args_impls, expand_args_struct};
use call::{expand_call, expand_output_type, expand_required_state};
use contract::{expand_contract, expand_documented_impls};
use model::ToolModel;
use policy::{
    expand_allowed_callers, expand_annotations, expand_concurrency, expand_defer_loading,
    expand_examples, expand_icons, expand_journal, expand_max_result_chars,
    expand_reads_call_arguments, expand_task_support, expand_timeout,
};
use presenters::{
    expand_present_call, expand_present_progress, expand_present_result, expand_render,
};
use signature::ToolItem;
use stubs::expand_stubs;
use tool_struct::expand_tool_struct;

/// Expands `#[tool(..)]` on `item`.
pub(crate) fn expand_tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    let function: ItemFn = match syn::parse2(item.clone()) {
        Ok(function) => function,
        Err(error) => {
            let error = syn::Error::new(
                error.span(),
                "#[tool] goes on an `async fn`: the tool's arguments are its parameters and its value is what it returns",
            );
            let error = error.to_compile_error();
            return quote!(#error #item);
        }
    };
    let mut errors = Errors::new();
    let item = ToolItem::read(attr, function, &mut errors);
    let model = ToolModel::build(&item, &mut errors);
    let expansion = expand(&model, &mut errors);
    let function = &item.function;
    match errors.finish() {
        Ok(()) => quote!(#function #expansion),
        Err(error) => {
            // The function and stand-ins for the generated items are still emitted, so uses of
            // them do not cascade into more errors.
            let error = error.to_compile_error();
            let stubs = expand_stubs(&model);
            quote!(#error #function #stubs)
        }
    }
}

/// The generated items: the tool and arguments structs, and their impls in an unnamed const.
fn expand(model: &ToolModel<'_>, errors: &mut Errors) -> TokenStream {
    let tool_struct = expand_tool_struct(model);
    let args_struct = expand_args_struct(model);
    let args_impls = expand_args_impls(model);
    let contract = expand_contract(model);
    let tool_impl = expand_tool_impl(model, errors);
    let documented = expand_documented_impls(model);
    quote! {
        #tool_struct

        #args_struct

        #[allow(clippy::needless_question_mark)]
        const _: () = {
            #args_impls

            #contract

            #tool_impl

            #documented
        };
    }
}

/// The `Tool` impl of the tool struct, its items from the emitters of each piece.
fn expand_tool_impl(model: &ToolModel<'_>, errors: &mut Errors) -> TokenStream {
    let private = &model.private;
    let (tool, args) = (&model.names.tool, &model.names.args);
    let (name, description) = (&model.names.tool_name, &model.description);
    let (output_check, output) = expand_output_type(model);
    let timeout = expand_timeout(model);
    let max_result_chars = expand_max_result_chars(model);
    let reads_call_arguments = expand_reads_call_arguments(model);
    let defer_loading = expand_defer_loading(model);
    let examples = expand_examples(model, errors);
    let allowed_callers = expand_allowed_callers(model);
    let task_support = expand_task_support(model);
    let journal = expand_journal(model);
    let icons = expand_icons(model);
    let call = expand_call(model);
    let required_state = expand_required_state(model);
    let annotations = expand_annotations(model);
    let render = expand_render(model);
    let present_call = expand_present_call(model, errors);
    let present_progress = expand_present_progress(model);
    let present_result = expand_present_result(model);
    let concurrency = expand_concurrency(model);
    // The provided methods generated above, so that the registry compiles a bridge for those
    // alone (the others keep the trait's defaults).
    let overridden = {
        let render_value = !render.is_empty();
        let presenters =
            !(present_call.is_empty() && present_progress.is_empty() && present_result.is_empty());
        let concurrency_safe = !concurrency.is_empty();
        let (annotations, icons, required_state) = (
            !annotations.is_empty(),
            !icons.is_empty(),
            !required_state.is_empty(),
        );
        quote! {
            const OVERRIDDEN: #private::ToolMethods = #private::ToolMethods {
                render_value: #render_value,
                finalize: false,
                presenters: #presenters,
                concurrency_safe: #concurrency_safe,
                annotations: #annotations,
                icons: #icons,
                required_state: #required_state,
            };
        }
    };
    quote! {
        #output_check

        #[automatically_derived]
        impl #private::Tool for #tool {
            type Args = #args;
            #output

            const INFO: #private::ToolInfo = #private::ToolInfo {
                #timeout
                #max_result_chars
                #reads_call_arguments
                #defer_loading
                #examples
                #allowed_callers
                #task_support
                #journal
                ..#private::ToolInfo::new(#name, #description)
            };
            #overridden

            fn contract() -> &'static #private::ToolContract {
                &__DSH_CONTRACT
            }

            #call

            #required_state

            #annotations
            #icons

            #render
            #present_call
            #present_progress
            #present_result
            #concurrency
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rustdoc text the expansion of `#[tool(attr)] item` puts on the struct `name`.
    fn struct_docs(attr: TokenStream, item: TokenStream, name: &str) -> String {
        let file: syn::File = syn::parse2(expand_tool(attr, item)).expect("the expansion parses");
        let item = file
            .items
            .iter()
            .find_map(|item| match item {
                syn::Item::Struct(item) if item.ident == name => Some(item),
                _ => None,
            })
            .expect("the struct is generated");
        item.attrs
            .iter()
            .filter_map(|attr| match &attr.meta {
                syn::Meta::NameValue(doc) if doc.path.is_ident("doc") => match &doc.value {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(text),
                        ..
                    }) => Some(text.value().strip_prefix(' ').map(str::to_owned)?),
                    _ => None,
                },
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn documents_arguments_and_output_with_linked_types() {
        let docs = struct_docs(
            quote!(),
            quote! {
                /// Search files.
                async fn search(
                    /// What to look for.
                    pattern: String,
                    options: Option<crate::SearchOptions>,
                    modes: Vec<Mode>,
                ) -> Result<Vec<Match>, ToolError> {
                    Ok(Vec::new())
                }
            },
            "SearchTool",
        );
        let expected = r#"Tool `search`, generated by `#[tool]` from [`search`]: register it with `registry.register(SearchTool)`.

Search files.

# Arguments

```json
{
  "type": "object",
  "properties": {
    "pattern": {
      "description": "What to look for.",
      "type": "string"
    },
    "options": {
      "anyOf": [
        {
          "$ref": "crate::SearchOptions"
        },
        {
          "type": "null"
        }
      ]
    },
    "modes": {
      "type": "array",
      "items": {
        "$ref": "Mode"
      }
    }
  },
  "required": [
    "pattern",
    "modes"
  ],
  "additionalProperties": false
}
```

Referenced types, each showing its schema on its page (the model receives them inlined): [`crate::SearchOptions`], [`Mode`].

# Output

```json
{
  "type": "array",
  "items": {
    "$ref": "Match"
  }
}
```

Referenced types, each showing its schema on its page (the model receives them inlined): [`Match`]."#;
        assert_eq!(docs, expected);
    }

    #[test]
    fn documents_a_lone_parameter_by_the_rule_its_type_decides() {
        let item = quote! {
            /// Read a file.
            async fn read_file(args: ReadFile) -> String {
                args.path
            }
        };
        let docs = struct_docs(quote!(), item.clone(), "ReadFileTool");
        assert!(
            docs.contains("# Arguments\n\nThe fields of [`ReadFile`] (its page shows their schema), the type of the only parameter, `args`, provided that is a `#[derive(ToolArgs)]` struct with named fields. Any other type (an enum, a newtype, …) would be the one property `\"args\"`.\n\n# Output\n\n```json\n{\n  \"type\": \"string\"\n}\n```"),
            "{docs}"
        );
        let docs = struct_docs(quote!(), item, "ReadFileToolArgs");
        assert!(
            docs.starts_with("The arguments of [`ReadFileTool`], one field per parameter of [`read_file`].\n\n# Arguments\n\nThe fields of [`ReadFile`]"),
            "{docs}"
        );
    }

    #[test]
    fn a_documented_reference_states_how_its_keys_apply() {
        let docs = struct_docs(
            quote!(),
            quote! {
                /// Edit.
                async fn edit(/// What to do.
                    mode: EditMode, count: u8) {}
            },
            "EditToolArgs",
        );
        assert!(
            docs.contains("[`EditMode`]. Keys beside a `$ref` replace the type's own; a `description` keeps a string enum's notes on its values after it."),
            "{docs}"
        );
    }
}
