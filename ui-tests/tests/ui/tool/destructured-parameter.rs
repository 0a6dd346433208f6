use dsh_tools::tool;

/// Adds.
#[tool]
async fn add((a, b): (u32, u32)) -> u32 {
    a + b
}

// The generated tool still exists, so using it adds no error.
fn main() {
    let _ = dsh_tools::ToolRegistry::new().register(AddTool);
}
