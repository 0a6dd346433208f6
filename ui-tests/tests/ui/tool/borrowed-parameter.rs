use dsh_tools::tool;

/// Greets.
#[tool]
async fn greet(name: &str) -> String {
    name.to_owned()
}

// The generated tool still exists, so using it adds no error.
fn main() {
    let _ = dsh_tools::ToolRegistry::new().register(GreetTool);
}
