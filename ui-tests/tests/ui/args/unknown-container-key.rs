use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
#[tool_args(additional_propertes = true)]
struct Search {
    pattern: String,
}

fn main() {}
