//! Code Mode: `run_code` runs a program whose `tools.<name>(args)` calls are nested calls through
//! the whole pipeline; scope modes; who may call a tool; hostile programs end with the
//! documented error within their limits.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use dsh_tools::code_mode::{CodeLimits, CodeMode, ToolCallers};
use dsh_tools::errors::ErrorCode;
use dsh_tools::hooks::{ApprovalOutcome, approver_fn};
use dsh_tools::registry::{RUN_CODE, RegistryErrorKind, ToolRestriction};
use dsh_tools::{
    FnTool, PreToolDecision, ToolExecutionInput, ToolExecutionResult, ToolRegistry, Value, json,
};
use tokio_util::sync::CancellationToken;

fn echo() -> FnTool {
    echo_for(ToolCallers::Both)
}

fn echo_for(callers: ToolCallers) -> FnTool {
    FnTool::builder("echo", "Echoes its arguments.")
        .raw_parameters(json!({"type": "object"}))
        .concurrency_classifier(|_| true)
        .options(dsh_tools::call::ToolOptions {
            allowed_callers: callers,
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(|arguments, _run| async move { Ok(arguments) })
}

fn fails() -> FnTool {
    FnTool::builder("fails", "Always fails.")
        .raw_parameters(json!({"type": "object"}))
        .handler(|_arguments, _run| async move {
            Err::<Value, _>(dsh_tools::ToolError::new("the disk is full"))
        })
}

/// A concurrency-safe tool that waits `ms` and counts how many of its calls overlap.
fn slow(running: Arc<AtomicUsize>, most: Arc<AtomicUsize>) -> FnTool {
    FnTool::builder("slow", "Waits a little.")
        .raw_parameters(json!({"type": "object"}))
        .concurrency_classifier(|_| true)
        .handler(move |arguments, run| {
            let running = Arc::clone(&running);
            let most = Arc::clone(&most);
            async move {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                let ms = arguments["ms"].as_u64().unwrap_or(20);
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(ms)) => {}
                    () = run.signal().cancelled() => {
                        running.fetch_sub(1, Ordering::SeqCst);
                        return Ok(json!("cancelled"));
                    }
                }
                running.fetch_sub(1, Ordering::SeqCst);
                Ok(arguments)
            }
        })
}

fn registry(mode: CodeMode) -> ToolRegistry {
    let registry = ToolRegistry::new();
    let _ = registry.register(echo()).expect("registers");
    let _ = registry.register(fails()).expect("registers");
    registry.set_code_mode(mode).unwrap();
    registry
}

async fn run(registry: &ToolRegistry, code: &str) -> ToolExecutionResult {
    registry
        .execute(ToolExecutionInput::new(
            "run-1",
            RUN_CODE,
            json!({ "code": code }),
        ))
        .await
}

fn failure_text(result: &ToolExecutionResult, code: &str) -> String {
    assert!(result.is_error(), "expected {code}, got {}", result.text());
    assert_eq!(result.error_code(), Some(code), "{}", result.text());
    result.text()
}

#[tokio::test]
async fn a_program_calls_tools_and_returns_json_with_its_output() {
    let registry = registry(CodeMode::Code);
    let result = run(
        &registry,
        "const a = await tools.echo({n: 1});\n\
         const b = await tools.echo({n: a.n + 1, list: [1, 2.5, 'x', null, true]});\n\
         console.log('sum', a.n + b.n, {ok: true});\n\
         return {a, b};",
    )
    .await;
    assert!(!result.is_error(), "{}", result.text());
    assert_eq!(
        result.value(),
        Some(&json!({
            "result": {"a": {"n": 1}, "b": {"n": 2, "list": [1, 2.5, "x", null, true]}},
            "output": "sum 3 {\"ok\":true}\n",
        }))
    );
    assert_eq!(
        result.text(),
        "Output:\nsum 3 {\"ok\":true}\nResult: {\"a\":{\"n\":1},\"b\":{\"n\":2,\"list\":[1,2.5,\"x\",null,true]}}"
    );
}

