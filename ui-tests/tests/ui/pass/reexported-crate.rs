//! A crate that re-exports `dsh_tools` under another path points the macros at it with
//! `crate = ..`; the generated code then never names `::dsh_tools`.
#![deny(warnings)]

mod sdk {
    pub use ::dsh_tools as tools;
}

use sdk::tools::{ToolArgs, tool};

#[derive(ToolArgs)]
#[tool_args(crate = crate::sdk::tools)]
struct Query {
    /// What to look for.
    text: String,
}

/// Looks something up.
#[tool(crate = crate::sdk::tools)]
async fn lookup(query: Query) -> String {
    query.text
}

/// Inline parameters through the re-export too.
#[tool(crate = crate::sdk::tools, card_title = "Echo {text}")]
async fn echo(text: String, #[arg(default = 1)] times: u8) -> String {
    text.repeat(usize::from(times))
}

fn main() {
    let _ = (LookupTool, EchoTool);
}
