use dsh_tools::tool;

fn show(count: &u32) -> u32 {
    *count
}

/// Counts files.
#[tool(render = show)]
async fn count() -> u32 {
    0
}

fn main() {}
