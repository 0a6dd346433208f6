use dsh_tools::{ToolArgs, tool};

#[derive(ToolArgs)]
struct Count {
    files: u32,
}

/// Counts files.
#[tool]
async fn count() -> Count {
    Count { files: 0 }
}

fn main() {
    let _ = dsh_tools::ToolRegistry::new().register(CountTool);
}
