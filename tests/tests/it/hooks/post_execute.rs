//! The `post-execute` waterfall: accept, replace content, replace value, block, additional
//! contexts, misuse and failures.

use dsh_tools::schema::{NumberRules, Schema, SchemaKind};
use dsh_tools::{
    ContentBlock, FnTool, PostToolDecision, ToolError, ToolRegistry, errors::ErrorCode, json,
};
use dsh_tools_tests::{Log, call, only_text, registry_with, value_tool};

fn deferring_tool() -> FnTool {
    FnTool::builder("t", "").handler(|_, run| async move {
        run.defer_context(ContentBlock::text("from body"));
        Ok(json!(1))
    })
}

fn deciding(decision: PostToolDecision) -> ToolRegistry {
    let registry = registry_with([deferring_tool()]);
    let _ = registry.on_post_execute(move |_, _, _| {
        let decision = decision.clone();
        async move { Ok(decision) }
    });
    registry
}

fn texts(blocks: &[ContentBlock]) -> Vec<&str> {
    blocks
        .iter()
        .filter_map(dsh_tools_tests::block_text)
        .collect()
}

#[tokio::test]
async fn accept_keeps_the_result() {
    let registry = deciding(PostToolDecision::accept());
    let result = registry.execute(call("t")).await;
    assert_eq!(result.value(), Some(&json!(1)));
    assert_eq!(only_text(&result), "1");
    assert_eq!(texts(result.additional_contexts()), ["from body"]);
}

#[tokio::test]
async fn accept_with_content_keeps_the_value() {
    let registry = deciding(PostToolDecision::replace_content(vec![ContentBlock::text(
        "one",
    )]));
    let result = registry.execute(call("t")).await;
    assert_eq!(result.value(), Some(&json!(1)));
    assert_eq!(only_text(&result), "one");
}

#[tokio::test]
async fn accept_with_content_keeps_the_error_of_a_failure() {
    let registry = registry_with([FnTool::builder("t", "")
        .handler(|_, _| async { Err::<(), _>(ToolError::coded("E", "E_X", "broke")) })]);
    let _ = registry.on_post_execute(|_, _, _| async {
        Ok(PostToolDecision::replace_content(vec![ContentBlock::text(
            "broke; try again with --force",
        )]))
    });
    let result = registry.execute(call("t")).await;
    assert_eq!(result.error_code(), Some("E_X"));
    assert_eq!(result.error().unwrap().message(), "broke");
    assert_eq!(only_text(&result), "broke; try again with --force");
}

#[tokio::test]
async fn accept_with_value_is_revalidated_and_re_rendered() {
    let tool = FnTool::builder("n", "")
        .output_schema(Schema {
            kind: SchemaKind::Integer(NumberRules::default()),
            nullable: false,
            annotations: Default::default(),
        })
        .render(|_, value| Ok(vec![ContentBlock::text(format!("n = {value}"))]))
        .handler(|_, _| async { Ok(json!(1)) });
    let registry = registry_with([tool]);
    let _ =
        registry.on_post_execute(|_, _, _| async { Ok(PostToolDecision::replace_value(json!(2))) });
    let result = registry.execute(call("n")).await;
    assert_eq!(result.value(), Some(&json!(2)));
    assert_eq!(only_text(&result), "n = 2");
}

#[tokio::test]
async fn accept_with_an_invalid_value_is_invalid_output() {
    let tool = FnTool::builder("n", "")
        .output_schema(Schema {
            kind: SchemaKind::Integer(NumberRules::default()),
            nullable: false,
            annotations: Default::default(),
        })
        .handler(|_, _| async { Ok(json!(1)) });
    let registry = registry_with([tool]);
    let _ = registry
        .on_post_execute(|_, _, _| async { Ok(PostToolDecision::replace_value(json!(1.5))) });
    let result = registry.execute(call("n")).await;
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::InvalidToolOutput.as_str())
    );
    assert_eq!(
        only_text(&result),
        "Error: tool \"n\" returned invalid output: \"value\" must be an integer"
    );
}

#[tokio::test]
async fn accept_with_value_on_a_failure_is_an_error() {
    let registry =
        registry_with([FnTool::builder("t", "")
            .handler(|_, _| async { Err::<(), _>(ToolError::new("broke")) })]);
    let _ =
        registry.on_post_execute(|_, _, _| async { Ok(PostToolDecision::replace_value(json!(1))) });
    let result = registry.execute(call("t")).await;
    assert_eq!(
        only_text(&result),
        "Error: post-execute cannot replace the value of a failed result"
    );
}

#[tokio::test]
async fn accept_with_both_value_and_content_is_an_error() {
    let registry = deciding(PostToolDecision::Accept {
        content: Some(vec![ContentBlock::text("c")]),
        value: Some(json!(2)),
        additional_contexts: Vec::new(),
    });
    let result = registry.execute(call("t")).await;
    assert!(result.additional_contexts().is_empty());
    assert_eq!(
        only_text(&result),
        "Error: post-execute accept decision cannot replace both value and content"
    );
}

#[tokio::test]
async fn block_shows_the_feedback_verbatim_and_drops_the_value() {
    let feedback = vec![
        ContentBlock::text("Do not read secrets."),
        ContentBlock::text("Ask the user."),
    ];
    let registry = deciding(PostToolDecision::block(feedback.clone()));
    let result = registry.execute(call("t")).await;
    assert!(result.is_error());
    assert!(result.value().is_none());
    assert_eq!(result.content(), feedback.as_slice());
    assert_eq!(
        result.error().unwrap().message(),
        "Do not read secrets.\nAsk the user."
    );
    let info = result.error().unwrap().info().unwrap();
    assert_eq!((&*info.name, &*info.code), ("ToolBlockedError", "BLOCKED"));
}

