use dsh_tools::ToolArgs;

/// A tag: its value is the whole value, with no key to rename.
#[derive(ToolArgs)]
struct Tag(#[arg(rename = "tag", min_length = 3)] String);

fn main() {}
