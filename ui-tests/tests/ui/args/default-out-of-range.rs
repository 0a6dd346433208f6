use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Page {
    #[arg(default = 300)]
    limit: u8,
}

fn main() {}
