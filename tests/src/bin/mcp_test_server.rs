//! The MCP test server: the shared fixture's registry (`dsh_tools_tests::mcp_fixture`) served
//! over stdio, for clients that start a server process (the official Python SDK's, and the
//! import tests'), or over streamable HTTP, for the scale-out tests (several processes behind
//! one address).
//!
//! `mcp_test_server [--page-size N] [--ask TOOL] [--request-state-key BYTE]
//! [--http ADDR [--stateless] [--instance NAME]]`
//!
//! With `--ask`, a `pre-execute` hook answers `ask` for every call of `TOOL`, with the reason
//! [`ASK_REASON`] (for the approval tests). Over HTTP it prints the URL it serves on its first
//! line of standard output and serves until killed; `--instance` adds a tool, `server_instance`,
//! answering `NAME`, so a client can tell which process answered it. `--request-state-key`
//! gives the server the secret of 32 bytes `BYTE` (a number) for the state of approvals asked
//! through multi-round-trip requests, so that processes given the same one recognize each
//! other's states; without it each process has a random one.

use dsh_tools::PreToolDecision;
use dsh_tools::mcp::{HttpOptions, McpServer, ServerOptions};
use dsh_tools::{FnTool, Value};
use dsh_tools_tests::mcp_fixture::ASK_REASON;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut page_size = None;
    let mut http = None;
    let mut stateless = false;
    let mut instance = None;
    let mut ask = None;
    let mut request_state_key = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--page-size" => {
                page_size = Some(
                    args.next()
                        .and_then(|value| value.parse().ok())
                        .expect("--page-size takes a number"),
                );
            }
            "--http" => http = Some(args.next().expect("--http takes an address")),
            "--stateless" => stateless = true,
            "--instance" => instance = Some(args.next().expect("--instance takes a name")),
            "--ask" => ask = Some(args.next().expect("--ask takes a tool name")),
            "--request-state-key" => {
                let byte: u8 = args
                    .next()
                    .and_then(|value| value.parse().ok())
                    .expect("--request-state-key takes a byte");
                request_state_key = Some([byte; 32]);
            }
            other => panic!("unknown argument {other}"),
        }
    }
    let (registry, _cancellations) = dsh_tools_tests::mcp_fixture::registry();
    if let Some(name) = instance {
        let tool = FnTool::builder("server_instance", "Which server process answers.")
            .concurrency_classifier(|_| true)
            .handler(move |_, _| {
                let name = name.clone();
                async move { Ok(Value::String(name)) }
            });
        let _ = registry.register(tool).expect("server_instance registers");
    }
    if let Some(asked) = ask {
        let _hook = registry.on_pre_execute(move |call, next| {
            let asks = call.name() == asked;
            async move {
                if asks {
                    Ok(PreToolDecision::Ask {
                        reason: Some(ASK_REASON.into()),
                    })
                } else {
                    next.run().await
                }
            }
        });
    }
    // Without the flags the server keeps its own default page size and a random secret.
    let defaults = ServerOptions::default();
    let server = McpServer::new(&registry).with_options(ServerOptions {
        name: "dsh-tools-test".into(),
        version: "1.2.3".into(),
        instructions: Some("Test tools.".into()),
        page_size: page_size.unwrap_or(defaults.page_size),
        request_state_key,
        ..defaults
    });
    let Some(addr) = http else {
        if let Err(error) = server.serve_stdio().await {
            eprintln!("mcp_test_server: {error}");
            std::process::exit(1);
        }
        return;
    };
    match server
        .serve_http(
            addr.as_str(),
            HttpOptions {
                stateless,
                ..HttpOptions::default()
            },
        )
        .await
    {
        Ok(running) => {
            println!("{}", running.url);
            // Serves until the test that started the process kills it.
            std::future::pending::<()>().await;
            drop(running);
        }
        Err(error) => {
            eprintln!("mcp_test_server: {error}");
            std::process::exit(1);
        }
    }
}
