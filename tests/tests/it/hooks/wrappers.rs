//! `execute` layers: order, short-circuits, adoption of authored results, token replacement,
//! failures, and re-resolution at dispatch.

use std::sync::{Arc, Mutex};

use dsh_tools::schema::{
    AdditionalProperties, NumberRules, ObjectRules, Property, Schema, SchemaKind,
};
use dsh_tools::{
    ContentBlock, FnTool, ToolError, ToolExecutionResult, ToolRegistry, errors::ErrorCode, json,
};
use dsh_tools_tests::{Log, call, logging_tool, ok_tool, only_text, registry_with};
use tokio_util::sync::CancellationToken;

fn schema(kind: SchemaKind) -> Schema {
    Schema {
        kind,
        nullable: false,
        annotations: Default::default(),
    }
}

/// `{"count": integer}`, closed.
fn count_schema() -> Schema {
    schema(SchemaKind::Object(ObjectRules::new(
        vec![Property {
            name: "count".into(),
            schema: schema(SchemaKind::Integer(NumberRules::default())),
            required: true,
        }],
        AdditionalProperties::Forbidden,
    )))
}

fn counting_tool() -> FnTool {
    FnTool::builder("count", "")
        .output_schema(count_schema())
        .render(|_, value| {
            Ok(vec![ContentBlock::text(format!(
                "count = {}",
                value["count"]
            ))])
        })
        .handler(|_, _| async { Ok(json!({"count": 1})) })
}

#[tokio::test]
async fn layers_registered_first_are_outermost() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    for name in ["outer", "inner"] {
        let seen = log.clone();
        let _ = registry.on_execute(move |request, next| {
            let seen = seen.clone();
            async move {
                seen.push(format!("{name} in"));
                let result = next.run(request).await;
                seen.push(format!("{name} out"));
                result
            }
        });
    }
    registry.execute(call("t")).await;
    assert_eq!(
        log.entries(),
        ["outer in", "inner in", "body", "inner out", "outer out"]
    );
}

#[tokio::test]
async fn a_short_circuit_success_is_rebuilt_through_the_output_contract() {
    let log = Log::new();
    let registry = registry_with([counting_tool()]);
    let seen = log.clone();
    let _ = registry.on_execute(move |_, _| {
        seen.push("cache hit");
        async {
            Ok(ToolExecutionResult::success(json!({"count": 7}))
                .with_content(vec![ContentBlock::text("authored content is ignored")]))
        }
    });
    let result = registry.execute(call("count")).await;
    assert_eq!(result.value(), Some(&json!({"count": 7})));
    assert_eq!(only_text(&result), "count = 7");
    assert_eq!(log.entries(), ["cache hit"]);
}

#[tokio::test]
async fn a_short_circuit_value_that_breaks_the_output_schema_is_invalid_output() {
    let registry = registry_with([counting_tool()]);
    let _ = registry
        .on_execute(|_, _| async { Ok(ToolExecutionResult::success(json!({"count": "many"}))) });
    let result = registry.execute(call("count")).await;
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::InvalidToolOutput.as_str())
    );
    assert_eq!(
        only_text(&result),
        "Error: tool \"count\" returned invalid output: \"value.count\" must be an integer"
    );
}

#[tokio::test]
async fn a_result_cached_from_another_tool_is_invalid_output() {
    let registry = registry_with([counting_tool(), ok_tool("other")]);
    let cached = registry.execute(call("other")).await;
    assert_eq!(only_text(&cached), "ok");
    let cache = Arc::new(cached);
    let _ = registry.on_execute(move |_, _| {
        let cached = (*cache).clone();
        async move { Ok(cached) }
    });
    let result = registry.execute(call("count")).await;
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::InvalidToolOutput.as_str())
    );
    assert_eq!(
        only_text(&result),
        "Error: tool \"count\" returned invalid output: \"value\" must be an object"
    );
}

#[tokio::test]
async fn a_result_cached_from_an_earlier_execution_is_re_rendered_not_trusted() {
    let registry = registry_with([counting_tool()]);
    let earlier = registry.execute(call("count")).await;
    let forged = earlier.with_content(vec![ContentBlock::text("forged")]);
    let _ = registry.on_execute(move |_, _| {
        let forged = forged.clone();
        async move { Ok(forged) }
    });
    let result = registry.execute(call("count")).await;
    assert_eq!(only_text(&result), "count = 1");
}

