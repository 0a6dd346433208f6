//! Registry rules: registration (one by one and all at once), duplicates, disposal, `get`,
//! `schemas` (sorted, cached, sharing each tool's parameters), change events and the registry's
//! `Debug` output; what a change drops is dropped after the registry's lock is released.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use dsh_tools::{
    FnTool, ToolDefinition, ToolRegistry,
    call::SharedState,
    json,
    registry::{RegistryErrorKind, RegistryEvent},
    tool,
};
use dsh_tools_tests::{call, ok_tool, only_text, registry_with};

/// Reads one file.
#[tool]
async fn read_one(
    /** The path */
    path: String,
) -> String {
    path
}

#[test]
fn a_registered_tool_is_found_by_name() {
    let registry = registry_with([ok_tool("a")]);
    assert_eq!(
        registry.get("a").map(|tool| tool.name().to_owned()),
        Some("a".to_owned())
    );
    assert!(registry.get("b").is_none());
}

#[test]
fn a_registry_debugs_as_its_global_tools_sorted_and_its_scope_count() {
    let registry = registry_with([ok_tool("b"), ok_tool("a")]);
    let scope = registry.create_child("agent").unwrap();
    let _ = scope.register(ok_tool("scoped")).unwrap();
    assert_eq!(
        format!("{registry:?}"),
        r#"ToolRegistry { global_tools: ["a", "b"], scopes: 1, .. }"#
    );
    scope.dispose();
    assert_eq!(
        format!("{:?}", ToolRegistry::new()),
        "ToolRegistry { global_tools: [], scopes: 0, .. }"
    );
    assert_eq!(
        format!("{registry:?}"),
        r#"ToolRegistry { global_tools: ["a", "b"], scopes: 0, .. }"#
    );
}

#[test]
fn a_duplicate_global_name_is_refused_naming_the_tool() {
    let registry = registry_with([ok_tool("a")]);
    let error = registry.register(ok_tool("a")).unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::DuplicateTool);
    assert_eq!(
        error.to_string(),
        "tool \"a\" is already registered (for a per-agent variant, register it through that \
         agent's scope instead)"
    );
}

#[test]
fn a_duplicate_name_in_one_scope_is_refused() {
    let registry = ToolRegistry::new();
    let scope = registry.create_child("agent").unwrap();
    let _ = scope.register(ok_tool("a")).unwrap();
    let error = scope.register(ok_tool("a")).unwrap_err();
    assert_eq!(
        error.to_string(),
        "tool \"a\" is already registered in this scope"
    );
}

