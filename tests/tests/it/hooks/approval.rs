//! The approval seam: where `ask` goes, the five outcomes, and failures of the approver.

use std::sync::{Arc, Mutex};

use dsh_tools::json;
use dsh_tools::{
    FnTool, PreToolDecision, Registration, ToolError, ToolExecutionInput, ToolRegistry, ToolRun,
    errors::ErrorCode,
    hooks::{ApprovalOutcome, approver_fn},
};
use dsh_tools_tests::{Log, call, logging_tool, only_text, registry_with};
use tokio_util::sync::CancellationToken;

fn asking(log: &Log, reason: Option<&'static str>) -> ToolRegistry {
    let registry = registry_with([logging_tool("t", log)]);
    let _ = registry.on_pre_execute(move |_, _| async move {
        Ok(PreToolDecision::Ask {
            reason: reason.map(str::to_owned),
        })
    });
    let seen = log.clone();
    let _ = registry.on_post_execute(move |_, _, next| {
        seen.push("post");
        next.run()
    });
    registry
}

fn answering(registry: &ToolRegistry, outcome: ApprovalOutcome) -> Registration {
    registry.set_approver(approver_fn(move |_| async move { Ok(outcome) }))
}

#[tokio::test]
async fn without_approver_an_ask_is_denied_with_its_reason() {
    let log = Log::new();
    let registry = asking(&log, Some("writes outside the workspace"));
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "Error: writes outside the workspace");
    assert_eq!(log.entries(), ["post"]);
}

#[tokio::test]
async fn without_approver_or_reason_the_denial_says_why() {
    let registry = asking(&Log::new(), None);
    assert_eq!(
        only_text(&registry.execute(call("t")).await),
        "Error: tool \"t\" requires approval, but no approver is installed"
    );
}

#[tokio::test]
async fn allowed_once_runs_the_call() {
    let log = Log::new();
    let registry = asking(&log, None);
    let _ = answering(&registry, ApprovalOutcome::AllowedOnce);
    assert_eq!(only_text(&registry.execute(call("t")).await), "ok");
    assert_eq!(log.entries(), ["body", "post"]);
}

#[tokio::test]
async fn rejected_cancelled_and_unavailable_deny_with_fixed_reasons() {
    for (outcome, text) in [
        (
            ApprovalOutcome::Rejected,
            "Error: the user rejected tool \"t\"",
        ),
        (
            ApprovalOutcome::Cancelled,
            "Error: approval for tool \"t\" was cancelled",
        ),
        (
            ApprovalOutcome::Unavailable,
            "Error: tool \"t\" requires approval, but no approval channel is available",
        ),
    ] {
        let log = Log::new();
        let registry = asking(&log, Some("reason"));
        let _ = answering(&registry, outcome);
        let result = registry.execute(call("t")).await;
        assert_eq!(only_text(&result), text);
        let info = result.error().unwrap().info().unwrap();
        assert_eq!((&*info.name, &*info.code), ("ToolDeniedError", "DENIED"));
        assert_eq!(
            log.entries(),
            ["post"],
            "{outcome:?}: denial goes through post-execute"
        );
    }
}

#[tokio::test]
async fn pending_ends_the_attempt_before_dispatch_without_a_denial_or_post_execute() {
    let log = Log::new();
    let registry = asking(&log, Some("reason"));
    let _ = answering(&registry, ApprovalOutcome::Pending);
    let observed = log.clone();
    let _ = registry.on_result(move |_, result: &dsh_tools::ToolExecutionResult| {
        observed.push(format!("observed {}", result.error_code().unwrap_or("ok")));
    });
    let result = registry.execute(call("t")).await;
    assert_eq!(
        only_text(&result),
        "Error: tool \"t\" is waiting for approval"
    );
    let info = result.error().unwrap().info().unwrap();
    assert_eq!(
        (&*info.name, &*info.code),
        (
            "ToolApprovalPendingError",
            ErrorCode::ApprovalPending.as_str()
        )
    );
    // No body, no post-execute (the later attempt has the outcome); observers see it.
    assert_eq!(log.entries(), ["observed APPROVAL_PENDING"]);
}

#[tokio::test]
async fn approval_cancelled_because_the_caller_cancelled_is_aborted_before_dispatch() {
    let log = Log::new();
    let registry = asking(&log, None);
    let signal = CancellationToken::new();
    let trigger = signal.clone();
    let _ = registry.set_approver(approver_fn(move |request| {
        let trigger = trigger.clone();
        async move {
            trigger.cancel();
            assert!(request.execution.signal().is_cancelled());
            Ok(ApprovalOutcome::Cancelled)
        }
    }));
    let result = registry.execute(call("t").with_signal(signal)).await;
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::AbortedBeforeDispatch.as_str())
    );
    assert_eq!(log.entries(), ["post"]);
}

#[tokio::test]
async fn a_failing_approver_ends_the_call_without_post_execute() {
    let log = Log::new();
    let registry = asking(&log, None);
    let _ = registry.set_approver(approver_fn(|_| async {
        Err(ToolError::new("approval service unreachable"))
    }));
    assert_eq!(
        only_text(&registry.execute(call("t")).await),
        "Error: approval service unreachable"
    );
    assert!(log.entries().is_empty());
}

#[tokio::test]
async fn a_panicking_approver_ends_the_call_without_post_execute() {
    let log = Log::new();
    let registry = asking(&log, None);
    let _ = registry.set_approver(approver_fn(|_| async { panic!("approver bug") }));
    assert_eq!(
        only_text(&registry.execute(call("t")).await),
        "Error: approver panicked: approver bug"
    );
    assert!(log.entries().is_empty());
}

