use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Page {
    #[arg(multiple_of = 0)]
    size: u32,
}

fn main() {}