#[test]
fn an_empty_name_a_zero_timeout_and_a_zero_result_budget_are_refused() {
    let registry = ToolRegistry::new();
    assert_eq!(
        registry.register(ok_tool("")).unwrap_err().to_string(),
        "tool name must not be empty"
    );
    let zero = FnTool::builder("slow", "")
        .options(dsh_tools::call::ToolOptions {
            timeout_ms: Some(0),
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(|_, _| async { Ok(json!(1)) });
    let error = registry.register(zero).unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::InvalidDefinition);
    assert_eq!(
        error.to_string(),
        "tool \"slow\" timeout_ms must be a positive number of milliseconds"
    );
    let silent = FnTool::builder("silent", "")
        .options(dsh_tools::call::ToolOptions {
            max_result_chars: Some(0),
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(|_, _| async { Ok(json!(1)) });
    let error = registry.register(silent).unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::InvalidDefinition);
    assert_eq!(
        error.to_string(),
        "tool \"silent\" max_result_chars must be a positive number of characters"
    );
}

#[test]
fn disposing_a_registration_removes_the_tool_once() {
    let registry = ToolRegistry::new();
    let handle = registry.register(ok_tool("a")).unwrap();
    assert!(handle.is_active());
    assert!(handle.dispose());
    assert!(!handle.is_active());
    assert!(registry.get("a").is_none());
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
    assert!(registry.get("a").is_some());
}

#[test]
fn a_shared_definition_registers_as_is() {
    let registry = ToolRegistry::new();
    let shared: Arc<dyn ToolDefinition> = Arc::new(ok_tool("shared"));
    let _ = registry.register(Arc::clone(&shared)).unwrap();
    let found = registry.get("shared").unwrap();
    assert!(Arc::ptr_eq(&found, &shared));
}

#[test]
fn schemas_carry_only_name_description_and_parameters() {
    let tool = FnTool::builder("t", "Does t.")
        .raw_parameters(json!({"type": "object", "properties": {"x": {"type": "integer"}}}))
        .options(dsh_tools::call::ToolOptions {
            timeout_ms: Some(5),
            ..dsh_tools::call::ToolOptions::default()
        })
        .concurrency_classifier(|_| true)
        .handler(|_, _| async { Ok(json!(null)) });
    let registry = registry_with([tool]);
    let schemas = registry.schemas();
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
    let names: Vec<String> = registry.schemas().iter().map(|s| s.name.clone()).collect();
    assert_eq!(names, ["Mid", "alpha", "zeta"]);
}

#[test]
fn schemas_are_cached_until_the_registry_changes() {
    let registry = registry_with([ok_tool("a")]);
    let first = registry.schemas();
    let again = registry.schemas();
    assert!(
        Arc::ptr_eq(&first, &again),
        "a repeated call reuses the cached list"
    );
    let handle = registry.register(ok_tool("b")).unwrap();
    let changed = registry.schemas();
    assert!(!Arc::ptr_eq(&first, &changed));
    assert_eq!(changed.len(), 2);
    handle.dispose();
    assert_eq!(registry.schemas().len(), 1);
}

#[test]
fn scoped_schemas_are_cached_per_scope() {
    let registry = registry_with([ok_tool("g")]);
    let scope = registry.create_child("agent").unwrap();
    let _ = scope.register(ok_tool("own")).unwrap();
    let first = scope.schemas();
    assert!(Arc::ptr_eq(&first, &scope.schemas()));
    let names: Vec<&str> = first.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["g", "own"]);
    assert_eq!(
        registry.schemas().len(),
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
    let scope = registry.create_child("agent").unwrap();
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
    assert!(registry.get("a").is_some());
}

#[tokio::test]
async fn shared_state_is_reachable_from_the_body() {
    struct Greeting(&'static str);
    let mut state = SharedState::default();
    state.insert(Greeting("hello"));
    let registry = ToolRegistry::with_state(state);
    let _ = registry
        .register(
            FnTool::builder("greet", "")
                .handler(|_, run| async move { Ok(json!(run.state::<Greeting>()?.0)) }),
        )
        .unwrap();
    let _ = registry
        .register(
            FnTool::builder("missing", "")
                .handler(|_, run| async move { run.state::<String>().map(|_| json!(null)) }),
        )
        .unwrap();
    assert_eq!(only_text(&registry.execute(call("greet")).await), "hello");
    assert_eq!(
        only_text(&registry.execute(call("missing")).await),
        "Error: no shared state of type `alloc::string::String` was provided to the registry"
    );
}

/// State a hand-written tool declares.
struct Motto(&'static str);
/// More state it declares.
struct Clock;

#[tokio::test]
async fn a_hand_written_tool_declares_the_state_it_needs() {
    let greet = || {
        FnTool::builder("greet", "")
            .requires_state::<Motto>()
            .requires_state::<Clock>()
            .requires_state::<Motto>()
            .handler(|_, run| async move { Ok(json!(run.state::<Motto>()?.0)) })
    };
    assert_eq!(
        greet().required_state(),
        [
            dsh_tools::call::StateType::of::<Motto>(),
            dsh_tools::call::StateType::of::<Clock>()
        ],
        "each type once, in the order declared"
    );
    let mut partial = SharedState::default();
    partial.insert(Motto("hello"));
    let error = ToolRegistry::with_state(partial)
        .register(greet())
        .unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::MissingState);
    assert_eq!(
        error.to_string(),
        "tool \"greet\" needs shared state of type `it::registry::rules::Clock`, \
         which this registry was not given: insert it into the SharedState passed to ToolRegistry::with_state"
    );
    let error = ToolRegistry::new().register(greet()).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("of types `it::registry::rules::Motto`, `it::registry::rules::Clock`, which")
            && error.to_string().contains("insert them into"),
        "{error}"
    );
    let mut state = SharedState::default();
    state.insert(Motto("hello"));
    state.insert(Clock);
    let registry = ToolRegistry::with_state(state);
    let _ = registry.register(greet()).unwrap();
    assert_eq!(only_text(&registry.execute(call("greet")).await), "hello");
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
    let hook = registry.guard(|_| None).unwrap();
    let scope = registry.create_child("agent").unwrap();
    let restriction = scope
        .restrict(dsh_tools::registry::ToolRestriction::deny(["a"]))
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

fn names(registry: &ToolRegistry) -> Vec<String> {
    registry
        .schemas()
        .iter()
        .map(|schema| schema.name.clone())
        .collect()
}

#[test]
fn register_all_registers_every_tool_in_one_change() {
    let registry = registry_with([ok_tool("a")]);
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let _ = registry.on_change(move |event| sink.lock().unwrap().push(event.clone()));
    let handles = registry.register_all([ok_tool("c"), ok_tool("b")]).unwrap();
    assert_eq!(names(&registry), ["a", "b", "c"]);
    assert_eq!(
        *events.lock().unwrap(),
        [
            RegistryEvent::ToolRegistered {
                name: "c".into(),
                agent: None
            },
            RegistryEvent::ToolRegistered {
                name: "b".into(),
                agent: None
            },
        ],
        "one event per tool, in the order given"
    );
    assert!(handles.iter().all(|handle| handle.is_active()));
    assert!(handles[0].dispose(), "each handle disposes its own tool");
    assert_eq!(names(&registry), ["a", "b"]);
    assert!(
        registry
            .register_all(Vec::<FnTool>::new())
            .unwrap()
            .is_empty()
    );
}

/// A hand-written definition, a type of its own.
struct Fixed;

impl ToolDefinition for Fixed {
    fn name(&self) -> &str {
        "fixed"
    }

    fn description(&self) -> &str {
        "Returns a fixed value."
    }

    fn parameters(&self) -> &dsh_tools::Value {
        static PARAMETERS: std::sync::LazyLock<dsh_tools::Value> =
            std::sync::LazyLock::new(|| json!({"type": "object"}));
        &PARAMETERS
    }

    fn execute<'a>(
        &'a self,
        _arguments: &'a dsh_tools::Value,
        _run: &'a dsh_tools::ToolRun,
    ) -> dsh_tools::call::BoxFuture<'a, Result<dsh_tools::Value, dsh_tools::ToolError>> {
        Box::pin(async { Ok(json!("fixed")) })
    }
}

#[tokio::test]
async fn register_all_takes_tools_of_different_types_as_a_tuple() {
    let registry = ToolRegistry::new();
    let shared: Arc<dyn ToolDefinition> = Arc::new(ok_tool("shared"));
    let boxed: Box<dyn ToolDefinition> = Box::new(ok_tool("boxed"));
    let handles = registry
        .register_all((ReadOneTool, ok_tool("fn_tool"), Fixed, shared, boxed))
        .unwrap();
    assert_eq!(handles.len(), 5);
    assert_eq!(
        names(&registry),
        ["boxed", "fixed", "fn_tool", "read_one", "shared"]
    );
    assert_eq!(only_text(&registry.execute(call("fixed")).await), "fixed");
    // A one-tuple, and the same rules as any batch: all or none, in one scope as globally.
    let scope = registry.create_child("agent").unwrap();
    let _ = scope.register_all((Fixed,)).unwrap();
    let error = scope.register_all((ok_tool("new"), Fixed)).unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::DuplicateTool);
    assert!(
        scope.get("new").is_none(),
        "nothing of a refused tuple is registered"
    );
}

