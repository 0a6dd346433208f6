use dsh_tools::tool;

/// Adds.
#[tool]
async fn add((a, b): (u32, u32)) -> u32 {
    a + b
}

fn main() {}