#[tokio::test]
async fn guards_still_apply_after_an_approval() {
    let log = Log::new();
    let registry = asking(&log, None);
    let _ = answering(&registry, ApprovalOutcome::AllowedOnce);
    let _ = registry.guard(|_| Some("guard wins".to_owned()));
    assert_eq!(
        only_text(&registry.execute(call("t")).await),
        "Error: guard wins"
    );
    assert_eq!(log.entries(), ["post"]);
}

#[tokio::test]
async fn the_approver_sees_the_call_its_reason_and_the_definition() {
    let registry = asking(&Log::new(), Some("risky"));
    let seen = Arc::new(Mutex::new(None));
    let sink = Arc::clone(&seen);
    let _ = registry.set_approver(approver_fn(move |request| {
        *sink.lock().unwrap() = Some((
            request.execution.name().to_owned(),
            request.reason.as_deref().map(str::to_owned),
            request
                .definition
                .as_ref()
                .map(|definition| definition.name().to_owned()),
        ));
        async { Ok(ApprovalOutcome::AllowedOnce) }
    }));
    registry.execute(call("t")).await;
    assert_eq!(
        *seen.lock().unwrap(),
        Some((
            "t".to_owned(),
            Some("risky".to_owned()),
            Some("t".to_owned())
        ))
    );
}

#[tokio::test]
async fn disposing_the_approver_degrades_ask_to_deny_again() {
    let registry = asking(&Log::new(), Some("r"));
    let approver = answering(&registry, ApprovalOutcome::AllowedOnce);
    assert!(approver.is_active());
    assert!(approver.dispose());
    assert!(!approver.is_active() && !approver.dispose());
    assert_eq!(only_text(&registry.execute(call("t")).await), "Error: r");
}

#[tokio::test]
async fn a_replaced_approver_disposed_leaves_its_successor() {
    let registry = asking(&Log::new(), Some("r"));
    let first = answering(&registry, ApprovalOutcome::Rejected);
    let second = answering(&registry, ApprovalOutcome::AllowedOnce);
    assert!(!first.is_active(), "replaced");
    assert!(!first.dispose(), "nothing of its own to remove");
    assert!(second.is_active());
    assert!(
        !registry.execute(call("t")).await.is_error(),
        "the second still answers"
    );
}

/// Records which approver answered which call.
fn recording(
    log: &Log,
    who: &'static str,
    outcome: ApprovalOutcome,
) -> impl dsh_tools::hooks::Approver {
    let log = log.clone();
    approver_fn(move |request| {
        log.push(format!("{who} asked about {}", request.execution.name()));
        async move { Ok(outcome) }
    })
}

#[tokio::test]
async fn a_calls_own_approver_answers_instead_of_the_registrys() {
    let log = Log::new();
    let registry = asking(&log, Some("r"));
    let _ = registry.set_approver(recording(&log, "registry", ApprovalOutcome::AllowedOnce));
    let own = call("t").with_approver(recording(&log, "own", ApprovalOutcome::Rejected));
    assert_eq!(
        only_text(&registry.execute(own).await),
        "Error: the user rejected tool \"t\""
    );
    // Another call, without one, still goes to the registry's approver.
    assert_eq!(only_text(&registry.execute(call("t")).await), "ok");
    assert_eq!(
        log.entries(),
        [
            "own asked about t",
            "post",
            "registry asked about t",
            "body",
            "post"
        ]
    );
}

#[tokio::test]
async fn a_calls_own_approver_answers_without_a_registry_approver() {
    let log = Log::new();
    let registry = asking(&log, Some("r"));
    let own = call("t").with_approver(recording(&log, "own", ApprovalOutcome::AllowedOnce));
    assert_eq!(only_text(&registry.execute(own).await), "ok");
    assert_eq!(log.entries(), ["own asked about t", "body", "post"]);
}

#[tokio::test]
async fn nested_calls_inherit_the_calls_own_approver_unless_they_bring_one() {
    let log = Log::new();
    let registry = registry_with([logging_tool("inner", &log)]);
    let nested_log = log.clone();
    let outer = FnTool::builder("outer", "Calls inner twice.")
        .raw_parameters(json!({"type": "object"}))
        .handler(move |_arguments, run: ToolRun| {
            let nested_log = nested_log.clone();
            async move {
                let inherited = run
                    .call_tool(ToolExecutionInput::new("n-1", "inner", json!({})))
                    .await;
                let own = run
                    .call_tool(
                        ToolExecutionInput::new("n-2", "inner", json!({})).with_approver(
                            recording(&nested_log, "nested", ApprovalOutcome::Rejected),
                        ),
                    )
                    .await;
                Ok(json!([inherited.text(), own.text()]))
            }
        });
    let _ = registry.register(outer).expect("registers");
    let _ = registry.on_pre_execute(|execution, next| async move {
        if execution.name() == "inner" {
            Ok(PreToolDecision::Ask {
                reason: Some("nested".to_owned()),
            })
        } else {
            next.run().await
        }
    });
    let _ = registry.set_approver(recording(&log, "registry", ApprovalOutcome::Rejected));
    let input = call("outer").with_approver(recording(&log, "own", ApprovalOutcome::AllowedOnce));
    let result = registry.execute(input).await;
    assert_eq!(
        result.value(),
        Some(&json!(["ok", "Error: the user rejected tool \"inner\""]))
    );
    assert_eq!(
        log.entries(),
        ["own asked about inner", "body", "nested asked about inner"]
    );
}
