//! The MCP test server: the shared fixture's registry (`dsh_tools_tests::mcp_fixture`) served
//! over stdio, for clients that start a server process (the official Python SDK's, and the
//! import tests').
//!
//! `mcp_test_server [--page-size N]`

use dsh_tools::mcp::McpServer;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut page_size = dsh_tools::mcp::DEFAULT_PAGE_SIZE;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--page-size" => {
                page_size = args
                    .next()
                    .and_then(|value| value.parse().ok())
                    .expect("--page-size takes a number");
            }
            other => panic!("unknown argument {other}"),
        }
    }
    let (registry, _cancellations) = dsh_tools_tests::mcp_fixture::registry();
    let server = McpServer::new(&registry)
        .with_name("dsh-tools-test")
        .with_version("1.2.3")
        .with_instructions("Test tools.")
        .with_page_size(page_size);
    if let Err(error) = server.serve_stdio().await {
        eprintln!("mcp_test_server: {error}");
        std::process::exit(1);
    }
}
