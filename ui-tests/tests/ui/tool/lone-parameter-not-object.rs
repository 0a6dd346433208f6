use dsh_tools::{ToolArgs, tool};

#[derive(ToolArgs)]
enum Mode {
    Fast,
    Slow,
}

/// Runs in a mode.
#[tool]
async fn run(mode: Mode) -> String {
    let _ = mode;
    String::new()
}

fn main() {}
