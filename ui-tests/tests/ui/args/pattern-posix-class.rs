use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[arg(pattern = "^[[:alpha:]]+$")]
    name: String,
}

fn main() {}
