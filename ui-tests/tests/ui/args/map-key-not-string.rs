use std::collections::HashMap;

use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Scores {
    by_id: HashMap<u32, f64>,
}

fn main() {}
