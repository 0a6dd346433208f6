use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
#[tool_args(rename_all = "camelcase")]
struct Search {
    max_results: u32,
}

fn main() {}
