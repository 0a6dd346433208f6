use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Page {
    #[arg(default = 0.5)]
    limit: u32,
}

fn main() {}
