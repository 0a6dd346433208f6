//! Agent scopes: shadowing, inheritance along the parent chain, restrictions (which mask every
//! inherited tool, never the scope's own), disposal, finding an agent's scope and a handle's
//! `Debug` output.

use dsh_tools::{
    AgentId, PreToolDecision, ToolRegistry, Value,
    errors::ErrorCode,
    json,
    registry::{RegistryErrorKind, ToolRestriction},
};
use dsh_tools_tests::{Log, call, log_pre_execute, ok_tool, only_text, registry_with, value_tool};

fn visible(scope: &dsh_tools::ToolScope) -> Vec<String> {
    scope
        .schemas()
        .iter()
        .map(|schema| schema.name.clone())
        .collect()
}

/// The value `name` returns when the scope's agent calls it; `None` when it is unknown there.
fn value_of(scope: &dsh_tools::ToolScope, name: &str) -> Option<Value> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let result = runtime.block_on(scope.execute(call(name)));
    match result.error_code() {
        None => result.value().cloned(),
        Some(code) if code == ErrorCode::UnknownTool => None,
        Some(other) => panic!("unexpected outcome {other}"),
    }
}

#[tokio::test]
async fn a_scope_tool_shadows_the_global_of_the_same_name() {
    let registry = registry_with([value_tool("read", json!("global"))]);
    let scope = registry.create_child("agent").unwrap();
    let _ = scope.register(value_tool("read", json!("scoped"))).unwrap();
    assert_eq!(only_text(&scope.execute(call("read")).await), "scoped");
    assert_eq!(only_text(&registry.execute(call("read")).await), "global");
    assert_eq!(visible(&scope), ["read"]);
}

#[tokio::test]
async fn a_child_sees_its_ancestors_tools_and_the_nearest_wins() {
    let registry = ToolRegistry::new();
    let parent = registry.create_child("parent").unwrap();
    let child = parent.create_child("child").unwrap();
    let _ = parent.register(value_tool("a", json!("parent"))).unwrap();
    let _ = parent.register(value_tool("b", json!("parent"))).unwrap();
    let _ = child.register(value_tool("b", json!("child"))).unwrap();
    assert_eq!(only_text(&child.execute(call("a")).await), "parent");
    assert_eq!(only_text(&child.execute(call("b")).await), "child");
    assert_eq!(child.parent(), Some(AgentId::from("parent")));
}

#[tokio::test]
async fn a_tool_of_another_scope_is_unknown() {
    let registry = ToolRegistry::new();
    let one = registry.create_child("one").unwrap();
    let two = registry.create_child("two").unwrap();
    let _ = one.register(ok_tool("mine")).unwrap();
    let result = two.execute(call("mine")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::UnknownTool.as_str()));
    assert_eq!(only_text(&result), "Error: unknown tool \"mine\"");
}

#[tokio::test]
async fn a_call_for_an_agent_without_scope_is_refused_unless_unscoped_agents_see_the_global_layer()
{
    let registry = registry_with([ok_tool("g")]);
    let nobody = AgentId::from("nobody");
    assert!(registry.scope(&nobody).is_none());
    assert!(
        registry.layer_for(&nobody).is_none(),
        "no layer to list or look up in"
    );
    let log = Log::new();
    let seen = log.clone();
    let _hook = registry.on_pre_execute(move |_, next| {
        seen.push("pre");
        next.run()
    });
    let result = registry.execute(call("g").with_agent("nobody")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::UnknownAgent.as_str()));
    assert_eq!(only_text(&result), "Error: unknown agent \"nobody\"");
    assert!(log.entries().is_empty(), "refused before any hook");

    registry.set_unscoped_agents_see_global(true);
    let seen = registry.layer_for(&nobody).expect("the global layer");
    assert_eq!(seen.agent(), None);
    assert!(seen.get("g").is_some());
    assert_eq!(seen.schemas().len(), 1);
    assert!(
        registry.scope(&nobody).is_none(),
        "still no scope of its own"
    );
    let result = registry.execute(call("g").with_agent("nobody")).await;
    assert_eq!(only_text(&result), "ok");

    registry.set_unscoped_agents_see_global(false);
    let result = registry.execute(call("g").with_agent("nobody")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::UnknownAgent.as_str()));
}