#[tokio::test]
async fn the_registry_result_of_this_call_passes_unchanged() {
    let registry = registry_with([counting_tool()]);
    let seen = Arc::new(Mutex::new(None));
    let sink = Arc::clone(&seen);
    let _ = registry.on_execute(move |request, next| {
        let sink = Arc::clone(&sink);
        async move {
            let result = next.run(request).await?;
            *sink.lock().unwrap() = Some(result.clone());
            Ok(result)
        }
    });
    let result = registry.execute(call("count")).await;
    assert_eq!(Some(result), seen.lock().unwrap().clone());
}

#[tokio::test]
async fn an_authored_failure_keeps_its_content() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let _ = registry.on_execute(|_, _| async {
        Ok(
            ToolExecutionResult::failure(ToolError::coded("RateLimit", "E429", "slow down"))
                .with_content(vec![ContentBlock::text("Rate limited; retry in 5s")]),
        )
    });
    let seen = log.clone();
    let _ = registry.on_post_execute(move |_, _, next| {
        seen.push("post");
        next.run()
    });
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "Rate limited; retry in 5s");
    assert_eq!(result.error_code(), Some("E429"));
    assert_eq!(
        log.entries(),
        ["post"],
        "a wrapper-authored result reaches post-execute"
    );
}

#[tokio::test]
async fn a_failing_layer_ends_the_call_without_post_execute() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let _ = registry.on_execute(|_, _| async { Err(ToolError::new("metrics backend down")) });
    let seen = log.clone();
    let _ = registry.on_post_execute(move |_, _, next| {
        seen.push("post");
        next.run()
    });
    let result = registry.execute(call("t")).await;
    assert_eq!(only_text(&result), "Error: metrics backend down");
    assert!(log.entries().is_empty());
}

#[tokio::test]
async fn a_panicking_layer_ends_the_call_without_post_execute() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let _ = registry.on_execute(|request, next| async move {
        let _ = next.run(request).await;
        panic!("layer bug")
    });
    let seen = log.clone();
    let _ = registry.on_post_execute(move |_, _, next| {
        seen.push("post");
        next.run()
    });
    let result = registry.execute(call("t")).await;
    assert_eq!(
        only_text(&result),
        "Error: execute wrapper panicked: layer bug"
    );
    assert_eq!(log.entries(), ["body"]);
}

#[tokio::test]
async fn a_tool_disposed_inside_a_layer_is_unknown_at_dispatch() {
    let log = Log::new();
    let registry = ToolRegistry::new();
    let handle = Arc::new(registry.register(logging_tool("t", &log)).unwrap());
    let _ = registry.on_execute(move |request, next| {
        handle.dispose();
        next.run(request)
    });
    let result = registry.execute(call("t")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::UnknownTool.as_str()));
    assert_eq!(only_text(&result), "Error: unknown tool \"t\"");
    assert!(log.entries().is_empty());
}

#[tokio::test]
async fn a_short_circuit_success_for_a_disposed_tool_is_unknown() {
    let registry = ToolRegistry::new();
    let handle = Arc::new(registry.register(ok_tool("t")).unwrap());
    let _ = registry.on_execute(move |_, _| {
        handle.dispose();
        async { Ok(ToolExecutionResult::success(json!("cached"))) }
    });
    assert_eq!(
        registry.execute(call("t")).await.error_code(),
        Some(ErrorCode::UnknownTool.as_str())
    );
}

#[tokio::test]
async fn a_layer_passing_a_cancelled_token_prevents_the_body() {
    let registry = ToolRegistry::new();
    let _ = registry
        .register(FnTool::builder("wait", "").handler(|_, run| async move {
            run.signal().cancelled().await;
            Ok(json!("stopped"))
        }))
        .unwrap();
    let _ = registry.on_execute(|request, next| async move {
        let token = request.signal().child_token();
        let request = request.with_signal(token.clone());
        token.cancel();
        next.run(request).await
    });
    let result = registry.execute(call("wait")).await;
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::AbortedBeforeDispatch.as_str()),
        "a layer passing an already-cancelled token prevents the body"
    );
}

#[tokio::test]
async fn a_replacement_cancelled_mid_body_stops_the_body_and_the_success_is_aborted() {
    let log = Log::new();
    let registry = ToolRegistry::new();
    let seen = log.clone();
    let _ = registry
        .register(FnTool::builder("wait", "").handler(move |_, run| {
            let seen = seen.clone();
            async move {
                run.signal().cancelled().await;
                seen.push("body saw cancel");
                Ok(json!("stopped"))
            }
        }))
        .unwrap();
    let _ = registry.on_execute(|request, next| async move {
        let unrelated = CancellationToken::new();
        let running = next.run(request.with_signal(unrelated.clone()));
        let cancel = async {
            tokio::task::yield_now().await;
            unrelated.cancel();
        };
        let (result, ()) = tokio::join!(running, cancel);
        result
    });
    let result = registry.execute(call("wait")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::Aborted.as_str()));
    assert_eq!(log.entries(), ["body saw cancel"]);
}

