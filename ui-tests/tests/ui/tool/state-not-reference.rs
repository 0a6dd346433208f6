use dsh_tools::tool;

struct Database;

/// Queries.
#[tool]
async fn query(#[state] db: Database, sql: String) -> String {
    let _ = db;
    sql
}

fn main() {}