#[tokio::test]
async fn deny_hides_the_named_globals_and_they_fail_at_dispatch() {
    let registry = registry_with([ok_tool("a"), ok_tool("b")]);
    let scope = registry.create_child("agent").unwrap();
    let _ = scope.restrict(ToolRestriction::deny(["a"])).unwrap();
    assert_eq!(visible(&scope), ["b"]);
    assert!(scope.get("a").is_none());
    assert_eq!(
        scope.execute(call("a")).await.error_code(),
        Some(ErrorCode::UnknownTool.as_str())
    );
    assert!(
        registry.get("a").is_some(),
        "the global view is not restricted"
    );
}

#[test]
fn a_deny_only_filter_admits_globals_registered_later() {
    let registry = registry_with([ok_tool("a")]);
    let scope = registry.create_child("agent").unwrap();
    let _ = scope.restrict(ToolRestriction::deny(["a"])).unwrap();
    let _ = registry.register(ok_tool("later")).unwrap();
    assert_eq!(visible(&scope), ["later"]);
}

#[test]
fn an_allow_list_excludes_globals_registered_later() {
    let registry = registry_with([ok_tool("a"), ok_tool("b")]);
    let scope = registry.create_child("agent").unwrap();
    let _ = scope.restrict(ToolRestriction::allow(["a"])).unwrap();
    let _ = registry.register(ok_tool("later")).unwrap();
    assert_eq!(visible(&scope), ["a"]);
}

#[test]
fn an_empty_allow_list_hides_every_inherited_global_but_not_own_tools() {
    let registry = registry_with([ok_tool("a"), ok_tool("b")]);
    let scope = registry.create_child("agent").unwrap();
    let _ = scope.register(ok_tool("own")).unwrap();
    let _ = scope
        .restrict(ToolRestriction::allow(Vec::<String>::new()))
        .unwrap();
    assert_eq!(visible(&scope), ["own"]);
}

#[test]
fn a_restriction_never_masks_the_scope_s_own_tool_even_one_shadowing_the_named_tool() {
    let registry = registry_with([value_tool("a", json!("global"))]);
    let scope = registry.create_child("agent").unwrap();
    let child = scope.create_child("child").unwrap();
    let _ = scope.register(value_tool("a", json!("own"))).unwrap();
    let _ = scope.restrict(ToolRestriction::deny(["a"])).unwrap();
    assert_eq!(
        value_of(&scope, "a"),
        Some(json!("own")),
        "the scope's own `a` is not masked"
    );
    assert_eq!(
        value_of(&child, "a"),
        Some(json!("own")),
        "a descendant sees the scope's own `a`: the scope's restriction masks only what it inherits"
    );
    let grandchild = child.create_child("grandchild").unwrap();
    let _ = child.restrict(ToolRestriction::deny(["a"])).unwrap();
    assert_eq!(
        value_of(&grandchild, "a"),
        None,
        "for the child, the scope's `a` is inherited: its own restriction masks it"
    );
}

#[tokio::test]
async fn a_restriction_masks_a_tool_the_parent_scope_registered() {
    let registry = registry_with([ok_tool("g")]);
    let parent = registry.create_child("parent").unwrap();
    let _ = parent.register(ok_tool("shell")).unwrap();
    let _ = parent.register(ok_tool("read")).unwrap();
    let child = parent.create_child("child").unwrap();
    assert_eq!(visible(&child), ["g", "read", "shell"]);
    let _ = child.restrict(ToolRestriction::deny(["shell"])).unwrap();
    assert_eq!(visible(&child), ["g", "read"]);
    assert!(child.get("shell").is_none());
    let result = child.execute(call("shell")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::UnknownTool.as_str()));
    assert_eq!(only_text(&result), "Error: unknown tool \"shell\"");
    assert_eq!(
        visible(&parent),
        ["g", "read", "shell"],
        "the parent's own view is not restricted"
    );
    let grandchild = child.create_child("grandchild").unwrap();
    assert_eq!(
        visible(&grandchild),
        ["g", "read"],
        "the restriction reaches descendants"
    );
}

