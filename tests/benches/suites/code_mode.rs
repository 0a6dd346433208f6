//! Code Mode's costs, measured against a direct call in the same run.
//!
//! * `direct`: `registry.execute` of `echo` (an `FnTool` returning its arguments) with
//!   `{"n": i}` — the baseline.
//! * `nested`: one `run_code` program making `iterations` calls of the same tool with the same
//!   arguments (`for (let i = 0; i < N; i++) await tools.echo({n: i})`). The harness counts it
//!   at two iteration counts, so what the run costs once (engine, context, program) cancels out
//!   and what remains is one nested call: the JavaScript call and promise, the arguments and
//!   result converted between JavaScript and JSON, and the call's own pipeline (polled on the
//!   engine's thread, answering the program before `tools.echo` returns).
//! * `await`: the same loop awaiting a number instead of a call (`await i`): what QuickJS
//!   alone spends on an `await` — wrapping the value in a promise, queueing the job that
//!   resumes the function, resuming it. No nested call can cost less than this.
//! * `run_empty`: `run_code` of `return 1`, per run — the fixed cost of a program (a context
//!   with the program's world, the program, freeing them; the thread and its runtime are kept
//!   warm by the registry between programs).
//!
//! The engine runs on a thread of its own; its work is collected with the measured sections
//! (see `ProgramThread::run` in `dsh-tools/src/code_mode/engine.rs`).

use std::hint::black_box;
use std::rc::Rc;
use std::time::Duration;

use dsh_tools::code_mode::{CodeLimits, CodeMode};
use dsh_tools::registry::RUN_CODE;
use dsh_tools::{FnTool, ToolExecutionInput, ToolRegistry, json};
use dsh_tools_tests::bench::{ASYNC_BATCH, Case, Meter, Suite, SuiteDef, Target, in_batches};
use tokio::runtime::{Builder, Runtime};

pub(crate) const SUITE: SuiteDef = SuiteDef::new("code_mode", suite);

fn runtime() -> Runtime {
    Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a current-thread runtime")
}

fn registry() -> ToolRegistry {
    let registry = ToolRegistry::new();
    let _ = registry
        .register(
            FnTool::builder("echo", "Echoes its arguments.")
                .raw_parameters(json!({"type": "object"}))
                .handler(|arguments, _run| async move { Ok(arguments) }),
        )
        .expect("registers");
    registry.set_code_mode(CodeMode::Both).unwrap();
    registry.set_code_limits(CodeLimits {
        max_nested_calls: usize::MAX,
        wall_time_ms: 600_000,
        ..CodeLimits::default()
    });
    registry
}

fn suite() -> Suite {
    let rt = Rc::new(runtime());
    let direct = {
        let (rt, registry) = (Rc::clone(&rt), registry());
        Case::custom(
            "direct",
            "`execute` of a tool returning its arguments, `{\"n\": i}`",
            move |iterations, meter| direct_calls(&rt, &registry, iterations, meter),
        )
    };
    let nested = {
        let (rt, registry) = (Rc::clone(&rt), registry());
        Case::custom(
            "nested",
            "the same call from a run_code program (`await tools.echo({n: i})`)",
            move |iterations, meter| nested_calls(&rt, &registry, iterations, meter),
        )
        .vs("direct")
        .target(Target::Ratio(3.0))
        .profile_iterations(200)
    };
    let awaits = {
        let (rt, registry) = (Rc::clone(&rt), registry());
        Case::custom(
            "await",
            "the program's `await` alone (`await i`): the floor of a nested call",
            move |iterations, meter| awaits(&rt, &registry, iterations, meter),
        )
        .vs("direct")
        .target(Target::Note("QuickJS's own cost"))
        .profile_iterations(200)
    };
    let empty = {
        let (rt, registry) = (Rc::clone(&rt), registry());
        Case::custom(
            "run_empty",
            "`run_code` of `return 1` (the fixed cost of a run)",
            move |iterations, meter| empty_runs(&rt, &registry, iterations, meter),
        )
        .vs("direct")
        .target(Target::Note("fixed cost per run"))
        .profile_iterations(20)
    };
    Suite::new("code_mode")
        .timing(Duration::from_secs(1), Duration::from_secs(3))
        .case(direct)
        .case(nested)
        .case(awaits)
        .case(empty)
}

fn run_code(code: String) -> ToolExecutionInput {
    ToolExecutionInput::new("run", RUN_CODE, json!({ "code": code }))
}

fn direct_calls(rt: &Runtime, registry: &ToolRegistry, iterations: u64, meter: &mut Meter) {
    let mut n = 0u64;
    let input = move || {
        n += 1;
        ToolExecutionInput::new("call", "echo", json!({ "n": n }))
    };
    in_batches(iterations, ASYNC_BATCH, meter, input, |inputs| {
        rt.block_on(async {
            for input in inputs {
                black_box(registry.execute(black_box(input)).await);
            }
        })
    });
}

fn nested_calls(rt: &Runtime, registry: &ToolRegistry, iterations: u64, meter: &mut Meter) {
    let input = run_code(format!(
        "for (let i = 0; i < {iterations}; i++) await tools.echo({{n: i}});"
    ));
    meter.measure(|| {
        let result = rt.block_on(registry.execute(black_box(input)));
        assert!(!result.is_error(), "{}", result.text());
    });
}

fn awaits(rt: &Runtime, registry: &ToolRegistry, iterations: u64, meter: &mut Meter) {
    let input = run_code(format!("for (let i = 0; i < {iterations}; i++) await i;"));
    meter.measure(|| {
        let result = rt.block_on(registry.execute(black_box(input)));
        assert!(!result.is_error(), "{}", result.text());
    });
}

fn empty_runs(rt: &Runtime, registry: &ToolRegistry, iterations: u64, meter: &mut Meter) {
    in_batches(
        iterations,
        ASYNC_BATCH,
        meter,
        || run_code("return 1".to_owned()),
        |inputs| {
            rt.block_on(async {
                for input in inputs {
                    black_box(registry.execute(black_box(input)).await);
                }
            })
        },
    );
}
