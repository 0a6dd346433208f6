use dsh_tools::tool;

struct Counter;

impl Counter {
    /// Counts.
    #[tool]
    async fn count(&self, step: u32) -> u32 {
        step
    }
}

fn main() {}
