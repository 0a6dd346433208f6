//! Procedural macros of `dsh-tools`: `#[tool]` and `#[derive(ToolArgs)]`.
//!
//! Use them through the `dsh-tools` crate, which re-exports them; the generated code names only
//! `dsh_tools::__private` items, which are not a stable API on their own. Each entry point hands
//! its tokens to `expand`, which parses (`attr`, `ast`), checks (`check`) and emits (`expand/*`).

mod ast;
mod attr;
mod case;
mod check;
mod errors;
mod expand;
mod literal;
mod types;

use proc_macro::TokenStream;

/// Derives `ToolArgs`: the JSON Schema of a type, shown in its docs, and the conversion of a
/// validated JSON value into it. See the `dsh-tools` documentation for the keys of `#[arg(..)]`
/// (fields) and `#[tool_args(..)]` (the type).
#[proc_macro_derive(ToolArgs, attributes(arg, tool_args, serde))]
pub fn derive_tool_args(input: TokenStream) -> TokenStream {
    match syn::parse::<syn::DeriveInput>(input) {
        Ok(input) => expand::derive::expand_derive(&input).into(),
        Err(error) => errors::to_compile_errors(error).into(),
    }
}

/// Turns an `async fn` into a tool: the function stays callable as written, and a unit struct
/// named after it (`read_file` → `ReadFileTool`) implements `Tool`, ready for
/// `registry.register(ReadFileTool)`. See the `dsh-tools` documentation for the keys.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::tool::expand_tool(attr.into(), item.into()).into()
}
