use std::rc::Rc;

use dsh_tools::tool;

/// Counts calls.
#[tool]
async fn count(#[state] counter: &Rc<u32>) -> u32 {
    **counter
}

fn main() {}
