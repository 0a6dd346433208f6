use dsh_tools::tool;

/// Reads a file.
#[tool(timeout_ms = 0)]
async fn read_file(path: String) -> String {
    path
}

fn main() {}
