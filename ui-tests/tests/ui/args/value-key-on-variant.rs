use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
enum Mode {
    #[arg(default = 1)]
    Fast,
    Slow,
}

fn main() {}
