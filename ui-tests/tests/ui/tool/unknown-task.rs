use dsh_tools::tool;

/// Reads a file.
#[tool(task = "background")]
async fn read_file(path: String) -> String {
    path
}

// The generated tool still exists, so using it adds no error.
fn main() {
    let _ = dsh_tools::ToolRegistry::new().register(ReadFileTool);
}
