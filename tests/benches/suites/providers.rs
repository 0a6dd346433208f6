//! Provider adapters on the shared `search_files` workload.
//!
//! - `execute_alone`: `registry.execute` of one call built from the model's raw argument
//!   string (`ToolExecutionInput::from_raw`), what a loop without adapters does.
//! - `parse_execute_format`: the same call read from an OpenAI Chat completion
//!   (`LoweredTools::parse_response`), executed, and its result formatted as the `tool` message
//!   (`LoweredTools::format_results`). Target: ≤ 1.3 × `execute_alone`.
//! - `schemas_100`: `registry.schemas(None)` with 100 tools (cached until a change).
//! - `openai_strict_cached_100`: `ProviderTools::tools(None)` for OpenAI strict over the same
//!   100 tools, after the first call lowered them. Target: ≤ 2 × `schemas_100`.
//! - `openai_strict_lower_100`: lowering the 100 tools from scratch (what the cache saves).
//!
//! Every call runs on one current-thread runtime, entered once per measured section.

use std::hint::black_box;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use dsh_tools::providers::{Dialect, LoweredTools, ProviderTools};
use dsh_tools::{FnTool, ToolExecutionInput, ToolRegistry, json};
use dsh_tools_tests::bench::{Case, Meter, Suite, SuiteDef, Target};
use serde_json::Value;

#[path = "workload.rs"]
mod workload;

use self::workload::WORKLOAD;
use self::workload::ours::SearchFilesTool;

pub(crate) const SUITE: SuiteDef = SuiteDef::new("providers", suite);

/// Everything the cases share, built once.
struct Setup {
    runtime: tokio::runtime::Runtime,
    registry: ToolRegistry,
    raw_arguments: String,
    response: Value,
    tools: Arc<LoweredTools>,
    hundred: ToolRegistry,
    hundred_openai: ProviderTools,
}

impl Setup {
    fn new() -> Self {
        let workload: Value = serde_json::from_str(WORKLOAD).expect("workload is JSON");
        let raw_arguments = serde_json::to_string(&workload["valid_args"]).expect("JSON");
        let registry = ToolRegistry::new();
        let _ = registry.register(SearchFilesTool).expect("registers");
        let tools = ProviderTools::new(&registry, Dialect::openai_chat()).tools(None);
        let response = json!({"choices": [{"index": 0, "finish_reason": "tool_calls",
            "message": {"role": "assistant", "content": null, "tool_calls": [{
                "id": "call_1", "type": "function",
                "function": {"name": "search_files", "arguments": raw_arguments}}]}}]});

        let hundred = ToolRegistry::new();
        for index in 0..100 {
            let _ = hundred
                .register(
                    FnTool::builder(format!("search_files_{index:03}"), "Search files.")
                        .raw_parameters(workload["args_schema"].clone())
                        .handler(|_, _| async { Ok(json!("ok")) }),
                )
                .expect("distinct names");
        }
        let hundred_openai = ProviderTools::new(&hundred, Dialect::openai_chat().strict());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let setup = Self {
            runtime,
            registry,
            raw_arguments,
            response,
            tools,
            hundred,
            hundred_openai,
        };
        setup.check();
        setup
    }

    /// Both paths answer the same before anything is measured.
    fn check(&self) {
        self.runtime.block_on(async {
            let alone = self
                .registry
                .execute(ToolExecutionInput::from_raw(
                    "call_1",
                    "search_files",
                    &self.raw_arguments,
                ))
                .await;
            assert_eq!(alone.text(), "/src");
            let (calls, mut inputs) = self
                .tools
                .parse_response(&self.response)
                .expect("parses")
                .into_parts();
            let result = self.registry.execute(inputs.remove(0)).await;
            let messages = self.tools.format_results(&calls, &[result]).expect("pairs");
            assert_eq!(
                messages,
                [json!({"role": "tool", "tool_call_id": "call_1", "content": "/src"})]
            );
        });
        let lowered = self.hundred_openai.tools(None);
        assert_eq!(lowered.tools().len(), 100);
        assert!(lowered.tools().iter().all(|tool| tool.strict));
    }

    fn execute_alone(&self, iterations: u64, meter: &mut Meter) {
        meter.measure(|| {
            self.runtime.block_on(async {
                for _ in 0..iterations {
                    let input =
                        ToolExecutionInput::from_raw("call_1", "search_files", &self.raw_arguments);
                    black_box(self.registry.execute(input).await);
                }
            })
        });
    }

    fn parse_execute_format(&self, iterations: u64, meter: &mut Meter) {
        meter.measure(|| {
            self.runtime.block_on(async {
                for _ in 0..iterations {
                    let calls = self.tools.parse_response(black_box(&self.response));
                    let (calls, mut inputs) = calls.expect("parses").into_parts();
                    let result = self.registry.execute(inputs.swap_remove(0)).await;
                    black_box(self.tools.format_results(&calls, &[result]).expect("pairs"));
                }
            })
        });
    }

    fn schemas_100(&self, iterations: u64, meter: &mut Meter) {
        meter.measure(|| {
            for _ in 0..iterations {
                black_box(self.hundred.schemas(None));
            }
        });
    }

    fn openai_strict_cached_100(&self, iterations: u64, meter: &mut Meter) {
        meter.measure(|| {
            for _ in 0..iterations {
                black_box(self.hundred_openai.tools(None));
            }
        });
    }

    fn openai_strict_lower_100(&self, iterations: u64, meter: &mut Meter) {
        let schemas = self.hundred.schemas(None);
        meter.measure(|| {
            for _ in 0..iterations {
                black_box(LoweredTools::new(
                    Arc::clone(&schemas),
                    Dialect::openai_chat().strict(),
                    None,
                ));
            }
        });
    }
}

/// A case running `run` on the suite's shared setup, built when a case of the suite first runs.
fn case(
    setup: &Rc<std::cell::OnceCell<Setup>>,
    id: &'static str,
    about: &'static str,
    run: fn(&Setup, u64, &mut Meter),
) -> Case {
    let setup = Rc::clone(setup);
    Case::custom(id, about, move |iterations, meter| {
        run(setup.get_or_init(Setup::new), iterations, meter);
    })
}

fn suite() -> Suite {
    let setup = Rc::new(std::cell::OnceCell::new());
    Suite::new("providers")
        .timing(Duration::from_millis(500), Duration::from_secs(3))
        .case(case(
            &setup,
            "execute_alone",
            "`registry.execute` of `search_files` from the model's raw argument string",
            Setup::execute_alone,
        ))
        .case(
            case(
                &setup,
                "parse_execute_format",
                "the same call read from an OpenAI Chat completion, executed, its `tool` message \
                 formatted",
                Setup::parse_execute_format,
            )
            .vs("execute_alone")
            .target(Target::Ratio(1.3)),
        )
        .case(case(
            &setup,
            "schemas_100",
            "`registry.schemas(None)` with 100 tools, cached",
            Setup::schemas_100,
        ))
        .case(
            case(
                &setup,
                "openai_strict_cached_100",
                "`ProviderTools::tools(None)` for OpenAI strict, 100 tools, cached",
                Setup::openai_strict_cached_100,
            )
            .vs("schemas_100")
            .target(Target::Ratio(2.0)),
        )
        .case(
            case(
                &setup,
                "openai_strict_lower_100",
                "lowering those 100 tools afresh (once per registry change)",
                Setup::openai_strict_lower_100,
            )
            .profile_iterations(3),
        )
}
