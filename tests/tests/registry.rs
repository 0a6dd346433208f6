//! Registry rules: registration, duplicates, disposal, `get`, `schemas` and change events.

use std::sync::{Arc, Mutex};

use dsh_tools::{
    FnTool, RegistryErrorKind, RegistryEvent, SharedState, ToolDefinition, ToolRegistry, json,
};
use dsh_tools_tests::{call, ok_tool, only_text, registry_with};

#[test]
fn a_registered_tool_is_found_by_name() {
    let registry = registry_with([ok_tool("a")]);
    assert_eq!(
        registry.get("a", None).map(|tool| tool.name().to_owned()),
        Some("a".to_owned())
    );
    assert!(registry.get("b", None).is_none());
}

#[test]
fn a_duplicate_global_name_is_refused_naming_the_tool() {
    let registry = registry_with([ok_tool("a")]);
    let error = registry.register(ok_tool("a")).unwrap_err();
    assert_eq!(error.kind(), RegistryErrorKind::DuplicateTool);
    assert_eq!(
        error.message(),
        "tool \"a\" is already registered (for a per-agent variant, register it through that \
         agent's scope instead)"
    );
}

#[test]
fn a_duplicate_name_in_one_scope_is_refused() {
    let registry = ToolRegistry::new();
    let scope = registry.create_scope("agent", None).unwrap();
    let _ = scope.register(ok_tool("a")).unwrap();
    let error = scope.register(ok_tool("a")).unwrap_err();
    assert_eq!(
        error.message(),
        "tool \"a\" is already registered in this scope"
    );
}

#[test]
fn an_empty_name_and_a_zero_timeout_are_refused() {
    let registry = ToolRegistry::new();
    assert_eq!(
        registry.register(ok_tool("")).unwrap_err().message(),
        "tool name must not be empty"
    );
    let zero = FnTool::builder("slow", "")
        .timeout_ms(0)
        .handler(|_, _| async { Ok(json!(1)) });
    let error = registry.register(zero).unwrap_err();
    assert_eq!(error.kind(), RegistryErrorKind::InvalidDefinition);
    assert_eq!(
        error.message(),
        "tool \"slow\" timeout_ms must be a positive number of milliseconds"
    );
}

#[test]
fn disposing_a_registration_removes_the_tool_once() {
    let registry = ToolRegistry::new();
    let handle = registry.register(ok_tool("a")).unwrap();
    assert!(handle.is_active());
    assert!(handle.dispose());
    assert!(!handle.is_active());
    assert!(registry.get("a", None).is_none());
    assert!(!handle.dispose(), "disposing twice is a no-op");
}

#[test]
fn an_old_handle_does_not_dispose_a_later_tool_of_the_same_name() {
    let registry = ToolRegistry::new();
    let first = registry.register(ok_tool("a")).unwrap();
    first.dispose();
    let second = registry.register(ok_tool("a")).unwrap();
    assert!(!first.dispose());
    assert!(second.is_active());
    assert!(registry.get("a", None).is_some());
}

#[test]
fn a_shared_definition_registers_as_is() {
    let registry = ToolRegistry::new();
    let shared: Arc<dyn ToolDefinition> = Arc::new(ok_tool("shared"));
    let _ = registry.register(Arc::clone(&shared)).unwrap();
    let found = registry.get("shared", None).unwrap();
    assert!(Arc::ptr_eq(&found, &shared));
}

#[test]
fn schemas_carry_only_name_description_and_parameters() {
    let tool = FnTool::builder("t", "Does t.")
        .raw_parameters(json!({"type": "object", "properties": {"x": {"type": "integer"}}}))
        .timeout_ms(5)
        .concurrency_safe(true)
        .handler(|_, _| async { Ok(json!(null)) });
    let registry = registry_with([tool]);
    let schemas = registry.schemas(None);
    assert_eq!(
        serde_json::to_value(&*schemas).unwrap(),
        json!([{
            "name": "t",
            "description": "Does t.",
            "parameters": {"type": "object", "properties": {"x": {"type": "integer"}}}
        }])
    );
}

#[test]
fn schemas_are_sorted_by_name_whatever_the_registration_order() {
    let registry = registry_with([ok_tool("zeta"), ok_tool("alpha"), ok_tool("Mid")]);
    let names: Vec<String> = registry
        .schemas(None)
        .iter()
        .map(|s| s.name.clone())
        .collect();
    assert_eq!(names, ["Mid", "alpha", "zeta"]);
}

