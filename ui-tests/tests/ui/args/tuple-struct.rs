use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Point(i32, i32);

fn main() {}