#[test]
fn an_allow_list_masks_every_inherited_tool_it_does_not_name_at_every_distance() {
    let registry = registry_with([ok_tool("global_a"), ok_tool("global_b")]);
    let grandparent = registry.create_child("grandparent").unwrap();
    let _ = grandparent.register(ok_tool("far")).unwrap();
    let parent = grandparent.create_child("parent").unwrap();
    let _ = parent.register(ok_tool("near")).unwrap();
    let _ = parent.register(ok_tool("near_too")).unwrap();
    let child = parent.create_child("child").unwrap();
    let _ = child.register(ok_tool("own")).unwrap();
    let _ = child
        .restrict(ToolRestriction::allow(["global_b", "far", "near"]))
        .unwrap();
    assert_eq!(visible(&child), ["far", "global_b", "near", "own"]);
}

#[test]
fn an_ancestor_s_restriction_masks_what_it_inherits_for_its_descendants_but_not_its_own_tools() {
    let registry = registry_with([ok_tool("g")]);
    let grandparent = registry.create_child("grandparent").unwrap();
    let _ = grandparent.register(ok_tool("far")).unwrap();
    let parent = grandparent.create_child("parent").unwrap();
    let _ = parent.register(ok_tool("mine")).unwrap();
    let _ = parent
        .restrict(ToolRestriction::deny(["g", "far"]))
        .unwrap();
    let child = parent.create_child("child").unwrap();
    assert_eq!(visible(&parent), ["mine"]);
    assert_eq!(visible(&child), ["mine"]);
    assert!(child.get("far").is_none() && child.get("g").is_none());
    assert_eq!(visible(&grandparent), ["far", "g"]);
}

#[test]
fn the_nearest_layer_with_the_name_decides_whether_it_is_masked() {
    // The parent's own `x` shadows the global `x`; a child that denies `x` sees neither (a
    // masked tool does not uncover a farther one of the same name).
    let registry = registry_with([value_tool("x", json!("global"))]);
    let parent = registry.create_child("parent").unwrap();
    let _ = parent.register(value_tool("x", json!("parent"))).unwrap();
    let child = parent.create_child("child").unwrap();
    assert_eq!(value_of(&child, "x"), Some(json!("parent")));
    let _ = child.restrict(ToolRestriction::deny(["x"])).unwrap();
    assert_eq!(value_of(&child, "x"), None);
    assert!(visible(&child).is_empty());
    // A parent that masks the global `x` but owns an `x` keeps showing its own to the child.
    let other = registry.create_child("other").unwrap();
    let _ = other.register(value_tool("x", json!("other"))).unwrap();
    let _ = other.restrict(ToolRestriction::deny(["x"])).unwrap();
    let other_child = other.create_child("other_child").unwrap();
    assert_eq!(value_of(&other_child, "x"), Some(json!("other")));
    assert_eq!(visible(&other_child), ["x"]);
}

#[test]
fn an_ancestor_s_tool_registered_later_is_hidden_by_an_allow_list_and_admitted_by_a_deny_filter() {
    let registry = registry_with([ok_tool("a")]);
    let parent = registry.create_child("parent").unwrap();
    let allowing = parent.create_child("allowing").unwrap();
    let denying = parent.create_child("denying").unwrap();
    let _ = allowing.restrict(ToolRestriction::allow(["a"])).unwrap();
    let _ = denying.restrict(ToolRestriction::deny(["a"])).unwrap();
    let _ = parent.register(ok_tool("later")).unwrap();
    let _ = registry.register(ok_tool("global_later")).unwrap();
    assert_eq!(visible(&allowing), ["a"]);
    assert_eq!(visible(&denying), ["global_later", "later"]);
    // A restriction goes by name: a denied tool disposed and registered again stays masked.
    let registry = registry_with([]);
    let first = registry.register(ok_tool("flaky")).unwrap();
    let scope = registry.create_child("agent").unwrap();
    let _ = scope.restrict(ToolRestriction::deny(["flaky"])).unwrap();
    first.dispose();
    let _ = registry.register(ok_tool("flaky")).unwrap();
    assert!(scope.get("flaky").is_none());
}

