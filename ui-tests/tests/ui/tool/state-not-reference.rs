use dsh_tools::tool;

struct Database;

/// Queries.
#[tool]
async fn query(#[state] db: Database, sql: String) -> String {
    let _ = db;
    sql
}

// The generated tool still exists, so using it adds no error.
fn main() {
    let _ = dsh_tools::ToolRegistry::new().register(QueryTool);
}