#[tokio::test]
async fn code_mode_lists_only_run_code_with_the_declaration_and_refuses_direct_calls() {
    let registry = registry(CodeMode::Code);
    let schemas = registry.schemas();
    let names: Vec<&str> = schemas.iter().map(|schema| schema.name.as_str()).collect();
    assert_eq!(names, [RUN_CODE]);
    assert!(
        schemas[0].description.contains("declare const tools"),
        "{}",
        schemas[0].description
    );
    assert!(schemas[0].description.contains("echo"));

    let direct = registry
        .execute(ToolExecutionInput::new("c", "echo", json!({})))
        .await;
    assert_eq!(
        failure_text(&direct, ErrorCode::UnknownTool.as_str()),
        "Error: unknown tool \"echo\": only `run_code` is callable directly — call `echo` from \
         inside a `run_code` program instead"
    );

    // Decided before any policy: no pre-execute hook hears the refused call.
    let heard = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&heard);
    let _hook = registry.on_pre_execute(move |_, next| {
        count.fetch_add(1, Ordering::SeqCst);
        next.run()
    });
    let direct = registry
        .execute(ToolExecutionInput::new("c", "echo", json!({})))
        .await;
    assert_eq!(direct.error_code(), Some(ErrorCode::UnknownTool.as_str()));
    assert_eq!(heard.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn native_mode_has_no_run_code_and_both_mode_has_both() {
    let registry = registry(CodeMode::Native);
    let names: Vec<String> = registry.schemas().iter().map(|s| s.name.clone()).collect();
    assert_eq!(names, ["echo", "fails"]);
    assert_eq!(
        run(&registry, "return 1").await.error_code(),
        Some(ErrorCode::UnknownTool.as_str())
    );

    registry.set_code_mode(CodeMode::Both).unwrap();
    let names: Vec<String> = registry.schemas().iter().map(|s| s.name.clone()).collect();
    assert_eq!(names, ["echo", "fails", RUN_CODE]);
    let direct = registry
        .execute(ToolExecutionInput::new("c", "echo", json!({"x": 1})))
        .await;
    assert!(!direct.is_error());
    assert!(
        !run(&registry, "return await tools.echo({})")
            .await
            .is_error()
    );
}

#[tokio::test]
async fn a_scope_inherits_its_parents_mode_unless_it_sets_one() {
    let registry = registry(CodeMode::Native);
    let parent = registry.create_child("lead").expect("a scope");
    let child = parent.create_child("worker").expect("a scope");
    parent.set_code_mode(CodeMode::Code).expect("set");
    let names = |schemas: Arc<[dsh_tools::ToolSchema]>| -> Vec<String> {
        schemas.iter().map(|s| s.name.clone()).collect()
    };
    assert_eq!(names(child.schemas()), [RUN_CODE]);
    child.set_code_mode(CodeMode::Native).expect("set");
    assert_eq!(names(child.schemas()), ["echo", "fails"]);
    child.set_code_mode(None).expect("set");
    assert_eq!(names(child.schemas()), [RUN_CODE]);
    assert_eq!(names(registry.schemas()), ["echo", "fails"]);
}

#[tokio::test]
async fn who_may_call_a_tool_decides_where_it_is_listed_and_what_is_refused() {
    let registry = ToolRegistry::new();
    let _ = registry
        .register(echo_for(ToolCallers::Program))
        .expect("registers");
    let _ = registry
        .register(
            FnTool::builder("ask_user", "Asks the user.")
                .raw_parameters(json!({"type": "object"}))
                .options(dsh_tools::call::ToolOptions {
                    allowed_callers: ToolCallers::Model,
                    ..dsh_tools::call::ToolOptions::default()
                })
                .handler(|_a, _r| async move { Ok(json!("yes")) }),
        )
        .expect("registers");
    registry.set_code_mode(CodeMode::Both).unwrap();
    let schemas = registry.schemas();
    let names: Vec<&str> = schemas.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["ask_user", RUN_CODE]);
    let declaration = &schemas[1].description;
    assert!(declaration.contains("echo"), "{declaration}");
    assert!(!declaration.contains("ask_user"), "{declaration}");

    let direct = registry
        .execute(ToolExecutionInput::new("c", "echo", json!({})))
        .await;
    assert_eq!(direct.error_code(), Some(ErrorCode::UnknownTool.as_str()));
    let nested = run(
        &registry,
        "try { await tools.ask_user({}); } catch (e) { return [e.name, e.code, e.message]; }",
    )
    .await;
    assert_eq!(
        nested.value().map(|value| &value["result"]),
        Some(&json!([
            "ToolCallError",
            "UNKNOWN_TOOL",
            "unknown tool \"ask_user\""
        ]))
    );
}

#[tokio::test]
async fn run_code_is_reserved_for_registration_and_restriction() {
    let registry = ToolRegistry::new();
    let error = registry
        .register(
            FnTool::builder(RUN_CODE, "mine")
                .raw_parameters(json!({"type": "object"}))
                .handler(|_a, _r| async move { Ok(json!(1)) }),
        )
        .expect_err("reserved");
    assert_eq!(error.kind, RegistryErrorKind::ReservedName);
    assert_eq!(
        error.to_string(),
        "tool name \"run_code\" is reserved for the Code Mode presentation transport and cannot \
         be registered or shadowed"
    );
    let scope = registry.create_child("ada").expect("a scope");
    let error = scope
        .restrict(ToolRestriction::deny([RUN_CODE]))
        .expect_err("reserved");
    assert_eq!(
        error.to_string(),
        "tools.restrict() cannot name reserved Code Mode presentation transport \"run_code\"; \
         restrict end-capability tools instead"
    );
}

