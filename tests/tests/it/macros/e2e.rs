//! Macro-defined tools end to end through the registry: validation errors with their structured
//! violations, typed conversion, lossless output, state, the run context, timeouts, blocking
//! bodies, result budgets, presenters, concurrency classification and registration-time schema
//! errors.

use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

use dsh_tools::{
    ToolArgs, ToolError, ToolExecutionInput, ToolRegistry, ToolRun, Value, call::SharedState,
    errors::ErrorCode, json, policy::CallLimits, present::ToolCallView,
    registry::RegistryErrorKind, tool,
};
use serde::Serialize;

/// Adds two numbers.
#[tool]
async fn add(
    /// The first addend.
    a: i32,
    /// The second addend.
    b: i32,
) -> i64 {
    i64::from(a) + i64::from(b)
}

/// Labels files.
#[tool]
async fn label(
    /// The labels, each once.
    tags: HashSet<String>,
    /// Minutes between runs.
    #[arg(multiple_of = 5, exclusive_minimum = 0)]
    every: u32,
    /// Owners by team.
    #[arg(min_properties = 1, max_properties = 2)]
    owners: BTreeMap<String, String>,
) -> usize {
    tags.len() + owners.len() + usize::try_from(every).unwrap_or(0)
}

#[derive(ToolArgs, Serialize)]
struct Stats {
    count: u32,
    mean: f64,
}

/// Averages numbers.
#[tool]
async fn average(values: Vec<f64>) -> Stats {
    let count = u32::try_from(values.len()).unwrap_or(u32::MAX);
    // An empty list divides by zero: the mean is NaN, which JSON cannot carry.
    Stats {
        count,
        mean: values.iter().sum::<f64>() / f64::from(count),
    }
}

struct Greeting(String);

/// Greets with the configured greeting.
#[tool]
async fn configured_greet(name: String, #[state] greeting: &Greeting) -> String {
    format!("{}, {name}!", greeting.0)
}

/// Notes something for the next request.
#[tool]
async fn remember(fact: String, run: &ToolRun) -> String {
    run.defer_context(dsh_tools::ContentBlock::text(format!("remember: {fact}")));
    "noted".to_owned()
}

/// Waits until cancelled.
#[tool(timeout_ms = 50)]
async fn wait_forever(run: &ToolRun) -> String {
    run.signal().cancelled().await;
    "stopped".to_owned()
}

/// Greets from the blocking pool, naming the thread it ran on.
#[tool(blocking)]
fn blocking_greet(
    name: String,
    #[state] greeting: &Greeting,
    run: &ToolRun,
) -> Result<String, ToolError> {
    let thread = std::thread::current().id();
    Ok(format!(
        "{}, {name}! (on {thread:?}, cancelled: {})",
        greeting.0,
        run.signal().is_cancelled()
    ))
}

/// Blocks its thread until its deadline cancels it.
#[tool(blocking, timeout_ms = 30)]
fn blocking_until_cancelled(run: &ToolRun) -> String {
    while !run.signal().is_cancelled() {
        std::thread::sleep(Duration::from_millis(1));
    }
    "stopped".to_owned()
}

/// Panics on the blocking pool.
#[tool(blocking)]
fn blocking_panic() -> String {
    panic!("the disk is gone")
}

/// Returns a long text under a small result budget.
#[tool(max_result_chars = 150)]
async fn long_text() -> String {
    "x".repeat(1_000)
}

/// Fails with a coded error.
#[tool]
async fn full_disk() -> Result<String, ToolError> {
    Err(ToolError::coded(
        "IoError",
        "ENOSPC",
        "no space left on device",
    ))
}

fn classify(args: &ReadManyToolArgs) -> bool {
    args.paths.len() < 3
}

/// Reads several files.
#[tool(concurrency_safe = classify, card_title = "Read {count} files", kind = "read")]
async fn read_many(paths: Vec<String>, count: Option<u8>) -> usize {
    let _ = count;
    paths.len()
}

