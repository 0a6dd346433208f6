use dsh_tools::{ToolRun, tool};

/// Reads a file.
#[tool]
async fn read_file(first: &ToolRun, path: String, second: &ToolRun) -> String {
    let _ = (first, second);
    path
}

// The generated tool still exists, so using it adds no error.
fn main() {
    let _ = dsh_tools::ToolRegistry::new().register(ReadFileTool);
}
