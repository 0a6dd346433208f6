//! Procedural macros of `dsh-tools`: `#[tool]` and `#[derive(ToolArgs)]`.
//!
//! Use them through the `dsh-tools` crate, which re-exports them; the generated code names only
//! `dsh_tools::__private` items, which are not a stable API on their own. Each entry point hands
//! its tokens to `expand`, which parses (`attr`, `ast`), checks (`check`) and emits (`expand/*`),
//! each reading `#[arg]`'s value keywords from one table (`keyword_table`).

mod ast;
mod attr;
mod case;
mod check;
mod errors;
mod expand;
mod json_text;
mod keyword_table;
mod literal;
mod types;

use proc_macro::TokenStream;

/// Derives `ToolArgs`: the JSON Schema of a type (shown in its docs), a check of JSON values
/// against it specialized for the type, and the conversion of a valid value into it.
///
/// Field keys, `#[arg(..)]`: `description` (default: the doc comment), `title`, `rename`,
/// `default` (a literal: optional, shown in the schema, type-checked; alone: `Default::default()`),
/// `enum = [..]`, `const`, `minimum`, `maximum`, `exclusive_minimum`, `exclusive_maximum`,
/// `multiple_of` (above 0) on numbers, `min_length`, `max_length` (code points), `pattern`
/// (checked at compile time), `format` on strings, `min_items`, `max_items`, `unique_items` on
/// arrays (sets have it already), `min_properties`, `max_properties` on maps, `examples`,
/// `required` (for a field that would otherwise be optional), `schemars` (the field type's
/// schema comes from `schemars::JsonSchema`, its conversion from `serde::Deserialize`). A
/// constraint on a field of the wrong kind, and bounds no value could pass, are compile errors.
///
/// Type keys, `#[tool_args(..)]`: `rename_all`, `additional_properties = true` (objects are closed
/// otherwise), `tag` and `content` (enum representations, as serde's), `title`, `description`,
/// `crate = path`. `#[serde(..)]` attributes that only rename or tag are honoured; those a schema
/// cannot follow are compile errors.
#[proc_macro_derive(ToolArgs, attributes(arg, tool_args, serde))]
pub fn derive_tool_args(input: TokenStream) -> TokenStream {
    match syn::parse::<syn::DeriveInput>(input) {
        Ok(input) => expand::derive::expand_derive(&input).into(),
        Err(error) => errors::to_compile_errors(error).into(),
    }
}

/// Turns an `async fn` into a tool: the function stays callable as written, and a unit struct
/// named after it (`read_file` → `ReadFileTool`) implements `Tool`, ready for
/// `registry.register(ReadFileTool)`, with its argument and output schemas in its docs.
///
/// Parameters are gathered into a generated `ReadFileToolArgs`, one property each (`///` on a
/// parameter is its description, `#[arg(..)]` takes the field keys of `ToolArgs`). A lone
/// parameter whose type is a `#[derive(ToolArgs)]` struct with named fields (and has no doc
/// comment or `#[arg]`) is the whole argument object instead — the type decides, through
/// `ToolArgs::OBJECT_STRUCT` — and `ReadFileToolArgs` dereferences to it. Optionally
/// `run: &ToolRun` and `#[state] name: &T` (state given to the registry). Returns `T` or
/// `Result<T, E>` with `T: Serialize + ToolArgs`; a return type named `Result` is a result, any
/// other is the value.
///
/// Keys: `name` (1–64 of `[a-zA-Z0-9_-]`; default: the fn name), `description` (default: the doc
/// comment; one is required), `kind`, `timeout_ms`, `concurrency_safe` (or `= classifier_fn`),
/// `read_only`, `destructive`, `idempotent`, `open_world`, `render = fn(&T) -> impl IntoContent`,
/// `present_call = fn(&Args) -> Option<ToolCallView>`,
/// `present_progress = fn(&Args, &ToolProgress) -> Option<ToolCallView>`,
/// `present_result = fn(&Args, &ResultSummary) -> Option<ToolResultView>`, the declarative card
/// `card_title = "Read {path}"` and `location = path`, and `crate = path`.
///
/// For people rather than the model: `title = "Read file"` (fixed text, not empty: the MCP
/// listing's `title`, and a call's card title when no presenter gives one) and
/// `icon = "https://…/read.png"` (repeatable, one icon per key in order; an `https:`/`http:` URL
/// or a `data:image/…;base64,…` URI, checked at compile time), or in full
/// `icon(src = "…", mime_type = "image/png", sizes = ["48x48", "any"], theme = "light" | "dark")`.
/// No provider's tool list has a field for either.
///
/// With a call store (`dsh_tools::durable`): `journal = false` runs every attempt as without one;
/// `journal_ttl_ms = 60_000` answers a `read_only` tool's call with the same arguments from the
/// journal within that time.
///
/// Who may call the tool: `callers = "model" | "program" | "both"` (default `both`;
/// `ToolCallers`, Anthropic's `allowed_callers`), enforced by Code Mode: a `"program"` tool is
/// reached only from `run_code`, a `"model"` tool only by a direct call.
///
/// Long calls as MCP tasks: `task` (the same as `task = "optional"`), `task = "required"` or
/// `task = "forbidden"` (the default) — `ToolInfo::task_support`: served over MCP, a client that
/// speaks the tasks extension gets a task at once and polls it.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::tool::expand_tool(attr.into(), item.into()).into()
}