#[tokio::test]
async fn the_callers_token_still_cancels_a_body_whose_token_was_replaced() {
    let registry = ToolRegistry::new();
    let _ = registry
        .register(FnTool::builder("wait", "").handler(|_, run| async move {
            run.signal().cancelled().await;
            Ok(json!("stopped"))
        }))
        .unwrap();
    // The layer swaps in a token that is NOT derived from the caller's.
    let _ = registry
        .on_execute(|request, next| next.run(request.with_signal(CancellationToken::new())));
    let caller = CancellationToken::new();
    let cancel = caller.clone();
    let (result, ()) = tokio::join!(registry.execute(call("wait").with_signal(caller)), async {
        tokio::task::yield_now().await;
        cancel.cancel();
    });
    assert_eq!(result.error_code(), Some(ErrorCode::Aborted.as_str()));
}

#[tokio::test]
async fn a_retry_layer_may_call_next_more_than_once() {
    let log = Log::new();
    let registry = ToolRegistry::new();
    let attempts = Arc::new(Mutex::new(0));
    let count = Arc::clone(&attempts);
    let seen = log.clone();
    let _ = registry
        .register(FnTool::builder("flaky", "").handler(move |_, run| {
            let mut attempts = count.lock().unwrap();
            *attempts += 1;
            let attempt = *attempts;
            seen.push(format!("attempt {attempt}"));
            seen.push(run.execution().idempotency_key());
            run.defer_context(ContentBlock::text(format!("note {attempt}")));
            async move {
                if attempt < 3 {
                    Err(ToolError::coded("Net", "ETIMEDOUT", "flaky"))
                } else {
                    Ok(json!("done"))
                }
            }
        }))
        .unwrap();
    let _ = registry.on_execute(|request, next| async move {
        loop {
            let result = next.clone().run(request.clone()).await?;
            if result.error_code() != Some("ETIMEDOUT") {
                return Ok(result);
            }
        }
    });
    let result = registry.execute(call("flaky")).await;
    assert_eq!(only_text(&result), "done");
    let entries = log.entries();
    let attempts: Vec<&str> = entries.iter().step_by(2).map(String::as_str).collect();
    assert_eq!(attempts, ["attempt 1", "attempt 2", "attempt 3"]);
    // Every attempt of the call has the call's one idempotency key; another call has another.
    let keys: Vec<&String> = entries.iter().skip(1).step_by(2).collect();
    assert!(
        keys.iter()
            .all(|key| *key == keys[0] && key.starts_with("idem-")),
        "{keys:?}"
    );
    let other = registry
        .execute(dsh_tools::ToolExecutionInput::new(
            "call-2",
            "flaky",
            json!({}),
        ))
        .await;
    assert_eq!(only_text(&other), "done");
    assert_ne!(log.entries().last(), Some(keys[0]));
    let contexts: Vec<_> = result
        .additional_contexts()
        .iter()
        .filter_map(dsh_tools_tests::block_text)
        .collect();
    assert_eq!(
        contexts,
        ["note 1", "note 2", "note 3"],
        "every attempt's deferred context is kept"
    );
}

#[tokio::test]
async fn a_layer_sees_the_definition_visible_to_the_caller() {
    let registry = registry_with([FnTool::builder("t", "")
        .options(dsh_tools::call::ToolOptions {
            timeout_ms: Some(250),
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(|_, _| async { Ok(json!(1)) })]);
    let seen = Arc::new(Mutex::new(None));
    let sink = Arc::clone(&seen);
    let _ = registry.on_execute(move |request, next| {
        *sink.lock().unwrap() = request
            .definition()
            .and_then(|definition| definition.options().timeout_ms);
        next.run(request)
    });
    registry.execute(call("t")).await;
    assert_eq!(*seen.lock().unwrap(), Some(250));
}

#[tokio::test]
async fn scoped_layers_wrap_inside_global_ones() {
    let log = Log::new();
    let registry = registry_with([logging_tool("t", &log)]);
    let scope = registry.create_child("agent").unwrap();
    let seen = log.clone();
    let _ = scope
        .on_execute(move |request, next| {
            seen.push("scoped");
            next.run(request)
        })
        .unwrap();
    let seen = log.clone();
    let _ = registry.on_execute(move |request, next| {
        seen.push("global");
        next.run(request)
    });
    scope.execute(call("t")).await;
    registry.execute(call("t")).await;
    assert_eq!(
        log.entries(),
        ["global", "scoped", "body", "global", "body"]
    );
}
