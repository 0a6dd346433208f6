use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[arg(pattern = "[a-z")]
    name: String,
}

fn main() {}
