//! Pipeline overhead, measured against a bare dynamic async call in the same run.
//!
//! * `d`: `HashMap<String, Arc<dyn Fn(Value) -> BoxFuture<Value>>>` lookup, call
//!   and await (baseline `d` of the shared benchmark workload; the ratios are taken to it).
//! * `d_same_input`: the same dispatch given the same prebuilt `ToolExecutionInput`s as
//!   `no_hooks` (looked up by its name, called with its arguments, its two strings
//!   dropped in the measured section). For context only: it shows what consuming the caller's
//!   input costs a bare dispatch too.
//! * `no_hooks`: `registry.execute` of a no-argument tool with a trivial body (a direct
//!   `ToolDefinition`, the shape macro-generated tools have), given a ready `ToolExecutionInput`.
//! * `no_hooks_building_input`: the same, building the input (two `String`s) per call.
//! * `fn_tool`: the same tool written with `FnTool` (its handler gets owned arguments).
//! * `budgeted`: `no_hooks` with a declared time budget, which the registry enforces: the body
//!   runs under its deadline (a timer and a child token).
//! * `journal_memory`: `no_hooks` through the call journal on the in-memory store, each call a
//!   new one (its intent recorded, the body run, its outcome recorded).
//! * `journal_replay`: the same call made again and again: each is replayed from the journal.
//! * `hooks_N`: `no_hooks` with N pre-execute listeners, guards, execute layers,
//!   post-execute listeners and result observers each (N = 1, 2, 3), to show linear growth.
//! * `otel_spans`: `no_hooks` with an OpenTelemetry subscriber (`tracing-opentelemetry` over the
//!   SDK's tracer, nothing exporting): what a call costs with its span recorded.
//! * `span_via_tracing`, `span_via_otel_api`: one span with a call's GenAI attributes, recorded
//!   through `tracing` fields and `tracing-opentelemetry`, and through the `opentelemetry` API
//!   directly (the choice `telemetry.rs` documents).
//!
//! `no_hooks` itself runs with feature `otel` on (the test package enables it) and nothing
//! listening: the figure to hold against the same case built without the feature.
//!
//! Every call runs on one current-thread runtime, entered once per measured section. Inputs are
//! built before the section starts (their drop is measured), in batches of
//! [`ASYNC_BATCH`](dsh_tools_tests::bench::ASYNC_BATCH).

use std::collections::HashMap;
use std::hint::black_box;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use dsh_tools::durable::{Durability, MemoryStore};
use dsh_tools::{
    FnTool, ToolDefinition, ToolError, ToolExecutionInput, ToolRegistry, ToolRun, Value,
    call::{BoxFuture, ToolOptions},
};
use dsh_tools_tests::bench::{ASYNC_BATCH, Case, Meter, Suite, SuiteDef, Target, in_batches};
use tokio::runtime::{Builder, Runtime};

pub(crate) const SUITE: SuiteDef = SuiteDef::new("pipeline", suite);

type DynTool = Arc<dyn Fn(Value) -> BoxFuture<'static, Value> + Send + Sync>;

fn runtime() -> Runtime {
    // Time is enabled for the budgeted case's timer; no case ever waits on it.
    Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a current-thread runtime")
}

/// A no-argument tool with a trivial body, implemented the way generated code does.
struct Noop {
    parameters: Value,
    options: ToolOptions,
}

impl ToolDefinition for Noop {
    fn name(&self) -> &str {
        "noop"
    }

    fn description(&self) -> &str {
        "Does nothing."
    }

    fn parameters(&self) -> &Value {
        &self.parameters
    }

    fn options(&self) -> &ToolOptions {
        &self.options
    }

    fn execute<'a>(
        &'a self,
        _arguments: &'a Value,
        _run: &'a ToolRun,
    ) -> BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async { Ok(Value::Null) })
    }
}

fn registry_with_hooks(per_kind: usize) -> ToolRegistry {
    noop_registry(per_kind, None)
}

