//! One client on one kept HTTP connection, as the Python SDK's httpx, undici and a pooled reqwest
//! connect: a session opened, used call after call, and closed with `DELETE`.

use std::time::{Duration, Instant};

use dsh_tools::mcp::{HttpOptions, McpHttpServer, McpServer};
use dsh_tools::{ToolRegistry, json};
use dsh_tools_tests::kept_http::KeptConnection;
use dsh_tools_tests::mcp_fixture;

const DEADLINE: Duration = Duration::from_secs(60);

/// Linux delays an acknowledgement by at least 40 ms; a response that waited for one took
/// longer than this.
const DELAYED_ACK: Duration = Duration::from_millis(35);

async fn start(options: HttpOptions) -> (ToolRegistry, McpHttpServer) {
    let (registry, _) = mcp_fixture::registry();
    let server = McpServer::new(&registry)
        .serve_http("127.0.0.1:0", options)
        .await
        .expect("binds");
    (registry, server)
}

/// Each response is written in pieces (the headers and the SSE priming event, the reply, the
/// end of the body): without `TCP_NODELAY` every piece after the first waited for the client's
/// delayed acknowledgement, and one kept connection got ~23 calls per second. A stall is at
/// least 40 ms; the test counts the calls that took that long rather than timing the whole, and
/// fails only when most of them did, which a busy machine does not make happen.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_on_a_kept_connection_do_not_wait_for_a_delayed_ack() {
    const CALLS: u64 = 40;
    for stateless in [false, true] {
        let (_registry, server) = start(HttpOptions {
            stateless,
            ..HttpOptions::default()
        })
        .await;
        let stalled = tokio::time::timeout(DEADLINE, async {
            let mut connection = KeptConnection::open(server.local_addr, "/mcp").await;
            connection.initialize().await;
            let mut stalled = 0;
            for id in 1..=CALLS {
                let (method, params) = if id.is_multiple_of(2) {
                    ("tools/list", json!({}))
                } else {
                    ("tools/call", json!({"name": "call_id", "arguments": {}}))
                };
                let started = Instant::now();
                let response = connection.call(id, method, params).await;
                if started.elapsed() >= DELAYED_ACK {
                    stalled += 1;
                }
                assert!(response.get("result").is_some(), "{response}");
            }
            stalled
        })
        .await
        .expect("the calls end");
        assert!(
            stalled < CALLS / 2,
            "{stalled} of {CALLS} calls on one kept connection (stateless: {stateless}) took \
             {DELAYED_ACK:?} or more: each waited for the client's delayed acknowledgement"
        );
        server.shutdown().await;
    }
}

/// The Python SDK logs "Session termination failed: 202" unless a `DELETE` is answered 200 or
/// 204; the reference servers answer 200.
#[tokio::test]
async fn a_sessions_delete_is_answered_200_and_ends_the_session() {
    let (_registry, server) = start(HttpOptions::default()).await;
    tokio::time::timeout(DEADLINE, async {
        let mut connection = KeptConnection::open(server.local_addr, "/mcp").await;
        connection.initialize().await;
        assert!(
            connection.session().is_some(),
            "a stateful server opens a session"
        );
        let listed = connection.call(1, "tools/list", json!({})).await;
        assert!(listed["result"]["tools"].is_array(), "{listed}");
        let deleted = connection.delete_session().await;
        assert_eq!(deleted.status, 200, "{deleted:?}");
        assert!(deleted.body.is_empty(), "{deleted:?}");
        let after = connection
            .send(
                "POST",
                Some(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})),
            )
            .await;
        assert_eq!(after.status, 404, "the session is gone: {after:?}");
    })
    .await
    .expect("the server answers");
    server.shutdown().await;
}
