use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[arg(descripton = "What to look for")]
    pattern: String,
}

fn main() {}
