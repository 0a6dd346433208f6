use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Color {
    #[arg(enum = ["red", 7])]
    name: String,
}

fn main() {}