#[test]
fn restrictions_intersect() {
    let registry = registry_with([ok_tool("a"), ok_tool("b"), ok_tool("c")]);
    let scope = registry.create_child("agent").unwrap();
    let _ = scope.restrict(ToolRestriction::allow(["a", "b"])).unwrap();
    let _ = scope.restrict(ToolRestriction::allow(["b", "c"])).unwrap();
    assert_eq!(visible(&scope), ["b"]);
}

#[test]
fn a_restriction_reaches_descendants_and_theirs_intersect() {
    let registry = registry_with([ok_tool("a"), ok_tool("b"), ok_tool("c")]);
    let parent = registry.create_child("parent").unwrap();
    let child = parent.create_child("child").unwrap();
    let grandchild = child.create_child("grandchild").unwrap();
    let _ = parent.restrict(ToolRestriction::deny(["a"])).unwrap();
    let _ = child.restrict(ToolRestriction::deny(["b"])).unwrap();
    assert_eq!(visible(&parent), ["b", "c"]);
    assert_eq!(visible(&grandchild), ["c"]);
}

#[test]
fn a_restriction_naming_only_the_scope_s_own_tool_is_refused_as_unknown_inherited() {
    let registry = registry_with([ok_tool("real")]);
    let scope = registry.create_child("agent").unwrap();
    let _ = scope.register(ok_tool("local")).unwrap();
    let error = scope
        .restrict(ToolRestriction::deny(["local"]))
        .unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::UnknownRestrictedTool);
    assert_eq!(
        error.to_string(),
        "restrict() names unknown inherited tool \"local\"; known inherited tools: real"
    );
}

#[test]
fn a_restriction_naming_unknown_tools_is_refused_listing_every_inherited_one() {
    let registry = registry_with([ok_tool("write"), ok_tool("read")]);
    let parent = registry.create_child("parent").unwrap();
    let _ = parent.register(ok_tool("plan")).unwrap();
    // Shadowing a global: listed once.
    let _ = parent.register(ok_tool("read")).unwrap();
    let scope = parent.create_child("agent").unwrap();
    let _ = scope.register(ok_tool("own")).unwrap();
    let error = scope
        .restrict(ToolRestriction {
            deny: vec!["wraith".into(), "ghost".into(), "plan".into()],
            ..ToolRestriction::allow(["read", "ghost"])
        })
        .unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::UnknownRestrictedTool);
    assert_eq!(
        error.to_string(),
        "restrict() names unknown inherited tools \"ghost\", \"wraith\"; known inherited tools: \
         plan, read, write"
    );
    let bare = ToolRegistry::new().create_child("x").unwrap();
    assert_eq!(
        bare.restrict(ToolRestriction::deny(["a"]))
            .unwrap_err()
            .to_string(),
        "restrict() names unknown inherited tool \"a\"; known inherited tools: (none)"
    );
    // Naming a tool that is both the scope's own and inherited is fine, and so is naming one an
    // ancestor already masks.
    assert!(scope.restrict(ToolRestriction::deny(["plan"])).is_ok());
    let _ = parent.restrict(ToolRestriction::deny(["write"])).unwrap();
    assert!(scope.restrict(ToolRestriction::deny(["write"])).is_ok());
}

