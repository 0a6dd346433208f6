//! The result budget: content text is cut to the tool's budget, else the registry's (default
//! 50,000 characters), with a marker saying how much was cut; the value and the error stay whole;
//! it applies after the finalizer and before observers, on every outcome, on both the short and
//! the hooked path; non-text blocks are left alone.

use dsh_tools::{
    ContentBlock, FnTool, PostToolDecision, ToolError, ToolExecutionResult, ToolRegistry, Value,
    call::{FnToolBuilder, ToolOptions},
    json,
    policy::CallLimits,
};
use dsh_tools_tests::{Log, call, registry_with};

/// The marker of a cut that left out `omitted` of `total` characters.
fn marker(omitted: &str, total: &str) -> String {
    format!(
        "…[truncated: {omitted} of {total} characters omitted; call the tool again with a narrower request to see the rest]"
    )
}

/// `builder` finished with a handler returning `value`.
fn returning(builder: FnToolBuilder, value: Value) -> FnTool {
    builder.handler(move |_, _| {
        let value = value.clone();
        async move { Ok(value) }
    })
}

/// A tool returning `chars` times `a`, with `budget` as its own result budget.
fn text_tool(name: &str, chars: usize, budget: Option<usize>) -> FnTool {
    let builder = FnTool::builder(name, "").options(ToolOptions {
        max_result_chars: budget,
        ..ToolOptions::default()
    });
    returning(builder, json!("a".repeat(chars)))
}

#[tokio::test]
async fn the_default_budget_cuts_a_long_result_to_50_000_characters() {
    assert_eq!(CallLimits::default().max_result_chars, Some(50_000));
    let registry = registry_with([text_tool("long", 60_000, None)]);
    let result = registry.execute(call("long")).await;
    assert!(!result.is_error());
    let text = result.text();
    assert_eq!(text.chars().count(), 50_000);
    let tail = marker("10,110", "60,000");
    assert!(text.ends_with(&tail), "{}", &text[text.len() - 200..]);
    assert_eq!(text.len() - tail.len(), 60_000 - 10_110);
    assert_eq!(
        result.value(),
        Some(&json!("a".repeat(60_000))),
        "the value stays whole for code"
    );
}

#[tokio::test]
async fn a_result_within_the_budget_is_untouched() {
    let registry = registry_with([text_tool("fits", 50_000, None)]);
    let result = registry.execute(call("fits")).await;
    assert_eq!(result.text(), "a".repeat(50_000));
}

#[tokio::test]
async fn the_registry_budget_can_be_changed_or_turned_off() {
    let registry = registry_with([text_tool("long", 1_000, None)]);
    registry.set_limits(CallLimits {
        max_result_chars: Some(200),
        ..CallLimits::default()
    });
    let text = registry.execute(call("long")).await.text();
    assert_eq!(text.chars().count(), 200);
    assert!(text.ends_with(&marker("906", "1,000")));

    registry.set_limits(CallLimits {
        max_result_chars: None,
        ..CallLimits::default()
    });
    assert_eq!(registry.limits().max_result_chars, None);
    assert_eq!(
        registry.execute(call("long")).await.text(),
        "a".repeat(1_000)
    );
}

#[tokio::test]
async fn a_tools_own_budget_wins_over_the_registrys_either_way() {
    let registry = registry_with([
        text_tool("tight", 1_000, Some(150)),
        text_tool("roomy", 1_000, Some(usize::MAX)),
    ]);
    registry.set_limits(CallLimits {
        max_result_chars: Some(500),
        ..CallLimits::default()
    });
    let tight = registry.execute(call("tight")).await.text();
    assert_eq!(
        tight,
        format!("{}{}", "a".repeat(44), marker("956", "1,000"))
    );
    assert_eq!(
        registry.execute(call("roomy")).await.text(),
        "a".repeat(1_000)
    );
}

#[tokio::test]
async fn observers_see_the_cut_content_and_post_execute_the_whole() {
    let registry = registry_with([text_tool("long", 1_000, Some(300))]);
    let log = Log::new();
    let post = log.clone();
    let _post = registry.on_post_execute(move |_, result, next| {
        post.push(format!("post: {}", result.text().chars().count()));
        next.run()
    });
    let observed = log.clone();
    let _observer = registry.on_result(move |_, result: &ToolExecutionResult| {
        observed.push(format!("observer: {}", result.text().chars().count()));
    });
    let result = registry.execute(call("long")).await;
    assert_eq!(result.text().chars().count(), 300);
    assert_eq!(log.entries(), ["post: 1000", "observer: 300"]);
}

