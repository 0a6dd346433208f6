//! The pipeline with hand-written tools: a valid call, invalid arguments, an unknown tool, a
//! denied call and a panicking tool, each printed as the model would see it.
//!
//! Run with `cargo run -p dsh-tools --example quickstart`.

use dsh_tools::schema::{
    AdditionalProperties, ObjectRules, Property, Schema, SchemaKind, StringRules,
};
use dsh_tools::{
    FnTool, PreToolDecision, ToolExecutionInput, ToolExecutionResult, ToolRegistry, json,
};

/// `{"name": string}`, closed: the schema the `greet` tool validates its arguments against.
fn greet_arguments() -> Schema {
    let string = Schema {
        kind: SchemaKind::String(StringRules::default()),
        nullable: false,
        annotations: Default::default(),
    };
    Schema {
        kind: SchemaKind::Object(ObjectRules {
            properties: vec![Property {
                name: "name".into(),
                schema: string,
                required: true,
            }],
            additional: AdditionalProperties::Forbidden,
        }),
        nullable: false,
        annotations: Default::default(),
    }
}

fn print(label: &str, result: &ToolExecutionResult) {
    let code = result.error_code().unwrap_or("-");
    println!(
        "{label:<22} is_error={:<5} code={code:<16} text={:?}",
        result.is_error(),
        result.text()
    );
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    // The registry catches panics in tools; keep the default hook from printing a backtrace.
    std::panic::set_hook(Box::new(|info| eprintln!("(a tool panicked: {info})")));
    let registry = ToolRegistry::new();

    let greet = FnTool::builder("greet", "Greet someone by name.")
        .parameters(json!({
            "type": "object",
            "properties": {"name": {"type": "string", "description": "The name to greet"}},
            "required": ["name"],
            "additionalProperties": false
        }))
        .validate_arguments(greet_arguments())
        .handler(|arguments, _run| async move {
            Ok(format!(
                "Hello, {}!",
                arguments["name"].as_str().unwrap_or_default()
            ))
        });
    let delete = FnTool::builder("delete_everything", "Delete every file.")
        .handler(|_, _| async { Ok("deleted") });
    let crash = FnTool::builder("crash", "A tool with a bug.").handler(|_, _| async {
        let items: Vec<u32> = Vec::new();
        Ok(items[3])
    });
    for tool in [greet, delete, crash] {
        registry.register(tool).expect("distinct names");
    }

    // A policy: nothing called `delete_*` runs.
    registry.on_pre_execute(|execution, next| async move {
        if execution.name().starts_with("delete_") {
            return Ok(PreToolDecision::deny(format!(
                "{} is not allowed here",
                execution.name()
            )));
        }
        next.run().await
    });

    println!("What the model is told:");
    for schema in registry.schemas(None).iter() {
        println!(
            "  {}",
            serde_json::to_string(schema).expect("a schema is JSON")
        );
    }

    let calls = [
        (
            "valid call",
            ToolExecutionInput::from_raw("c1", "greet", r#"{"name": "Ada"}"#),
        ),
        (
            "invalid arguments",
            ToolExecutionInput::from_raw("c2", "greet", r#"{"nam": 42}"#),
        ),
        (
            "malformed arguments",
            ToolExecutionInput::from_raw("c3", "greet", r#"{"name": "#),
        ),
        (
            "unknown tool",
            ToolExecutionInput::from_raw("c4", "greeet", "{}"),
        ),
        (
            "denied call",
            ToolExecutionInput::from_raw("c5", "delete_everything", ""),
        ),
        (
            "panicking tool",
            ToolExecutionInput::from_raw("c6", "crash", ""),
        ),
    ];
    println!("\nWhat the model gets back:");
    for (label, input) in calls {
        print(label, &registry.execute(input).await);
    }
}
