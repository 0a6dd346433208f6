use dsh_tools::tool;

#[derive(serde::Serialize)]
struct Legacy;

/// Returns a type that schemars 1 does not describe.
#[tool(schemars_output)]
async fn legacy() -> Legacy {
    Legacy
}

fn main() {}
