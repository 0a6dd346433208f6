use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Mode {
    #[arg(enum = ["fast", None])]
    speed: String,
}

fn main() {}
