use dsh_tools::tool;

/// Reads lines.
#[tool(location = limit)]
async fn read_lines(path: String, limit: u32) -> String {
    format!("{path}{limit}")
}

fn main() {}
