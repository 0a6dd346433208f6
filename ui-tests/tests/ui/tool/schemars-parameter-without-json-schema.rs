use dsh_tools::tool;

struct Legacy;

/// Takes a type that schemars 1 does not describe.
#[tool]
async fn legacy(#[arg(schemars)] id: Legacy) -> String {
    let _ = id;
    String::new()
}

fn main() {}
