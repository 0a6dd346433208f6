//! Arguments handed to the conversion by value: a `#[tool]` whose function takes no `&ToolRun`
//! has its arguments moved into its types (not copied) on a call that nothing watches, and
//! everything that can see a call still sees exactly what the model sent — hooks, guards,
//! layers, observers, call observers, bodies that read their execution, custom renderers and
//! finalizers — because those calls keep their arguments whole.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use dsh_tools::{
    ContentBlock, FnTool, ToolArgs, ToolError, ToolExecutionInput, ToolExecutionResult,
    ToolRegistry, ToolRun, Value,
    call::{ToolContract, ToolExecution},
    hooks::{CallObserver, ObservedCall},
    json, tool,
};
use dsh_tools_tests::counted::{BY_REFERENCE, BY_VALUE, Counted, counting};

// `Counted` and its counters: `dsh_tools_tests::counted` (each test uses its own tool name).

/// Echoes its text.
#[tool]
async fn echo_counted(text: Counted) -> String {
    text.0
}

#[derive(ToolArgs, Debug)]
struct Paths {
    /// Where to look.
    root: String,
    /// What to include.
    include: Vec<String>,
    limit: Option<u32>,
}

/// Joins its paths.
#[tool]
async fn join_paths(args: Paths) -> String {
    format!("{}:{}:{:?}", args.root, args.include.join(","), args.limit)
}

/// Joins its paths, with a budget (the body runs under its deadline).
#[tool(timeout_ms = 60_000)]
async fn join_paths_timed(args: Paths) -> String {
    format!("{}:{}", args.root, args.include.join(","))
}

/// Reports the arguments its execution carries.
#[tool]
async fn read_own_arguments(root: String, run: &ToolRun) -> String {
    format!("{root} {}", run.execution().arguments())
}

fn paths() -> Value {
    json!({"root": "/src", "include": ["*.rs", "*.toml"], "limit": 3})
}

fn input(name: &str, arguments: Value) -> ToolExecutionInput {
    ToolExecutionInput::new("call_1", name.to_owned(), arguments)
}

fn text(result: &ToolExecutionResult) -> String {
    assert!(!result.is_error(), "{}", result.text());
    result.text()
}

#[tokio::test]
async fn a_call_nothing_watches_moves_its_arguments_into_the_tool_types() {
    let _counting = counting().await;
    let registry = ToolRegistry::new();
    let _ = registry.register(EchoCountedTool).unwrap();
    let before = (
        BY_REFERENCE.load(Ordering::SeqCst),
        BY_VALUE.load(Ordering::SeqCst),
    );
    let result = registry
        .execute(input("echo_counted", json!({"text": "moved"})))
        .await;
    assert_eq!(text(&result), "moved");
    assert_eq!(BY_VALUE.load(Ordering::SeqCst), before.1 + 1);
    assert_eq!(BY_REFERENCE.load(Ordering::SeqCst), before.0);

    // A call that a hook watches keeps its arguments whole: the conversion copies.
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let _ = registry.on_result(move |execution: &ToolExecution, _: &ToolExecutionResult| {
        log.lock().unwrap().push(execution.arguments().clone());
    });
    let result = registry
        .execute(input("echo_counted", json!({"text": "copied"})))
        .await;
    assert_eq!(text(&result), "copied");
    assert_eq!(BY_VALUE.load(Ordering::SeqCst), before.1 + 1);
    assert_eq!(BY_REFERENCE.load(Ordering::SeqCst), before.0 + 1);
    assert_eq!(*seen.lock().unwrap(), [json!({"text": "copied"})]);
}

