use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Page {
    #[arg(min_items = 1)]
    cursor: String,
}

fn main() {}
