//! Policy as events on the call's span: a `pre-execute` denial or `ask`, the approval's outcome,
//! a guard's denial (in the GenAI security vocabulary: guards are the guardrails), and a
//! `post-execute` block.

use dsh_tools::hooks::{ApprovalOutcome, approver_fn};
use dsh_tools::{
    ContentBlock, FnTool, PostToolDecision, PreToolDecision, ToolExecutionInput, ToolRegistry,
    Value, json,
};
use dsh_tools_tests::otel::{OtelCapture, attribute};
use opentelemetry_sdk::trace::SpanData;

fn registry() -> ToolRegistry {
    let registry = ToolRegistry::new();
    for name in ["read", "write", "delete", "leak"] {
        let _ = registry
            .register(FnTool::builder(name, "A tool.").handler(|_, _| async { Ok(Value::Null) }))
            .expect("registers");
    }
    let _ = registry.on_pre_execute(|execution, next| async move {
        match execution.name() {
            "write" => Ok(PreToolDecision::Ask {
                reason: Some("writes a file".to_owned()),
            }),
            "delete" => Ok(PreToolDecision::Deny {
                reason: "never delete".to_owned(),
            }),
            _ => next.run().await,
        }
    });
    let _ = registry
        .guard(|execution| (execution.name() == "read").then(|| "reads are off today".to_owned()));
    let _ = registry.on_post_execute(|execution, _, next| async move {
        if execution.name() == "leak" {
            return Ok(PostToolDecision::block(vec![ContentBlock::text(
                "the result leaks a secret",
            )]));
        }
        next.run().await
    });
    let _ = registry.set_approver(approver_fn(|_| async { Ok(ApprovalOutcome::Rejected) }));
    registry
}

/// `(event name, its attributes as text)` of a span, in order.
fn events(span: &SpanData) -> Vec<(String, Vec<(String, String)>)> {
    span.events
        .iter()
        .map(|event| {
            let attributes = event
                .attributes
                .iter()
                .filter(|pair| {
                    !pair.key.as_str().starts_with("code.")
                        && pair.key.as_str() != "target"
                        && pair.key.as_str() != "level"
                })
                .map(|pair| {
                    let key = pair.key.as_str().to_owned();
                    let value = attribute(std::slice::from_ref(pair), &key).unwrap_or_default();
                    (key, value)
                })
                .collect();
            (event.name.to_string(), attributes)
        })
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
        .collect()
}

#[tokio::test]
async fn each_decision_is_an_event_on_the_call_s_span() {
    let capture = OtelCapture::install();
    let registry = registry();
    for name in ["read", "write", "delete", "leak"] {
        let result = registry
            .execute(ToolExecutionInput::new(name, name, json!({})))
            .await;
        assert!(result.is_error(), "{name} ends in an error");
    }

    assert_eq!(
        events(&capture.span("execute_tool read")),
        [(
            "gen_ai.guardrail.decision".to_owned(),
            pairs(&[
                ("gen_ai.security.target.type", "tool_call"),
                ("gen_ai.security.decision.type", "deny"),
                ("gen_ai.security.decision.reason", "reads are off today"),
            ])
        )]
    );
    assert_eq!(
        events(&capture.span("execute_tool write")),
        [
            (
                "dsh_tools.policy.decision".to_owned(),
                pairs(&[
                    ("dsh_tools.hook", "pre_execute"),
                    ("dsh_tools.decision", "ask"),
                    ("dsh_tools.reason", "writes a file"),
                ])
            ),
            (
                "dsh_tools.approval".to_owned(),
                pairs(&[("dsh_tools.approval.outcome", "rejected")])
            ),
        ]
    );
    assert_eq!(
        events(&capture.span("execute_tool delete")),
        [(
            "dsh_tools.policy.decision".to_owned(),
            pairs(&[
                ("dsh_tools.hook", "pre_execute"),
                ("dsh_tools.decision", "deny"),
                ("dsh_tools.reason", "never delete"),
            ])
        )]
    );
    assert_eq!(
        events(&capture.span("execute_tool leak")),
        [(
            "dsh_tools.policy.decision".to_owned(),
            pairs(&[
                ("dsh_tools.hook", "post_execute"),
                ("dsh_tools.decision", "block"),
                ("dsh_tools.reason", "the result leaks a secret"),
            ])
        )]
    );
    let denied = capture.span("execute_tool delete");
    assert_eq!(
        dsh_tools_tests::otel::span_attribute(&denied, "error.type").as_deref(),
        Some("DENIED")
    );
}
