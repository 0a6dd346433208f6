//! The two paths of the pipeline agree: every rule that applies to a call with no hooks (which
//! takes the short path) gives the same result when a hook that changes nothing forces the full
//! pipeline — a pass-through pre-execute listener, guard, `execute` layer (keeping or replacing
//! the body's token), post-execute listener, result observer or call observer.
//!
//! Each scenario runs once per path on a registry of its own, and its result (text, code, value,
//! error, meta, additional contexts, content) and what its tools logged must be identical to the
//! short path's; each also checks its expected outcome, so that a phase dropped from either path
//! or from both fails here, and how often the pass-through hook ran (once, or not at all for a
//! call its caller cancelled before dispatch, which only observers see). A second test checks
//! that each registry takes the path it is meant to: only the short path hands a body that takes
//! its arguments by value the call's arguments.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::time::Duration;

use dsh_tools::{
    ContentBlock, FnTool, ToolArgs, ToolError, ToolExecutionInput, ToolExecutionResult,
    ToolRegistry, Value,
    call::FnToolBuilder,
    errors::ErrorCode,
    hooks::{CallObserver, ObservedCall},
    json,
    policy::CallLimits,
    schema::Schema,
    tool,
};
use dsh_tools_tests::counted::{BY_REFERENCE, BY_VALUE, Counted, counting};
use dsh_tools_tests::{Counter, Log, call, call_with, echo_tool, ok_tool};
use tokio_util::sync::CancellationToken;

/// A call in flight, made by a scenario.
type Pending = Pin<Box<dyn Future<Output = ToolExecutionResult> + Send>>;

/// One rule of the pipeline, exercised through the public API.
struct Scenario {
    name: &'static str,
    /// Registers the scenario's tools on `registry` (fresh for each path) and makes its call;
    /// the tools log what they do into the log.
    call: fn(&ToolRegistry, &Log) -> Pending,
    /// What the short path must give (the full path must then give the same).
    expect: fn(&ToolExecutionResult, &[String]),
    /// The call ends before any hook but observers runs (the caller had already cancelled, or
    /// the arguments are invalid).
    ends_before_hooks: bool,
}

/// Everything a result shows, except the token that stamps it (one per call).
#[derive(Debug, PartialEq)]
struct Outcome {
    text: String,
    is_error: bool,
    code: Option<String>,
    value: Option<Value>,
    meta: Option<Value>,
    content: Vec<ContentBlock>,
    additional_contexts: Vec<ContentBlock>,
    /// The serialized result (content, value or error, meta, additional contexts).
    serialized: Value,
    /// What the scenario's tools logged.
    log: Vec<String>,
}

impl Outcome {
    fn of(result: &ToolExecutionResult, log: &Log) -> Self {
        Self {
            text: result.text(),
            is_error: result.is_error(),
            code: result.error_code().map(str::to_owned),
            value: result.value().cloned(),
            meta: result.meta().cloned(),
            content: result.content().to_vec(),
            additional_contexts: result.additional_contexts().to_vec(),
            serialized: serde_json::to_value(result).expect("a result serializes"),
            log: log.entries(),
        }
    }
}

/// How a call is made to go through the pipeline.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Path {
    /// No hook: the short path.
    Short,
    PreExecute,
    Guard,
    Layer,
    LayerReplacingToken,
    PostExecute,
    ResultObserver,
    CallObserver,
}

const FULL_PATHS: [Path; 7] = [
    Path::PreExecute,
    Path::Guard,
    Path::Layer,
    Path::LayerReplacingToken,
    Path::PostExecute,
    Path::ResultObserver,
    Path::CallObserver,
];

/// A call observer that only counts the calls it hears of.
struct CountingCallObserver(Counter);

impl CallObserver for CountingCallObserver {
    fn on_result(&self, _: &ObservedCall<'_>, _: &ToolExecutionResult) {
        self.0.bump();
    }
}

/// A registry on which calls take `path`, and a counter of the times its hook ran.
fn registry_for(path: Path) -> (ToolRegistry, Counter) {
    let registry = ToolRegistry::new();
    let ran = Counter::new();
    let counter = ran.clone();
    let _ = match path {
        Path::Short => return (registry, ran),
        Path::PreExecute => registry.on_pre_execute(move |_, next| {
            counter.bump();
            next.run()
        }),
        Path::Guard => registry.guard(move |_| {
            counter.bump();
            None
        }),
        Path::Layer => registry.on_execute(move |request, next| {
            counter.bump();
            next.run(request)
        }),
        Path::LayerReplacingToken => registry.on_execute(move |request, next| {
            counter.bump();
            let token = request.signal().child_token();
            next.run(request.with_signal(token))
        }),
        Path::PostExecute => registry.on_post_execute(move |_, _, next| {
            counter.bump();
            next.run()
        }),
        Path::ResultObserver => registry.on_result(move |_, _| counter.bump()),
        Path::CallObserver => registry.observe(CountingCallObserver(counter)),
    };
    (registry, ran)
}

