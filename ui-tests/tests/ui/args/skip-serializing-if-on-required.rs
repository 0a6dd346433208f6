use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Search {
    #[serde(skip_serializing_if = "String::is_empty")]
    pattern: String,
}

fn main() {}
