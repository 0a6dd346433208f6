//! A whole tool call of the shared `search_files` workload: `registry.execute` of the
//! macro-defined tool against `rmcp`'s `ToolRouter::call` of the same tool, in one run.
//!
//! - e1: `rmcp` `#[tool_router]` + `#[tool]` with `Parameters<SearchArgs>` (serde + schemars), the
//!   arguments handed over as a JSON object; it deserializes and calls the body.
//! - ours: `registry.execute` of `#[tool] async fn search_files(args: SearchArgs)` with no hooks,
//!   the arguments as a `Value`; it validates (every violation), converts, runs the pipeline and
//!   checks the output against its schema.
//!
//! - execute_journaled: the same `registry.execute` on a registry whose calls go through the
//!   call journal in memory (`Durability::new(MemoryStore::default())`), each call with a call id of
//!   its own, so each is new (its intent recorded, the body run, its outcome recorded). Issue 33
//!   asks the journal to add at most 10 % to `execute`.
//!
//! Both bodies return the `path` argument; both sides clone the argument object per call inside
//! the measured section (each API takes it by value). Target: ours ≤ 0.8 × e1. Every call runs on
//! one current-thread runtime, entered once per measured section.
//!
//! `rmcp`'s `ToolCallContext` needs a `Peer`; it comes from `serve_directly` on one end of an idle
//! `tokio::io::duplex`, which the measured code never touches.

use std::hint::black_box;
use std::rc::Rc;
use std::time::Duration;

use dsh_tools::durable::{Durability, MemoryStore};
use dsh_tools::{ToolExecutionInput, ToolRegistry};
use dsh_tools_tests::bench::{Case, Suite, SuiteDef, Target};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolRequestParams, NumberOrString};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};
use serde_json::Value;

#[path = "workload.rs"]
mod workload;

use self::workload::{WORKLOAD, ours};

pub(crate) const SUITE: SuiteDef = SuiteDef::new("tools", suite);

mod theirs {
    use rmcp::handler::server::router::tool::ToolRouter;
    use rmcp::handler::server::wrapper::Parameters;
    use rmcp::{tool, tool_router};

    use super::workload::theirs::SearchArgs;

    #[derive(Clone)]
    pub(crate) struct Server {
        pub(crate) tool_router: ToolRouter<Self>,
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
}

impl ServerHandler for theirs::Server {}

fn suite() -> Suite {
    let workload: Value = serde_json::from_str(WORKLOAD).expect("workload is JSON");
    let valid = workload["valid_args"].clone();
    let object = valid.as_object().expect("an object").clone();
    let runtime = Rc::new(
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime"),
    );

    let registry = ToolRegistry::new();
    let _ = registry.register(ours::SearchFilesTool).expect("registers");
    let journaled = ToolRegistry::new();
    let _ = journaled
        .register(ours::SearchFilesTool)
        .expect("registers");
    journaled.set_durability(Durability::new(MemoryStore::default()));

    let server = theirs::Server::new();
    let router: ToolRouter<theirs::Server> = server.tool_router.clone();
    let (idle_end, other_end) = tokio::io::duplex(64);
    let running = runtime.block_on(async {
        rmcp::service::serve_directly::<RoleServer, _, _, _, _>(server.clone(), idle_end, None)
    });
    let peer = running.peer().clone();

    // Both sides answer the same before anything is measured.
    runtime.block_on(async {
        let result = registry
            .execute(ToolExecutionInput::new(
                "call",
                "search_files",
                valid.clone(),
            ))
            .await;
        assert_eq!(result.text(), "/src", "{}", result.text());
        let context = ToolCallContext::new(
            &server,
            CallToolRequestParams::new("search_files").with_arguments(object.clone()),
            RequestContext::new(NumberOrString::Number(1), peer.clone()),
        );
        let response = router.call(context).await.expect("rmcp answers");
        assert!(format!("{response:?}").contains("/src"));
    });

    let rmcp_runtime = Rc::clone(&runtime);
    let journaled_runtime = Rc::clone(&runtime);
    let journaled_valid = valid.clone();
    let mut next_call = 0_u64;
    // The service and the idle end of its transport live as long as the case.
    let keep_alive = (running, other_end);
    Suite::new("tools")
        .timing(Duration::from_millis(500), Duration::from_secs(3))
        .case(Case::custom(
            "e1",
            "`rmcp` `ToolRouter::call` of the same tool (e1)",
            move |iterations, meter| {
                let _ = &keep_alive;
                meter.measure(|| {
                    rmcp_runtime.block_on(async {
                        for _ in 0..iterations {
                            let context = ToolCallContext::new(
                                &server,
                                CallToolRequestParams::new("search_files")
                                    .with_arguments(object.clone()),
                                RequestContext::new(NumberOrString::Number(1), peer.clone()),
                            );
                            black_box(router.call(context).await.expect("rmcp answers"));
                        }
                    })
                });
            },
        ))
        .case(
            Case::custom(
                "execute",
                "`registry.execute` of the `#[tool]` `search_files`, no hooks",
                move |iterations, meter| {
                    meter.measure(|| {
                        runtime.block_on(async {
                            for _ in 0..iterations {
                                let input =
                                    ToolExecutionInput::new("call", "search_files", valid.clone());
                                black_box(registry.execute(input).await);
                            }
                        })
                    });
                },
            )
            .vs("e1")
            .target(Target::Ratio(0.8)),
        )
        .case(
            Case::custom(
                "execute_journaled",
                "`execute` through the call journal in memory, each call a new one",
                move |iterations, meter| {
                    // Call ids go on from one measured section to the next: no call repeats.
                    // Each is made before the section and lives as long as the process, so
                    // that the input is built as `execute`'s is (a borrowed call id, nothing
                    // to free).
                    let ids: Vec<&'static str> = (0..iterations)
                        .map(|_| {
                            next_call += 1;
                            &*Box::leak(format!("call-{next_call}").into_boxed_str())
                        })
                        .collect();
                    meter.measure(|| {
                        journaled_runtime.block_on(async {
                            for id in &ids {
                                let input = ToolExecutionInput::new(
                                    *id,
                                    "search_files",
                                    journaled_valid.clone(),
                                );
                                black_box(journaled.execute(input).await);
                            }
                        })
                    });
                },
            )
            .vs("execute")
            .target(Target::Note("issue 33 asks for ≤ 1.1 × execute")),
        )
}
