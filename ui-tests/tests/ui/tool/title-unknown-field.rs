use dsh_tools::tool;

/// Reads a file.
#[tool(title = "Read {pth}")]
async fn read_file(path: String) -> String {
    path
}

fn main() {}