#[derive(ToolArgs, serde::Deserialize, schemars::JsonSchema)]
struct Unsupported {
    #[arg(schemars)]
    word: Word,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Word {
    #[schemars(extend("pattern" = "^(?!tmp)"))]
    text: String,
}

/// Takes a type whose schema has a pattern the engine cannot run (a look-ahead).
#[tool]
async fn unsupported(args: Unsupported) -> usize {
    args.word.text.len()
}

#[derive(ToolArgs, serde::Deserialize, schemars::JsonSchema)]
struct Thirds {
    #[arg(schemars)]
    odd: Odd,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Odd {
    #[schemars(extend("multipleOf" = 3))]
    value: u32,
}

/// Takes a type whose schema uses a keyword beyond the typed subset.
#[tool]
async fn thirds(args: Thirds) -> u32 {
    args.odd.value / 3
}

fn registry() -> ToolRegistry {
    let mut state = SharedState::default();
    state.insert(Greeting("Howdy".into()));
    let registry = ToolRegistry::with_state(state);
    let _ = registry.register(AddTool).unwrap();
    let _ = registry.register(AverageTool).unwrap();
    let _ = registry.register(ConfiguredGreetTool).unwrap();
    let _ = registry.register(RememberTool).unwrap();
    let _ = registry.register(WaitForeverTool).unwrap();
    let _ = registry.register(FullDiskTool).unwrap();
    let _ = registry.register(ReadManyTool).unwrap();
    let _ = registry.register(BlockingGreetTool).unwrap();
    let _ = registry.register(BlockingUntilCancelledTool).unwrap();
    let _ = registry.register(BlockingPanicTool).unwrap();
    let _ = registry.register(LongTextTool).unwrap();
    let _ = registry.register(LabelTool).unwrap();
    registry
}

async fn call(
    registry: &ToolRegistry,
    name: &str,
    arguments: Value,
) -> dsh_tools::ToolExecutionResult {
    registry
        .execute(ToolExecutionInput::new("call", name.to_owned(), arguments))
        .await
}

#[tokio::test]
async fn a_valid_call_converts_runs_and_renders() {
    let registry = registry();
    // `2.0` is an integer in JSON Schema and converts into the `i32` parameter.
    let result = call(&registry, "add", json!({"a": 2.0, "b": 40})).await;
    assert!(!result.is_error(), "{}", result.text());
    assert_eq!(result.value(), Some(&json!(42)));
    assert_eq!(result.text(), "42");
}

#[tokio::test]
async fn invalid_arguments_list_every_violation_with_structure() {
    let registry = registry();
    let result = call(&registry, "add", json!({"a": "2", "c": 1})).await;
    assert_eq!(result.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
    assert_eq!(
        result.text(),
        "Error: invalid arguments: missing required property \"b\"; \"a\" must be an integer; \"c\" is not a declared property (additionalProperties: false)"
    );
    let violations = result.error().unwrap().violations();
    let paths: Vec<&str> = violations
        .iter()
        .map(|violation| violation.path())
        .collect();
    assert_eq!(paths, ["b", "a", "c"]);
    assert_eq!(violations[1].expected(), "integer");
    assert_eq!(violations[1].got(), "string");
}

#[tokio::test]
async fn an_out_of_range_integer_is_reported_not_truncated() {
    let registry = registry();
    let result = call(&registry, "add", json!({"a": 3_000_000_000_u64, "b": 1})).await;
    assert_eq!(
        result.text(),
        "Error: invalid arguments: \"a\" must be <= 2147483647"
    );
}

#[tokio::test]
async fn a_nan_output_is_invalid_tool_output_not_null() {
    let registry = registry();
    let result = call(&registry, "average", json!({"values": []})).await;
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::InvalidToolOutput.as_str())
    );
    assert_eq!(
        result.text(),
        "Error: tool \"average\" returned invalid output: \"value.mean\" must be a finite JSON number"
    );
    let result = call(&registry, "average", json!({"values": [1, 2]})).await;
    assert_eq!(result.value(), Some(&json!({"count": 2, "mean": 1.5})));
}

#[tokio::test]
async fn state_parameters_reach_registry_state() {
    let registry = registry();
    let result = call(&registry, "configured_greet", json!({"name": "Ada"})).await;
    assert_eq!(result.text(), "Howdy, Ada!");
    let result = call(&registry, "blocking_greet", json!({"name": "Ada"})).await;
    assert!(
        result.text().starts_with("Howdy, Ada!"),
        "{}",
        result.text()
    );
}

#[test]
fn a_tool_whose_state_the_registry_lacks_is_refused_at_registration_naming_the_type() {
    let expected = "tool \"configured_greet\" needs shared state of type `it::macros::e2e::Greeting`, \
                    which this registry was not given: insert it into the SharedState passed to \
                    ToolRegistry::with_state";
    let bare = ToolRegistry::new();
    let error = bare.register(ConfiguredGreetTool).unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::MissingState);
    assert_eq!(error.to_string(), expected);
    // A blocking body declares its state the same way.
    let error = bare.register(BlockingGreetTool).unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::MissingState);
    // Scopes register into the same registry, with the same state.
    let scope = bare.create_child("agent").unwrap();
    let error = scope.register(ConfiguredGreetTool).unwrap_err();
    assert_eq!(error.to_string(), expected);
    // All or none: the tool without state is not registered either.
    let error = bare
        .register_all((AddTool, ConfiguredGreetTool))
        .unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::MissingState);
    assert!(bare.schemas().is_empty() && scope.schemas().is_empty());
    // State of another type does not stand in for it.
    let mut other = SharedState::default();
    other.insert(String::from("Howdy"));
    let error = ToolRegistry::with_state(other)
        .register(ConfiguredGreetTool)
        .unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::MissingState);
    // Tools without `#[state]` need none.
    assert!(bare.register(AddTool).is_ok());
}

