use dsh_tools::tool;

/// Echoes.
#[tool]
async fn echo<T: ToString>(value: String) -> String {
    value
}

// The generated tool still exists, so using it adds no error.
fn main() {
    let _ = dsh_tools::ToolRegistry::new().register(EchoTool);
}
