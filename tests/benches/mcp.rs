//! One MCP `tools/call` of the shared `search_files` workload, in process: the JSON-RPC request
//! line parsed into rmcp's message types, handled by the server (`Service::handle_request`, as
//! rmcp's service loop calls it), and the reply serialized back into a line.
//!
//! - e2: a server written with rmcp's documented `#[tool_router(server_handler)]` macro, whose
//!   generated `call_tool` rebuilds the tool router on every call.
//! - e2s: the same server with its router stored (`#[tool_handler(router = self.tool_router)]`).
//! - ours: an [`McpServer`] serving a registry with the `#[tool]` `search_files`; every call runs
//!   the registry's whole pipeline (validation of every argument, output check).
//! - e5 / e5s / ours50: the same with 50 tools on each server.
//! - parse (context): rmcp parsing the request line into its message types, and nothing else —
//!   the floor every server built on rmcp pays.
//!
//! Every body returns the `path` argument. Targets: ours ≤ 0.6 × e2; ours50 ≤ 0.1 × e5.
//!
//! Run with `cargo bench -p dsh-tools-tests --bench mcp [-- <filter>]` for criterion's medians.
//! For instruction counts, `MCP_BENCH_RUN=<case>:<iterations>` runs one case's loop that many
//! times and exits (no criterion): run it under callgrind with two iteration counts and divide
//! the difference, so setup cancels out. Each case is a closure over an iteration count, ready
//! for a harness that measures both ways.

// The argument types exist to be deserialized; the bodies read only `path`.
#![allow(dead_code)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use dsh_tools::mcp::McpServer;
use dsh_tools::{ToolArgs, ToolDefinition, ToolError, ToolRegistry, ToolRun, Value, json, tool};
use rmcp::model::{
    ClientJsonRpcMessage, GetExtensions, GetMeta, JsonRpcMessage, JsonRpcRequest,
    ServerJsonRpcMessage,
};
use rmcp::service::{Peer, RequestContext, RoleServer, Service};
use tokio::runtime::Runtime;

const WORKLOAD: &str = include_str!("data/search_files.json");

mod ours {
    use super::{ToolArgs, tool};

    #[derive(ToolArgs)]
    #[tool_args(rename_all = "lowercase")]
    pub(crate) enum Mode {
        Literal,
        Regex,
    }

    #[derive(ToolArgs)]
    pub(crate) struct SearchOptions {
        pub(crate) follow_links: bool,
        pub(crate) depth: Option<u32>,
    }

    #[derive(ToolArgs)]
    pub(crate) struct SearchArgs {
        /// Text or regex to look for.
        #[arg(min_length = 1)]
        pub(crate) pattern: String,
        /// Directory to search from.
        pub(crate) path: String,
        #[arg(minimum = 1, maximum = 10_000)]
        pub(crate) max_results: Option<u32>,
        pub(crate) case_sensitive: Option<bool>,
        pub(crate) include: Option<Vec<String>>,
        pub(crate) mode: Option<Mode>,
        pub(crate) options: Option<SearchOptions>,
    }

    /// Search files for a pattern.
    #[tool]
    pub(crate) async fn search_files(args: SearchArgs) -> String {
        args.path
    }
}

/// The argument types rmcp's servers deserialize into (serde + schemars).
mod theirs {
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[serde(rename_all = "lowercase")]
    pub(crate) enum Mode {
        Literal,
        Regex,
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct SearchOptions {
        pub(crate) follow_links: bool,
        pub(crate) depth: Option<u32>,
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct SearchArgs {
        /// Text or regex to look for.
        #[schemars(length(min = 1))]
        pub(crate) pattern: String,
        /// Directory to search from.
        pub(crate) path: String,
        #[schemars(range(min = 1, max = 10_000))]
        pub(crate) max_results: Option<u32>,
        pub(crate) case_sensitive: Option<bool>,
        pub(crate) include: Option<Vec<String>>,
        pub(crate) mode: Option<Mode>,
        pub(crate) options: Option<SearchOptions>,
    }
}

/// e2: the documented macros; the generated handler calls `Self::tool_router()` per call.
mod macro_server {
    use rmcp::handler::server::wrapper::Parameters;
    use rmcp::{tool, tool_router};

    use super::theirs::SearchArgs;

    #[derive(Clone)]
    pub(crate) struct Server;

