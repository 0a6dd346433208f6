use dsh_tools::tool;

/// Reads a file.
#[tool(name = "read file")]
async fn read_file(path: String) -> String {
    path
}

fn main() {}
