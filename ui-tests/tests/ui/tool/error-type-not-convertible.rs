use dsh_tools::tool;

struct Oops;

/// Fails.
#[tool]
async fn fail() -> Result<String, Oops> {
    Err(Oops)
}

fn main() {
    let _ = dsh_tools::ToolRegistry::new().register(FailTool);
}
