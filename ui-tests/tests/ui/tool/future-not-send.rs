use std::rc::Rc;

use dsh_tools::tool;

async fn pause() {}

/// Counts.
#[tool]
async fn count(text: String) -> usize {
    let shared = Rc::new(text);
    pause().await;
    shared.len()
}

fn main() {}
