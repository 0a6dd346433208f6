use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
enum Never {}

fn main() {}
