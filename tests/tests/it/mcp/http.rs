//! The streamable HTTP server's safety rules, checked with plain HTTP requests (so the status
//! codes are the server's, not a client library's interpretation), and our HTTP client importing
//! from it.

use std::net::SocketAddr;
use std::time::Duration;

use dsh_tools::mcp::{
    ConnectOptions, HttpOptions, ImportOptions, McpClient, McpHttpServer, McpServer,
};
use dsh_tools::{ToolExecutionInput, ToolRegistry, Value, json};
use dsh_tools_tests::mcp_fixture;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const DEADLINE: Duration = Duration::from_secs(20);

async fn start(options: HttpOptions) -> (ToolRegistry, McpHttpServer) {
    let (registry, _) = mcp_fixture::registry();
    let server = McpServer::new(&registry)
        .serve_http("127.0.0.1:0", options)
        .await
        .expect("binds");
    (registry, server)
}

/// The status and body of one HTTP/1.1 POST.
async fn post(
    addr: SocketAddr,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, String) {
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: {}\r\n",
        addr.port(),
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    tokio::time::timeout(DEADLINE, async {
        let mut stream = TcpStream::connect(addr).await.expect("connects");
        stream.write_all(request.as_bytes()).await.expect("writes");
        // The server may refuse before reading the whole body.
        let _ = stream.write_all(body).await;
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response).await;
        let response = String::from_utf8_lossy(&response).into_owned();
        let status = response
            .split_whitespace()
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or_else(|| panic!("an HTTP response: {response:?}"));
        (status, response)
    })
    .await
    .expect("the server answers")
}

fn initialize() -> Vec<u8> {
    serde_json::to_vec(&json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}
        }
    }))
    .expect("serializes")
}

#[tokio::test]
async fn a_plain_initialize_is_answered() {
    let (_registry, server) = start(HttpOptions::default()).await;
    let (status, body) = post(server.local_addr, "/mcp", &[], &initialize()).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#""serverInfo""#), "{body}");
}

#[tokio::test]
async fn request_bodies_over_the_cap_are_refused_with_413() {
    let (_registry, server) = start(HttpOptions {
        max_body_bytes: 1_024,
        ..HttpOptions::default()
    })
    .await;
    let mut body = initialize();
    body.truncate(body.len() - 1);
    body.extend(std::iter::repeat_n(b' ', 4_096));
    body.push(b'}');
    let (status, response) = post(server.local_addr, "/mcp", &[], &body).await;
    assert_eq!(status, 413, "{response}");
}

#[tokio::test]
async fn only_the_configured_path_serves_mcp() {
    let (_registry, server) = start(HttpOptions {
        path: "rpc".into(),
        ..HttpOptions::default()
    })
    .await;
    assert!(server.url.ends_with("/rpc"));
    assert_eq!(
        post(server.local_addr, "/mcp", &[], &initialize()).await.0,
        404
    );
    assert_eq!(
        post(server.local_addr, "/rpc", &[], &initialize()).await.0,
        200
    );
}

#[tokio::test]
async fn foreign_hosts_and_origins_are_refused_allowed_ones_pass() {
    let (_registry, server) = start(HttpOptions {
        allowed_origins: vec!["http://app.example:*".into()],
        ..HttpOptions::default()
    })
    .await;
    let addr = server.local_addr;
    let (status, _) = post(
        addr,
        "/mcp",
        &[("Origin", "http://evil.example")],
        &initialize(),
    )
    .await;
    assert_eq!(
        status, 403,
        "a foreign origin (DNS rebinding, cross-site request)"
    );
    let (status, _) = post(
        addr,
        "/mcp",
        &[("Origin", "http://app.example:3000")],
        &initialize(),
    )
    .await;
    assert_eq!(status, 200, "an allowed origin");

    // A request whose Host names another site: the DNS-rebinding case.
    let rebinding = format!(
        "POST /mcp HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        initialize().len()
    );
    let mut stream = TcpStream::connect(addr).await.expect("connects");
    stream
        .write_all(rebinding.as_bytes())
        .await
        .expect("writes");
    stream.write_all(&initialize()).await.expect("writes");
    let mut response = String::new();
    tokio::time::timeout(DEADLINE, stream.read_to_string(&mut response))
        .await
        .expect("answered")
        .expect("reads");
    assert!(response.starts_with("HTTP/1.1 403"), "{response}");
}

#[tokio::test]
async fn a_bearer_token_is_required_when_set() {
    let (_registry, server) = start(HttpOptions {
        bearer_token: Some("t0k3n".into()),
        ..HttpOptions::default()
    })
    .await;
    let addr = server.local_addr;
    let (status, response) = post(addr, "/mcp", &[], &initialize()).await;
    assert_eq!(status, 401);
    assert!(
        response.contains("WWW-Authenticate: Bearer")
            || response.contains("www-authenticate: Bearer")
    );
    assert_eq!(
        post(
            addr,
            "/mcp",
            &[("Authorization", "Bearer t0k3")],
            &initialize()
        )
        .await
        .0,
        401
    );
    assert_eq!(
        post(addr, "/mcp", &[("Authorization", "t0k3n")], &initialize())
            .await
            .0,
        401
    );
    assert_eq!(
        post(
            addr,
            "/mcp",
            &[("Authorization", "Bearer t0k3n")],
            &initialize()
        )
        .await
        .0,
        200
    );
}

#[tokio::test]
async fn stateless_servers_answer_a_call_no_session_was_opened_for() {
    let options = || HttpOptions {
        stateless: true,
        ..HttpOptions::default()
    };
    let (_first_registry, first) = start(options()).await;
    let (_second_registry, second) = start(options()).await;
    let (status, body) = post(first.local_addr, "/mcp", &[], &initialize()).await;
    assert_eq!(status, 200, "{body}");
    assert!(
        !body.to_ascii_lowercase().contains("mcp-session-id"),
        "no session: {body}"
    );
    // The call goes to another process: nothing about the first one is needed.
    let call = serde_json::to_vec(&json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "call_id", "arguments": {}}
    }))
    .expect("serializes");
    let (status, body) = post(
        second.local_addr,
        "/mcp",
        &[("MCP-Protocol-Version", "2025-06-18")],
        &call,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#""text":"2""#), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn our_client_imports_over_http_with_the_token() {
    for stateless in [false, true] {
        let (_upstream, server) = start(HttpOptions {
            bearer_token: Some("t0k3n".into()),
            stateless,
            ..HttpOptions::default()
        })
        .await;
        let refused = McpClient::connect_http(&server.url, ConnectOptions::default()).await;
        assert!(refused.is_err(), "no token, no connection");
        let client = McpClient::connect_http(
            &server.url,
            ConnectOptions {
                bearer_token: Some("t0k3n".to_owned()),
                ..ConnectOptions::default()
            },
        )
        .await
        .expect("connects");
        let local = ToolRegistry::new();
        client
            .import_into(
                &local,
                ImportOptions {
                    prefix: Some("remote".into()),
                    ..ImportOptions::default()
                },
            )
            .await
            .expect("imports");
        let result = tokio::time::timeout(
            DEADLINE,
            local.execute(ToolExecutionInput::new(
                "c1",
                "remote__search_files",
                mcp_fixture::workload()["valid_args"].clone(),
            )),
        )
        .await
        .expect("the call ends");
        assert_eq!(
            result.value(),
            Some(&json!({"path": "/src", "pattern": "fn main", "count": 7})),
            "{}",
            result.text()
        );
        let _: &Value = result.value().expect("a value");
        client.close().await;
        server.shutdown().await;
    }
}
