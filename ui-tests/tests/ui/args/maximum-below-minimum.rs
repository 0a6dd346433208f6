use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Page {
    #[arg(minimum = 10, maximum = 5)]
    limit: u32,
}

fn main() {}
