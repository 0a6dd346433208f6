use dsh_tools::tool;

/// Reads a file.
#[tool(blocking)]
async fn read(path: String) -> String {
    path
}

fn main() {}
