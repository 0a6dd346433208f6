use dsh_tools::tool;

/// Reads a file.
#[tool(timeout = 5_000)]
async fn read_file(path: String) -> String {
    path
}

fn main() {}