#[tokio::test]
async fn the_run_context_defers_context() {
    let registry = registry();
    let result = call(&registry, "remember", json!({"fact": "tabs, not spaces"})).await;
    assert_eq!(result.text(), "noted");
    assert_eq!(
        result.additional_contexts(),
        [dsh_tools::ContentBlock::text("remember: tabs, not spaces")]
    );
}

#[tokio::test(start_paused = true)]
async fn timeout_ms_is_enforced_by_default() {
    let registry = registry();
    registry.set_limits(CallLimits {
        timeout_grace: Duration::from_millis(10),
        ..CallLimits::default()
    });
    let result = call(&registry, "wait_forever", json!({})).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ToolTimeout.as_str()));
    assert_eq!(result.text(), "Error: tool call timed out after 50ms");
}

#[tokio::test]
async fn a_blocking_tool_runs_its_plain_fn_off_the_callers_thread_with_state_and_run() {
    let registry = registry();
    let result = call(&registry, "blocking_greet", json!({"name": "Ada"})).await;
    let caller = std::thread::current().id();
    assert!(!result.is_error(), "{}", result.text());
    assert!(result.text().starts_with("Howdy, Ada! (on "));
    assert!(result.text().ends_with(", cancelled: false)"));
    assert!(
        !result.text().contains(&format!("{caller:?})")),
        "ran on the caller's thread: {}",
        result.text()
    );
    // The function stays callable as written.
    let run = ToolRun::detached("c", "blocking_greet", json!({}), SharedState::default());
    let direct = blocking_greet("Bo".into(), &Greeting("Hi".into()), &run).unwrap();
    assert!(direct.starts_with("Hi, Bo! (on "));
}

#[tokio::test]
async fn a_blocking_tool_sees_its_deadline_and_times_out() {
    let registry = registry();
    registry.set_limits(CallLimits {
        timeout_grace: Duration::from_secs(60),
        ..CallLimits::default()
    });
    let result = call(&registry, "blocking_until_cancelled", json!({})).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ToolTimeout.as_str()));
    assert_eq!(result.text(), "Error: tool call timed out after 30ms");
}

#[tokio::test]
async fn a_panic_in_a_blocking_tool_is_tool_panicked() {
    let result = call(&registry(), "blocking_panic", json!({})).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ToolPanicked.as_str()));
    assert_eq!(
        result.text(),
        "Error: tool \"blocking_panic\" panicked: the disk is gone"
    );
}

#[tokio::test]
async fn max_result_chars_cuts_the_content_but_not_the_value() {
    let result = call(&registry(), "long_text", json!({})).await;
    assert_eq!(result.value(), Some(&json!("x".repeat(1_000))));
    let marker = "…[truncated: 956 of 1,000 characters omitted; call the tool again with a narrower request to see the rest]";
    assert_eq!(
        result.text(),
        format!("{}{marker}", "x".repeat(150 - marker.chars().count()))
    );
    assert_eq!(result.text().chars().count(), 150);
}

