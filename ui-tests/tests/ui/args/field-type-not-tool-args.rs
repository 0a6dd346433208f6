use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Wait {
    until: std::time::Instant,
}

fn main() {}
