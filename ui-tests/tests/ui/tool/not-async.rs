use dsh_tools::tool;

/// Greets.
#[tool]
fn greet(name: String) -> String {
    name
}

fn main() {}
