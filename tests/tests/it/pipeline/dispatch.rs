//! Dispatch: running the body, its errors and panics, argument parsing and validation, and the
//! output contract (lossless JSON, output schema, rendering).

use dsh_tools::schema::{NumberRules, Schema, SchemaKind, StringRules};
use dsh_tools::{ContentBlock, FnTool, ToolError, ToolExecutionInput, errors::ErrorCode, json};
use dsh_tools_tests::{
    Log, call, call_with, echo_tool, ok_tool, only_text, registry_with, value_tool,
};

fn schema(kind: SchemaKind) -> Schema {
    Schema {
        kind,
        nullable: false,
        annotations: Default::default(),
    }
}

#[tokio::test]
async fn a_string_value_renders_as_its_text() {
    let registry = registry_with([echo_tool()]);
    let result = registry
        .execute(call_with("echo", json!({"text": "hello"})))
        .await;
    assert!(!result.is_error());
    assert_eq!(result.value(), Some(&json!("hello")));
    assert_eq!(only_text(&result), "hello");
}

#[tokio::test]
async fn any_other_value_renders_as_compact_json() {
    let registry = registry_with([value_tool("v", json!({"a": [1, 2], "b": null}))]);
    assert_eq!(
        only_text(&registry.execute(call("v")).await),
        r#"{"a":[1,2],"b":null}"#
    );
}

#[tokio::test]
async fn a_body_error_keeps_its_message_and_info() {
    let tool = FnTool::builder("disk", "").handler(|_, _| async {
        Err::<(), _>(ToolError::coded("HarnessError", "ENOSPC", "disk full"))
    });
    let registry = registry_with([tool]);
    let result = registry.execute(call("disk")).await;
    assert_eq!(only_text(&result), "Error: disk full");
    let info = result.error().unwrap().info().unwrap();
    assert_eq!((&*info.name, &*info.code), ("HarnessError", "ENOSPC"));
}

#[tokio::test]
async fn a_std_error_converts_with_question_mark_and_gets_the_tool_error_code() {
    let tool = FnTool::builder("parse", "").handler(|_, _| async {
        let number: u32 = "x".parse()?;
        Ok(json!(number))
    });
    let result = registry_with([tool]).execute(call("parse")).await;
    assert_eq!(only_text(&result), "Error: invalid digit found in string");
    let info = result.error().unwrap().info().unwrap();
    assert_eq!((&*info.name, &*info.code), ("ToolError", "TOOL_ERROR"));
}

