use dsh_tools::tool;

/// Waits.
#[tool]
async fn wait(until: std::time::Instant) -> String {
    format!("{until:?}")
}

fn main() {}