#[test]
fn an_empty_filter_is_refused_listing_the_inherited_tools() {
    let registry = registry_with([ok_tool("b"), ok_tool("a")]);
    let parent = registry.create_child("parent").unwrap();
    let _ = parent.register(ok_tool("c")).unwrap();
    let scope = parent.create_child("agent").unwrap();
    let _ = scope.register(ok_tool("own")).unwrap();
    let error = scope.restrict(ToolRestriction::default()).unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::EmptyRestriction);
    assert_eq!(
        error.to_string(),
        "restrict() with an empty filter is a no-op: pass `allow` and/or `deny` (an empty filter \
         is almost always an empty configuration by mistake); known inherited tools: a, b, c"
    );
    let bare = ToolRegistry::new().create_child("x").unwrap();
    assert!(
        bare.restrict(ToolRestriction::default())
            .unwrap_err()
            .to_string()
            .ends_with("; known inherited tools: (none)")
    );
}

#[test]
fn disposing_a_restriction_unmasks_the_tools() {
    let registry = registry_with([ok_tool("a")]);
    let scope = registry.create_child("agent").unwrap();
    let restriction = scope.restrict(ToolRestriction::deny(["a"])).unwrap();
    assert!(scope.get("a").is_none());
    assert!(restriction.dispose());
    assert!(scope.get("a").is_some());
}

#[tokio::test]
async fn scoped_hooks_apply_to_the_scope_and_its_descendants_only() {
    let registry = registry_with([ok_tool("t")]);
    let parent = registry.create_child("parent").unwrap();
    let child = parent.create_child("child").unwrap();
    let sibling = registry.create_child("sibling").unwrap();
    let _ = parent
        .on_pre_execute(|_, _| async {
            Ok(PreToolDecision::Deny {
                reason: "parent says no".to_owned(),
            })
        })
        .unwrap();
    assert_eq!(
        only_text(&child.execute(call("t")).await),
        "Error: parent says no"
    );
    assert_eq!(
        only_text(&parent.execute(call("t")).await),
        "Error: parent says no"
    );
    assert_eq!(only_text(&sibling.execute(call("t")).await), "ok");
    assert_eq!(only_text(&registry.execute(call("t")).await), "ok");
}

#[tokio::test]
async fn disposing_a_scope_removes_its_tools_hooks_guards_and_restrictions() {
    let registry = registry_with([ok_tool("g")]);
    let log = Log::new();
    let scope = registry.create_child("agent").unwrap();
    let _ = scope.register(ok_tool("own")).unwrap();
    let _ = scope.restrict(ToolRestriction::deny(["g"])).unwrap();
    let seen = log.clone();
    let _ = scope
        .guard(move |_| {
            seen.push("guard");
            None
        })
        .unwrap();
    let seen = log.clone();
    let _ = scope
        .on_pre_execute(move |_, next| {
            seen.push("pre");
            next.run()
        })
        .unwrap();
    assert!(scope.dispose());
    assert!(!scope.is_active());
    // Scopes fail closed: nothing of the agent is answered from the global layer.
    let result = registry.execute(call("g").with_agent("agent")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::UnknownAgent.as_str()));
    let result = scope.execute(call("own")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ScopeDisposed.as_str()));
    assert_eq!(
        only_text(&result),
        "Error: agent scope \"agent\" was disposed"
    );
    assert!(scope.schemas().is_empty());
    assert!(scope.get("g").is_none() && scope.get("own").is_none());
    assert!(
        log.entries().is_empty(),
        "no hook of the disposed scope ran"
    );
}

#[test]
fn disposing_a_scope_disposes_its_descendants() {
    let registry = ToolRegistry::new();
    let parent = registry.create_child("parent").unwrap();
    let child = parent.create_child("child").unwrap();
    let other = registry.create_child("other").unwrap();
    parent.dispose();
    assert!(!child.is_active());
    assert!(other.is_active());
    assert!(registry.scope(&AgentId::from("child")).is_none());
}

