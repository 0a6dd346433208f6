//! The `pre-execute` waterfall: allow / deny / ask, ordering, `next`, failures and the phases a
//! denied or failed call still reaches.

use dsh_tools::{
    FnTool, PostToolDecision, PreToolDecision, ToolError, ToolRegistry, errors::ErrorCode, json,
    schema::Schema,
};
use dsh_tools_tests::{
    Log, call, log_every_phase, log_observer, log_post_execute, logging_tool, only_text,
    registry_with,
};
use tokio_util::sync::CancellationToken;

/// Logs `post` and `observe` when those phases run.
fn watch_later_phases(registry: &ToolRegistry, log: &Log) {
    let _ = log_post_execute(registry, log, "post");
    let _ = log_observer(registry, log, "observe");
}

#[tokio::test]
async fn without_listeners_a_call_is_allowed() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "ok");
    assert_eq!(log.entries(), ["body"]);
}

#[tokio::test]
async fn a_deny_is_a_denied_error_that_still_reaches_post_execute() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let _ = registry.on_pre_execute(|_, _| async {
        Ok(PreToolDecision::Deny {
            reason: "not today".to_owned(),
        })
    });
    watch_later_phases(&registry, &log);
    let result = registry.execute(call("t")).await;
    assert!(result.is_error());
    assert_eq!(only_text(&result), "Error: not today");
    assert_eq!(result.error().unwrap().message(), "not today");
    let info = result.error().unwrap().info().unwrap();
    assert_eq!((&*info.name, &*info.code), ("ToolDeniedError", "DENIED"));
    assert_eq!(log.entries(), ["post", "observe"], "the body never ran");
}

#[tokio::test]
async fn a_failing_listener_ends_the_call_without_post_execute() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let _ = registry.on_pre_execute(|_, _| async {
        Err(ToolError::coded(
            "PolicyError",
            "E_POLICY",
            "policy store down",
        ))
    });
    watch_later_phases(&registry, &log);
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "Error: policy store down");
    assert_eq!(result.error_code(), Some("E_POLICY"));
    assert_eq!(
        log.entries(),
        ["observe"],
        "post-execute skipped, observers still see it"
    );
}

#[tokio::test]
async fn a_panicking_listener_ends_the_call_without_post_execute() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let _ = registry.on_pre_execute(|_, _| async { panic!("listener bug") });
    watch_later_phases(&registry, &log);
    let result = registry.execute(call("t")).await;
    assert_eq!(
        only_text(&result),
        "Error: pre-execute listener panicked: listener bug"
    );
    assert_eq!(log.entries(), ["observe"]);
    // The registry keeps working.
    let _ = registry.register(logging_tool("u", &log)).unwrap();
    assert!(registry.get("u").is_some());
}

#[tokio::test]
async fn a_listener_that_panics_before_returning_a_future_is_contained() {
    let registry = registry_with([logging_tool("t", &Log::new())]);
    let _ = registry.on_pre_execute(|_, next| -> std::future::Ready<_> {
        let _ = next;
        panic!("synchronous bug")
    });
    let result = registry.execute(call("t")).await;
    assert_eq!(
        only_text(&result),
        "Error: pre-execute listener panicked: synchronous bug"
    );
}

#[tokio::test]
async fn listeners_run_in_registration_order_and_next_delegates() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    for name in ["first", "second", "third"] {
        let seen = log.clone();
        let _ = registry.on_pre_execute(move |_, next| {
            let seen = seen.clone();
            async move {
                seen.push(format!("{name} before"));
                let decision = next.run().await;
                seen.push(format!("{name} after"));
                decision
            }
        });
    }
    registry.execute(call("t")).await;
    assert_eq!(
        log.entries(),
        [
            "first before",
            "second before",
            "third before",
            "third after",
            "second after",
            "first after",
            "body"
        ]
    );
}

#[tokio::test]
async fn a_listener_that_decides_without_next_skips_the_rest() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let _ = registry.on_pre_execute(|_, _| async {
        Ok(PreToolDecision::Deny {
            reason: "first".to_owned(),
        })
    });
    let seen = log.clone();
    let _ = registry.on_pre_execute(move |_, next| {
        seen.push("second");
        next.run()
    });
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "Error: first");
    assert!(log.entries().is_empty());
}

