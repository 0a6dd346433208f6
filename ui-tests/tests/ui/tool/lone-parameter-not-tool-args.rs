use dsh_tools::tool;

pub struct Plain {
    pub depth: u32,
}

/// Walks.
#[tool]
pub async fn walk(plain: Plain) -> u32 {
    plain.depth
}

fn main() {}
