use dsh_tools::tool;

/// Reads files.
#[tool(card_title = "Read {paths}")]
async fn read_files(paths: Vec<String>) -> String {
    paths.join("\n")
}

fn main() {}