#[tokio::test]
async fn an_outer_listener_may_override_the_decision_of_the_rest() {
    let registry = registry_with([logging_tool("t", &Log::new())]);
    let _ = registry.on_pre_execute(|_, next| async move {
        match next.run().await? {
            PreToolDecision::Deny { .. } => Ok(PreToolDecision::Allow),
            other => Ok(other),
        }
    });
    let _ = registry.on_pre_execute(|_, _| async {
        Ok(PreToolDecision::Deny {
            reason: "inner".to_owned(),
        })
    });
    assert_eq!(only_text(&registry.execute(call("t")).await), "ok");
}

#[tokio::test]
async fn global_listeners_run_before_scoped_ones_farthest_ancestor_first() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let parent = registry.create_child("parent").unwrap();
    let child = parent.create_child("child").unwrap();
    for (scope, name) in [(&child, "child"), (&parent, "parent")] {
        let seen = log.clone();
        let _ = scope
            .on_pre_execute(move |_, next| {
                seen.push(name);
                next.run()
            })
            .unwrap();
    }
    let seen = log.clone();
    let _ = registry.on_pre_execute(move |_, next| {
        seen.push("global");
        next.run()
    });
    child.execute(call("t")).await;
    assert_eq!(log.entries(), ["global", "parent", "child", "body"]);
}

#[tokio::test]
async fn listeners_see_the_frozen_call() {
    let tool = FnTool::builder("t", "Returns ok.")
        .arguments(Schema::object().required("k", Schema::integer()))
        .handler(|_, _| async { Ok(json!("ok")) });
    let registry = registry_with([tool]);
    let _scope = registry.create_child("a").expect("the agent's scope");
    let _ = registry.on_pre_execute(move |execution, next| {
        let seen = (
            execution.call_id().to_owned(),
            execution.name().to_owned(),
            execution.arguments().clone(),
            execution.agent().map(|agent| agent.to_string()),
            // A top-level call; a nested call's parent is `nested_calls`'s.
            execution.parent().is_none(),
            next.execution.token() == execution.token(),
        );
        async move {
            assert_eq!(
                seen,
                (
                    "c7".to_owned(),
                    "t".to_owned(),
                    json!({"k": 1}),
                    Some("a".to_owned()),
                    true,
                    true
                )
            );
            Ok(PreToolDecision::Allow)
        }
    });
    let input = dsh_tools::ToolExecutionInput::new("c7", "t", json!({"k": 1})).with_agent("a");
    assert_eq!(only_text(&registry.execute(input).await), "ok");
}

#[tokio::test]
async fn a_pre_aborted_call_runs_no_hook_at_all() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    log_every_phase(&registry, &log);
    let signal = CancellationToken::new();
    signal.cancel();
    let result = registry.execute(call("t").with_signal(signal)).await;
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::AbortedBeforeDispatch.as_str())
    );
    assert_eq!(
        only_text(&result),
        "Error: tool call aborted before dispatch"
    );
    assert_eq!(log.entries(), ["observe"]);
}

#[tokio::test]
async fn an_unknown_tool_travels_every_phase_and_fails_at_dispatch() {
    let log = Log::new();
    let registry = ToolRegistry::new();
    log_every_phase(&registry, &log);
    let result = registry.execute(call("nope")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::UnknownTool.as_str()));
    assert_eq!(
        result.error().unwrap().info().unwrap().name,
        "ToolNotFoundError"
    );
    assert_eq!(only_text(&result), "Error: unknown tool \"nope\"");
    assert_eq!(
        log.entries(),
        ["pre", "guard", "wrapper", "post", "observe"]
    );
}

#[tokio::test]
async fn a_deny_can_still_be_rewritten_by_post_execute() {
    let registry = registry_with([logging_tool("t", &Log::new())]);
    let _ = registry.on_pre_execute(|_, _| async {
        Ok(PreToolDecision::Deny {
            reason: "no".to_owned(),
        })
    });
    let _ = registry.on_post_execute(|_, result, _| async move {
        assert_eq!(result.error().unwrap().message(), "no");
        Ok(PostToolDecision::replace_content(vec![
            dsh_tools::ContentBlock::text("denied, try read"),
        ]))
    });
    let result = registry.execute(call("t")).await;
    assert!(result.is_error());
    assert_eq!(only_text(&result), "denied, try read");
}

#[tokio::test]
async fn a_later_listener_that_panics_synchronously_is_contained() {
    let registry = registry_with([logging_tool("t", &Log::new())]);
    let _ = registry.on_pre_execute(|_, next| next.run());
    let _ = registry.on_pre_execute(|_, next| -> std::future::Ready<_> {
        let _ = next;
        panic!("second listener bug")
    });
    let result = registry.execute(call("t")).await;
    assert_eq!(
        only_text(&result),
        "Error: pre-execute listener panicked: second listener bug"
    );
}
