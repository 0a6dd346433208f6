use dsh_tools::{ToolArgs, ToolError, tool};

#[derive(ToolArgs)]
struct Count {
    files: u32,
}

/// Counts files.
#[tool]
async fn count() -> Result<Count, ToolError> {
    Ok(Count { files: 0 })
}

fn main() {
    let _ = dsh_tools::ToolRegistry::new().register(CountTool);
}