#[tokio::test]
async fn nested_calls_meet_guards_approvals_and_failures_and_the_program_can_catch_them() {
    let registry = registry(CodeMode::Code);
    let _guard = registry.guard(|execution| {
        (execution.name() == "echo" && execution.arguments()["secret"] == json!(true))
            .then(|| "secrets stay here".to_owned())
    });
    let _ask = registry.on_pre_execute(|execution, next| async move {
        if execution.arguments()["ask"] == json!(true) {
            return Ok(PreToolDecision::Ask {
                reason: Some("writes a file".to_owned()),
            });
        }
        next.run().await
    });
    let approvals = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&approvals);
    let _ = registry.set_approver(approver_fn(move |request| {
        let seen = Arc::clone(&seen);
        async move {
            let n = request.execution.arguments()["n"].as_u64().unwrap_or(0);
            seen.lock().unwrap().push(n);
            Ok(if n == 1 {
                ApprovalOutcome::AllowedOnce
            } else {
                ApprovalOutcome::Rejected
            })
        }
    }));
    let result = run(
        &registry,
        "const out = [];\n\
         for (const args of [{secret: true}, {ask: true, n: 1}, {ask: true, n: 2}]) {\n\
           try { out.push(await tools.echo(args)); } catch (e) { out.push(e.code + ': ' + e.message); }\n\
         }\n\
         try { await tools.fails({}); } catch (e) { out.push(e.code + ': ' + e.message); }\n\
         try { await tools.nope({}); } catch (e) { out.push(e.code); }\n\
         return out;",
    )
    .await;
    assert!(!result.is_error(), "{}", result.text());
    assert_eq!(
        result.value().map(|value| &value["result"]),
        Some(&json!([
            "DENIED: secrets stay here",
            {"ask": true, "n": 1},
            "DENIED: the user rejected tool \"echo\"",
            "TOOL_ERROR: the disk is full",
            "UNKNOWN_TOOL",
        ]))
    );
    assert_eq!(*approvals.lock().unwrap(), [1, 2]);
}

#[tokio::test]
async fn observers_see_each_nested_call_with_the_program_as_its_parent() {
    let registry = registry(CodeMode::Code);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&seen);
    let _observer = registry.on_result(move |execution, _result| {
        record.lock().unwrap().push((
            execution.name().to_owned(),
            execution.token(),
            execution.parent(),
            execution.call_id().to_owned(),
        ));
    });
    let result = run(
        &registry,
        "await tools.echo({}); await tools.echo({}); return 1",
    )
    .await;
    assert!(!result.is_error(), "{}", result.text());
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 3);
    let program = seen
        .iter()
        .find(|call| call.0 == RUN_CODE)
        .expect("observed");
    let nested: Vec<_> = seen.iter().filter(|call| call.0 == "echo").collect();
    assert_eq!(nested.len(), 2);
    for call in &nested {
        assert_eq!(call.2, Some(program.1));
    }
    assert_eq!(nested[0].3, "run-1.1");
    assert_eq!(nested[1].3, "run-1.2");
}

#[tokio::test]
async fn promise_all_runs_safe_calls_together_up_to_the_bound() {
    let running = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let registry = registry(CodeMode::Code);
    let _ = registry
        .register(slow(Arc::clone(&running), Arc::clone(&most)))
        .expect("registers");
    registry.set_code_limits(CodeLimits {
        max_in_flight: 3,
        ..CodeLimits::default()
    });
    let result = run(
        &registry,
        "const all = await Promise.all([1,2,3,4,5,6,7].map(i => tools.slow({ms: 30, i})));\n\
         return all.map(r => r.i);",
    )
    .await;
    assert!(!result.is_error(), "{}", result.text());
    assert_eq!(
        result.value().map(|value| &value["result"]),
        Some(&json!([1, 2, 3, 4, 5, 6, 7]))
    );
    assert_eq!(
        most.load(Ordering::SeqCst),
        3,
        "three at a time, never more"
    );
}

#[tokio::test]
async fn exclusive_calls_run_alone_in_program_order() {
    let order = Arc::new(Mutex::new(Vec::new()));
    let registry = registry(CodeMode::Code);
    let log = Arc::clone(&order);
    let _ = registry
        .register(
            FnTool::builder("write", "Writes.")
                .raw_parameters(json!({"type": "object"}))
                .handler(move |arguments, _run| {
                    let log = Arc::clone(&log);
                    async move {
                        let n = arguments["n"].as_u64().unwrap_or(0);
                        log.lock().unwrap().push(format!("start {n}"));
                        tokio::time::sleep(Duration::from_millis(5 * (4 - n))).await;
                        log.lock().unwrap().push(format!("end {n}"));
                        Ok(json!(n))
                    }
                }),
        )
        .expect("registers");
    let result = run(
        &registry,
        "return await Promise.all([1, 2, 3].map(n => tools.write({n})));",
    )
    .await;
    assert!(!result.is_error(), "{}", result.text());
    assert_eq!(
        *order.lock().unwrap(),
        ["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"]
    );
}

/// A tool that logs its name when it starts and, unless it ends at once (`ms` 0), when it ends.
fn logged(name: &'static str, safe: bool, log: &Arc<Mutex<Vec<String>>>) -> FnTool {
    let log = Arc::clone(log);
    FnTool::builder(name, "Logs its start and end.")
        .raw_parameters(json!({"type": "object"}))
        .concurrency_classifier(move |_| safe)
        .handler(move |arguments, _run| {
            let log = Arc::clone(&log);
            async move {
                let ms = arguments["ms"].as_u64().unwrap_or(0);
                log.lock().unwrap().push(name.to_owned());
                if ms > 0 {
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                    log.lock().unwrap().push(format!("{name} ended"));
                }
                Ok(json!(name))
            }
        })
}

