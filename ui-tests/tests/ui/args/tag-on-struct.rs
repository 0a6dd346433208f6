use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
#[tool_args(tag = "kind")]
struct Search {
    pattern: String,
}

fn main() {}
