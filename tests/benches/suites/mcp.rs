//! One MCP `tools/call` of the shared `search_files` workload, in process: the JSON-RPC request
//! line parsed into rmcp's message types, handled by the server (`Service::handle_request`, as
//! rmcp's service loop calls it), and the reply serialized back into a line.
//!
//! - e2: a server written with rmcp's documented `#[tool_router(server_handler)]` macro, whose
//!   generated `call_tool` rebuilds the tool router on every call.
//! - e2s: the same server with its router stored (`#[tool_handler(router = self.tool_router)]`).
//! - ours: an [`McpServer`] serving a registry with the `#[tool]` `search_files`; every call runs
//!   the registry's whole pipeline (validation of every argument, output check). The line is read
//!   as `McpServer::serve_stdio` reads it (`dsh_tools::__private::parse_client_line`: a plain
//!   `tools/call` straight into rmcp's message, without rmcp's parse).
//! - ours_rmcp_parse (context): the same server with the line parsed by rmcp, as on any rmcp
//!   transport (`McpServer::serve`) and on streamable HTTP, where rmcp's service parses it.
//! - e5 / e5s / ours50: the same with 50 tools on each server (ours50 reading the line as ours).
//! - parse (context): rmcp parsing the request line into its message types, and nothing else —
//!   the floor every server built on rmcp pays.
//! - parse_lean (context): the same line parsed into a borrowed envelope whose `params` are
//!   rmcp's `CallToolRequestParams`, the shape a server's own parse of a `tools/call` would take
//!   (what it would cost, beside what rmcp's untagged message types cost).
//!
//! Every body returns the `path` argument. Targets: ours ≤ 0.6 × e2; ours50 ≤ 0.1 × e5. Each
//! server answers the call once, checked, before it is measured; every call runs on one
//! current-thread runtime, entered once per measured section.
//!
//! rmcp's request context needs a `Peer`; each server's comes from an idle in-process connection
//! (`serve_directly` on one end of a `tokio::io::duplex`) that the measured code never touches.

use std::any::Any;
use std::hint::black_box;
use std::sync::OnceLock;
use std::time::Duration;

use dsh_tools::__private::parse_client_line;
use dsh_tools::mcp::McpServer;
use dsh_tools::{ToolDefinition, ToolError, ToolRegistry, ToolRun, Value, json};
use dsh_tools_tests::bench::{Case, Meter, Suite, SuiteDef, Target};
use rmcp::model::{
    ClientJsonRpcMessage, GetExtensions, GetMeta, JsonRpcMessage, JsonRpcRequest,
    ServerJsonRpcMessage,
};
use rmcp::service::{Peer, RequestContext, RoleServer, Service};
use tokio::runtime::Runtime;

#[path = "workload.rs"]
mod workload;

use self::workload::{WORKLOAD, ours};

pub(crate) const SUITE: SuiteDef = SuiteDef::new("mcp", suite);

/// e2: the documented macros; the generated handler calls `Self::tool_router()` per call.
mod macro_server {
    use rmcp::handler::server::wrapper::Parameters;
    use rmcp::{tool, tool_router};

    use super::workload::theirs::SearchArgs;

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

    use super::workload::theirs::SearchArgs;

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

            use super::workload::theirs::SearchArgs;

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
    ) -> dsh_tools::call::BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async move { Ok(arguments["path"].clone()) })
    }
}

/// How a case reads the request line into rmcp's message.
type Parse = fn(&str) -> ClientJsonRpcMessage;

/// rmcp's parse, as its transports and its streamable HTTP service read a line.
fn rmcp_parse(line: &str) -> ClientJsonRpcMessage {
    serde_json::from_str(line).expect("a JSON-RPC message")
}

/// The stdio transport's reading, as `McpServer::serve_stdio` reads a line.
fn stdio_parse(line: &str) -> ClientJsonRpcMessage {
    parse_client_line(line.as_bytes())
        .expect("a JSON-RPC message")
        .expect("not skipped")
}

/// Parses `line` with `parse`, lets `service` handle it the way rmcp's service loop does (the
/// request's `_meta` and extensions moved into its context) and serializes the reply.
async fn reply_line<S: Service<RoleServer>>(
    service: &S,
    peer: &Peer<RoleServer>,
    parse: Parse,
    line: &str,
) -> String {
    let message = parse(line);
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

/// A `tools/call` request line read without rmcp's message enums: the envelope borrowed from the
/// line, the parameters straight into rmcp's type.
#[derive(serde::Deserialize)]
struct LeanCall<'a> {
    #[serde(borrow)]
    jsonrpc: &'a str,
    id: rmcp::model::RequestId,
    #[serde(borrow)]
    method: &'a str,
    params: rmcp::model::CallToolRequestParams,
}

/// The server of the idle connection the request contexts' peer comes from.
struct Idle;

impl rmcp::ServerHandler for Idle {}

/// The runtime every call runs on, built when a case of the suite first runs.
fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime")
    })
}

/// The `tools/call` request line of the workload.
fn request_line() -> &'static str {
    static LINE: OnceLock<String> = OnceLock::new();
    LINE.get_or_init(|| {
        serde_json::to_string(&json!({
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "search_files", "arguments": workload()["valid_args"]}
        }))
        .expect("serializes")
    })
}

