use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Page {
    #[arg(multiple_of = 10)]
    cursor: String,
}

fn main() {}