#[test]
fn schemas_are_cached_until_the_registry_changes() {
    let registry = registry_with([ok_tool("a")]);
    let first = registry.schemas(None);
    let again = registry.schemas(None);
    assert!(
        Arc::ptr_eq(&first, &again),
        "a repeated call reuses the cached list"
    );
    let handle = registry.register(ok_tool("b")).unwrap();
    let changed = registry.schemas(None);
    assert!(!Arc::ptr_eq(&first, &changed));
    assert_eq!(changed.len(), 2);
    handle.dispose();
    assert_eq!(registry.schemas(None).len(), 1);
}

#[test]
fn scoped_schemas_are_cached_per_scope() {
    let registry = registry_with([ok_tool("g")]);
    let scope = registry.create_scope("agent", None).unwrap();
    let _ = scope.register(ok_tool("own")).unwrap();
    let first = scope.schemas();
    assert!(Arc::ptr_eq(&first, &scope.schemas()));
    let names: Vec<&str> = first.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["g", "own"]);
    assert_eq!(
        registry.schemas(None).len(),
        1,
        "the global view does not see scope tools"
    );
}

#[test]
fn change_listeners_hear_registrations_and_disposals() {
    let registry = ToolRegistry::new();
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let listener = registry.on_change(move |event| sink.lock().unwrap().push(event.clone()));
    let scope = registry.create_scope("agent", None).unwrap();
    let handle = registry.register(ok_tool("a")).unwrap();
    let _ = scope.register(ok_tool("b")).unwrap();
    handle.dispose();
    scope.dispose();
    listener.dispose();
    let _ = registry.register(ok_tool("after")).unwrap();
    let agent = Some("agent".into());
    assert_eq!(
        *events.lock().unwrap(),
        vec![
            RegistryEvent::ToolRegistered {
                name: "a".into(),
                agent: None
            },
            RegistryEvent::ToolRegistered {
                name: "b".into(),
                agent: agent.clone()
            },
            RegistryEvent::ToolDisposed {
                name: "a".into(),
                agent: None
            },
            RegistryEvent::ToolDisposed {
                name: "b".into(),
                agent
            },
        ]
    );
}

#[test]
fn a_panicking_change_listener_does_not_break_registration() {
    let registry = ToolRegistry::new();
    let _ = registry.on_change(|_| panic!("listener bug"));
    let heard = Arc::new(Mutex::new(0));
    let count = Arc::clone(&heard);
    let _ = registry.on_change(move |_| *count.lock().unwrap() += 1);
    assert!(registry.register(ok_tool("a")).is_ok());
    assert_eq!(*heard.lock().unwrap(), 1);
    assert!(registry.get("a", None).is_some());
}

#[tokio::test]
async fn shared_state_is_reachable_from_the_body() {
    struct Greeting(&'static str);
    let mut state = SharedState::new();
    state.insert(Greeting("hello"));
    let registry = ToolRegistry::with_state(state);
    let _ = registry
        .register(
            FnTool::builder("greet", "")
                .handler(|_, run| async move { Ok(json!(run.require_state::<Greeting>()?.0)) }),
        )
        .unwrap();
    let _ =
        registry
            .register(FnTool::builder("missing", "").handler(|_, run| async move {
                run.require_state::<String>().map(|_| json!(null))
            }))
            .unwrap();
    assert_eq!(only_text(&registry.execute(call("greet")).await), "hello");
    assert_eq!(
        only_text(&registry.execute(call("missing")).await),
        "Error: no shared state of type `alloc::string::String` was provided to the registry"
    );
    assert!(registry.state().get::<Greeting>().is_some());
}

#[tokio::test]
async fn a_raw_tool_is_not_validated_by_the_registry() {
    // A raw JSON-Schema tool (an MCP import) declares parameters but validates nothing itself.
    let raw = FnTool::builder("raw", "")
        .raw_parameters(
            json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}),
        )
        .handler(|arguments, _| async move { Ok(arguments) });
    let registry = registry_with([raw]);
    let result = registry
        .execute(dsh_tools_tests::call_with(
            "raw",
            json!({"n": "not a number"}),
        ))
        .await;
    assert!(!result.is_error());
    assert_eq!(result.value(), Some(&json!({"n": "not a number"})));
}

#[test]
fn hook_and_restriction_handles_report_whether_they_are_active() {
    let registry = registry_with([ok_tool("a")]);
    let hook = registry.guard(|_| None);
    let scope = registry.create_scope("agent", None).unwrap();
    let restriction = scope
        .restrict(dsh_tools::ToolRestriction::deny(["a"]))
        .unwrap();
    assert!(hook.is_active() && restriction.is_active());
    assert!(hook.dispose());
    assert!(!hook.is_active());
    scope.dispose();
    assert!(
        !restriction.is_active(),
        "disposing the scope removed its restriction"
    );
    assert!(!restriction.dispose());
}