#[tokio::test]
async fn calls_that_end_at_once_keep_the_programs_order_and_bounds() {
    // A call that ends at its first poll answers the program before `tools.<name>` returns; it
    // still starts only when the order and the bounds let it, as any call does.
    let log = Arc::new(Mutex::new(Vec::new()));
    let registry = registry(CodeMode::Code);
    for (name, safe) in [
        ("safe_slow", true),
        ("safe_quick", true),
        ("exclusive_slow", false),
        ("exclusive_quick", false),
    ] {
        let _ = registry
            .register(logged(name, safe, &log))
            .expect("registers");
    }
    let cases: &[(usize, &str, &[&str])] = &[
        // Room for two: the quick call runs beside the slow one.
        (
            2,
            "tools.safe_slow({ms: 50}), tools.safe_quick({})",
            &["safe_slow", "safe_quick", "safe_slow ended"],
        ),
        // Room for one: the quick call waits for the slow one, though it would end at once.
        (
            1,
            "tools.safe_slow({ms: 50}), tools.safe_quick({})",
            &["safe_slow", "safe_slow ended", "safe_quick"],
        ),
        // An exclusive quick call waits for the call in flight before it.
        (
            8,
            "tools.safe_slow({ms: 50}), tools.exclusive_quick({})",
            &["safe_slow", "safe_slow ended", "exclusive_quick"],
        ),
        // And a quick call after an exclusive one waits for it.
        (
            8,
            "tools.exclusive_slow({ms: 50}), tools.safe_quick({})",
            &["exclusive_slow", "exclusive_slow ended", "safe_quick"],
        ),
        // Calls that all end at once run in the program's order.
        (
            8,
            "tools.safe_quick({}), tools.exclusive_quick({}), tools.safe_quick({})",
            &["safe_quick", "exclusive_quick", "safe_quick"],
        ),
    ];
    for (max_in_flight, calls, expected) in cases {
        registry.set_code_limits(CodeLimits {
            max_in_flight: *max_in_flight,
            ..CodeLimits::default()
        });
        log.lock().unwrap().clear();
        let program = format!("return await Promise.all([{calls}]);");
        let result = run_or_hang(&registry, &program).await;
        assert!(!result.is_error(), "{program}: {}", result.text());
        assert_eq!(
            *log.lock().unwrap(),
            *expected,
            "{program} ({max_in_flight} in flight)"
        );
    }
}

#[tokio::test]
async fn a_program_that_never_yields_to_its_caller_leaves_the_callers_executor_free() {
    // The test's runtime has one thread: if the program held it, the task that cancels the run
    // could not run, and the run would end at its wall time instead.
    let registry = registry(CodeMode::Code);
    registry.set_code_limits(CodeLimits {
        wall_time_ms: 20_000,
        max_nested_calls: usize::MAX,
        ..CodeLimits::default()
    });
    for program in [
        "for (;;) {}",
        // Every call ends at once, answered on the engine's thread: the program never waits.
        "for (;;) await tools.echo({});",
    ] {
        let signal = CancellationToken::new();
        let cancel = signal.clone();
        let canceller = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            cancel.cancel();
        });
        let result = registry
            .execute(
                ToolExecutionInput::new("run-1", RUN_CODE, json!({ "code": program }))
                    .with_signal(signal),
            )
            .await;
        assert_eq!(
            result.error_code(),
            Some(ErrorCode::Aborted.as_str()),
            "{program}: {}",
            result.text()
        );
        canceller.await.expect("the canceller ran");
    }
    // And the wall time still ends either.
    registry.set_code_limits(CodeLimits {
        wall_time_ms: 300,
        max_nested_calls: usize::MAX,
        ..CodeLimits::default()
    });
    for program in ["for (;;) {}", "for (;;) await tools.echo({});"] {
        let result = run_or_hang(&registry, program).await;
        let text = failure_text(&result, ErrorCode::ToolTimeout.as_str());
        assert!(text.contains("after 300ms"), "{program}: {text}");
    }
}

#[tokio::test]
async fn syntax_errors_and_uncaught_exceptions_say_where() {
    let registry = registry(CodeMode::Code);
    let text = failure_text(
        &run(&registry, "const a = 1;\nconst b = ;\n").await,
        ErrorCode::CodeRunFailed.as_str(),
    );
    assert!(text.starts_with("Error: SyntaxError: "), "{text}");
    assert!(text.contains(" at 2:"), "{text}");

    let text = failure_text(
        &run(&registry, "console.log('before');\nnull.x;\n").await,
        ErrorCode::CodeRunFailed.as_str(),
    );
    assert!(text.starts_with("Error: TypeError: "), "{text}");
    assert!(text.contains(" at 2:"), "{text}");
    assert!(
        text.ends_with("Output before the failure:\nbefore"),
        "{text}"
    );

    // An uncaught failure of a nested call names the tool, and where the program calls it.
    let text = failure_text(
        &run(
            &registry,
            "const a = await tools.echo({n: 1});\nconst b = await tools.echo({n: 2});\nconst c = await tools.fails({});\nreturn [a, b, c];",
        )
        .await,
        ErrorCode::CodeRunFailed.as_str(),
    );
    assert_eq!(
        text,
        "Error: Uncaught ToolCallError (TOOL_ERROR) from tools.fails: the disk is full at 3:17"
    );
    // Called in several places: the tool's name says which call failed.
    let text = failure_text(
        &run(
            &registry,
            "try { await tools.fails({}); } catch (e) {}\nawait tools.fails({});",
        )
        .await,
        ErrorCode::CodeRunFailed.as_str(),
    );
    assert_eq!(
        text,
        "Error: Uncaught ToolCallError (TOOL_ERROR) from tools.fails: the disk is full"
    );

    let text = failure_text(
        &run(&registry, "throw 'plain';").await,
        ErrorCode::CodeRunFailed.as_str(),
    );
    assert_eq!(text, "Error: Uncaught plain");
}