#[tokio::test]
async fn a_block_without_text_has_a_fixed_message() {
    let registry = deciding(PostToolDecision::block(vec![ContentBlock::Image {
        data: "AAAA".to_owned(),
        mime_type: "image/png".to_owned(),
    }]));
    let result = registry.execute(call("t")).await;
    assert_eq!(
        result.error().unwrap().message(),
        "tool result blocked by post-execute policy"
    );
}

#[tokio::test]
async fn contexts_go_body_deferred_first_then_the_decisions() {
    let registry = deciding(
        PostToolDecision::accept()
            .with_additional_context(ContentBlock::text("from hook 1"))
            .with_additional_context(ContentBlock::text("from hook 2")),
    );
    let result = registry.execute(call("t")).await;
    assert_eq!(
        texts(result.additional_contexts()),
        ["from body", "from hook 1", "from hook 2"]
    );
}

#[tokio::test]
async fn a_block_keeps_only_its_own_contexts() {
    let registry = deciding(
        PostToolDecision::block(vec![ContentBlock::text("no")])
            .with_additional_context(ContentBlock::text("why")),
    );
    let result = registry.execute(call("t")).await;
    assert_eq!(texts(result.additional_contexts()), ["why"]);
}

#[tokio::test]
async fn listeners_see_the_result_and_chain_through_next() {
    let log = Log::new();
    let registry = registry_with([value_tool("t", json!("v"))]);
    let seen = log.clone();
    let _ = registry.on_post_execute(move |_, result, next| {
        let seen = seen.clone();
        async move {
            seen.push(format!("outer saw {}", result.text()));
            let inner = next.run().await?;
            seen.push(format!("inner said {inner:?}"));
            Ok(PostToolDecision::replace_content(vec![ContentBlock::text(
                "outer wins",
            )]))
        }
    });
    let seen = log.clone();
    let _ = registry.on_post_execute(move |execution, result, next| {
        seen.push(format!(
            "inner saw {} for {}",
            next.result.text(),
            execution.name()
        ));
        assert_eq!(result.value(), Some(&json!("v")));
        async {
            Ok(PostToolDecision::replace_content(vec![ContentBlock::text(
                "inner",
            )]))
        }
    });
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "outer wins");
    assert_eq!(log.entries()[0], "outer saw v");
    assert_eq!(log.entries()[1], "inner saw v for t");
    assert!(log.entries()[2].starts_with("inner said Accept"));
}

#[tokio::test]
async fn a_failing_listener_is_a_final_error() {
    let log = Log::new();
    let registry = registry_with([deferring_tool()]);
    let _ = registry.on_post_execute(|_, _, _| async { Err(ToolError::new("audit log full")) });
    let seen = log.clone();
    let _ = registry.on_result(move |_, result| seen.push(result.text()));
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "Error: audit log full");
    assert_eq!(log.entries(), ["Error: audit log full"]);
}

#[tokio::test]
async fn a_panicking_listener_is_a_final_error() {
    let registry = registry_with([deferring_tool()]);
    let _ = registry.on_post_execute(|_, _, _| async { panic!("post bug") });
    assert_eq!(
        only_text(&registry.execute(call("t")).await),
        "Error: post-execute listener panicked: post bug"
    );
}

#[tokio::test]
async fn a_listener_that_keeps_the_result_does_not_break_the_call() {
    let kept = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = kept.clone();
    let registry = registry_with([deferring_tool()]);
    let _ = registry.on_post_execute(move |_, result, next| {
        sink.lock().unwrap().push(result);
        next.run()
    });
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "1");
    assert_eq!(kept.lock().unwrap()[0].text(), "1");
}

#[tokio::test]
async fn a_listener_that_panics_before_returning_a_future_is_contained() {
    let registry = registry_with([deferring_tool()]);
    let _ = registry.on_post_execute(|_, _, next| -> std::future::Ready<_> {
        let _ = next;
        panic!("synchronous post bug")
    });
    assert_eq!(
        only_text(&registry.execute(call("t")).await),
        "Error: post-execute listener panicked: synchronous post bug"
    );
}

/// A registry whose tool `n` (integer output) gets a `meta` from an `execute` layer, and whose
/// post-execute hook replaces the value with `replacement`.
fn with_meta_and_replacement(replacement: serde_json::Value) -> ToolRegistry {
    let tool = FnTool::builder("n", "")
        .output_schema(Schema::integer().build())
        .handler(|_, _| async { Ok(json!(1)) });
    let registry = registry_with([tool]);
    let _ = registry.on_execute(|request, next| async move {
        let result = next.run(request).await?;
        Ok(result.with_meta(json!({"trace": "t-1"})))
    });
    let _ = registry.on_post_execute(move |_, _, _| {
        let replacement = replacement.clone();
        async move { Ok(PostToolDecision::replace_value(replacement)) }
    });
    registry
}

#[tokio::test]
async fn a_replaced_value_keeps_the_results_meta_on_success_and_never_on_a_failure() {
    let kept = with_meta_and_replacement(json!(2)).execute(call("n")).await;
    assert_eq!(kept.value(), Some(&json!(2)));
    assert_eq!(kept.meta(), Some(&json!({"trace": "t-1"})));

    let failed = with_meta_and_replacement(json!("two"))
        .execute(call("n"))
        .await;
    assert_eq!(
        failed.error_code(),
        Some(ErrorCode::InvalidToolOutput.as_str())
    );
    assert_eq!(failed.meta(), None);
}
