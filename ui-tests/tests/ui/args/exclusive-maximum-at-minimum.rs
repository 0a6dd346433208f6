use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Temperature {
    #[arg(minimum = 5, exclusive_maximum = 5)]
    celsius: f64,
}

fn main() {}
