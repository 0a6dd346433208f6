//! Validate before policy: a call to a known tool whose arguments break its schema ends
//! `INVALID_ARGS` before any pre-execute listener, guard, approver, layer or post-execute
//! listener runs (a person never approves a call that is then refused), while the finalizer and
//! observers still see it; every hook of a valid call sees arguments the body accepts; an unknown
//! tool and a raw tool without a schema still travel the pipeline.

use dsh_tools::{
    FnTool, PreToolDecision, ToolArgs, ToolExecutionInput, ToolRegistry,
    errors::ErrorCode,
    hooks::{ApprovalOutcome, approver_fn},
    json, tool,
};
use dsh_tools_tests::{Log, call_with, echo_tool, log_every_phase, only_text, registry_with};

/// Arguments of a note deletion: a string id, and no other key.
#[derive(ToolArgs, Debug)]
struct DeleteNote {
    /// The note's id.
    id: String,
}

/// Delete a note.
#[tool]
async fn delete_note(args: DeleteNote) -> String {
    format!("deleted {}", args.id)
}

/// A registry with `delete_note`, every phase logged, a listener that converts the arguments
/// into the tool's own type, one that asks about every call, and an approver that logs the
/// arguments it was shown and allows.
fn asking_registry(log: &Log) -> ToolRegistry {
    let registry = ToolRegistry::new();
    let _ = registry.register(DeleteNoteTool).expect("a fresh registry");
    log_every_phase(&registry, log);
    let seen = log.clone();
    let _ = registry.on_pre_execute(move |execution, next| {
        // Validated arguments convert into the tool's own type.
        match DeleteNote::from_json(execution.arguments()) {
            Ok(args) => seen.push(format!("typed {}", args.id)),
            Err(error) => seen.push(format!("unchecked: {error}")),
        }
        next.run()
    });
    let _ = registry.on_pre_execute(|_, _| async {
        Ok(PreToolDecision::Ask {
            reason: Some("deletes a note".to_owned()),
        })
    });
    let seen = log.clone();
    let _ = registry.set_approver(approver_fn(move |request| {
        seen.push(format!("approver saw {}", request.execution.arguments()));
        async { Ok(ApprovalOutcome::AllowedOnce) }
    }));
    registry
}

#[tokio::test]
async fn an_invalid_call_ends_before_anyone_is_asked() {
    let log = Log::new();
    let registry = asking_registry(&log);
    let result = registry
        .execute(call_with("delete_note", json!({"id": 5, "force": true})))
        .await;
    assert_eq!(result.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
    assert_eq!(
        only_text(&result),
        "Error: invalid arguments: \"id\" must be a string; \
         \"force\" is not a declared property (additionalProperties: false)"
    );
    // No listener, guard, approver, layer or post-execute listener ran; the observer saw it.
    assert_eq!(log.entries(), ["observe"]);
}

#[tokio::test]
async fn every_hook_and_the_approver_see_validated_arguments() {
    let log = Log::new();
    let registry = asking_registry(&log);
    let result = registry
        .execute(call_with("delete_note", json!({"id": "n-1"})))
        .await;
    assert_eq!(only_text(&result), "deleted n-1");
    assert_eq!(
        log.entries(),
        [
            "pre",
            "typed n-1",
            r#"approver saw {"id":"n-1"}"#,
            "guard",
            "wrapper",
            "post",
            "observe"
        ]
    );
}

#[tokio::test]
async fn malformed_raw_arguments_end_before_any_hook() {
    let log = Log::new();
    let registry = asking_registry(&log);
    let result = registry
        .execute(ToolExecutionInput::from_raw(
            "c",
            "delete_note",
            "{\"id\": ",
        ))
        .await;
    assert_eq!(result.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
    assert!(
        only_text(&result).starts_with("Error: invalid arguments: arguments are not valid JSON")
    );
    assert_eq!(log.entries(), ["observe"]);
}

#[tokio::test]
async fn a_hand_written_tools_schema_is_checked_before_policy_too() {
    let log = Log::new();
    let registry = registry_with([echo_tool()]);
    log_every_phase(&registry, &log);
    let result = registry
        .execute(call_with("echo", json!({"text": 3})))
        .await;
    assert_eq!(
        only_text(&result),
        "Error: invalid arguments: \"text\" must be a string"
    );
    assert_eq!(log.entries(), ["observe"]);
}

#[tokio::test]
async fn an_unknown_tool_still_travels_the_pipeline() {
    let log = Log::new();
    let registry = ToolRegistry::new();
    log_every_phase(&registry, &log);
    let result = registry
        .execute(call_with("missing", json!({"id": 5})))
        .await;
    assert_eq!(result.error_code(), Some(ErrorCode::UnknownTool.as_str()));
    assert_eq!(
        log.entries(),
        ["pre", "guard", "wrapper", "post", "observe"]
    );
}

#[tokio::test]
async fn a_raw_tool_without_a_schema_takes_any_arguments_to_its_hooks() {
    let log = Log::new();
    let raw = FnTool::builder("raw", "Checks its own arguments.")
        .raw_parameters(json!({"type": "object", "properties": {"id": {"type": "string"}}}))
        .handler(|arguments, _| async move { Ok(arguments["id"].clone()) });
    let registry = registry_with([raw]);
    log_every_phase(&registry, &log);
    let result = registry.execute(call_with("raw", json!({"id": 5}))).await;
    assert_eq!(only_text(&result), "5");
    assert_eq!(
        log.entries(),
        ["pre", "guard", "wrapper", "post", "observe"]
    );
}
