use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[arg(required)]
    limit: Option<u32>,
}

fn main() {}