#[tokio::test]
async fn typescript_is_refused_with_a_text_that_says_so() {
    let registry = registry(CodeMode::Code);
    let text = failure_text(
        &run(
            &registry,
            "const hits: string[] = [];\nconst r = await tools.echo({a: 1});\nreturn r;",
        )
        .await,
        ErrorCode::CodeRunFailed.as_str(),
    );
    assert!(text.contains("this program is TypeScript"), "{text}");
    assert!(text.contains(" at 1:"), "{text}");

    // What models write in TypeScript, each said to be TypeScript where the engine stops.
    for program in [
        "async function read(path: string) { return path }\nreturn read('a');",
        "interface Hit { path: string }\nreturn 1;",
        "type Mode = 'a' | 'b';\nreturn 1;",
        "const hits = (await tools.echo({a: 1})) as EchoOutput;\nreturn hits;",
        "const f = (x: number): number => x;\nreturn f(1);",
        "const m = new Map<string, number>();\nreturn 1;",
        "const o = {n: 1};\nconst total: number = o.n;\nreturn total;",
    ] {
        let text = failure_text(
            &run(&registry, program).await,
            ErrorCode::CodeRunFailed.as_str(),
        );
        assert!(
            text.contains("this program is TypeScript"),
            "{program}: {text}"
        );
    }
    // Broken JavaScript whose object literals look like annotations is not TypeScript.
    for program in [
        "const n = 3;\nconst o = {count: n, total: Math.floor(n / 2)};\nreturn o.total +;",
        "const r = {k: JSON.stringify({}), v: Object.keys({})};\nreturn r.k.;",
        "const s = {n: NaN, m: Infinity};\nif (s.n {}",
    ] {
        let text = failure_text(
            &run(&registry, program).await,
            ErrorCode::CodeRunFailed.as_str(),
        );
        assert!(
            text.starts_with("Error: SyntaxError: "),
            "{program}: {text}"
        );
        assert!(!text.contains("TypeScript"), "{program}: {text}");
    }
}