#[test]
fn the_registry_hands_out_the_live_scope_of_an_agent() {
    let registry = ToolRegistry::new();
    let created = registry.create_child("agent").unwrap();
    let found = registry
        .scope(&AgentId::from("agent"))
        .expect("the agent has a scope");
    assert_eq!(found.agent(), Some(&AgentId::from("agent")));
    let _ = found.register(ok_tool("a")).unwrap();
    assert_eq!(visible(&created), ["a"], "both handles reach one scope");
    assert!(registry.scope(&AgentId::from("other")).is_none());

    assert!(created.dispose());
    assert!(registry.scope(&AgentId::from("agent")).is_none());
    let _ = registry.create_child("agent").unwrap();
    let again = registry
        .scope(&AgentId::from("agent"))
        .expect("the agent has a new scope");
    assert!(again.is_active(), "the handle is the new scope's");
    assert!(visible(&again).is_empty());
}

#[test]
fn a_scope_handle_debugs_as_its_agent_and_whether_it_is_active() {
    let registry = ToolRegistry::new();
    let scope = registry.create_child("agent").unwrap();
    assert_eq!(
        format!("{scope:?}"),
        r#"ToolScope { agent: AgentId("agent"), active: true, .. }"#
    );
    scope.dispose();
    assert_eq!(
        format!("{scope:?}"),
        r#"ToolScope { agent: AgentId("agent"), active: false, .. }"#
    );
}

#[test]
fn scope_creation_errors_name_the_agent() {
    let registry = ToolRegistry::new();
    registry.create_child("a").unwrap();
    let exists = registry.create_child("a").unwrap_err();
    assert_eq!(exists.kind, RegistryErrorKind::ScopeExists);
    assert_eq!(exists.to_string(), "a scope for agent \"a\" already exists");
    // A parent handle whose scope is gone cannot take a child.
    let ghost = registry.create_child("ghost").unwrap();
    assert!(ghost.dispose());
    let orphan = ghost.create_child("b").unwrap_err();
    assert_eq!(orphan.kind, RegistryErrorKind::UnknownScope);
    assert_eq!(orphan.to_string(), "no scope for parent agent \"ghost\"");
}

#[test]
fn a_disposed_scope_handle_refuses_new_registrations_even_after_recreation() {
    let registry = ToolRegistry::new();
    let old = registry.create_child("a").unwrap();
    old.dispose();
    let fresh = registry.create_child("a").unwrap();
    let error = old.register(ok_tool("t")).unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::ScopeDisposed);
    assert_eq!(error.to_string(), "the scope of agent \"a\" was disposed");
    assert!(
        !old.dispose(),
        "the old handle cannot dispose the new scope"
    );
    assert!(fresh.is_active());
}

#[tokio::test]
async fn an_old_handle_of_a_restricted_scope_runs_nothing_after_dispose() {
    let registry = registry_with([ok_tool("read"), ok_tool("add_comment")]);
    let reviewer = registry.create_child("reviewer").unwrap();
    let _ = reviewer.restrict(ToolRestriction::allow(["read"])).unwrap();
    assert_eq!(visible(&reviewer), ["read"]);
    assert!(reviewer.dispose());

    let result = reviewer.execute(call("add_comment")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ScopeDisposed.as_str()));
    assert!(visible(&reviewer).is_empty(), "no global tool is listed");
    let presented = reviewer.present_call(&call("add_comment"));
    assert_eq!(
        presented,
        ToolRegistry::new().present_call(&call("add_comment")),
        "the card of a tool the disposed scope cannot reach: the generic card of an unknown tool"
    );
}

