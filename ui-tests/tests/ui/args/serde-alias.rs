use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[serde(alias = "query")]
    pattern: String,
}

fn main() {}
