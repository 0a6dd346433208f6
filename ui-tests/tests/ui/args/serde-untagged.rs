use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
#[serde(untagged)]
enum Target {
    Path(String),
    Line(u32),
}

fn main() {}
