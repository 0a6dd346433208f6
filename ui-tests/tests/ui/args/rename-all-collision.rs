use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
#[tool_args(rename_all = "lowercase")]
enum Mode {
    Fast,
    FAST,
}

fn main() {}