#[tokio::test]
async fn converting_by_value_gives_the_same_arguments() {
    let registry = ToolRegistry::new();
    let _ = registry.register(JoinPathsTool).unwrap();
    let _ = registry.register(JoinPathsTimedTool).unwrap();
    let result = registry.execute(input("join_paths", paths())).await;
    assert_eq!(text(&result), "/src:*.rs,*.toml:Some(3)");
    let result = registry.execute(input("join_paths_timed", paths())).await;
    assert_eq!(text(&result), "/src:*.rs,*.toml");

    // Invalid arguments are reported in full, as on every path.
    let result = registry
        .execute(input("join_paths", json!({"include": [1], "extra": true})))
        .await;
    assert_eq!(result.error_code(), Some("INVALID_ARGS"));
    assert_eq!(
        result.text(),
        "Error: invalid arguments: missing required property \"root\"; \"include[0]\" must be a string; \"extra\" is not a declared property (additionalProperties: false)"
    );
}

#[tokio::test]
async fn a_body_that_takes_its_run_reads_the_arguments_the_model_sent() {
    let registry = ToolRegistry::new();
    let _ = registry.register(ReadOwnArgumentsTool).unwrap();
    let result = registry
        .execute(input("read_own_arguments", json!({"root": "/src"})))
        .await;
    assert_eq!(text(&result), r#"/src {"root":"/src"}"#);
}

/// Records the arguments every phase that can see the call saw.
#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Vec<(String, Value)>>>);

impl Seen {
    fn push(&self, phase: &str, arguments: &Value) {
        self.0
            .lock()
            .unwrap()
            .push((phase.to_owned(), arguments.clone()));
    }

    fn phases(&self) -> Vec<(String, Value)> {
        self.0.lock().unwrap().clone()
    }
}

impl CallObserver for Seen {
    fn on_start(&self, call: &ObservedCall<'_>) {
        self.push("call start", call.execution.arguments());
    }

    fn on_result(&self, call: &ObservedCall<'_>, _: &ToolExecutionResult) {
        self.push("call result", call.execution.arguments());
    }
}

#[tokio::test]
async fn every_hook_guard_layer_and_observer_sees_the_arguments_the_model_sent() {
    let registry = ToolRegistry::new();
    let _ = registry.register(JoinPathsTool).unwrap();
    let seen = Seen::default();
    let log = seen.clone();
    let _ = registry.on_pre_execute(move |execution, next| {
        log.push("pre-execute", execution.arguments());
        next.run()
    });
    let log = seen.clone();
    let _ = registry.guard(move |execution| {
        log.push("guard", execution.arguments());
        None
    });
    let log = seen.clone();
    let _ = registry.on_execute(move |request, next| {
        log.push("layer", request.execution().arguments());
        next.run(request)
    });
    let log = seen.clone();
    let _ = registry.on_post_execute(move |execution, _, next| {
        log.push("post-execute", execution.arguments());
        next.run()
    });
    let log = seen.clone();
    let _ = registry.on_result(move |execution: &ToolExecution, _: &ToolExecutionResult| {
        log.push("result", execution.arguments());
    });
    let _ = registry.observe(seen.clone());

    let result = registry.execute(input("join_paths", paths())).await;
    assert_eq!(text(&result), "/src:*.rs,*.toml:Some(3)");
    let phases: Vec<String> = seen
        .phases()
        .iter()
        .map(|(phase, _)| phase.clone())
        .collect();
    assert_eq!(
        phases,
        [
            "call start",
            "pre-execute",
            "guard",
            "layer",
            "post-execute",
            "result",
            "call result"
        ]
    );
    for (phase, arguments) in seen.phases() {
        assert_eq!(arguments, paths(), "{phase}");
    }
}

/// A hand-written typed tool whose renderer and finalizer read the call's arguments: it keeps
/// the default `reads_call_arguments` of its `ToolInfo`, so they see what the model sent on
/// every call.
struct Annotated {
    finalized: Seen,
}

impl dsh_tools::Tool for Annotated {
    type Args = Paths;
    type Output = String;
    const INFO: dsh_tools::call::ToolInfo =
        dsh_tools::call::ToolInfo::new("annotated", "Renders its arguments beside its value.");

    fn contract() -> &'static ToolContract {
        static CONTRACT: std::sync::LazyLock<ToolContract> =
            std::sync::LazyLock::new(ToolContract::of::<Paths, String>);
        &CONTRACT
    }

    async fn call(&self, args: Paths, _: &ToolRun) -> Result<String, ToolError> {
        Ok(args.root)
    }

    fn render_value(
        &self,
        arguments: &Value,
        value: &Value,
    ) -> Result<Vec<ContentBlock>, ToolError> {
        Ok(vec![ContentBlock::text(format!(
            "{value} from {arguments}"
        ))])
    }

    fn finalize(
        &self,
        execution: &ToolExecution,
        _: &ToolExecutionResult,
    ) -> Result<Option<Vec<ContentBlock>>, ToolError> {
        self.finalized.push("finalize", execution.arguments());
        Ok(None)
    }
}

