use dsh_tools::tool;

/// Tells the time.
#[tool]
async fn now() -> std::time::Instant {
    std::time::Instant::now()
}

fn main() {}
