use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[serde(deserialize_with = "parse_pattern")]
    pattern: String,
}

fn main() {}
