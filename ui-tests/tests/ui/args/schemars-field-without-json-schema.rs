use dsh_tools::ToolArgs;

struct Legacy;

#[derive(ToolArgs)]
struct Note {
    #[arg(schemars)]
    id: Legacy,
}

fn main() {}