async fn outcome(path: Path, scenario: &Scenario) -> (Outcome, ToolExecutionResult) {
    let (registry, hook_ran) = registry_for(path);
    let log = Log::new();
    let result = (scenario.call)(&registry, &log).await;
    let observes = matches!(path, Path::ResultObserver | Path::CallObserver);
    let expected_runs = match path {
        Path::Short => 0,
        _ if observes || !scenario.ends_before_hooks => 1,
        _ => 0,
    };
    assert_eq!(
        hook_ran.get(),
        expected_runs,
        "{}: how often the {path:?} hook ran",
        scenario.name
    );
    (Outcome::of(&result, &log), result)
}

fn register(registry: &ToolRegistry, tool: FnTool) {
    let _ = registry
        .register(tool)
        .expect("scenario tools have distinct names");
}

fn pending(registry: &ToolRegistry, input: ToolExecutionInput) -> Pending {
    Box::pin(registry.execute(input))
}

/// A tool named `t` that logs `body` and returns `"ok"`.
fn logging(log: &Log) -> FnTool {
    logging_from(FnTool::builder("t", ""), log)
}

/// [`logging`], with the finalizer of [`finalizer`].
fn logging_finalized(log: &Log) -> FnTool {
    logging_from(FnTool::builder("t", "").finalize(finalizer(log)), log)
}

fn logging_from(builder: FnToolBuilder, log: &Log) -> FnTool {
    let log = log.clone();
    builder.handler(move |_, _| {
        log.push("body");
        async { Ok(json!("ok")) }
    })
}

/// Marks the content of every outcome `[final] <text>`, and logs that it ran.
fn finalizer(
    log: &Log,
) -> impl Fn(&dsh_tools::call::ToolExecution, &ToolExecutionResult) -> FinalizerResult
+ Send
+ Sync
+ 'static {
    let log = log.clone();
    move |_, result| {
        log.push("finalize");
        Ok(Some(vec![ContentBlock::text(format!(
            "[final] {}",
            result.text()
        ))]))
    }
}

type FinalizerResult = Result<Option<Vec<ContentBlock>>, ToolError>;

// `Counted` and its counters: `dsh_tools_tests::counted` (each test uses its own tool name).

#[derive(ToolArgs, Debug)]
struct Paths {
    /// Where to look.
    root: String,
    /// What to include.
    include: Vec<String>,
}

/// Joins its paths (its arguments can be handed over by value).
#[tool]
async fn join_paths(args: Paths, label: String) -> String {
    format!("{label} {}:{}", args.root, args.include.join(","))
}

/// Echoes its text, counting how it was converted (only the route test calls it).
#[tool]
async fn echo_counted(text: Counted) -> String {
    text.0
}

/// Joins its paths, under a budget (its body runs under its deadline).
#[tool(timeout_ms = 60_000)]
async fn join_paths_timed(args: Paths) -> String {
    format!("{}:{}", args.root, args.include.join(","))
}

fn texts(blocks: &[ContentBlock]) -> Vec<&str> {
    blocks
        .iter()
        .filter_map(dsh_tools_tests::block_text)
        .collect()
}

fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "success",
            call: |registry, log| {
                register(registry, logging(log));
                pending(registry, call("t"))
            },
            expect: |result, log| {
                assert_eq!(result.text(), "ok");
                assert_eq!(result.value(), Some(&json!("ok")));
                assert_eq!(result.error_code(), None);
                assert_eq!(log, ["body"]);
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "cancelled before dispatch",
            call: |registry, log| {
                register(registry, logging(log));
                let signal = CancellationToken::new();
                signal.cancel();
                pending(registry, call("t").with_signal(signal))
            },
            expect: |result, log| {
                assert_eq!(
                    result.error_code(),
                    Some(ErrorCode::AbortedBeforeDispatch.as_str())
                );
                assert_eq!(result.text(), "Error: tool call aborted before dispatch");
                assert!(log.is_empty(), "the body never ran");
            },
            ends_before_hooks: true,
        },
        Scenario {
            name: "cancelled between the call and its first poll",
            call: |registry, log| {
                register(registry, logging(log));
                let signal = CancellationToken::new();
                let in_flight = pending(registry, call("t").with_signal(signal.clone()));
                signal.cancel();
                in_flight
            },
            expect: |result, log| {
                assert_eq!(
                    result.error_code(),
                    Some(ErrorCode::AbortedBeforeDispatch.as_str())
                );
                assert!(log.is_empty(), "the body never ran");
            },
            ends_before_hooks: true,
        },
        Scenario {
            name: "cancellation supersedes a success, keeping deferred contexts",
            call: |registry, log| {
                let signal = CancellationToken::new();
                let (cancel, log) = (signal.clone(), log.clone());
                register(
                    registry,
                    FnTool::builder("t", "").handler(move |_, run| {
                        log.push("body");
                        run.defer_context(ContentBlock::text("deferred"));
                        cancel.cancel();
                        async { Ok(json!("done")) }
                    }),
                );
                pending(registry, call("t").with_signal(signal))
            },
            expect: |result, log| {
                assert_eq!(result.error_code(), Some(ErrorCode::Aborted.as_str()));
                assert_eq!(result.text(), "Error: tool call aborted");
                assert_eq!(texts(result.additional_contexts()), ["deferred"]);
                assert_eq!(log, ["body"]);
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "cancellation leaves a failure as it is",
            call: |registry, _| {
                let signal = CancellationToken::new();
                let cancel = signal.clone();
                register(
                    registry,
                    FnTool::builder("t", "").handler(move |_, _| {
                        cancel.cancel();
                        async { Err::<Value, _>(ToolError::new("gave up")) }
                    }),
                );
                pending(registry, call("t").with_signal(signal))
            },
            expect: |result, _| {
                assert_eq!(result.error_code(), Some(ErrorCode::ToolError.as_str()));
                assert_eq!(result.text(), "Error: gave up");
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "timeout",
            call: |registry, log| {
                let log = log.clone();
                register(
                    registry,
                    FnTool::builder("t", "")
                        .options(dsh_tools::call::ToolOptions {
                            timeout_ms: Some(50),
                            ..dsh_tools::call::ToolOptions::default()
                        })
                        .handler(move |_, run| {
                            let log = log.clone();
                            async move {
                                run.signal().cancelled().await;
                                log.push("cancelled by the deadline");
                                Ok(json!("late"))
                            }
                        }),
                );
                pending(registry, call("t"))
            },
            expect: |result, log| {
                assert_eq!(result.error_code(), Some(ErrorCode::ToolTimeout.as_str()));
                assert_eq!(result.text(), "Error: tool call timed out after 50ms");
                assert_eq!(log, ["cancelled by the deadline"]);
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "a budgeted body that finishes in time",
            call: |registry, _| {
                register(
                    registry,
                    FnTool::builder("t", "")
                        .options(dsh_tools::call::ToolOptions {
                            timeout_ms: Some(60_000),
                            ..dsh_tools::call::ToolOptions::default()
                        })
                        .handler(|_, _| async {
                            tokio::time::sleep(Duration::from_millis(10)).await;
                            Ok(json!("in time"))
                        }),
                );
                pending(registry, call("t"))
            },
            expect: |result, _| {
                assert_eq!(result.text(), "in time");
                assert_eq!(result.error_code(), None);
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "panic",
            call: |registry, _| {
                register(
                    registry,
                    FnTool::builder("t", "").handler(|_, _| async {
                        if true {
                            panic!("boom");
                        }
                        Ok(json!("unreachable"))
                    }),
                );
                pending(registry, call("t"))
            },
            expect: |result, _| {
                assert_eq!(result.error_code(), Some(ErrorCode::ToolPanicked.as_str()));
                assert_eq!(result.text(), "Error: tool \"t\" panicked: boom");
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "a panic before the body's future is returned",
            call: |registry, _| {
                register(
                    registry,
                    FnTool::builder("t", "").handler(
                        |_, _| -> std::future::Ready<Result<Value, ToolError>> {
                            panic!("before the future")
                        },
                    ),
                );
                pending(registry, call("t"))
            },
            expect: |result, _| {
                assert_eq!(result.error_code(), Some(ErrorCode::ToolPanicked.as_str()));
                assert_eq!(
                    result.text(),
                    "Error: tool \"t\" panicked: before the future"
                );
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "unknown tool",
            call: |registry, _| {
                register(registry, ok_tool("t"));
                pending(registry, call("missing"))
            },
            expect: |result, _| {
                assert_eq!(result.error_code(), Some(ErrorCode::UnknownTool.as_str()));
                assert_eq!(result.text(), "Error: unknown tool \"missing\"");
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "a tool disposed before the first poll, with its captured finalizer",
            call: |registry, log| {
                let handle = registry.register(logging_finalized(log)).unwrap();
                let in_flight = pending(registry, call("t"));
                handle.dispose();
                in_flight
            },
            expect: |result, log| {
                assert_eq!(result.error_code(), Some(ErrorCode::UnknownTool.as_str()));
                assert_eq!(result.text(), "[final] Error: unknown tool \"t\"");
                assert_eq!(log, ["finalize"], "the body never ran");
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "invalid arguments",
            call: |registry, _| {
                register(registry, echo_tool());
                pending(registry, call_with("echo", json!({"text": 3})))
            },
            expect: |result, _| {
                assert_eq!(result.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
                assert!(result.text().starts_with("Error: invalid arguments: "));
            },
            ends_before_hooks: true,
        },
        Scenario {
            name: "malformed raw arguments",
            call: |registry, _| {
                register(registry, echo_tool());
                pending(
                    registry,
                    ToolExecutionInput::from_raw("call-1", "echo", "{\"text\": "),
                )
            },
            expect: |result, _| {
                assert_eq!(result.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
            },
            ends_before_hooks: true,
        },
        Scenario {
            name: "invalid output",
            call: |registry, _| {
                register(
                    registry,
                    FnTool::builder("t", "")
                        .output_schema(Schema::integer().build())
                        .handler(|_, _| async { Ok(json!("not a number")) }),
                );
                pending(registry, call("t"))
            },
            expect: |result, _| {
                assert_eq!(
                    result.error_code(),
                    Some(ErrorCode::InvalidToolOutput.as_str())
                );
                assert!(
                    result
                        .text()
                        .starts_with("Error: tool \"t\" returned invalid output: ")
                );
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "a tool's coded error",
            call: |registry, _| {
                register(
                    registry,
                    FnTool::builder("t", "").handler(|_, _| async {
                        Err::<Value, _>(ToolError::coded("Quota", "QUOTA", "over quota"))
                    }),
                );
                pending(registry, call("t"))
            },
            expect: |result, _| {
                assert_eq!(result.error_code(), Some("QUOTA"));
                assert_eq!(result.text(), "Error: over quota");
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "finalizer on a success",
            call: |registry, log| {
                register(registry, logging_finalized(log));
                pending(registry, call("t"))
            },
            expect: |result, log| {
                assert_eq!(result.text(), "[final] ok");
                assert_eq!(result.value(), Some(&json!("ok")));
                assert_eq!(log, ["body", "finalize"]);
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "finalizer on a failure",
            call: |registry, log| {
                register(
                    registry,
                    FnTool::builder("t", "")
                        .finalize(finalizer(log))
                        .handler(|_, _| async { Err::<Value, _>(ToolError::new("nope")) }),
                );
                pending(registry, call("t"))
            },
            expect: |result, log| {
                assert_eq!(result.text(), "[final] Error: nope");
                assert_eq!(result.error_code(), Some(ErrorCode::ToolError.as_str()));
                assert_eq!(log, ["finalize"]);
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "a failing finalizer",
            call: |registry, _| {
                register(
                    registry,
                    FnTool::builder("t", "")
                        .finalize(|_, _| Err(ToolError::new("cannot finalize")))
                        .handler(|_, _| async { Ok(json!("ok")) }),
                );
                pending(registry, call("t"))
            },
            expect: |result, _| {
                assert_eq!(
                    result.error_code(),
                    Some(ErrorCode::FinalizerFailed.as_str())
                );
                assert_eq!(result.text(), "Error: cannot finalize");
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "result budget of the tool",
            call: |registry, _| {
                register(
                    registry,
                    FnTool::builder("t", "")
                        .options(dsh_tools::call::ToolOptions {
                            max_result_chars: Some(300),
                            ..dsh_tools::call::ToolOptions::default()
                        })
                        .handler(|_, _| async { Ok(json!("x".repeat(1000))) }),
                );
                pending(registry, call("t"))
            },
            expect: |result, _| {
                assert!(
                    result.text().starts_with(&"x".repeat(20)),
                    "{}",
                    result.text()
                );
                assert!(
                    result.text().chars().count() == 300,
                    "cut: {}",
                    result.text()
                );
                assert_eq!(
                    result.value(),
                    Some(&json!("x".repeat(1000))),
                    "value whole"
                );
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "result budget of the registry, after the finalizer",
            call: |registry, log| {
                registry.set_limits(CallLimits {
                    max_result_chars: Some(300),
                    ..CallLimits::default()
                });
                register(
                    registry,
                    FnTool::builder("t", "")
                        .finalize(finalizer(log))
                        .handler(|_, _| async { Ok(json!("y".repeat(1000))) }),
                );
                pending(registry, call("t"))
            },
            expect: |result, log| {
                assert!(
                    result.text().starts_with("[final] yyyy"),
                    "the finalizer's text is what is cut: {}",
                    result.text()
                );
                assert_eq!(result.text().chars().count(), 300);
                assert_eq!(log, ["finalize"]);
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "deferred contexts and provided content on a success",
            call: |registry, _| {
                register(
                    registry,
                    FnTool::builder("t", "").handler(|_, run| {
                        run.defer_context(ContentBlock::text("first"));
                        run.defer_context(ContentBlock::text("second"));
                        run.provide_content(vec![ContentBlock::text("provided")]);
                        async { Ok(json!({"n": 1})) }
                    }),
                );
                pending(registry, call("t"))
            },
            expect: |result, _| {
                assert_eq!(texts(result.additional_contexts()), ["first", "second"]);
                assert_eq!(result.text(), "provided");
                assert_eq!(result.value(), Some(&json!({"n": 1})));
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "deferred contexts on a failure",
            call: |registry, _| {
                register(
                    registry,
                    FnTool::builder("t", "").handler(|_, run| {
                        run.defer_context(ContentBlock::text("kept"));
                        async { Err::<Value, _>(ToolError::new("failed")) }
                    }),
                );
                pending(registry, call("t"))
            },
            expect: |result, _| {
                assert_eq!(texts(result.additional_contexts()), ["kept"]);
                assert_eq!(result.error_code(), Some(ErrorCode::ToolError.as_str()));
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "arguments by value",
            call: |registry, _| {
                let _ = registry.register(JoinPathsTool).unwrap();
                pending(
                    registry,
                    call_with(
                        "join_paths",
                        json!({"args": {"root": "/src", "include": ["*.rs", "*.toml"]}, "label": "L"}),
                    ),
                )
            },
            expect: |result, _| {
                assert_eq!(result.text(), "L /src:*.rs,*.toml");
                assert_eq!(result.error_code(), None);
            },
            ends_before_hooks: false,
        },
        Scenario {
            name: "arguments by value, under a deadline",
            call: |registry, _| {
                let _ = registry.register(JoinPathsTimedTool).unwrap();
                pending(
                    registry,
                    call_with("join_paths_timed", json!({"root": "/a", "include": ["b"]})),
                )
            },
            expect: |result, _| {
                assert_eq!(result.text(), "/a:b");
            },
            ends_before_hooks: false,
        },
    ]
}

#[tokio::test(start_paused = true)]
async fn every_scenario_ends_the_same_on_the_short_path_and_through_each_pass_through_hook() {
    for scenario in scenarios() {
        let (short, result) = outcome(Path::Short, &scenario).await;
        (scenario.expect)(&result, &short.log);
        for path in FULL_PATHS {
            let (full, result) = outcome(path, &scenario).await;
            assert_eq!(
                full, short,
                "{}: {path:?} differs from the short path",
                scenario.name
            );
            (scenario.expect)(&result, &full.log);
        }
    }
}

#[tokio::test]
async fn calls_without_hooks_take_the_short_path_and_each_hook_forces_the_full_one() {
    let _counting = counting().await;
    for path in [Path::Short].into_iter().chain(FULL_PATHS) {
        let (registry, hook_ran) = registry_for(path);
        let _ = registry.register(EchoCountedTool).unwrap();
        let (by_value, by_reference) = (
            BY_VALUE.load(Ordering::SeqCst),
            BY_REFERENCE.load(Ordering::SeqCst),
        );
        let result = registry
            .execute(call_with("echo_counted", json!({"text": "hi"})))
            .await;
        assert_eq!(result.text(), "hi");
        let handed_over = BY_VALUE.load(Ordering::SeqCst) - by_value;
        let copied = BY_REFERENCE.load(Ordering::SeqCst) - by_reference;
        if path == Path::Short {
            assert_eq!(
                (handed_over, copied),
                (1, 0),
                "only the short path hands over"
            );
            assert_eq!(hook_ran.get(), 0);
        } else {
            assert_eq!(
                (handed_over, copied),
                (0, 1),
                "{path:?} keeps the arguments"
            );
            assert_eq!(hook_ran.get(), 1, "{path:?}'s hook ran");
        }
    }
}
