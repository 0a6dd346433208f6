use dsh_tools::tool;

/// Writes a file.
#[tool(kind = "write")]
async fn write_file(path: String) -> String {
    path
}

// The generated tool still exists, so using it adds no error.
fn main() {
    let _ = dsh_tools::ToolRegistry::new().register(WriteFileTool);
}