#[tokio::test]
async fn hostile_programs_end_with_the_documented_error_within_their_limits() {
    let registry = registry(CodeMode::Code);
    let limits = |wall_time_ms| CodeLimits {
        wall_time_ms,
        memory_bytes: 16 << 20,
        max_output_bytes: 4096,
        max_nested_calls: 100,
        ..CodeLimits::default()
    };
    let cases: &[(&str, &str, &str)] = &[
        (
            "while (true) {}",
            ErrorCode::ToolTimeout.as_str(),
            "timed out",
        ),
        (
            "for (;;) { try { while (true) {} } catch (e) {} }",
            ErrorCode::ToolTimeout.as_str(),
            "timed out",
        ),
        (
            "const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {});",
            ErrorCode::CodeRunFailed.as_str(),
            "promise",
        ),
        (
            "const spin = () => { queueMicrotask(spin) }; spin(); await new Promise(() => {});",
            ErrorCode::ToolTimeout.as_str(),
            "timed out",
        ),
        (
            "const a = []; for (;;) a.push(new Array(100000).fill(1));",
            ErrorCode::CodeRunFailed.as_str(),
            "memory",
        ),
        (
            "const f = (n) => f(n + 1) + 1; f(0);",
            ErrorCode::CodeRunFailed.as_str(),
            "stack",
        ),
        (
            "for (;;) console.log('x'.repeat(1000));",
            ErrorCode::CodeRunFailed.as_str(),
            "output limit of 4096 bytes",
        ),
        (
            "for (;;) { try { console.log('y'.repeat(1000)); } catch (e) {} }",
            ErrorCode::CodeRunFailed.as_str(),
            "output limit",
        ),
        (
            "for (let i = 0; i < 10000; i++) await tools.echo({i});",
            ErrorCode::CodeRunFailed.as_str(),
            "more than its limit of 100 nested calls",
        ),
        (
            "await Promise.all(Array.from({length: 1000}, (_, i) => tools.echo({i})));",
            ErrorCode::CodeRunFailed.as_str(),
            "100 nested calls",
        ),
        (
            "eval('1 + 1')",
            ErrorCode::CodeRunFailed.as_str(),
            "eval is not available",
        ),
        (
            "new Function('return 1')()",
            ErrorCode::CodeRunFailed.as_str(),
            "Function constructor",
        ),
        (
            "(function(){}).constructor('return 1')()",
            ErrorCode::CodeRunFailed.as_str(),
            "Function constructor",
        ),
        (
            "require('fs')",
            ErrorCode::CodeRunFailed.as_str(),
            "require",
        ),
        (
            "await fetch('http://localhost')",
            ErrorCode::CodeRunFailed.as_str(),
            "fetch",
        ),
        (
            "process.exit(1)",
            ErrorCode::CodeRunFailed.as_str(),
            "process",
        ),
        ("std.exit(1)", ErrorCode::CodeRunFailed.as_str(), "std"),
        ("os.exec(['ls'])", ErrorCode::CodeRunFailed.as_str(), "os"),
        ("await import('os')", ErrorCode::CodeRunFailed.as_str(), ""),
        (
            "tools.echo = 1;",
            ErrorCode::CodeRunFailed.as_str(),
            "read-only",
        ),
        (
            "Object.setPrototypeOf(tools, {});",
            ErrorCode::CodeRunFailed.as_str(),
            "read-only",
        ),
        (
            "await new Promise(() => {});",
            ErrorCode::CodeRunFailed.as_str(),
            "nothing settles",
        ),
        (
            "return NaN;",
            ErrorCode::CodeRunFailed.as_str(),
            "not JSON: NaN",
        ),
        (
            "await tools.echo({n: Infinity});",
            ErrorCode::CodeRunFailed.as_str(),
            "not JSON",
        ),
    ];
    let mut wrong = Vec::new();
    for (program, code, fragment) in cases {
        // A case that must end on another limit (memory, stack, output, nested calls) gets a
        // wall time it cannot reach first, however busy the machine's cores are with other tests.
        let wall_time_ms = if *code == ErrorCode::ToolTimeout.as_str() {
            400
        } else {
            10_000
        };
        registry.set_code_limits(limits(wall_time_ms));
        let result = run(&registry, program).await;
        let text = result.text();
        if result.error_code() != Some(*code) || !text.contains(fragment) {
            wrong.push(format!(
                "{program}\n  expected {code} with {fragment:?}\n  got {text}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The host is unaffected: the registry still runs programs.
    assert!(!run(&registry, "return 1").await.is_error());
}

#[tokio::test]
async fn what_a_program_changes_is_not_seen_by_the_next_one() {
    // The registry keeps engines warm between programs; each program still gets a world of its
    // own. The first program changes all it can reach (and fails to change `tools`), both when
    // it finishes and when a limit stops it part-way.
    let registry = registry(CodeMode::Code);
    registry.set_code_limits(CodeLimits {
        wall_time_ms: 500,
        ..CodeLimits::default()
    });
    let tamper = "globalThis.leaked = 1; var declared = 1; undeclared = 1;\n\
                  Array.prototype.extra = 1; Object.prototype.polluted = 1;\n\
                  JSON.parse = () => 'tampered'; Error.prototype.name = 'Tampered';\n\
                  try { tools.echo = () => 'tampered'; } catch (error) {}\n\
                  try { Object.defineProperty(tools, 'fails', { value: 1 }); } catch (error) {}\n\
                  await tools.echo({});";
    let look = "return [typeof leaked, typeof declared, typeof undeclared, [].extra,\n\
                ({}).polluted, JSON.parse('1'), new Error('x').name,\n\
                await tools.echo({ n: 1 })];";
    let fresh = json!([
        "undefined",
        "undefined",
        "undefined",
        null,
        null,
        1,
        "Error",
        {"n": 1}
    ]);
    for ending in ["return 1;", "while (true) {}", "throw new Error('out');"] {
        let _ = run(&registry, &format!("{tamper}\n{ending}")).await;
        let result = run(&registry, look).await;
        assert!(!result.is_error(), "after `{ending}`: {}", result.text());
        assert_eq!(
            result.value().map(|value| &value["result"]),
            Some(&fresh),
            "after `{ending}`"
        );
    }
}

#[tokio::test]
async fn a_program_too_long_is_refused_before_it_runs() {
    let registry = registry(CodeMode::Code);
    registry.set_code_limits(CodeLimits {
        max_source_bytes: 10,
        ..CodeLimits::default()
    });
    let text = failure_text(
        &run(&registry, "return 12345678;").await,
        ErrorCode::CodeRunFailed.as_str(),
    );
    assert_eq!(
        text,
        "Error: the program is 16 bytes long, more than its limit of 10 bytes"
    );
}

#[tokio::test]
async fn a_cancelled_program_cancels_its_nested_call() {
    let running = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let registry = registry(CodeMode::Code);
    let _ = registry
        .register(slow(Arc::clone(&running), Arc::clone(&most)))
        .expect("registers");
    let nested = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&nested);
    let _observer = registry.on_result(move |execution, result| {
        if execution.name() == "slow" {
            record
                .lock()
                .unwrap()
                .push(result.error_code().map(str::to_owned));
        }
    });
    let signal = CancellationToken::new();
    let cancel = signal.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        cancel.cancel();
    });
    let result = registry
        .execute(
            ToolExecutionInput::new(
                "run-1",
                RUN_CODE,
                json!({"code": "console.log('started'); await tools.slow({ms: 60000});"}),
            )
            .with_signal(signal),
        )
        .await;
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::Aborted.as_str()),
        "{}",
        result.text()
    );
    assert_eq!(
        *nested.lock().unwrap(),
        [Some(ErrorCode::Aborted.as_str().to_owned())]
    );
    assert_eq!(running.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn nested_calls_additional_contexts_reach_the_model_with_the_run() {
    let registry = registry(CodeMode::Code);
    let _ = registry
        .register(
            FnTool::builder("note", "Leaves a note.")
                .raw_parameters(json!({"type": "object"}))
                .handler(|_a, run| async move {
                    run.defer_context(dsh_tools::ContentBlock::text("remember the milk"));
                    Ok(json!("ok"))
                }),
        )
        .expect("registers");
    let result = run(&registry, "await tools.note({}); return 'done'").await;
    assert!(!result.is_error(), "{}", result.text());
    let contexts: Vec<String> = result
        .additional_contexts()
        .iter()
        .map(|block| format!("{block:?}"))
        .collect();
    assert_eq!(contexts.len(), 1);
    assert!(contexts[0].contains("remember the milk"));
}

#[tokio::test]
async fn an_acp_client_sees_the_nested_cards_under_the_programs() {
    use dsh_tools::acp::{AcpCards, AcpToolCalls};
    let registry = registry(CodeMode::Code);
    let sent = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&sent);
    let _shown = registry.observe(AcpToolCalls::with_sender(
        "session-1",
        AcpCards::new("/work", false),
        move |notification| sink.lock().unwrap().push(notification),
    ));
    let result = run(&registry, "await tools.echo({a: 1}); return 'ok'").await;
    assert!(!result.is_error(), "{}", result.text());
    let sent = serde_json::to_value(&*sent.lock().unwrap()).expect("serializes");
    let starts: Vec<&Value> = sent
        .as_array()
        .expect("a list")
        .iter()
        .map(|notification| &notification["update"])
        .filter(|update| update["sessionUpdate"] == "tool_call")
        .collect();
    assert_eq!(starts.len(), 2, "{sent:#}");
    assert_eq!(starts[0]["toolCallId"], "run-1");
    assert!(starts[0].get("_meta").is_none());
    assert_eq!(starts[1]["toolCallId"], "run-1.1");
    assert_eq!(starts[1]["_meta"]["parentToolCallId"], "run-1");
}

