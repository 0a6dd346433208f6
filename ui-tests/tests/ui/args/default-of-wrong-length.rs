use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Paint {
    #[arg(default = [255, 0])]
    rgb: [u8; 3],
}

fn main() {}
