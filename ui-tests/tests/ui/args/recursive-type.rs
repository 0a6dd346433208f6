use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Tree {
    name: String,
    children: Vec<Tree>,
}

fn main() {}