#[tokio::test]
async fn nested_calls_that_time_out_or_panic_reject_with_their_codes() {
    let registry = registry(CodeMode::Code);
    let _ = registry
        .register(
            FnTool::builder("sleepy", "Sleeps past its budget.")
                .raw_parameters(json!({"type": "object"}))
                .options(dsh_tools::call::ToolOptions {
                    timeout_ms: Some(20),
                    ..dsh_tools::call::ToolOptions::default()
                })
                .handler(|_a, _r| async move {
                    tokio::time::sleep(Duration::from_secs(30)).await;
                    Ok(json!("late"))
                }),
        )
        .expect("registers");
    let _ = registry
        .register(
            FnTool::builder("broken", "Panics.")
                .raw_parameters(json!({"type": "object"}))
                .handler(|_a, _r| async move {
                    if true {
                        panic!("out of cheese");
                    }
                    Ok(json!(null))
                }),
        )
        .expect("registers");
    let result = run(
        &registry,
        "const out = [];\n\
         for (const name of ['sleepy', 'broken']) {\n\
           try { await tools[name]({}); } catch (e) { out.push([e.tool, e.code, e.message]); }\n\
         }\n\
         return out;",
    )
    .await;
    assert!(!result.is_error(), "{}", result.text());
    assert_eq!(
        result.value().map(|value| &value["result"]),
        Some(&json!([
            ["sleepy", "TOOL_TIMEOUT", "tool call timed out after 20ms"],
            [
                "broken",
                "TOOL_PANICKED",
                "tool \"broken\" panicked: out of cheese"
            ],
        ]))
    );
}

#[test]
fn a_runs_card_shows_its_program_and_grows_with_it_while_written() {
    use dsh_tools::present::{ToolCallKind, ToolCallView};
    let registry = registry(CodeMode::Code);
    let program = |card: &ToolCallView| match card {
        ToolCallView::Generic {
            title,
            kind,
            content,
            ..
        } => {
            assert_eq!((title.as_str(), *kind), ("Run code", ToolCallKind::Execute));
            content
                .iter()
                .filter_map(dsh_tools_tests::block_text)
                .collect::<Vec<_>>()
                .join("")
        }
        other => panic!("a generic card: {other:?}"),
    };
    let input = ToolExecutionInput::new("run-1", RUN_CODE, json!({"code": "return 1;\n"}));
    assert_eq!(
        program(&registry.present_call(&input)),
        "```javascript\nreturn 1;\n```"
    );
    // While the model writes it: the program so far.
    let partial =
        registry.present_partial_call(RUN_CODE, &json!({"code": "const a = await tools."}));
    assert_eq!(
        program(&partial),
        "```javascript\nconst a = await tools.\n```"
    );
    // Backticks in the program never close its block.
    let templated = ToolExecutionInput::new(
        "run-2",
        RUN_CODE,
        json!({"code": "console.log(`a ${1}`);\n// ```\nreturn 2;"}),
    );
    assert_eq!(
        program(&registry.present_call(&templated)),
        "````javascript\nconsole.log(`a ${1}`);\n// ```\nreturn 2;\n````"
    );
}

/// A tool that waits until its call is cancelled, and says so.
fn waits_for_cancellation() -> FnTool {
    FnTool::builder("waits", "Waits until cancelled.")
        .raw_parameters(json!({"type": "object"}))
        .concurrency_classifier(|_| true)
        .handler(|_arguments, run| async move {
            run.signal().cancelled().await;
            Ok(json!("cancelled"))
        })
}