#[test]
fn register_all_registers_nothing_when_any_tool_is_refused() {
    let registry = registry_with([ok_tool("a")]);
    let taken = registry
        .register_all([ok_tool("d"), ok_tool("a")])
        .unwrap_err();
    assert_eq!(taken.kind, RegistryErrorKind::DuplicateTool);
    assert_eq!(
        taken.to_string(),
        "tool \"a\" is already registered (for a per-agent variant, register it through that \
         agent's scope instead)"
    );
    let twice = registry
        .register_all([ok_tool("e"), ok_tool("f"), ok_tool("e")])
        .unwrap_err();
    assert_eq!(twice.kind, RegistryErrorKind::DuplicateTool);
    assert!(
        twice
            .to_string()
            .starts_with("tool \"e\" is already registered")
    );
    let unnamed = registry
        .register_all([ok_tool("g"), ok_tool("")])
        .unwrap_err();
    assert_eq!(unnamed.kind, RegistryErrorKind::InvalidDefinition);
    assert_eq!(
        names(&registry),
        ["a"],
        "no refused batch left a tool behind"
    );

    let scope = registry.create_child("agent").unwrap();
    let _ = scope.register(ok_tool("own")).unwrap();
    let in_scope = scope
        .register_all([ok_tool("a"), ok_tool("own")])
        .unwrap_err();
    assert_eq!(
        in_scope.to_string(),
        "tool \"own\" is already registered in this scope"
    );
    assert!(
        scope.register_all([ok_tool("a")]).is_ok(),
        "a scope may shadow a global"
    );
    scope.dispose();
    assert_eq!(
        scope.register_all([ok_tool("late")]).unwrap_err().kind,
        RegistryErrorKind::ScopeDisposed
    );
}

