//! Agent scopes: shadowing, inheritance along the parent chain, restrictions and disposal.

use dsh_tools::{
    AgentId, PreToolDecision, RegistryErrorKind, ToolRegistry, ToolRestriction, codes, json,
};
use dsh_tools_tests::{Log, call, ok_tool, only_text, registry_with, value_tool};

fn visible(scope: &dsh_tools::ToolScope) -> Vec<String> {
    scope
        .schemas()
        .iter()
        .map(|schema| schema.name.clone())
        .collect()
}

#[tokio::test]
async fn a_scope_tool_shadows_the_global_of_the_same_name() {
    let registry = registry_with([value_tool("read", json!("global"))]);
    let scope = registry.create_scope("agent", None).unwrap();
    let _ = scope.register(value_tool("read", json!("scoped"))).unwrap();
    assert_eq!(only_text(&scope.execute(call("read")).await), "scoped");
    assert_eq!(only_text(&registry.execute(call("read")).await), "global");
    assert_eq!(visible(&scope), ["read"]);
}

#[tokio::test]
async fn a_child_sees_its_ancestors_tools_and_the_nearest_wins() {
    let registry = ToolRegistry::new();
    let parent = registry.create_scope("parent", None).unwrap();
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
    let one = registry.create_scope("one", None).unwrap();
    let two = registry.create_scope("two", None).unwrap();
    let _ = one.register(ok_tool("mine")).unwrap();
    let result = two.execute(call("mine")).await;
    assert_eq!(result.error_code(), Some(codes::UNKNOWN_TOOL));
    assert_eq!(only_text(&result), "Error: unknown tool \"mine\"");
}

#[test]
fn a_call_for_an_agent_without_scope_sees_the_global_layer() {
    let registry = registry_with([ok_tool("g")]);
    assert!(registry.get("g", Some(&AgentId::from("nobody"))).is_some());
}

#[tokio::test]
async fn deny_hides_the_named_globals_and_they_fail_at_dispatch() {
    let registry = registry_with([ok_tool("a"), ok_tool("b")]);
    let scope = registry.create_scope("agent", None).unwrap();
    let _ = scope.restrict(ToolRestriction::deny(["a"])).unwrap();
    assert_eq!(visible(&scope), ["b"]);
    assert!(scope.get("a").is_none());
    assert_eq!(
        scope.execute(call("a")).await.error_code(),
        Some(codes::UNKNOWN_TOOL)
    );
    assert!(
        registry.get("a", None).is_some(),
        "the global view is not restricted"
    );
}

#[test]
fn a_deny_only_filter_admits_globals_registered_later() {
    let registry = registry_with([ok_tool("a")]);
    let scope = registry.create_scope("agent", None).unwrap();
    let _ = scope.restrict(ToolRestriction::deny(["a"])).unwrap();
    let _ = registry.register(ok_tool("later")).unwrap();
    assert_eq!(visible(&scope), ["later"]);
}

#[test]
fn an_allow_list_excludes_globals_registered_later() {
    let registry = registry_with([ok_tool("a"), ok_tool("b")]);
    let scope = registry.create_scope("agent", None).unwrap();
    let _ = scope.restrict(ToolRestriction::allow(["a"])).unwrap();
    let _ = registry.register(ok_tool("later")).unwrap();
    assert_eq!(visible(&scope), ["a"]);
}

#[test]
fn an_empty_allow_list_hides_every_inherited_global_but_not_own_tools() {
    let registry = registry_with([ok_tool("a"), ok_tool("b")]);
    let scope = registry.create_scope("agent", None).unwrap();
    let _ = scope.register(ok_tool("own")).unwrap();
    let _ = scope
        .restrict(ToolRestriction::allow(Vec::<String>::new()))
        .unwrap();
    assert_eq!(visible(&scope), ["own"]);
}

#[test]
fn restrictions_mask_globals_only_never_a_scope_tool() {
    let registry = registry_with([ok_tool("a")]);
    let scope = registry.create_scope("agent", None).unwrap();
    let _ = scope.register(value_tool("a", json!("own"))).unwrap();
    let _ = scope.restrict(ToolRestriction::deny(["a"])).unwrap();
    assert!(
        scope.get("a").is_some(),
        "the scope's own `a` is not masked"
    );
}

#[test]
fn restrictions_intersect() {
    let registry = registry_with([ok_tool("a"), ok_tool("b"), ok_tool("c")]);
    let scope = registry.create_scope("agent", None).unwrap();
    let _ = scope.restrict(ToolRestriction::allow(["a", "b"])).unwrap();
    let _ = scope.restrict(ToolRestriction::allow(["b", "c"])).unwrap();
    assert_eq!(visible(&scope), ["b"]);
}