#[tokio::test]
async fn a_child_refuses_once_its_parent_is_disposed() {
    let registry = registry_with([ok_tool("g")]);
    let parent = registry.create_child("parent").unwrap();
    let child = parent.create_child("child").unwrap();
    assert_eq!(only_text(&child.execute(call("g")).await), "ok");
    parent.dispose();
    assert!(!child.is_active());
    let result = child.execute(call("g")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ScopeDisposed.as_str()));
    assert_eq!(
        only_text(&result),
        "Error: agent scope \"child\" was disposed"
    );
    assert!(child.schemas().is_empty());
    let error = child.register(ok_tool("late")).unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::ScopeDisposed);
    let error = child.guard(|_| None).unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::ScopeDisposed);
    // Batches go through the same refusal.
    let batch = registry
        .execute_batch(vec![call("g").with_agent("child"), call("g")], 4)
        .await;
    assert_eq!(
        batch.results[0].error_code(),
        Some(ErrorCode::UnknownAgent.as_str())
    );
    assert_eq!(only_text(&batch.results[1]), "ok");
}

#[tokio::test]
async fn a_disposed_handle_refuses_even_when_its_agent_has_a_new_scope() {
    let registry = registry_with([ok_tool("g")]);
    let old = registry.create_child("a").unwrap();
    let _ = old.register(ok_tool("old_only")).unwrap();
    old.dispose();
    let new = registry.create_child("a").unwrap();
    assert_eq!(
        old.execute(call("g")).await.error_code(),
        Some(ErrorCode::ScopeDisposed.as_str())
    );
    assert!(old.schemas().is_empty());
    assert!(old.get("g").is_none());
    assert_eq!(only_text(&new.execute(call("g")).await), "ok");
    assert_eq!(visible(&new), ["g"]);
}

#[tokio::test]
async fn a_call_already_dispatched_finishes_as_it_is() {
    let registry = ToolRegistry::new();
    let scope = registry.create_child("a").unwrap();
    let started = std::sync::Arc::new(tokio::sync::Notify::new());
    let release = std::sync::Arc::new(tokio::sync::Notify::new());
    let (notify, wait) = (started.clone(), release.clone());
    let slow = dsh_tools::FnTool::builder("slow", "Waits to be released.")
        .raw_parameters(json!({"type": "object"}))
        .handler(move |_, _| {
            let (notify, wait) = (notify.clone(), wait.clone());
            async move {
                notify.notify_one();
                wait.notified().await;
                Ok(json!("done"))
            }
        });
    let _ = scope.register(slow).unwrap();
    let running = tokio::spawn(scope.execute(call("slow")));
    started.notified().await;
    scope.dispose();
    release.notify_one();
    let result = running.await.expect("no panic");
    assert_eq!(result.value(), Some(&json!("done")));
}

#[tokio::test]
async fn a_disposed_scope_presents_every_call_as_one_it_cannot_reach() {
    let registry = registry_with([ok_tool("read")]);
    let scope = registry.create_child("a").unwrap();
    let _ = scope
        .register(
            dsh_tools::FnTool::builder("own", "Its own tool.")
                .present_call(|_| {
                    Some(dsh_tools::present::ToolCallView::Terminal {
                        title: "own".into(),
                        description: None,
                        cwd: None,
                    })
                })
                .handler(|_, _| async { Ok(json!("ok")) }),
        )
        .unwrap();
    // What a registry without the tool shows.
    let nowhere = ToolRegistry::new();
    let unknown = |name: &str| nowhere.present_call(&call(name));
    assert_ne!(scope.present_call(&call("own")), unknown("own"));
    assert!(scope.dispose());

    let result = scope.execute(call("own")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ScopeDisposed.as_str()));
    let progress = dsh_tools::call::ToolProgress::from(1.0);
    for name in ["own", "read"] {
        // Neither its own tool nor the global one it inherited: the generic card of an unknown
        // tool, for the pending call, its progress and its result alike.
        assert_eq!(scope.present_call(&call(name)), unknown(name), "{name}");
        assert_eq!(
            scope.present_progress(&call(name), &progress),
            nowhere.present_progress(&call(name), &progress),
            "{name}"
        );
        assert_eq!(
            scope.present_result(&call(name), &result),
            nowhere.present_result(&call(name), &result),
            "{name}"
        );
        // The registry presents a call naming the gone agent the same way.
        assert_eq!(
            registry.present_call(&call(name).with_agent("a")),
            unknown(name),
            "{name}"
        );
    }
    let card = scope.present_result(&call("own"), &result);
    assert_eq!(
        card,
        dsh_tools::present::ToolResultView::Generic {
            title: None,
            content: vec![dsh_tools::ContentBlock::text(
                "Error: agent scope \"a\" was disposed"
            )],
        },
        "the result card shows the refusal"
    );
}

