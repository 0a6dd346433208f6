use std::collections::HashMap;

use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Labels {
    #[arg(min_properties = 3, max_properties = 2)]
    labels: HashMap<String, String>,
}

fn main() {}