#[tokio::test]
async fn the_finalizers_content_is_what_gets_cut() {
    let builder = FnTool::builder("short", "")
        .options(dsh_tools::call::ToolOptions {
            max_result_chars: Some(120),
            ..dsh_tools::call::ToolOptions::default()
        })
        .finalize(|_, _| Ok(Some(vec![ContentBlock::text("f".repeat(500))])));
    let tool = returning(builder, json!("short"));
    let result = registry_with([tool]).execute(call("short")).await;
    let text = result.text();
    assert_eq!(text.chars().count(), 120);
    assert!(text.starts_with("fff"));
    assert!(text.ends_with(
        " of 500 characters omitted; call the tool again with a narrower request to see the rest]"
    ));
}

#[tokio::test]
async fn a_long_tool_error_is_cut_in_the_content_and_whole_in_the_error() {
    let message = "e".repeat(5_000);
    let failing = message.clone();
    let tool = FnTool::builder("fails", "")
        .options(dsh_tools::call::ToolOptions {
            max_result_chars: Some(300),
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(move |_, _| {
            let failing = failing.clone();
            async move { Err::<(), _>(ToolError::new(failing)) }
        });
    let result = registry_with([tool]).execute(call("fails")).await;
    assert_eq!(result.error().unwrap().message(), message);
    let text = result.text();
    assert_eq!(
        text,
        format!("Error: {}{}", "e".repeat(192 - 7), marker("4,815", "5,007"))
    );
}

#[tokio::test]
async fn later_text_blocks_are_dropped_and_images_left_whole() {
    let builder = FnTool::builder("mixed", "")
        .options(dsh_tools::call::ToolOptions {
            max_result_chars: Some(300),
            ..dsh_tools::call::ToolOptions::default()
        })
        .render(|_, _| {
            Ok(vec![
                ContentBlock::text("a".repeat(150)),
                ContentBlock::Image {
                    data: "iVBORw0KGgo=".to_owned(),
                    mime_type: "image/png".to_owned(),
                },
                ContentBlock::text("b".repeat(150)),
                ContentBlock::text("c".repeat(150)),
            ])
        });
    let tool = returning(builder, json!(null));
    let result = registry_with([tool]).execute(call("mixed")).await;
    let cut = marker("254", "450");
    let kept_b = 196 - 150;
    assert_eq!(
        result.content(),
        [
            ContentBlock::text("a".repeat(150)),
            ContentBlock::Image {
                data: "iVBORw0KGgo=".to_owned(),
                mime_type: "image/png".to_owned()
            },
            ContentBlock::text(format!("{}{cut}", "b".repeat(kept_b))),
        ]
    );
}

#[tokio::test]
async fn a_post_execute_replacement_is_cut_too() {
    let registry = registry_with([text_tool("t", 2, Some(130))]);
    let _post = registry.on_post_execute(|_, _, _| async {
        Ok(PostToolDecision::replace_content(vec![ContentBlock::text(
            "p".repeat(10_000),
        )]))
    });
    let text = registry.execute(call("t")).await.text();
    assert_eq!(text.chars().count(), 130);
    assert!(text.ends_with(&marker("9,979", "10,000")));
}

#[tokio::test]
async fn an_unknown_tool_uses_the_registrys_budget() {
    let registry = ToolRegistry::new();
    registry.set_limits(CallLimits {
        max_result_chars: Some(40),
        ..CallLimits::default()
    });
    let name = "n".repeat(60);
    let result = registry
        .execute(dsh_tools::ToolExecutionInput::new("c", name, json!({})))
        .await;
    // A budget too small for the whole marker keeps the start of the text under a short one,
    // within the budget.
    let text = result.text();
    assert_eq!(text.chars().count(), 40, "{text}");
    assert!(text.starts_with("Error: unknown tool \"nnnn"), "{text}");
    assert!(text.ends_with("n…[truncated]"), "{text}");
    assert_eq!(result.error_code(), Some("UNKNOWN_TOOL"));
}
