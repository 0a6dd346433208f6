use dsh_tools::tool;

/// Greets.
#[tool(max_result_chars = 0)]
async fn greet(name: String) -> String {
    name
}

fn main() {}
