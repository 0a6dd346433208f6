use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Page {
    #[arg(default = "twenty")]
    limit: u32,
}

fn main() {}
