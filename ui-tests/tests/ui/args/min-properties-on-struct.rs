use dsh_tools::ToolArgs;

#[derive(ToolArgs)]
struct Owner {
    name: String,
}

#[derive(ToolArgs)]
struct Project {
    #[arg(min_properties = 1)]
    owner: Owner,
}

fn main() {}
