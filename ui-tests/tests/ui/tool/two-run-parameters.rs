use dsh_tools::{ToolRun, tool};

/// Reads a file.
#[tool]
async fn read_file(first: &ToolRun, path: String, second: &ToolRun) -> String {
    let _ = (first, second);
    path
}

fn main() {}
