use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[arg(pattern = "^(?!tmp/).*$")]
    path: String,
}

fn main() {}