#[test]
fn schemas_share_each_tool_s_parameters_instead_of_copying_them() {
    let raw = FnTool::builder("raw", "A raw tool.")
        .raw_parameters(json!({"type": "object", "properties": {"n": {"type": "integer"}}}))
        .handler(|_, _| async { Ok(json!(null)) });
    let registry = ToolRegistry::new();
    let _ = registry.register(ReadOneTool).unwrap();
    let _ = registry.register(raw).unwrap();
    let before = registry.schemas();
    assert_eq!(before[1].name, "read_one");
    assert!(
        Arc::ptr_eq(&before[1].parameters, &ReadOneTool.shared_parameters()),
        "a macro tool hands out the schema its contract built once"
    );
    assert_eq!(*before[1].parameters, *ReadOneTool.parameters());
    let _ = registry.register(ok_tool("other")).unwrap();
    let after = registry.schemas();
    assert!(
        !Arc::ptr_eq(&before, &after),
        "the change emptied the cache"
    );
    for name in ["read_one", "raw"] {
        let find = |list: &[dsh_tools::ToolSchema]| {
            Arc::clone(
                &list
                    .iter()
                    .find(|schema| schema.name == name)
                    .unwrap()
                    .parameters,
            )
        };
        assert!(
            Arc::ptr_eq(&find(&before), &find(&after)),
            "{name}: both lists share the parameters taken at registration"
        );
    }
}

/// Runs `work` on another thread; fails (instead of hanging the suite) if it does not finish.
fn finishes(work: impl FnOnce() + Send + 'static) {
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || {
        work();
        let _ = done.send(());
    });
    finished
        .recv_timeout(Duration::from_secs(20))
        .expect("the change finished: nothing it dropped ran under the registry's lock");
}

/// A tool whose `Drop` uses the registry it was registered in.
struct ReentrantOnDrop {
    name: &'static str,
    registry: ToolRegistry,
}