fn workload() -> Value {
    serde_json::from_str(WORKLOAD).expect("workload is JSON")
}

/// A server ready to answer the request line, with the peer its request contexts carry.
struct Served<S> {
    service: S,
    peer: Peer<RoleServer>,
    parse: Parse,
    /// The idle connection the peer belongs to, kept open while the server is measured.
    _idle: Box<dyn Any>,
}

impl<S: Service<RoleServer>> Served<S> {
    /// Serves with `service`, after checking that it answers the call.
    fn new(id: &str, service: S, parse: Parse) -> Self {
        let (idle_end, other_end) = tokio::io::duplex(64);
        let idle = runtime().block_on(async {
            rmcp::service::serve_directly::<RoleServer, _, _, _, _>(Idle, idle_end, None)
        });
        let peer = idle.peer().clone();
        let answer = runtime().block_on(reply_line(&service, &peer, parse, request_line()));
        assert!(
            answer.contains(r#""text":"/src""#) && answer.contains(r#""isError":false"#),
            "{id} answers the call: {answer}"
        );
        Self {
            service,
            peer,
            parse,
            _idle: Box::new((idle, other_end)),
        }
    }

    fn answer(&mut self, iterations: u64, meter: &mut Meter) {
        let line = request_line();
        meter.measure(|| {
            runtime().block_on(async {
                for _ in 0..iterations {
                    black_box(
                        reply_line(&self.service, &self.peer, self.parse, black_box(line)).await,
                    );
                }
            });
        });
    }
}

/// A case answering the request line, read with `parse`, with the server `build` makes (when the
/// case first runs).
fn server_case<S: Service<RoleServer> + 'static>(
    id: &'static str,
    about: &'static str,
    parse: Parse,
    build: impl FnOnce() -> S + 'static,
) -> Case {
    Case::with_fixture(
        id,
        about,
        move || Served::new(id, build(), parse),
        Served::answer,
    )
    .profile_iterations(PROFILE_ITERATIONS)
}

/// A call costs tens of thousands of instructions (over a million for e5): counted at 200 and
/// 400 calls, callgrind's run stays short and setup still cancels out.
const PROFILE_ITERATIONS: u64 = 200;

/// Our server over a registry with `search_files`, and with 49 more tools when `fifty`.
fn our_server(fifty: bool) -> dsh_tools::mcp::McpHandler {
    let registry = ToolRegistry::new();
    let _ = registry.register(ours::SearchFilesTool).expect("registers");
    if fifty {
        let parameters: Value = (*registry.schemas()[0].parameters).clone();
        for name in fifty::OTHER_TOOLS {
            let _ = registry
                .register(Other {
                    name,
                    parameters: parameters.clone(),
                })
                .expect("registers");
        }
    }
    McpServer::new(&registry).handler()
}

fn suite() -> Suite {
    Suite::new("mcp")
        .timing(Duration::from_millis(500), Duration::from_secs(3))
        .case(
            Case::iter(
                "parse",
                "rmcp parsing the request line, no handling (context)",
                || {
                    let message: ClientJsonRpcMessage =
                        serde_json::from_str(black_box(request_line()))
                            .expect("a JSON-RPC message");
                    message
                },
            )
            .vs("e2")
            .profile_iterations(PROFILE_ITERATIONS),
        )
        .case(
            Case::iter(
                "parse_lean",
                "the line into a borrowed envelope and rmcp's `CallToolRequestParams` (context)",
                || {
                    let call: LeanCall<'_> =
                        serde_json::from_str(black_box(request_line())).expect("a tools/call line");
                    assert!(call.jsonrpc == "2.0" && call.method == "tools/call");
                    (call.id, call.params)
                },
            )
            .vs("e2")
            .profile_iterations(PROFILE_ITERATIONS),
        )
        .case(server_case(
            "e2",
            "rmcp `#[tool_router(server_handler)]` server, router rebuilt per call",
            rmcp_parse,
            || macro_server::Server,
        ))
        .case(
            server_case(
                "e2s",
                "the same with its router stored",
                rmcp_parse,
                stored_router_server::Server::new,
            )
            .vs("e2"),
        )
        .case(
            server_case(
                "ours",
                "`McpServer` on stdio: the line read directly, the registry's whole pipeline",
                stdio_parse,
                || our_server(false),
            )
            .vs("e2")
            .target(Target::Ratio(0.6)),
        )
        .case(
            server_case(
                "ours_rmcp_parse",
                "the same with rmcp's parse of the line, as on rmcp's transports (context)",
                rmcp_parse,
                || our_server(false),
            )
            .vs("e2"),
        )
        .case(server_case(
            "e5",
            "the e2 server with 50 tools",
            rmcp_parse,
            || fifty::Server,
        ))
        .case(
            server_case(
                "e5s",
                "the same with its router stored",
                rmcp_parse,
                fifty::StoredServer::new,
            )
            .vs("e5"),
        )
        .case(
            server_case(
                "ours50",
                "`McpServer` on stdio, 50 tools",
                stdio_parse,
                || our_server(true),
            )
            .vs("e5")
            .target(Target::Ratio(0.1)),
        )
}