#[tokio::test]
async fn set_parameters_and_new_bounds_are_enforced_at_the_call() {
    let registry = registry();
    let valid = json!({"tags": ["a", "b"], "every": 10, "owners": {"core": "ana"}});
    let result = call(&registry, "label", valid).await;
    assert!(!result.is_error(), "{}", result.text());
    assert_eq!(result.value(), Some(&json!(13)));
    let invalid = json!({"tags": ["a", "b", "a"], "every": 12, "owners": {}});
    let result = call(&registry, "label", invalid).await;
    assert_eq!(result.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
    assert_eq!(
        result.text(),
        "Error: invalid arguments: \"tags\" must have unique items (items 0 and 2 are equal); \
         \"every\" must be a multiple of 5; \"owners\" must have at least 1 property"
    );
    let violations = result.error().unwrap().violations();
    assert_eq!(violations[0].expected(), "unique items");
    assert_eq!(violations[0].got(), "items 0 and 2 are equal");
    assert_eq!(violations[2].got(), "0 properties");
    let parameters = registry.get("label").unwrap().parameters().clone();
    assert_eq!(parameters["properties"]["tags"]["uniqueItems"], json!(true));
    assert_eq!(parameters["properties"]["every"]["multipleOf"], json!(5));
    assert_eq!(
        parameters["properties"]["owners"]["maxProperties"],
        json!(2)
    );
}

#[tokio::test]
async fn a_tool_error_keeps_its_code() {
    let registry = registry();
    let result = call(&registry, "full_disk", json!({})).await;
    assert_eq!(result.error_code(), Some("ENOSPC"));
    assert_eq!(result.error().unwrap().info().unwrap().name, "IoError");
    assert_eq!(result.text(), "Error: no space left on device");
}

#[tokio::test]
async fn presenters_and_the_concurrency_classifier_see_typed_arguments() {
    let registry = registry();
    let definition = registry.get("read_many").unwrap();
    let card = definition
        .present_call(&json!({"paths": ["a", "b"], "count": 2}))
        .unwrap();
    assert_eq!(card.title(), "Read 2 files");
    assert!(matches!(
        card,
        ToolCallView::Generic {
            kind: dsh_tools::present::ToolCallKind::Read,
            ..
        }
    ));
    assert!(
        definition.present_call(&json!({"paths": 5})).is_none(),
        "invalid arguments: no card"
    );
    let few = ToolExecutionInput::new("1", "read_many", json!({"paths": ["a"]}));
    let many = ToolExecutionInput::new("2", "read_many", json!({"paths": ["a", "b", "c"]}));
    assert!(definition.is_concurrency_safe(&few.arguments));
    assert!(!definition.is_concurrency_safe(&many.arguments));
}

#[test]
fn an_unsupported_schema_is_refused_at_registration() {
    let error = ToolRegistry::new().register(UnsupportedTool).unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::UnsupportedSchema);
    assert!(
        error
            .to_string()
            .starts_with("tool \"unsupported\" cannot be registered: unsupported JSON schema: "),
        "{}",
        error.to_string()
    );
    assert!(
        error.to_string().contains("look-ahead"),
        "{}",
        error.to_string()
    );
}

#[tokio::test]
async fn a_schemars_keyword_beyond_the_typed_subset_is_enforced() {
    let registry = ToolRegistry::new();
    let _ = registry.register(ThirdsTool).unwrap();
    let fine = call(&registry, "thirds", json!({"odd": {"value": 9}})).await;
    assert_eq!(fine.value(), Some(&json!(3)), "{}", fine.text());
    let refused = call(&registry, "thirds", json!({"odd": {"value": 10}})).await;
    assert_eq!(refused.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
    assert!(
        refused
            .text()
            .contains("\"odd.value\" must be a multiple of 3"),
        "{}",
        refused.text()
    );
}

// Never built: the schema is refused before any call.
#[allow(dead_code)]
#[derive(ToolArgs)]
struct Directory {
    name: String,
    entries: Vec<Entry>,
}

#[allow(dead_code)]
#[derive(ToolArgs)]
enum Entry {
    File { name: String },
    Directory(Directory),
}

/// Takes a recursive pair of types.
#[tool]
async fn mirror(root: Directory) -> String {
    root.name
}

#[test]
fn a_recursive_pair_of_types_is_published_with_defs_and_validated() {
    let registry = ToolRegistry::new();
    let _ = registry.register(MirrorTool).unwrap();
    let schema = registry.get("mirror").unwrap().parameters().clone();
    // The lone struct is the whole arguments: the root itself is the definition.
    assert!(schema.get("$defs").is_none(), "{schema}");
    assert_eq!(
        schema["properties"]["entries"]["items"]["oneOf"][1]["properties"]["Directory"],
        json!({"$ref": "#"})
    );
    let violations = dsh_tools::schema::Schema::from_json_schema(&schema)
        .unwrap()
        .validate(&json!({"name": "a", "entries": [
            {"Directory": {"name": "b", "entries": [{"File": {"name": 3}}]}}
        ]}))
        .unwrap_err();
    assert_eq!(
        violations.to_string(),
        r#""entries[0].Directory.entries[0].File.name" must be a string"#
    );
}
