//! The expansions name runtime items by absolute paths only: local items called `Option`,
//! `Result`, `Box`, `Vec`, `String` and a local module `dsh_tools` must not capture them, and the
//! generated code must be warning-free.
#![deny(warnings)]
#![allow(dead_code)]

struct Option;
struct Result;
struct Box;
struct Vec;
struct String;
mod dsh_tools {}

use ::dsh_tools::{ToolArgs, tool};

/// Arguments written with absolute paths, since the short names are taken here.
#[derive(ToolArgs)]
struct Query {
    /// The text.
    text: ::std::string::String,
    /// How many.
    #[arg(default = 10, maximum = 100)]
    limit: u32,
    /// Optional tags.
    tags: ::std::option::Option<::std::vec::Vec<::std::string::String>>,
    /// A boxed value.
    nested: ::std::boxed::Box<Inner>,
}

#[derive(ToolArgs)]
struct Inner {
    flag: bool,
}

#[derive(ToolArgs)]
enum Choice {
    First,
    Second { value: i64 },
}

/// Runs a query.
#[tool(
    card_title = "Query {text}",
    title = "Query",
    icon = "https://example.com/query.png",
    icon(
        src = "https://example.com/query-dark.svg",
        mime_type = "image/svg+xml",
        sizes = ["any"],
        theme = "dark"
    ),
    callers = "program"
)]
async fn query(
    text: ::std::string::String,
    /// Maybe a choice.
    choice: ::std::option::Option<Choice>,
) -> ::std::result::Result<::std::string::String, ::dsh_tools::ToolError> {
    let _ = choice;
    ::std::result::Result::Ok(text)
}

/// Takes the whole arguments struct.
#[tool(name = "query_struct")]
async fn query_struct(args: Query) -> u32 {
    args.limit
}

/// Counts lines on the blocking pool, with the run context and shared state.
#[tool(blocking, timeout_ms = 1_000, max_result_chars = 2_000)]
fn count_lines(
    text: ::std::string::String,
    run: &::dsh_tools::ToolRun,
    #[state] prefix: &Inner,
) -> ::std::result::Result<usize, ::dsh_tools::ToolError> {
    let _ = (run.signal().is_cancelled(), prefix.flag);
    ::std::result::Result::Ok(text.lines().count())
}

fn main() {
    let _ = QueryTool;
    let _ = QueryStructTool;
    let _ = CountLinesTool;
}