#[tokio::test]
async fn invalid_arguments_list_every_violation() {
    let arguments = schema(SchemaKind::Object(dsh_tools::schema::ObjectRules::new(
        vec![
            dsh_tools::schema::Property {
                name: "path".into(),
                schema: schema(SchemaKind::String(StringRules::default())),
                required: true,
            },
            dsh_tools::schema::Property {
                name: "limit".into(),
                schema: schema(SchemaKind::Integer(NumberRules::default())),
                required: false,
            },
        ],
        dsh_tools::schema::AdditionalProperties::Forbidden,
    )));
    let log = Log::new();
    let seen = log.clone();
    let tool = FnTool::builder("read", "")
        .arguments(arguments)
        .handler(move |_, _| {
            seen.push("body");
            async { Ok(json!("read")) }
        });
    let registry = registry_with([tool]);
    let result = registry
        .execute(call_with("read", json!({"limit": "ten", "extra": 1})))
        .await;
    assert_eq!(result.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
    assert_eq!(
        result.error().unwrap().info().unwrap().name,
        ErrorCode::InvalidArgs.name()
    );
    assert_eq!(
        only_text(&result),
        "Error: invalid arguments: missing required property \"path\"; \"limit\" must be an integer; \
         \"extra\" is not a declared property (additionalProperties: false)"
    );
    assert_eq!(result.error().unwrap().violations().len(), 3);
    assert!(log.entries().is_empty(), "the handler never ran");
}

#[tokio::test]
async fn malformed_raw_arguments_fail_before_any_hook() {
    let log = Log::new();
    let registry = registry_with([echo_tool()]);
    let seen = log.clone();
    let _ = registry.on_pre_execute(move |execution, next| {
        seen.push(format!("pre saw {}", execution.arguments()));
        next.run()
    });
    let result = registry
        .execute(ToolExecutionInput::from_raw("c", "echo", "{\"text\": "))
        .await;
    assert_eq!(result.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
    let error = result.error().expect("a failure");
    assert_eq!(only_text(&result), format!("Error: {}", error.message()));
    assert!(
        only_text(&result)
            .starts_with("Error: invalid arguments: arguments are not valid JSON: EOF")
    );
    // Validated before policy: no listener saw the call.
    assert!(log.entries().is_empty(), "{:?}", log.entries());
}

#[tokio::test]
async fn repeated_keys_in_raw_arguments_are_invalid_args_naming_each_key() {
    let log = Log::new();
    let registry = registry_with([echo_tool()]);
    let seen = log.clone();
    let _ = registry.on_pre_execute(move |execution, next| {
        seen.push(format!("pre saw {}", execution.arguments()));
        next.run()
    });
    let seen = log.clone();
    let _ = registry.on_post_execute(move |_, result, next| {
        seen.push(format!(
            "post saw {}",
            result.error_code().unwrap_or("success")
        ));
        next.run()
    });
    let raw = r#"{"text":"a","text":"b","opts":[{"k":1,"k":2}]}"#;
    let input = ToolExecutionInput::from_raw("c", "echo", raw);
    assert!(input.is_malformed());
    let result = registry.execute(input).await;
    assert_eq!(result.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
    assert_eq!(
        only_text(&result),
        r#"Error: invalid arguments: duplicate property "text"; duplicate property "opts[0].k""#
    );
    // Validated before policy: neither pre-execute nor post-execute saw the call.
    assert!(log.entries().is_empty(), "{:?}", log.entries());
    let error = result.error().expect("a failure");
    assert_eq!(format!("Error: {}", error.message()), only_text(&result));
    // The same keys in different objects are not repeats.
    let distinct = ToolExecutionInput::from_raw("c", "echo", r#"{"a":{"k":1},"b":{"k":2}}"#);
    assert!(!distinct.is_malformed());
    assert_eq!(distinct.arguments, json!({"a": {"k": 1}, "b": {"k": 2}}));
}

#[tokio::test]
async fn empty_raw_arguments_mean_an_empty_object() {
    let tool = FnTool::builder("args", "").handler(|arguments, _| async move { Ok(arguments) });
    let registry = registry_with([tool]);
    let result = registry
        .execute(ToolExecutionInput::from_raw("c", "args", "  \n"))
        .await;
    assert_eq!(result.value(), Some(&json!({})));
}

#[tokio::test]
async fn a_panicking_body_is_tool_panicked_and_the_registry_keeps_working() {
    let tool = FnTool::builder("boom", "").handler(|_, _| async {
        if true {
            panic!("index out of bounds");
        }
        Ok(json!(null))
    });
    let registry = registry_with([tool, ok_tool("fine")]);
    let log = Log::new();
    let seen = log.clone();
    let _ = registry.on_post_execute(move |_, _, next| {
        seen.push("post");
        next.run()
    });
    let result = registry.execute(call("boom")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ToolPanicked.as_str()));
    assert_eq!(
        only_text(&result),
        "Error: tool \"boom\" panicked: index out of bounds"
    );
    assert_eq!(
        log.entries(),
        ["post"],
        "a body panic is a normal failure that reaches post-execute"
    );
    assert_eq!(only_text(&registry.execute(call("fine")).await), "ok");
    assert_eq!(
        registry.execute(call("boom")).await.error_code(),
        Some(ErrorCode::ToolPanicked.as_str())
    );
}

#[tokio::test]
async fn a_body_that_panics_before_returning_its_future_is_caught() {
    let eager =
        FnTool::builder("eager", "").handler(|_, _| -> std::future::Ready<Result<(), ToolError>> {
            panic!("before the future")
        });
    let result = registry_with([eager]).execute(call("eager")).await;
    assert_eq!(
        only_text(&result),
        "Error: tool \"eager\" panicked: before the future"
    );
}

#[tokio::test]
async fn a_value_that_breaks_the_output_schema_is_invalid_output() {
    let tool = FnTool::builder("n", "")
        .output_schema(schema(SchemaKind::Integer(NumberRules::default())))
        .handler(|_, _| async { Ok(json!("seven")) });
    let result = registry_with([tool]).execute(call("n")).await;
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::InvalidToolOutput.as_str())
    );
    assert_eq!(
        result.error().unwrap().info().unwrap().name,
        ErrorCode::InvalidToolOutput.name()
    );
    assert_eq!(
        only_text(&result),
        "Error: tool \"n\" returned invalid output: \"value\" must be an integer"
    );
    assert!(result.value().is_none());
}

#[tokio::test]
async fn a_nan_output_is_invalid_output_not_null() {
    #[derive(serde::Serialize)]
    struct Stats {
        mean: f64,
    }
    let tool = FnTool::builder("stats", "").handler(|_, _| async { Ok(Stats { mean: f64::NAN }) });
    let infinite =
        FnTool::builder("inf", "").handler(|_, _| async { Ok(vec![1.0, f64::INFINITY]) });
    let registry = registry_with([tool, infinite]);
    let result = registry.execute(call("stats")).await;
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::InvalidToolOutput.as_str())
    );
    assert_eq!(
        only_text(&result),
        "Error: tool \"stats\" returned invalid output: \"value.mean\" must be a finite JSON number"
    );
    assert_eq!(
        only_text(&registry.execute(call("inf")).await),
        "Error: tool \"inf\" returned invalid output: \"value[1]\" must be a finite JSON number"
    );
}

