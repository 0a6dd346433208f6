use dsh_tools::tool;

#[tool]
async fn greet(name: String) -> String {
    name
}

fn main() {}
