use dsh_tools::{ToolArgs, tool};

#[derive(ToolArgs)]
struct Search {
    #[arg(descripton = "What to look for")]
    pattern: String,
}

/// Searches.
#[tool(card_title = "Search for {pattern}")]
async fn search(args: Search) -> String {
    args.pattern
}

fn main() {
    let _ = dsh_tools::ToolRegistry::new().register(SearchTool);
}