#[tokio::test]
async fn a_typed_output_converts_losslessly() {
    #[derive(serde::Serialize)]
    struct Hit {
        line: u32,
        score: f32,
    }
    let tool = FnTool::builder("hit", "").handler(|_, _| async {
        Ok(Hit {
            line: 3,
            score: 0.5,
        })
    });
    let result = registry_with([tool]).execute(call("hit")).await;
    assert_eq!(result.value(), Some(&json!({"line": 3, "score": 0.5})));
}

#[tokio::test]
async fn a_failing_render_is_invalid_output() {
    let tool = FnTool::builder("r", "")
        .render(|_, _| Err(ToolError::new("template missing")))
        .handler(|_, _| async { Ok(json!(1)) });
    let result = registry_with([tool]).execute(call("r")).await;
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::InvalidToolOutput.as_str())
    );
    assert_eq!(
        only_text(&result),
        "Error: tool \"r\" returned invalid output: render failed: template missing"
    );
}

#[tokio::test]
async fn a_panicking_render_is_invalid_output() {
    let tool = FnTool::builder("r", "")
        .render(|_, _| panic!("render bug"))
        .handler(|_, _| async { Ok(json!(1)) });
    let result = registry_with([tool]).execute(call("r")).await;
    assert_eq!(
        only_text(&result),
        "Error: tool \"r\" returned invalid output: output check panicked: render bug"
    );
}

#[tokio::test]
async fn a_custom_render_receives_the_arguments_and_value() {
    let tool = FnTool::builder("r", "")
        .arguments(Schema::object().required("q", Schema::string()))
        .render(|arguments, value| {
            Ok(vec![
                ContentBlock::text(format!("{} -> {value}", arguments["q"])),
                ContentBlock::text("second"),
            ])
        })
        .handler(|_, _| async { Ok(json!(42)) });
    let result = registry_with([tool])
        .execute(call_with("r", json!({"q": "x"})))
        .await;
    assert_eq!(
        result.content(),
        [
            ContentBlock::text("\"x\" -> 42"),
            ContentBlock::text("second")
        ]
    );
}

#[tokio::test]
async fn contexts_deferred_by_the_body_come_with_the_result() {
    let tool = FnTool::builder("d", "").handler(|_, run| async move {
        run.defer_context(ContentBlock::text("remember this"));
        Ok(json!("done"))
    });
    let result = registry_with([tool]).execute(call("d")).await;
    assert_eq!(
        result.additional_contexts(),
        [ContentBlock::text("remember this")]
    );
    assert_eq!(
        only_text(&result),
        "done",
        "deferred context is not part of the content"
    );
}

#[tokio::test]
async fn the_body_runs_with_the_call_it_belongs_to() {
    let tool = FnTool::builder("who", "")
        .arguments(Schema::object().required("a", Schema::integer()))
        .handler(|arguments, run| async move {
            Ok(json!([
                run.execution().call_id(),
                run.execution().name(),
                arguments,
                run.signal().is_cancelled()
            ]))
        });
    let registry = registry_with([tool]);
    let _ = registry.on_pre_execute(|_, next| next.run());
    let result = registry
        .execute(ToolExecutionInput::new("c9", "who", json!({"a": 1})))
        .await;
    assert_eq!(result.value(), Some(&json!(["c9", "who", {"a": 1}, false])));
}