impl Drop for ReentrantOnDrop {
    fn drop(&mut self) {
        let _ = self.registry.schemas();
        let _ = self
            .registry
            .register(ok_tool(&format!("{}_dropped", self.name)))
            .expect("the registry is usable from a Drop");
    }
}

impl ToolDefinition for ReentrantOnDrop {
    fn name(&self) -> &str {
        self.name
    }

    fn description(&self) -> &str {
        "Uses the registry when dropped."
    }

    fn parameters(&self) -> &dsh_tools::Value {
        static EMPTY: std::sync::LazyLock<dsh_tools::Value> =
            std::sync::LazyLock::new(|| json!({"type": "object"}));
        &EMPTY
    }

    fn execute<'a>(
        &'a self,
        _arguments: &'a dsh_tools::Value,
        _run: &'a dsh_tools::ToolRun,
    ) -> dsh_tools::call::BoxFuture<'a, Result<dsh_tools::Value, dsh_tools::ToolError>> {
        Box::pin(async { Ok(json!(null)) })
    }
}

#[test]
fn what_a_change_drops_may_use_the_registry() {
    let registry = ToolRegistry::new();
    let tool = registry
        .register(ReentrantOnDrop {
            name: "global",
            registry: registry.clone(),
        })
        .unwrap();
    let scope = registry.create_child("agent").unwrap();
    let _ = scope
        .register(ReentrantOnDrop {
            name: "scoped",
            registry: registry.clone(),
        })
        .unwrap();
    let hook_registry = registry.clone();
    let guard_owner = ReentrantOnDrop {
        name: "guard",
        registry: registry.clone(),
    };
    let guard = registry
        .guard(move |_| {
            let _ = &guard_owner;
            let _ = &hook_registry;
            None
        })
        .unwrap();
    let check = registry.clone();
    finishes(move || {
        assert!(tool.dispose());
        assert!(scope.dispose());
        assert!(guard.dispose());
    });
    assert_eq!(
        names(&check),
        ["global_dropped", "guard_dropped", "scoped_dropped"]
    );
}

#[test]
fn disposing_nested_scopes_reports_each_scope_s_tools_the_disposed_scope_first() {
    let registry = ToolRegistry::new();
    let parent = registry.create_child("parent").unwrap();
    let beta = parent.create_child("beta").unwrap();
    let alpha = parent.create_child("alpha").unwrap();
    let leaf = alpha.create_child("leaf").unwrap();
    parent.register_all([ok_tool("p2"), ok_tool("p1")]).unwrap();
    let _ = beta.register(ok_tool("b")).unwrap();
    let _ = alpha.register(ok_tool("a")).unwrap();
    let _ = leaf.register(ok_tool("l")).unwrap();
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let _ = registry.on_change(move |event| {
        if let RegistryEvent::ToolDisposed { name, agent } = event {
            let agent = agent.as_ref().map(|agent| agent.to_string());
            sink.lock()
                .unwrap()
                .push(format!("{}:{name}", agent.unwrap_or_default()));
        }
    });
    assert!(parent.dispose());
    assert_eq!(
        *events.lock().unwrap(),
        ["parent:p1", "parent:p2", "alpha:a", "leaf:l", "beta:b"]
    );
    assert!(!leaf.is_active() && !beta.is_active());
    // The parent's record of its children went with it: the names are free again.
    let again = registry.create_child("parent").unwrap();
    assert!(again.create_child("alpha").is_ok());
}

#[test]
fn disposing_a_child_scope_leaves_its_parent_and_siblings() {
    let registry = ToolRegistry::new();
    let parent = registry.create_child("parent").unwrap();
    let one = parent.create_child("one").unwrap();
    let two = parent.create_child("two").unwrap();
    let _ = two.register(ok_tool("kept")).unwrap();
    assert!(one.dispose());
    assert!(parent.is_active() && two.is_active());
    assert!(two.get("kept").is_some());
    assert!(parent.dispose());
    assert!(
        !two.is_active(),
        "the parent no longer lists the disposed child, only the live one"
    );
}
