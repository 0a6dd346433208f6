use dsh_tools::tool;

/// Echoes.
#[tool]
async fn echo<T: ToString>(value: String) -> String {
    value
}

fn main() {}
