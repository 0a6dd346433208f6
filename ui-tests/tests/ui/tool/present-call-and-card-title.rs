use dsh_tools::{tool, present::ToolCallView};

fn card(_: &ReadFileToolArgs) -> Option<ToolCallView> {
    None
}

/// Reads a file.
#[tool(present_call = card, card_title = "Read {path}")]
async fn read_file(path: String) -> String {
    path
}

fn main() {}
