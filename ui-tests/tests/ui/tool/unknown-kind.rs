use dsh_tools::tool;

/// Writes a file.
#[tool(kind = "write")]
async fn write_file(path: String) -> String {
    path
}

fn main() {}
