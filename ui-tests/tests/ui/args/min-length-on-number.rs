use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Page {
    #[arg(min_length = 1)]
    limit: u32,
}

fn main() {}
