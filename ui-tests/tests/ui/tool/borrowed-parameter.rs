use dsh_tools::tool;

/// Greets.
#[tool]
async fn greet(name: &str) -> String {
    name.to_owned()
}

fn main() {}
