use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[arg = "pattern"]
    pattern: String,
}

fn main() {}
