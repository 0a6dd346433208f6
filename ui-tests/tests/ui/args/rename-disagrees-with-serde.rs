use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[arg(rename = "query")]
    #[serde(rename = "q")]
    pattern: String,
}

fn main() {}
