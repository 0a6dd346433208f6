use dsh_tools::tool;

#[tool(description = "  ")]
async fn read_file(path: String) -> String {
    path
}

fn main() {}