/// A registry with `Noop` (with `timeout_ms`) and `per_kind` hooks of each kind.
fn noop_registry(per_kind: usize, timeout_ms: Option<u64>) -> ToolRegistry {
    let registry = ToolRegistry::new();
    let parameters = serde_json::json!({"type": "object", "properties": {}});
    let _ = registry
        .register(Noop {
            parameters,
            options: ToolOptions {
                timeout_ms,
                ..ToolOptions::default()
            },
        })
        .expect("one tool");
    for _ in 0..per_kind {
        let _ = registry.on_pre_execute(|_, next| next.run());
        let _ = registry.guard(|_| None);
        let _ = registry.on_execute(|request, next| next.run(request));
        let _ = registry.on_post_execute(|_, _, next| next.run());
        let _ = registry.on_result(|_, _| ());
    }
    registry
}

fn input() -> ToolExecutionInput {
    ToolExecutionInput::new("call-1", "noop", Value::Object(serde_json::Map::new()))
}

fn bare_tools() -> HashMap<String, DynTool> {
    let mut tools: HashMap<String, DynTool> = HashMap::new();
    let noop: DynTool = Arc::new(|_| Box::pin(async { Value::Null }));
    tools.insert("noop".to_owned(), noop);
    tools
}

fn fn_tool_registry() -> ToolRegistry {
    let registry = ToolRegistry::new();
    let _ = registry
        .register(
            FnTool::builder("noop", "Does nothing.").handler(|_, _| async { Ok(Value::Null) }),
        )
        .expect("one tool");
    registry
}

fn suite() -> Suite {
    let rt = Rc::new(runtime());
    let tools = Rc::new(bare_tools());
    let mut suite = Suite::new("pipeline")
        .timing(Duration::from_secs(1), Duration::from_secs(3))
        .case({
            let (rt, tools) = (Rc::clone(&rt), Rc::clone(&tools));
            Case::custom(
                "d",
                "bare dynamic async call (d)",
                move |iterations, meter| bare_calls(&rt, &tools, iterations, meter),
            )
        });
    for per_kind in [0, 1, 2, 3] {
        let registry = registry_with_hooks(per_kind);
        let rt = Rc::clone(&rt);
        let case = if per_kind == 0 {
            Case::custom(
                "no_hooks",
                "`execute`, no-argument tool, no hooks",
                move |iterations, meter| timed_calls(&rt, &registry, iterations, meter),
            )
            .target(Target::Ratio(3.0))
        } else {
            let id = ["hooks_1", "hooks_2", "hooks_3"][per_kind - 1];
            Case::custom(
                id,
                format!(
                    "the same with {per_kind} of each hook kind ({} hooks)",
                    5 * per_kind
                ),
                move |iterations, meter| timed_calls(&rt, &registry, iterations, meter),
            )
            .target(Target::Note("linear in hooks"))
        };
        suite = suite.case(case.vs("d"));
    }
    let registry = registry_with_hooks(0);
    let building = Rc::clone(&rt);
    let fn_tool = fn_tool_registry();
    let fn_tool_rt = Rc::clone(&rt);
    suite
        .case(
            Case::custom(
                "no_hooks_building_input",
                "the same, building the input in the measured section",
                move |iterations, meter| {
                    calls_building_input(&building, &registry, iterations, meter)
                },
            )
            .vs("d"),
        )
        .case(
            Case::custom(
                "fn_tool",
                "the same tool written with `FnTool`",
                move |iterations, meter| timed_calls(&fn_tool_rt, &fn_tool, iterations, meter),
            )
            .vs("d"),
        )
        .case({
            let rt = Rc::clone(&rt);
            let budgeted = noop_registry(0, Some(60_000));
            Case::custom(
                "budgeted",
                "the same with a time budget the registry enforces (timer and child token)",
                move |iterations, meter| timed_calls(&rt, &budgeted, iterations, meter),
            )
            .vs("d")
        })
        .case({
            let rt = Rc::clone(&rt);
            let registry = registry_with_hooks(0);
            Case::custom(
                "otel_spans",
                "`no_hooks` with each call's span recorded through tracing-opentelemetry",
                move |iterations, meter| {
                    // Made per run and dropped after it: a live subscriber anywhere in the
                    // process turns the other cases' span checks on.
                    let (dispatch, _provider) = otel_dispatch();
                    tracing::dispatcher::with_default(&dispatch, || {
                        timed_calls(&rt, &registry, iterations, meter);
                    });
                },
            )
            .vs("no_hooks")
            .target(Target::Note("per recorded call"))
        })
        .case(
            Case::custom(
                "span_via_tracing",
                "one span with a call's GenAI fields, through tracing + tracing-opentelemetry",
                |iterations, meter| {
                    let (dispatch, _provider) = otel_dispatch();
                    tracing::dispatcher::with_default(&dispatch, || {
                        meter.measure(|| {
                            for _ in 0..iterations {
                                span_via_tracing(black_box("noop"), black_box("call-1"));
                            }
                        });
                    });
                },
            )
            .target(Target::Note("one span per call, composes with subscribers")),
        )
        .case(
            Case::custom(
                "span_via_otel_api",
                "the same span through the opentelemetry API directly",
                |iterations, meter| {
                    use opentelemetry::trace::TracerProvider as _;
                    let provider = opentelemetry_sdk::trace::SdkTracerProvider::builder().build();
                    let tracer = provider.tracer("bench");
                    meter.measure(|| {
                        for _ in 0..iterations {
                            span_via_otel_api(&tracer, black_box("noop"), black_box("call-1"));
                        }
                    });
                },
            )
            .vs("span_via_tracing"),
        )
        .case({
            let rt = Rc::clone(&rt);
            let journaled = journaled_registry();
            Case::custom(
                "journal_memory",
                "the same through the call journal in memory, each call a new one",
                move |iterations, meter| new_calls(&rt, &journaled, iterations, meter),
            )
            .vs("no_hooks")
            .target(Target::Note("issue 33 asks for ≤ 1.1 × no_hooks"))
        })
        .case({
            let rt = Rc::clone(&rt);
            let journaled = journaled_registry();
            Case::custom(
                "journal_replay",
                "the same call made again, replayed from the journal in memory",
                move |iterations, meter| timed_calls(&rt, &journaled, iterations, meter),
            )
            .vs("no_hooks")
        })
        // Last, so that its inputs do not precede the cases above in the allocator's history.
        .case({
            let rt = Rc::clone(&rt);
            Case::custom(
                "d_same_input",
                "the bare call, consuming the inputs `no_hooks` gets",
                move |iterations, meter| bare_calls_same_input(&rt, &tools, iterations, meter),
            )
            .vs("d")
        })
}

