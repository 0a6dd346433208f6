use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[arg(pattern = "^\\p{L}{1000}$")]
    name: String,
}

fn main() {}