#[test]
fn a_restriction_reaches_descendants_and_theirs_intersect() {
    let registry = registry_with([ok_tool("a"), ok_tool("b"), ok_tool("c")]);
    let parent = registry.create_scope("parent", None).unwrap();
    let child = parent.create_child("child").unwrap();
    let grandchild = child.create_child("grandchild").unwrap();
    let _ = parent.restrict(ToolRestriction::deny(["a"])).unwrap();
    let _ = child.restrict(ToolRestriction::deny(["b"])).unwrap();
    assert_eq!(visible(&parent), ["b", "c"]);
    assert_eq!(visible(&grandchild), ["c"]);
}

#[test]
fn a_restriction_naming_unknown_tools_is_refused_listing_the_known_ones() {
    let registry = registry_with([ok_tool("write"), ok_tool("read")]);
    let scope = registry.create_scope("agent", None).unwrap();
    let error = scope
        .restrict(ToolRestriction::allow(["read", "nope"]).and_deny(["gone", "nope"]))
        .unwrap_err();
    assert_eq!(error.kind(), RegistryErrorKind::UnknownRestrictedTool);
    assert_eq!(
        error.message(),
        "restrict() names unknown global tool(s) \"nope\", \"gone\"; known global tools: read, write"
    );
    let empty = registry.create_scope("empty", None).unwrap();
    let bare = ToolRegistry::new().create_scope("x", None).unwrap();
    assert!(
        bare.restrict(ToolRestriction::deny(["a"]))
            .unwrap_err()
            .message()
            .ends_with("known global tools: (none)")
    );
    assert!(empty.restrict(ToolRestriction::deny(["read"])).is_ok());
}

#[test]
fn an_empty_filter_is_refused_listing_the_known_tools() {
    let registry = registry_with([ok_tool("b"), ok_tool("a")]);
    let scope = registry.create_scope("agent", None).unwrap();
    let error = scope.restrict(ToolRestriction::default()).unwrap_err();
    assert_eq!(error.kind(), RegistryErrorKind::EmptyRestriction);
    assert_eq!(
        error.message(),
        "restrict() with an empty filter is a no-op: pass `allow` and/or `deny` (an empty filter \
         is almost always an empty configuration by mistake); known global tools: a, b"
    );
}

#[test]
fn disposing_a_restriction_unmasks_the_tools() {
    let registry = registry_with([ok_tool("a")]);
    let scope = registry.create_scope("agent", None).unwrap();
    let restriction = scope.restrict(ToolRestriction::deny(["a"])).unwrap();
    assert!(scope.get("a").is_none());
    assert!(restriction.dispose());
    assert!(scope.get("a").is_some());
}

#[tokio::test]
async fn scoped_hooks_apply_to_the_scope_and_its_descendants_only() {
    let registry = registry_with([ok_tool("t")]);
    let parent = registry.create_scope("parent", None).unwrap();
    let child = parent.create_child("child").unwrap();
    let sibling = registry.create_scope("sibling", None).unwrap();
    let _ = parent
        .on_pre_execute(|_, _| async { Ok(PreToolDecision::deny("parent says no")) })
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
    let scope = registry.create_scope("agent", None).unwrap();
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
    // The agent's calls now see the plain global layer.
    let result = registry.execute(call("g").with_agent("agent")).await;
    assert_eq!(only_text(&result), "ok");
    assert_eq!(
        registry
            .execute(call("own").with_agent("agent"))
            .await
            .error_code(),
        Some(codes::UNKNOWN_TOOL)
    );
    assert!(
        log.entries().is_empty(),
        "no hook of the disposed scope ran"
    );
}

#[test]
fn disposing_a_scope_disposes_its_descendants() {
    let registry = ToolRegistry::new();
    let parent = registry.create_scope("parent", None).unwrap();
    let child = parent.create_child("child").unwrap();
    let other = registry.create_scope("other", None).unwrap();
    parent.dispose();
    assert!(!child.is_active());
    assert!(other.is_active());
    assert!(registry.scope(&AgentId::from("child")).is_none());
}

#[test]
fn scope_creation_errors_name_the_agent() {
    let registry = ToolRegistry::new();
    registry.create_scope("a", None).unwrap();
    let exists = registry.create_scope("a", None).unwrap_err();
    assert_eq!(exists.kind(), RegistryErrorKind::ScopeExists);
    assert_eq!(exists.message(), "a scope for agent \"a\" already exists");
    let orphan = registry
        .create_scope("b", Some(&AgentId::from("ghost")))
        .unwrap_err();
    assert_eq!(orphan.kind(), RegistryErrorKind::UnknownScope);
    assert_eq!(orphan.message(), "no scope for parent agent \"ghost\"");
}

#[test]
fn a_disposed_scope_handle_refuses_new_registrations_even_after_recreation() {
    let registry = ToolRegistry::new();
    let old = registry.create_scope("a", None).unwrap();
    old.dispose();
    let fresh = registry.create_scope("a", None).unwrap();
    let error = old.register(ok_tool("t")).unwrap_err();
    assert_eq!(error.kind(), RegistryErrorKind::ScopeDisposed);
    assert_eq!(error.message(), "the scope of agent \"a\" was disposed");
    assert!(
        !old.dispose(),
        "the old handle cannot dispose the new scope"
    );
    assert!(fresh.is_active());
}