/// A subscriber exporting spans through `tracing-opentelemetry` to an SDK tracer that records
/// them and sends them nowhere, and the provider behind it.
fn otel_dispatch() -> (
    tracing::Dispatch,
    opentelemetry_sdk::trace::SdkTracerProvider,
) {
    use opentelemetry::trace::TracerProvider as _;
    use tracing_subscriber::layer::SubscriberExt;
    let provider = opentelemetry_sdk::trace::SdkTracerProvider::builder().build();
    let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("bench"));
    let dispatch = tracing::Dispatch::new(tracing_subscriber::registry().with(layer));
    (dispatch, provider)
}

/// A call's span as the pipeline records it with feature `otel`: fields at creation, the
/// definition's and the outcome's recorded later.
fn span_via_tracing(name: &str, call_id: &str) {
    use tracing::field::Empty;
    let span = tracing::info_span!(
        "tool_call",
        tool = name,
        call_id = call_id,
        outcome = Empty,
        duration_us = Empty,
        otel.name = format!("execute_tool {name}").as_str(),
        otel.kind = "internal",
        otel.status_code = Empty,
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = name,
        gen_ai.tool.call.id = call_id,
        gen_ai.tool.description = Empty,
        gen_ai.tool.type = Empty,
        gen_ai.tool.call.arguments = Empty,
        gen_ai.tool.call.result = Empty,
        error.type = Empty,
        dsh_tools.error.code = Empty,
        mcp.method.name = Empty,
        mcp.session.id = Empty,
    );
    span.record("gen_ai.tool.description", "Does nothing.");
    span.record("gen_ai.tool.type", "function");
    span.record("outcome", "ok");
    span.record("duration_us", 1_u64);
    black_box(&span);
}