    #[tool_router(server_handler)]
    impl Server {
        /// Search files for a pattern.
        #[tool]
        async fn search_files(&self, Parameters(args): Parameters<SearchArgs>) -> String {
            args.path
        }
    }
}

/// e2s: the router built once and stored.
mod stored_router_server {
    use rmcp::handler::server::router::tool::ToolRouter;
    use rmcp::handler::server::wrapper::Parameters;
    use rmcp::{ServerHandler, tool, tool_handler, tool_router};

    use super::theirs::SearchArgs;

    #[derive(Clone)]
    pub(crate) struct Server {
        tool_router: ToolRouter<Self>,
    }

    #[tool_router]
    impl Server {
        pub(crate) fn new() -> Self {
            Self {
                tool_router: Self::tool_router(),
            }
        }

        /// Search files for a pattern.
        #[tool]
        async fn search_files(&self, Parameters(args): Parameters<SearchArgs>) -> String {
            args.path
        }
    }

    #[tool_handler(router = self.tool_router)]
    impl ServerHandler for Server {}
}

/// A server with `search_files` and 49 more tools of the same shape.
macro_rules! fifty_tool_server {
    ($module:ident, [$($name:ident)*]) => {
        mod $module {
            use rmcp::handler::server::router::tool::ToolRouter;
            use rmcp::handler::server::wrapper::Parameters;
            use rmcp::{ServerHandler, tool, tool_handler, tool_router};

            use super::theirs::SearchArgs;

            /// e5: the documented macros, router rebuilt per call.
            #[derive(Clone)]
            pub(crate) struct Server;

            #[tool_router(server_handler)]
            impl Server {
                /// Search files for a pattern.
                #[tool]
                async fn search_files(&self, Parameters(args): Parameters<SearchArgs>) -> String {
                    args.path
                }
                $(
                    /// Search files for a pattern, again.
                    #[tool]
                    async fn $name(&self, Parameters(args): Parameters<SearchArgs>) -> String {
                        args.path
                    }
                )*
            }

            /// e5s: the same, router stored.
            #[derive(Clone)]
            pub(crate) struct StoredServer {
                tool_router: ToolRouter<Self>,
            }

            #[tool_router(router = stored_router)]
            impl StoredServer {
                pub(crate) fn new() -> Self {
                    Self {
                        tool_router: Self::stored_router(),
                    }
                }

                /// Search files for a pattern.
                #[tool]
                async fn search_files(&self, Parameters(args): Parameters<SearchArgs>) -> String {
                    args.path
                }
                $(
                    /// Search files for a pattern, again.
                    #[tool]
                    async fn $name(&self, Parameters(args): Parameters<SearchArgs>) -> String {
                        args.path
                    }
                )*
            }

            #[tool_handler(router = self.tool_router)]
            impl ServerHandler for StoredServer {}

            /// The names of the 49 other tools, for our registry.
            pub(crate) const OTHER_TOOLS: &[&str] = &[$(stringify!($name)),*];
        }
    };
}

fifty_tool_server!(fifty, [
    t01 t02 t03 t04 t05 t06 t07 t08 t09 t10 t11 t12 t13 t14 t15 t16 t17 t18 t19 t20
    t21 t22 t23 t24 t25 t26 t27 t28 t29 t30 t31 t32 t33 t34 t35 t36 t37 t38 t39 t40
    t41 t42 t43 t44 t45 t46 t47 t48 t49
]);

/// One of our 49 other tools: a raw definition with the workload's argument schema.
struct Other {
    name: &'static str,
    parameters: Value,
}

impl ToolDefinition for Other {
    fn name(&self) -> &str {
        self.name
    }

    fn description(&self) -> &str {
        "Search files for a pattern, again."
    }

    fn parameters(&self) -> &Value {
        &self.parameters
    }

    fn execute<'a>(
        &'a self,
        arguments: &'a Value,
        _run: &'a ToolRun,
    ) -> dsh_tools::BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async move { Ok(arguments["path"].clone()) })
    }
}

