use dsh_tools::{ToolArgs, tool, present::ToolCallView};

#[derive(ToolArgs)]
struct Search {
    /// What to look for.
    pattern: String,
}

fn card(args: &SearchToolArgs) -> Option<ToolCallView> {
    let _ = &args.pattern;
    None
}

/// Searches.
#[tool(kindd = "search", present_call = card)]
async fn search(args: Search) -> String {
    args.pattern
}

fn main() {
    let _ = dsh_tools::ToolRegistry::new().register(SearchTool);
}