/// The same span through the `opentelemetry` API.
fn span_via_otel_api(tracer: &opentelemetry_sdk::trace::SdkTracer, name: &str, call_id: &str) {
    use opentelemetry::KeyValue;
    use opentelemetry::trace::{Span as _, SpanKind, Tracer as _};
    let mut span = tracer
        .span_builder(format!("execute_tool {name}"))
        .with_kind(SpanKind::Internal)
        .with_attributes([
            KeyValue::new("gen_ai.operation.name", "execute_tool"),
            KeyValue::new("gen_ai.tool.name", name.to_owned()),
            KeyValue::new("gen_ai.tool.call.id", call_id.to_owned()),
            KeyValue::new("tool", name.to_owned()),
            KeyValue::new("call_id", call_id.to_owned()),
        ])
        .start(tracer);
    span.set_attribute(KeyValue::new("gen_ai.tool.description", "Does nothing."));
    span.set_attribute(KeyValue::new("gen_ai.tool.type", "function"));
    span.set_attribute(KeyValue::new("outcome", "ok"));
    span.set_attribute(KeyValue::new("duration_us", 1_i64));
    span.end();
}

/// Runs bare dynamic calls (baseline `d`).
fn bare_calls(rt: &Runtime, tools: &HashMap<String, DynTool>, iterations: u64, meter: &mut Meter) {
    meter.measure(|| {
        rt.block_on(async {
            for _ in 0..iterations {
                let tool = tools.get(black_box("noop")).expect("registered");
                black_box(tool(Value::Object(serde_json::Map::new())).await);
            }
        })
    });
}

/// Runs bare dynamic calls of the inputs `timed_calls` gets, built the same way.
fn bare_calls_same_input(
    rt: &Runtime,
    tools: &HashMap<String, DynTool>,
    iterations: u64,
    meter: &mut Meter,
) {
    in_batches(iterations, ASYNC_BATCH, meter, input, |inputs| {
        rt.block_on(async {
            for input in inputs {
                let input = black_box(input);
                let tool = tools.get(&*input.name).expect("registered");
                black_box(tool(input.arguments).await);
            }
        })
    });
}

/// Runs calls of `noop` whose inputs are built before the measured section.
fn timed_calls(rt: &Runtime, registry: &ToolRegistry, iterations: u64, meter: &mut Meter) {
    in_batches(iterations, ASYNC_BATCH, meter, input, |inputs| {
        rt.block_on(async {
            for input in inputs {
                black_box(registry.execute(black_box(input)).await);
            }
        })
    });
}

/// `noop` on a registry whose calls go through the call journal, in memory.
fn journaled_registry() -> ToolRegistry {
    let registry = noop_registry(0, None);
    registry.set_durability(Durability::new(MemoryStore::default()));
    registry
}

/// Runs calls of `noop`, each with a call id of its own, built before the measured section.
fn new_calls(rt: &Runtime, registry: &ToolRegistry, iterations: u64, meter: &mut Meter) {
    let mut next = 0u64;
    let mut fresh = || {
        next += 1;
        ToolExecutionInput::new(
            format!("call-{next}"),
            "noop",
            Value::Object(serde_json::Map::new()),
        )
    };
    in_batches(iterations, ASYNC_BATCH, meter, &mut fresh, |inputs| {
        rt.block_on(async {
            for input in inputs {
                black_box(registry.execute(black_box(input)).await);
            }
        })
    });
}

/// Runs calls of `noop`, building each input in the measured section.
fn calls_building_input(rt: &Runtime, registry: &ToolRegistry, iterations: u64, meter: &mut Meter) {
    meter.measure(|| {
        rt.block_on(async {
            for _ in 0..iterations {
                black_box(registry.execute(black_box(input())).await);
            }
        })
    });
}
