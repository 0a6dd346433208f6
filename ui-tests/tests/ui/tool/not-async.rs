use dsh_tools::tool;

/// Greets.
#[tool]
fn greet(name: String) -> String {
    name
}

// The generated tool still exists, so using it adds no error.
fn main() {
    let _ = dsh_tools::ToolRegistry::new().register(GreetTool);
}