#[tokio::test]
async fn a_provider_view_of_a_disposed_scope_lists_nothing_and_its_calls_are_refused() {
    use dsh_tools::providers::{Dialect, ProviderTools};

    let registry = registry_with([ok_tool("read")]);
    let scope = registry.create_child("a").unwrap();
    let _ = scope.register(ok_tool("own")).unwrap();
    let agent = AgentId::from("a");
    let view = ProviderTools::new(&registry, Dialect::OpenAiChat { strict: false });
    let before = view.tools(Some(&agent));
    assert_eq!(before.tools.len(), 2);
    assert!(scope.dispose());

    let after = view.tools(Some(&agent));
    assert!(after.tools.is_empty());
    assert_eq!(after.request_tools, json!([]));
    // Calls a model makes from the list it was sent before the disposal are refused.
    let response = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "own", "arguments": "{}"}},
        {"id": "c2", "type": "function", "function": {"name": "read", "arguments": "{}"}}]}}]});
    let mut calls = before.parse_response(&response).unwrap();
    let outcome = registry
        .execute_batch(std::mem::take(&mut calls.inputs), 4)
        .await;
    for result in &outcome.results {
        assert_eq!(result.error_code(), Some(ErrorCode::UnknownAgent.as_str()));
        assert_eq!(only_text(result), "Error: unknown agent \"a\"");
    }
}

#[tokio::test]
async fn the_global_layer_is_a_scope_without_an_agent_that_is_never_disposed() {
    let registry = registry_with([ok_tool("g")]);
    let global: &dsh_tools::ToolScope = &registry;
    assert_eq!(global.agent(), None);
    assert_eq!(global.parent(), None);
    assert!(global.is_active());
    assert_eq!(
        format!("{global:?}"),
        "ToolScope { layer: global, active: true, .. }"
    );
    assert!(!global.dispose(), "the global layer is never disposed");
    assert!(global.is_active());
    assert_eq!(visible(global), ["g"]);
    let refused = global
        .restrict(ToolRestriction::deny(["g"]))
        .expect_err("the global layer inherits nothing");
    assert_eq!(refused.kind, RegistryErrorKind::UnknownRestrictedTool);

    // A child of the global layer is a root scope; the global layer's hooks apply to its calls.
    let root = global.create_child("root").unwrap();
    assert_eq!(root.parent(), None);
    let log = Log::new();
    let _ = log_pre_execute(global, &log, "global");
    let _ = log_pre_execute(&root, &log, "root");
    assert_eq!(only_text(&root.execute(call("g")).await), "ok");
    assert_eq!(log.entries(), ["global", "root"]);
}

#[tokio::test]
async fn the_layer_an_agent_id_runs_in_fails_closed() {
    let registry = registry_with([ok_tool("g")]);
    let scope = registry.create_child("agent").unwrap();
    let _ = scope.register(ok_tool("mine")).unwrap();
    let layer = registry
        .layer_for(&AgentId::from("agent"))
        .expect("its scope");
    assert_eq!(layer.agent(), Some(&AgentId::from("agent")));
    assert_eq!(visible(&layer), ["g", "mine"]);

    assert!(scope.dispose());
    assert!(registry.layer_for(&AgentId::from("agent")).is_none());
    assert!(visible(&layer).is_empty(), "the old handle lists nothing");
    registry.set_unscoped_agents_see_global(true);
    let layer = registry
        .layer_for(&AgentId::from("agent"))
        .expect("the global layer");
    assert_eq!(layer.agent(), None);
    assert_eq!(visible(&layer), ["g"]);
}
