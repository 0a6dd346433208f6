use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[serde(rename(serialize = "q", deserialize = "query"))]
    pattern: String,
}

fn main() {}
