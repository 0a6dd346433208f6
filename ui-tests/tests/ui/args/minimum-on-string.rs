use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Page {
    #[arg(minimum = 1)]
    cursor: String,
}

fn main() {}
