use dsh_tools::{ToolArgs, tool};

#[derive(ToolArgs)]
struct Page {
    #[arg(maximum = "x")]
    size: u32,
}

/// Reads a page.
#[tool]
async fn read_page(args: Page) -> u32 {
    args.size
}

fn main() {
    let _ = dsh_tools::ToolRegistry::new().register(ReadPageTool);
}