/// Parses `line`, lets `service` handle it the way rmcp's service loop does (the request's
/// `_meta` and extensions moved into its context) and serializes the reply.
async fn reply_line<S: Service<RoleServer>>(
    service: &S,
    peer: &Peer<RoleServer>,
    line: &str,
) -> String {
    let message: ClientJsonRpcMessage = serde_json::from_str(line).expect("a JSON-RPC message");
    let JsonRpcMessage::Request(JsonRpcRequest {
        id, mut request, ..
    }) = message
    else {
        panic!("a request")
    };
    let mut context = RequestContext::new(id.clone(), peer.clone());
    std::mem::swap(&mut context.meta, request.get_meta_mut());
    std::mem::swap(&mut context.extensions, request.extensions_mut());
    let reply = match service.handle_request(request, context).await {
        Ok(result) => ServerJsonRpcMessage::response(result, id),
        Err(error) => ServerJsonRpcMessage::error(error, Some(id)),
    };
    serde_json::to_string(&reply).expect("serializes")
}

/// The server of the idle connection the request contexts' peer comes from.
struct Idle;

impl rmcp::ServerHandler for Idle {}

/// A measured case: runs its loop `iterations` times.
struct Case {
    id: &'static str,
    run: Box<dyn FnMut(u64)>,
}

/// A case answering `line` with `service`, after checking the answer once.
fn case<S: Service<RoleServer>>(
    id: &'static str,
    runtime: &'static Runtime,
    service: S,
    line: &'static str,
) -> Case {
    // rmcp's request context needs a peer; it comes from an idle in-process connection that the
    // measured code never touches.
    let (idle_end, other_end) = tokio::io::duplex(64);
    let idle = runtime.block_on(async {
        rmcp::service::serve_directly::<RoleServer, _, _, _, _>(Idle, idle_end, None)
    });
    let peer = idle.peer().clone();
    let answer = runtime.block_on(reply_line(&service, &peer, line));
    assert!(
        answer.contains(r#""text":"/src""#) && answer.contains(r#""isError":false"#),
        "{id} answers the call: {answer}"
    );
    let keep_alive = (idle, other_end);
    Case {
        id,
        run: Box::new(move |iterations| {
            let _ = &keep_alive;
            runtime.block_on(async {
                for _ in 0..iterations {
                    black_box(reply_line(&service, &peer, black_box(line)).await);
                }
            });
        }),
    }
}

fn cases() -> Vec<Case> {
    let runtime: &'static Runtime = Box::leak(Box::new(
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime"),
    ));
    let workload: Value = serde_json::from_str(WORKLOAD).expect("workload is JSON");
    let line: &'static str = Box::leak(
        serde_json::to_string(&json!({
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "search_files", "arguments": workload["valid_args"]}
        }))
        .expect("serializes")
        .into_boxed_str(),
    );

    let registry = ToolRegistry::new();
    let _ = registry.register(ours::SearchFilesTool).expect("registers");
    let ours = McpServer::new(&registry).handler();

    let registry50 = ToolRegistry::new();
    let _ = registry50
        .register(ours::SearchFilesTool)
        .expect("registers");
    let parameters: &Value = &registry.schemas(None)[0].parameters;
    for name in fifty::OTHER_TOOLS {
        let _ = registry50
            .register(Other {
                name,
                parameters: parameters.clone(),
            })
            .expect("registers");
    }
    let ours50 = McpServer::new(&registry50).handler();

    vec![
        Case {
            id: "parse",
            run: Box::new(move |iterations| {
                for _ in 0..iterations {
                    let message: ClientJsonRpcMessage =
                        serde_json::from_str(black_box(line)).expect("a JSON-RPC message");
                    black_box(message);
                }
            }),
        },
        case("e2", runtime, macro_server::Server, line),
        case("e2s", runtime, stored_router_server::Server::new(), line),
        case("ours", runtime, ours, line),
        case("e5", runtime, fifty::Server, line),
        case("e5s", runtime, fifty::StoredServer::new(), line),
        case("ours50", runtime, ours50, line),
    ]
}

fn main() {
    let mut cases = cases();
    if let Ok(spec) = std::env::var("MCP_BENCH_RUN") {
        let (id, iterations) = spec
            .split_once(':')
            .expect("MCP_BENCH_RUN=<case>:<iterations>");
        let iterations: u64 = iterations.parse().expect("an iteration count");
        let case = cases
            .iter_mut()
            .find(|case| case.id == id)
            .unwrap_or_else(|| panic!("no case {id}"));
        (case.run)(iterations);
        return;
    }
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let mut group = criterion.benchmark_group("mcp");
    for case in &mut cases {
        group.bench_function(case.id, |bencher| {
            bencher.iter_custom(|iterations| {
                let start = Instant::now();
                (case.run)(iterations);
                start.elapsed()
            });
        });
    }
    group.finish();
    criterion.final_summary();
}
