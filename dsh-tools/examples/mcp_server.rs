//! The quickstart's tools (`coding_tools/`) served to any MCP client: Claude Desktop, an IDE, the
//! MCP Inspector, another agent. Every call a client makes runs through the registry's pipeline.
//!
//! Over stdio, for a client that starts the server itself:
//!
//! ```sh
//! cargo run -p dsh-tools --example mcp_server --features mcp
//! ```
//!
//! Over streamable HTTP at `http://127.0.0.1:8765/mcp`, optionally behind a bearer token:
//!
//! ```sh
//! cargo run -p dsh-tools --example mcp_server --features mcp-http -- --http 127.0.0.1:8765 [--token T]
//! ```
//!
//! The tools work in a scratch workspace made at start. Stdout carries the protocol; the example
//! reports to stderr.

pub mod coding_tools;

use coding_tools::{Workspace, create_workspace};
use dsh_tools::mcp::{McpServer, ServerOptions};

/// What the command line asks for.
struct Options {
    http: Option<String>,
    token: Option<String>,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        http: None,
        token: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--http" => options.http = Some(args.next().ok_or("--http takes an address")?),
            "--token" => options.token = Some(args.next().ok_or("--token takes a value")?),
            other => {
                return Err(format!(
                    "unknown argument {other}; usage: mcp_server [--http <addr> [--token <token>]]"
                ));
            }
        }
    }
    Ok(options)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    if let Err(error) = run().await {
        eprintln!("mcp_server: {error}");
        std::process::exit(1);
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let options = options()?;
    let scratch = create_workspace()?;
    let root = scratch.root().to_path_buf();
    let registry = coding_tools::registry(Workspace { root: root.clone() })?;
    let server = McpServer::new(&registry).with_options(ServerOptions {
        name: "coding-tools".into(),
        instructions: Some(format!(
            "Tools over a scratch Cargo project at {}: read, search and edit files, run commands.",
            root.display()
        )),
        ..ServerOptions::default()
    });
    let tools = registry.schemas().len();
    match options.http {
        None => {
            eprintln!(
                "serving {tools} tools over stdio (workspace {})",
                root.display()
            );
            server.serve_stdio().await?;
        }
        Some(addr) => serve_http(&server, &addr, options.token, tools).await?,
    }
    Ok(())
}

#[cfg(feature = "mcp-http")]
async fn serve_http(
    server: &McpServer,
    addr: &str,
    token: Option<String>,
    tools: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let http = dsh_tools::mcp::HttpOptions {
        bearer_token: token,
        ..dsh_tools::mcp::HttpOptions::default()
    };
    let running = server.serve_http(addr, http).await?;
    eprintln!("serving {tools} tools at {} (Ctrl-C stops)", running.url);
    tokio::signal::ctrl_c().await?;
    running.shutdown().await;
    Ok(())
}

#[cfg(not(feature = "mcp-http"))]
async fn serve_http(
    _server: &McpServer,
    _addr: &str,
    _token: Option<String>,
    _tools: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    Err("serving over HTTP needs the `mcp-http` feature: add `--features mcp-http`".into())
}
