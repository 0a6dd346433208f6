use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Tags {
    #[arg(unique_items)]
    tags: String,
}

fn main() {}
