use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Page {
    #[arg(required, default = 5)]
    limit: u32,
}

fn main() {}
