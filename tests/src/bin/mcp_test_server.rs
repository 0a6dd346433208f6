//! The MCP test server: the shared fixture's registry (`dsh_tools_tests::mcp_fixture`) served
//! over stdio, for clients that start a server process (the official Python SDK's, and the
//! import tests').
//!
//! `mcp_test_server [--page-size N] [--ask TOOL]`: with `--ask`, a `pre-execute` hook answers
//! `ask` for every call of `TOOL`, with the reason [`ASK_REASON`] (for the approval tests).

use dsh_tools::PreToolDecision;
use dsh_tools::mcp::McpServer;
use dsh_tools_tests::mcp_fixture::ASK_REASON;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut page_size = dsh_tools::mcp::DEFAULT_PAGE_SIZE;
    let mut ask = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--page-size" => {
                page_size = args
                    .next()
                    .and_then(|value| value.parse().ok())
                    .expect("--page-size takes a number");
            }
            "--ask" => ask = Some(args.next().expect("--ask takes a tool name")),
            other => panic!("unknown argument {other}"),
        }
    }
    let (registry, _cancellations) = dsh_tools_tests::mcp_fixture::registry();
    if let Some(asked) = ask {
        let _hook = registry.on_pre_execute(move |call, next| {
            let asks = call.name() == asked;
            async move {
                if asks {
                    Ok(PreToolDecision::ask(ASK_REASON))
                } else {
                    next.run().await
                }
            }
        });
    }
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