#[tokio::test]
async fn a_typed_tool_that_renders_or_finalizes_from_its_arguments_sees_them() {
    let finalized = Seen::default();
    let registry = ToolRegistry::new();
    let _ = registry
        .register(Annotated {
            finalized: finalized.clone(),
        })
        .unwrap();
    let result = registry.execute(input("annotated", paths())).await;
    assert_eq!(text(&result), format!(r#""/src" from {}"#, paths()));
    assert_eq!(finalized.phases(), [("finalize".to_owned(), paths())]);
}

#[tokio::test]
async fn a_tool_shadowed_before_the_first_poll_gets_the_arguments_whole() {
    let registry = ToolRegistry::new();
    let _ = registry.register(JoinPathsTool).unwrap();
    let scope = registry.create_child("agent").unwrap();
    let pending = registry.execute(input("join_paths", paths()).with_agent("agent"));
    // The shadow reads the execution's arguments, so it must find them there. It takes any
    // object (a hand-written tool given no schema takes no arguments).
    let _ = scope
        .register(
            FnTool::builder("join_paths", "")
                .raw_parameters(json!({"type": "object"}))
                .handler(|arguments, run: ToolRun| {
                    let whole = run.execution().arguments().clone();
                    async move { Ok(json!([arguments, whole])) }
                }),
        )
        .unwrap();
    let result = pending.await;
    assert_eq!(result.value(), Some(&json!([paths(), paths()])));
}

#[derive(ToolArgs, Debug, PartialEq)]
#[tool_args(rename_all = "lowercase")]
enum Mode {
    Literal,
    Regex,
}

#[derive(ToolArgs, Debug, PartialEq)]
#[serde(tag = "kind")]
enum Filter {
    Glob { pattern: String },
    Size { at_least: u64 },
}

#[derive(ToolArgs, Debug, PartialEq)]
struct Depth(u32);

#[derive(ToolArgs, Debug, PartialEq)]
struct Inner {
    text: String,
    tags: Option<Vec<String>>,
}

#[derive(ToolArgs, Debug, PartialEq)]
struct Everything {
    text: String,
    mode: Option<Mode>,
    filters: Vec<Filter>,
    nested: Option<Box<Inner>>,
    labels: std::collections::BTreeMap<String, Vec<String>>,
    tags: std::collections::HashSet<String>,
    pair: [String; 2],
    depth: Depth,
    #[arg(default = 7)]
    limit: u32,
    raw: Value,
}

#[test]
fn by_value_and_by_reference_conversions_agree_on_every_shape() {
    let value = json!({
        "text": "outer",
        "mode": "regex",
        "filters": [{"kind": "Glob", "pattern": "*.rs"}, {"kind": "Size", "at_least": 10}],
        "nested": {"text": "inner", "tags": ["n"]},
        "labels": {"b": ["x", "y"], "a": []},
        "tags": ["t", "u"],
        "pair": ["left", "right"],
        "depth": 3,
        "raw": {"kept": [1, 2.5, "three"]}
    });
    let schema = Everything::schema().unwrap();
    assert!(
        Everything::is_valid_json(&value),
        "{:?}",
        schema.validate(&value)
    );
    let by_reference = Everything::from_json(&value).unwrap();
    let by_value = Everything::from_json_owned(value).unwrap();
    assert_eq!(by_value, by_reference);
    assert_eq!(by_value.limit, 7);
    assert_eq!(by_value.nested.as_ref().unwrap().text, "inner");

    // A value the type cannot take fails the same way both ways, naming where.
    let wrong = json!({"text": "t", "filters": [], "labels": {"a": [1]}, "tags": [],
        "pair": ["a", "b"], "depth": 1, "raw": null});
    let by_reference = Everything::from_json(&wrong).unwrap_err();
    let by_value = Everything::from_json_owned(wrong).unwrap_err();
    assert_eq!(by_value, by_reference);
    assert_eq!(
        by_value.to_string(),
        r#""labels.a[0]" expected a string, got number"#
    );
}

#[derive(ToolArgs, Debug, PartialEq)]
enum Shape {
    Square { side: u32 },
    Dot,
}

#[test]
fn both_conversions_report_the_same_failures_where_they_happen() {
    // Conversions run on values validation let through; these are what a schema and a type that
    // disagree would hand them, and both ways must name the same place.
    let both = |value: Value| {
        let by_reference = Inner::from_json(&value).map_err(|error| error.to_string());
        let by_value = Inner::from_json_owned(value).map_err(|error| error.to_string());
        assert_eq!(by_reference, by_value);
        by_value
    };
    assert_eq!(
        both(json!([1])),
        Err("expected an object, got array".to_owned())
    );
    assert_eq!(
        both(json!({"tags": null})),
        Err(r#""text" is missing"#.to_owned())
    );
    assert_eq!(
        both(json!({"text": 1})),
        Err(r#""text" expected a string, got number"#.to_owned())
    );
    // Keys the struct does not have are left alone; an absent `Option` is `None`.
    assert_eq!(
        both(json!({"other": true, "text": "t"})),
        Ok(Inner {
            text: "t".to_owned(),
            tags: None
        })
    );
    // A struct variant's value that is not an object is placed under the variant's name.
    assert_eq!(
        Shape::from_json(&json!({"Square": 3})).map_err(|error| error.to_string()),
        Err(r#""Square" expected an object, got number"#.to_owned())
    );
    assert_eq!(
        Shape::from_json_owned(json!({"Square": {"side": 3}})),
        Ok(Shape::Square { side: 3 })
    );
    assert_eq!(Shape::from_json_owned(json!("Dot")), Ok(Shape::Dot));
}

#[test]
fn an_array_given_up_becomes_its_vec_in_place_and_fails_where_it_did() {
    // Strings fit a value's slot evenly: converted where the array held them, the array's block
    // becomes the `Vec`'s.
    let value = json!(["a", "b", "c"]);
    let block = value.as_array().unwrap().as_ptr() as usize;
    let strings = Vec::<String>::from_json_owned(value).unwrap();
    assert_eq!(strings, ["a", "b", "c"]);
    assert_eq!(strings.as_ptr() as usize, block);

    // Small items are collected into a block of their own, with the same values.
    let value = json!([1, 2, 300]);
    assert_eq!(
        Vec::<u32>::from_json_owned(value.clone()),
        Vec::<u32>::from_json(&value)
    );
    assert_eq!(Vec::<u32>::from_json_owned(value).unwrap(), [1, 2, 300]);

    // A failure names its index both ways; nothing converted before it leaks or is returned.
    let both = |value: Value| {
        let by_reference = Vec::<String>::from_json(&value).map_err(|error| error.to_string());
        let by_value = Vec::<String>::from_json_owned(value).map_err(|error| error.to_string());
        assert_eq!(by_reference, by_value);
        by_value
    };
    assert_eq!(
        both(json!(["a", 2, "c"])),
        Err(r#""[1]" expected a string, got number"#.to_owned())
    );
    assert_eq!(
        both(json!({"a": 1})),
        Err("expected an array, got object".to_owned())
    );
    assert_eq!(both(json!([])), Ok(Vec::new()));
}
