use dsh_tools::tool;

/// Reads a page.
#[tool]
async fn read_page(#[arg(maximum = "x")] size: u32) -> u32 {
    size
}

fn main() {
    let _ = dsh_tools::ToolRegistry::new().register(ReadPageTool);
}