/// Runs `code`, failing (rather than hanging) if the run does not return within a minute.
async fn run_or_hang(registry: &ToolRegistry, code: &str) -> ToolExecutionResult {
    tokio::time::timeout(Duration::from_secs(60), run(registry, code))
        .await
        .unwrap_or_else(|_| panic!("the run of `{code}` never returned"))
}

#[tokio::test]
async fn any_end_of_a_program_cancels_its_calls_in_flight() {
    // Before, the run waited for its calls in flight whatever ended it: a call that waits for
    // its cancellation kept it waiting for ever.
    let registry = registry(CodeMode::Code);
    let _ = registry
        .register(waits_for_cancellation())
        .expect("registers");
    let nested = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&nested);
    let _observer = registry.on_result(move |execution, result| {
        if execution.name() == "waits" {
            record
                .lock()
                .unwrap()
                .push(result.error_code().map(str::to_owned));
        }
    });
    let cases: &[(&str, u64, &str, &str)] = &[
        (
            "await tools.waits({});",
            300,
            ErrorCode::ToolTimeout.as_str(),
            "after 300ms",
        ),
        (
            "tools.waits({}); await tools.echo({}); for (;;) console.log('x'.repeat(1000));",
            10_000,
            ErrorCode::CodeRunFailed.as_str(),
            "output limit",
        ),
        (
            "tools.waits({}); await tools.echo({}); throw new Error('out');",
            10_000,
            ErrorCode::CodeRunFailed.as_str(),
            "Error: out",
        ),
        // A program that returns without waiting for its call: the wall time still ends it.
        (
            "tools.waits({}); await tools.echo({}); return 1;",
            300,
            "",
            "",
        ),
    ];
    for (program, wall_time_ms, code, fragment) in cases {
        registry.set_code_limits(CodeLimits {
            wall_time_ms: *wall_time_ms,
            max_output_bytes: 4096,
            ..CodeLimits::default()
        });
        nested.lock().unwrap().clear();
        let result = run_or_hang(&registry, program).await;
        if code.is_empty() {
            assert!(!result.is_error(), "{program}: {}", result.text());
        } else {
            assert!(
                failure_text(&result, code).contains(fragment),
                "{program}: {}",
                result.text()
            );
        }
        // The call (started before the program went on) was cancelled, and ended before the run
        // did.
        assert_eq!(
            *nested.lock().unwrap(),
            [Some(ErrorCode::Aborted.as_str().to_owned())],
            "{program}"
        );
    }
}

#[tokio::test]
async fn a_nested_call_that_ignores_its_cancellation_is_dropped_after_the_grace() {
    // Before, a 3 s nested call held a 300 ms program until it finished.
    let registry = registry(CodeMode::Code);
    registry.set_limits(dsh_tools::policy::CallLimits {
        timeout_grace: Duration::from_millis(100),
        ..dsh_tools::policy::CallLimits::default()
    });
    registry.set_code_limits(CodeLimits {
        wall_time_ms: 300,
        ..CodeLimits::default()
    });
    let finished = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&finished);
    let _ = registry
        .register(
            FnTool::builder("stubborn", "Sleeps 3 s, whatever happens.")
                .raw_parameters(json!({"type": "object"}))
                .handler(move |_arguments, _run| {
                    let counter = Arc::clone(&counter);
                    async move {
                        tokio::time::sleep(Duration::from_secs(3)).await;
                        counter.fetch_add(1, Ordering::SeqCst);
                        Ok(json!("late"))
                    }
                }),
        )
        .expect("registers");
    let result = run_or_hang(&registry, "await tools.stubborn({});").await;
    let text = failure_text(&result, ErrorCode::ToolTimeout.as_str());
    assert!(text.contains("after 300ms"), "{text}");
    assert_eq!(
        finished.load(Ordering::SeqCst),
        0,
        "the nested body was dropped before it could finish"
    );
    // Dropped, it never finishes later either.
    tokio::time::sleep(Duration::from_millis(3500)).await;
    assert_eq!(finished.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_memory_bomb_of_small_objects_ends_with_the_memory_limit() {
    // Before, these ended with "Uncaught null": the engine had no room left for the error.
    let registry = registry(CodeMode::Code);
    registry.set_code_limits(CodeLimits {
        wall_time_ms: 60_000,
        memory_bytes: 16 << 20,
        ..CodeLimits::default()
    });
    let mut wrong = Vec::new();
    for program in [
        "const keep = []; for (;;) keep.push([1]);",
        "const keep = new Map(); for (let i = 0; ; i++) keep.set(i, {a: i});",
        "const keep = []; for (;;) keep.push({a: 1});",
        "let keep = null; for (;;) keep = {next: keep};",
    ] {
        let result = run_or_hang(&registry, program).await;
        let text = result.text();
        if result.error_code() != Some(ErrorCode::CodeRunFailed.as_str())
            || !text.contains("ran out of memory (its limit is 16777216 bytes)")
        {
            wrong.push(format!("{program}\n  got {text}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // A program's own `throw null` is still its own.
    let text = failure_text(
        &run(&registry, "throw null;").await,
        ErrorCode::CodeRunFailed.as_str(),
    );
    assert_eq!(text, "Error: Uncaught null");
}
