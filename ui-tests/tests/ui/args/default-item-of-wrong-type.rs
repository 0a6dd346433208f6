use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[arg(default = ["*.rs", 7])]
    globs: Vec<String>,
}

fn main() {}
