//! Pipeline overhead, measured against a bare dynamic async call in the same run.
//!
//! * `d_bare_dyn_call`: `HashMap<String, Arc<dyn Fn(Value) -> BoxFuture<Value>>>` lookup, call
//!   and await (baseline `d` of the shared benchmark workload; the ratios are taken to it).
//! * `d_same_input`: the same dispatch given the same prebuilt `ToolExecutionInput`s as
//!   `execute/no_hooks` (looked up by its name, called with its arguments, its two strings
//!   dropped in the loop). For context only: it shows what consuming the caller's input costs a
//!   bare dispatch too.
//! * `execute/no_hooks`: `registry.execute` of a no-argument tool with a trivial body (a direct
//!   `ToolDefinition`, the shape macro-generated tools have), given a ready `ToolExecutionInput`.
//! * `execute/no_hooks_building_input`: the same, building the input (two `String`s) per call.
//! * `execute/fn_tool`: the same tool written with `FnTool` (its handler gets owned arguments).
//! * `execute/budgeted`: `no_hooks` with a declared time budget, which the registry enforces: the
//!   body runs under its deadline (a timer and a child token).
//! * `execute/hooks_N`: `no_hooks` with N pre-execute listeners, guards, execute layers,
//!   post-execute listeners and result observers each (N = 1, 2, 3), to show linear growth.
//!
//! Every call runs on one current-thread runtime; a sample awaits its calls inside one
//! `block_on`, so runtime entry is not part of the per-call figure. Inputs of a sample are built
//! before its clock starts (their drop is still measured).
//!
//! For instruction counts, `PIPELINE_PROFILE=<case> valgrind --tool=callgrind <bench binary>`
//! runs one case (`d`, `d_same_input`, `no_hooks`, `no_hooks_building_input`, `fn_tool`,
//! `budgeted`, `hooks_1`, `hooks_2`, `hooks_3`) `PROFILE_ITERATIONS` times (or `PIPELINE_PROFILE_ITERATIONS`) instead of the
//! criterion run; divide the totals by that count.

use std::collections::HashMap;
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use dsh_tools::{
    BoxFuture, FnTool, ToolDefinition, ToolError, ToolExecutionInput, ToolRegistry, ToolRun, Value,
};
use tokio::runtime::{Builder, Runtime};

/// Iterations of a `PIPELINE_PROFILE` run.
const PROFILE_ITERATIONS: u64 = 100_000;

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
    timeout_ms: Option<u64>,
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

    fn timeout_ms(&self) -> Option<u64> {
        self.timeout_ms
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
            timeout_ms,
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

fn bench_pipeline(c: &mut Criterion) {
    let rt = runtime();

    if let Ok(case) = std::env::var("PIPELINE_PROFILE") {
        profile(&rt, &case);
        return;
    }

    let tools = bare_tools();
    c.bench_function("d_bare_dyn_call", |b| {
        b.iter_custom(|iters| bare_calls(&rt, &tools, iters));
    });

    let mut group = c.benchmark_group("execute");
    for per_kind in [0, 1, 2, 3] {
        let registry = registry_with_hooks(per_kind);
        let name = if per_kind == 0 {
            "no_hooks".to_owned()
        } else {
            format!("hooks_{per_kind}")
        };
        group.bench_function(name, |b| {
            b.iter_custom(|iters| timed_calls(&rt, &registry, iters));
        });
    }

    let registry = registry_with_hooks(0);
    group.bench_function("no_hooks_building_input", |b| {
        b.iter_custom(|iters| calls_building_input(&rt, &registry, iters));
    });

    let fn_tool = fn_tool_registry();
    group.bench_function("fn_tool", |b| {
        b.iter_custom(|iters| timed_calls(&rt, &fn_tool, iters));
    });

    let budgeted = noop_registry(0, Some(60_000));
    group.bench_function("budgeted", |b| {
        b.iter_custom(|iters| timed_calls(&rt, &budgeted, iters));
    });
    group.finish();

    // Last, so that its inputs do not precede the cases above in the allocator's history.
    c.bench_function("d_same_input", |b| {
        b.iter_custom(|iters| bare_calls_same_input(&rt, &tools, iters));
    });
}

/// Runs one case `PROFILE_ITERATIONS` times, for a profiler.
fn profile(rt: &Runtime, case: &str) {
    let iters = std::env::var("PIPELINE_PROFILE_ITERATIONS")
        .ok()
        .and_then(|count| count.parse().ok())
        .unwrap_or(PROFILE_ITERATIONS);
    let elapsed = match case {
        "d" => bare_calls(rt, &bare_tools(), iters),
        "d_same_input" => bare_calls_same_input(rt, &bare_tools(), iters),
        "no_hooks" => timed_calls(rt, &registry_with_hooks(0), iters),
        "no_hooks_building_input" => calls_building_input(rt, &registry_with_hooks(0), iters),
        "fn_tool" => timed_calls(rt, &fn_tool_registry(), iters),
        "budgeted" => timed_calls(rt, &noop_registry(0, Some(60_000)), iters),
        "hooks_1" => timed_calls(rt, &registry_with_hooks(1), iters),
        "hooks_2" => timed_calls(rt, &registry_with_hooks(2), iters),
        "hooks_3" => timed_calls(rt, &registry_with_hooks(3), iters),
        other => panic!("unknown PIPELINE_PROFILE case {other:?}"),
    };
    let per_call = elapsed.as_secs_f64() * 1e9 / iters as f64;
    eprintln!("{case}: {per_call:.1} ns per call over {iters} calls");
}

/// Runs `iters` bare dynamic calls (baseline `d`).
fn bare_calls(rt: &Runtime, tools: &HashMap<String, DynTool>, iters: u64) -> Duration {
    rt.block_on(async {
        let start = Instant::now();
        for _ in 0..iters {
            let tool = tools.get(black_box("noop")).expect("registered");
            black_box(tool(Value::Object(serde_json::Map::new())).await);
        }
        start.elapsed()
    })
}

/// Runs `iters` bare dynamic calls of the inputs `timed_calls` gets, built the same way.
fn bare_calls_same_input(rt: &Runtime, tools: &HashMap<String, DynTool>, iters: u64) -> Duration {
    let inputs: Vec<ToolExecutionInput> = (0..iters).map(|_| input()).collect();
    rt.block_on(async {
        let start = Instant::now();
        for input in inputs {
            let input = black_box(input);
            let tool = tools.get(input.name.as_str()).expect("registered");
            black_box(tool(input.arguments).await);
        }
        start.elapsed()
    })
}

/// Runs `iters` calls of `noop`, timing only the calls (inputs are built before the clock starts).
fn timed_calls(rt: &Runtime, registry: &ToolRegistry, iters: u64) -> Duration {
    let inputs: Vec<ToolExecutionInput> = (0..iters).map(|_| input()).collect();
    rt.block_on(async {
        let start = Instant::now();
        for input in inputs {
            black_box(registry.execute(black_box(input)).await);
        }
        start.elapsed()
    })
}

/// Runs `iters` calls of `noop`, building each input inside the timed loop.
fn calls_building_input(rt: &Runtime, registry: &ToolRegistry, iters: u64) -> Duration {
    rt.block_on(async {
        let start = Instant::now();
        for _ in 0..iters {
            black_box(registry.execute(black_box(input())).await);
        }
        start.elapsed()
    })
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = bench_pipeline
}
criterion_main!(benches);
