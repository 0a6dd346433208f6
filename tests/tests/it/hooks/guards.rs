//! Guards: synchronous, monotonic, evaluated only for allowed calls, in layer order.

use dsh_tools::{PreToolDecision, ToolRegistry};
use dsh_tools_tests::{Log, call, logging_tool, only_text, registry_with};

fn logging_guard(
    log: &Log,
    name: &'static str,
    verdict: Option<&'static str>,
) -> impl Fn(&dsh_tools::call::ToolExecution) -> Option<String> + Send + Sync + 'static {
    let log = log.clone();
    move |_| {
        log.push(name);
        verdict.map(str::to_owned)
    }
}

#[tokio::test]
async fn a_guard_reason_denies_the_call_and_post_execute_still_runs() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let _ = registry.guard(logging_guard(&log, "guard", Some("outside the sandbox")));
    let seen = log.clone();
    let _ = registry.on_post_execute(move |_, _, next| {
        seen.push("post");
        next.run()
    });
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "Error: outside the sandbox");
    let info = result.error().unwrap().info().unwrap();
    assert_eq!((&*info.name, &*info.code), ("ToolDeniedError", "DENIED"));
    assert_eq!(log.entries(), ["guard", "post"]);
}

#[tokio::test]
async fn guards_that_return_nothing_let_the_call_run() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let _ = registry.guard(logging_guard(&log, "g1", None));
    let _ = registry.guard(logging_guard(&log, "g2", None));
    assert_eq!(only_text(&registry.execute(call("t")).await), "ok");
    assert_eq!(log.entries(), ["g1", "g2", "body"]);
}

#[tokio::test]
async fn a_guard_is_not_evaluated_after_a_deny() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let _ = registry.on_pre_execute(|_, _| async {
        Ok(PreToolDecision::Deny {
            reason: "pre says no".to_owned(),
        })
    });
    let _ = registry.guard(logging_guard(&log, "guard", Some("guard says no")));
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "Error: pre says no");
    assert!(log.entries().is_empty());
}

#[tokio::test]
async fn a_guard_is_not_evaluated_after_an_ask_without_approver() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let _ = registry.on_pre_execute(|_, _| async {
        Ok(PreToolDecision::Ask {
            reason: Some("needs a human".to_owned()),
        })
    });
    let _ = registry.guard(logging_guard(&log, "guard", None));
    assert_eq!(
        only_text(&registry.execute(call("t")).await),
        "Error: needs a human"
    );
    assert!(log.entries().is_empty());
}

#[tokio::test]
async fn the_first_reason_denies_and_later_guards_are_skipped() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let _ = registry.guard(logging_guard(&log, "g1", None));
    let _ = registry.guard(logging_guard(&log, "g2", Some("second")));
    let _ = registry.guard(logging_guard(&log, "g3", Some("third")));
    assert_eq!(
        only_text(&registry.execute(call("t")).await),
        "Error: second"
    );
    assert_eq!(log.entries(), ["g1", "g2"]);
}

#[tokio::test]
async fn guards_run_global_first_then_farthest_ancestor_to_own_scope() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let parent = registry.create_child("parent").unwrap();
    let child = parent.create_child("child").unwrap();
    let _ = child.guard(logging_guard(&log, "child", None)).unwrap();
    let _ = parent.guard(logging_guard(&log, "parent", None)).unwrap();
    let _ = registry.guard(logging_guard(&log, "global", None));
    child.execute(call("t")).await;
    assert_eq!(log.entries(), ["global", "parent", "child", "body"]);
}

#[tokio::test]
async fn nothing_after_a_guard_turns_its_denial_into_an_allow() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let _ = registry.guard(logging_guard(&log, "guard", Some("no")));
    let seen = log.clone();
    let _ = registry.on_execute(move |request, next| {
        seen.push("wrapper");
        next.run(request)
    });
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "Error: no");
    assert_eq!(
        log.entries(),
        ["guard"],
        "no wrapper and no body for a denied call"
    );
}

#[tokio::test]
async fn a_panicking_guard_ends_the_call_without_post_execute() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let _ = registry.guard(|_| panic!("guard bug"));
    let seen = log.clone();
    let _ = registry.on_post_execute(move |_, _, next| {
        seen.push("post");
        next.run()
    });
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "Error: guard panicked: guard bug");
    assert!(log.entries().is_empty());
}

#[tokio::test]
async fn a_guard_sees_the_call_and_can_deny_by_argument() {
    let registry = ToolRegistry::new();
    let _ = registry.register(dsh_tools_tests::echo_tool()).unwrap();
    let _ = registry.guard(|execution| {
        (execution.arguments()["text"] == "rm -rf /")
            .then(|| "refusing a destructive command".to_owned())
    });
    let ok = registry
        .execute(dsh_tools_tests::call_with(
            "echo",
            dsh_tools::json!({"text": "hi"}),
        ))
        .await;
    assert_eq!(only_text(&ok), "hi");
    let bad = registry
        .execute(dsh_tools_tests::call_with(
            "echo",
            dsh_tools::json!({"text": "rm -rf /"}),
        ))
        .await;
    assert_eq!(only_text(&bad), "Error: refusing a destructive command");
}
