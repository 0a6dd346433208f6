use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    path: String,
    #[arg(rename = "path")]
    directory: String,
}

fn main() {}
