use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Temperature {
    #[arg(exclusive_minimum = 10, exclusive_maximum = 5)]
    celsius: f64,
}

fn main() {}
