use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
#[tool_args(tag = "kind")]
enum Shape {
    Circle { kind: String, radius: f64 },
}

fn main() {}
