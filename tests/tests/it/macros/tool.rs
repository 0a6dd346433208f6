//! `#[tool]`: the generated tool struct, its schema, execution through the typed shim.

use dsh_tools::call::SharedState;
use dsh_tools::{Tool, ToolArgs, ToolDefinition, ToolError, ToolRun, Value, json, tool};

#[derive(ToolArgs, Debug)]
struct ReadFile {
    /// Absolute file path
    path: String,
    /// First line to return
    offset: Option<u64>,
    #[arg(default = 200, maximum = 10_000)]
    limit: u32,
}

/// Read a file from disk.
#[tool(name = "read_file", kind = "read", timeout_ms = 5_000, concurrency_safe, card_title = "Read {path}", location = path)]
async fn read_file(args: ReadFile, run: &ToolRun) -> Result<String, ToolError> {
    let _ = run;
    Ok(format!(
        "{} from {:?} x{}",
        args.path, args.offset, args.limit
    ))
}

/// Greet someone by name.
#[tool]
async fn greet(
    /// The name to greet
    name: String,
) -> String {
    format!("Hello, {name}!")
}

#[test]
fn generated_definitions() {
    assert_eq!(ToolDefinition::name(&ReadFileTool), "read_file");
    assert_eq!(
        ToolDefinition::description(&ReadFileTool),
        "Read a file from disk."
    );
    assert_eq!(ReadFileTool.options().timeout_ms, Some(5_000));
    assert_eq!(<ReadFileTool as Tool>::INFO.name, "read_file");
    println!(
        "{}",
        serde_json::to_string_pretty(ReadFileTool.parameters()).unwrap()
    );
    println!(
        "{}",
        serde_json::to_string_pretty(GreetTool.parameters()).unwrap()
    );
    assert_eq!(
        GreetTool.parameters(),
        &json!({
            "type": "object",
            "properties": {"name": {"description": "The name to greet", "type": "string"}},
            "required": ["name"],
            "additionalProperties": false
        })
    );
    let card = ToolDefinition::present_call(&ReadFileTool, &json!({"path": "/etc/hosts"})).unwrap();
    println!("{card:?}");
}

/// A run made outside any registry for a direct call finds the state it was given, and only that.
#[test]
fn a_detached_run_reaches_the_state_it_was_given() {
    let mut state = SharedState::default();
    state.insert(7_u32);
    let run = ToolRun::detached("c1", "greet", Value::Null, state);
    assert_eq!(run.state::<u32>().ok(), Some(&7));
    assert_eq!(
        run.state::<String>().map_err(|error| error.to_string()),
        Err(
            "no shared state of type `alloc::string::String` was provided to the registry"
                .to_owned()
        )
    );
}

#[tokio::test]
async fn runs_through_the_shim() {
    let run = ToolRun::detached("c1", "greet", Value::Null, SharedState::default());
    let value = GreetTool
        .execute(&json!({"name": "Ada"}), &run)
        .await
        .unwrap();
    assert_eq!(value, json!("Hello, Ada!"));
    let error = GreetTool
        .execute(&json!({"name": 5, "x": 1}), &run)
        .await
        .unwrap_err();
    assert_eq!(
        error.message(),
        "invalid arguments: \"name\" must be a string; \"x\" is not a declared property (additionalProperties: false)"
    );
    let value = ReadFileTool
        .execute(&json!({"path": "/a"}), &run)
        .await
        .unwrap();
    assert_eq!(value, json!("/a from None x200"));
    assert_eq!(greet("Bob".into()).await, "Hello, Bob!");
}

/// Wait for a long job.
#[tool(task)]
async fn long_job() -> String {
    "done".to_owned()
}

/// Only ever a task.
#[tool(task = "required")]
async fn batch_job() -> String {
    "done".to_owned()
}

#[test]
fn task_declares_the_tools_task_support() {
    use dsh_tools::call::TaskSupport;
    assert_eq!(LongJobTool.options().task_support, TaskSupport::Optional);
    assert_eq!(BatchJobTool.options().task_support, TaskSupport::Required);
    assert_eq!(
        <LongJobTool as Tool>::INFO.task_support,
        TaskSupport::Optional
    );
}

/// The one contract two hand-written tool types below hand out.
fn shared_contract() -> &'static dsh_tools::call::ToolContract {
    static CONTRACT: std::sync::LazyLock<dsh_tools::call::ToolContract> =
        std::sync::LazyLock::new(dsh_tools::call::ToolContract::of::<Value, String>);
    &CONTRACT
}

struct FirstSharer;

impl Tool for FirstSharer {
    type Args = Value;
    type Output = String;
    const INFO: dsh_tools::call::ToolInfo = dsh_tools::call::ToolInfo {
        timeout_ms: Some(100),
        ..dsh_tools::call::ToolInfo::new("first", "The first of two tools sharing a contract.")
    };

    fn contract() -> &'static dsh_tools::call::ToolContract {
        shared_contract()
    }

    async fn call(&self, _: Value, _: &ToolRun) -> Result<String, ToolError> {
        Ok("first".to_owned())
    }
}

struct SecondSharer;

impl Tool for SecondSharer {
    type Args = Value;
    type Output = String;
    const INFO: dsh_tools::call::ToolInfo = dsh_tools::call::ToolInfo {
        timeout_ms: Some(200),
        defer_loading: true,
        ..dsh_tools::call::ToolInfo::new("second", "The second of two tools sharing a contract.")
    };

    fn contract() -> &'static dsh_tools::call::ToolContract {
        shared_contract()
    }

    async fn call(&self, _: Value, _: &ToolRun) -> Result<String, ToolError> {
        Ok("second".to_owned())
    }
}

/// A typed tool used as a definition without being registered lends options made from its own
/// `INFO`, even when a hand-written impl shares its contract with another tool type.
#[test]
fn unregistered_typed_tools_lend_their_own_options() {
    assert_eq!(FirstSharer.options().timeout_ms, Some(100));
    assert!(!FirstSharer.options().defer_loading);
    assert_eq!(SecondSharer.options().timeout_ms, Some(200));
    assert!(SecondSharer.options().defer_loading);
    // Asked again, each type gets the same value it was lent the first time.
    assert!(std::ptr::eq(FirstSharer.options(), FirstSharer.options()));
    assert!(std::ptr::eq(SecondSharer.options(), SecondSharer.options()));
    assert_eq!(FirstSharer.options().timeout_ms, Some(100));
}
