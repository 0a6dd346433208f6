use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[arg(rename = "query")]
    pattern: String,
    #[arg(rename = "query")]
    text: String,
}

fn main() {}
