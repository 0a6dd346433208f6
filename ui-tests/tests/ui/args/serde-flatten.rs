use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Inner {
    depth: u32,
}

#[derive(ToolArgs)]
struct Outer {
    #[serde(flatten)]
    inner: Inner,
}

fn main() {}
