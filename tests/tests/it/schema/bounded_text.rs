//! Model-facing text built from untrusted input stays bounded: a quoted key or value is cut to
//! 64 characters with a marker saying how many were cut, and a whole error text to 8 KiB with a
//! marker saying how many bytes were cut; the structured violations keep the same bounds, and
//! input of ordinary size keeps its wording byte for byte.

use dsh_tools::{
    FnTool, ToolError, ToolExecutionInput, ToolRegistry, Value,
    errors::{ErrorCode, MAX_QUOTED_CHARS},
    json,
    schema::Schema,
};
use dsh_tools_tests::{call, call_with, only_text, registry_with};

/// A tool whose arguments are checked against `schema`.
fn validating(name: &str, schema: Schema) -> FnTool {
    FnTool::builder(name, "")
        .arguments(schema)
        .handler(|_, _| async { Ok("ran") })
}

/// The most bytes of an error text the registry builds from untrusted input (docs/errors.md).
const MAX_ERROR_TEXT_BYTES: usize = 8 * 1024;

#[test]
fn the_quoted_bound_is_64_characters() {
    assert_eq!(MAX_QUOTED_CHARS, 64);
}

#[tokio::test]
async fn one_undeclared_megabyte_key_is_quoted_as_a_prefix() {
    let registry = registry_with([validating("closed", Schema::object().build())]);
    let key = format!("{}{}", "k".repeat(64), "x".repeat(1_048_512));
    let mut arguments = serde_json::Map::new();
    arguments.insert(key, json!(1));
    let result = registry
        .execute(call_with("closed", Value::Object(arguments)))
        .await;
    assert_eq!(result.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
    let expected = format!(
        "\"{}…[+1,048,512 characters]\" is not a declared property (additionalProperties: false)",
        "k".repeat(64)
    );
    assert_eq!(
        only_text(&result),
        format!("Error: invalid arguments: {expected}")
    );
    let violation = &result.error().unwrap().violations()[0];
    assert_eq!(violation.message(), expected);
    assert_eq!(
        violation.path(),
        format!("{}…[+1,048,512 characters]", "k".repeat(64))
    );
}

#[tokio::test]
async fn ten_thousand_long_undeclared_keys_stay_under_the_cap() {
    let registry = registry_with([validating("closed", Schema::object().build())]);
    let arguments: serde_json::Map<String, Value> = (0..10_000)
        .map(|i| (format!("{i:05}{}", "z".repeat(995)), Value::Null))
        .collect();
    let result = registry
        .execute(call_with("closed", Value::Object(arguments)))
        .await;
    let text = only_text(&result);
    assert!(text.len() <= MAX_ERROR_TEXT_BYTES, "{} bytes", text.len());
    assert!(
        text.ends_with("; and 9950 more"),
        "{}",
        &text[text.len() - 80..]
    );
    let first = format!(
        "Error: invalid arguments: \"00000{}…[+936 characters]\" is not a declared property (additionalProperties: false); ",
        "z".repeat(59)
    );
    assert!(text.starts_with(&first), "{}", &text[..200]);
    let violations = result.error().unwrap().violations();
    assert_eq!(violations.len(), 50);
    assert!(
        violations
            .iter()
            .all(|violation| violation.path().chars().count() == 64 + 18)
    );
}

#[tokio::test]
async fn many_long_paths_are_capped_as_a_whole() {
    // Fifty violations, each under a path of three long keys, make a text far over the cap,
    // which is then cut with its marker.
    let registry = registry_with([validating(
        "maps",
        Schema::object()
            .additional_schema(
                Schema::object()
                    .additional_schema(Schema::object().additional_schema(Schema::integer())),
            )
            .build(),
    )]);
    let mut outer = serde_json::Map::new();
    for i in 0..50 {
        let inner = json!({ "b".repeat(200): { "c".repeat(200): format!("not a number {i}") } });
        outer.insert(format!("{i:02}{}", "a".repeat(200)), inner);
    }
    let result = registry
        .execute(call_with("maps", Value::Object(outer)))
        .await;
    let text = only_text(&result);
    assert!(text.len() <= MAX_ERROR_TEXT_BYTES, "{} bytes", text.len());
    assert!(
        text.contains("…[truncated: ") && text.ends_with(" bytes omitted]"),
        "{}",
        &text[text.len() - 80..]
    );
    // The structured list is whole (fifty violations), each path bounded per key.
    let violations = result.error().unwrap().violations();
    assert_eq!(violations.len(), 50);
    assert!(
        violations[0]
            .path()
            .starts_with(&format!("00{}…[+138 characters].", "a".repeat(62)))
    );
}

#[tokio::test]
async fn a_long_value_is_excerpted_in_got_and_never_in_the_message() {
    let registry = registry_with([validating(
        "pick",
        Schema::object()
            .required("mode", Schema::enumeration(["read", "write"]))
            .build(),
    )]);
    let result = registry
        .execute(call_with("pick", json!({"mode": "w".repeat(100_000)})))
        .await;
    assert_eq!(
        only_text(&result),
        "Error: invalid arguments: \"mode\" must be one of [\"read\",\"write\"]"
    );
    assert_eq!(
        result.error().unwrap().violations()[0].got(),
        format!("\"{}…[+99,936 characters]", "w".repeat(64))
    );
}

#[tokio::test]
async fn an_unknown_tool_with_a_huge_name_is_quoted_as_a_prefix() {
    let registry = ToolRegistry::new();
    let name = "t".repeat(1_000_000);
    let result = registry
        .execute(ToolExecutionInput::new("c", name, json!({})))
        .await;
    assert_eq!(result.error_code(), Some(ErrorCode::UnknownTool.as_str()));
    assert_eq!(
        only_text(&result),
        format!(
            "Error: unknown tool \"{}…[+999,936 characters]\"",
            "t".repeat(64)
        )
    );
}

#[tokio::test]
async fn ordinary_sized_texts_keep_their_wording() {
    let registry = ToolRegistry::new();
    let result = registry
        .execute(ToolExecutionInput::new("c", "t".repeat(64), json!({})))
        .await;
    assert_eq!(
        only_text(&result),
        format!("Error: unknown tool \"{}\"", "t".repeat(64))
    );
    let registry = registry_with([validating("t", Schema::object().build())]);
    let result = registry
        .execute(ToolExecutionInput::from_raw("c", "t", "{\"a\":"))
        .await;
    assert_eq!(
        only_text(&result),
        "Error: invalid arguments: arguments are not valid JSON: EOF while parsing a value at line 1 column 5"
    );
}

#[tokio::test]
async fn a_huge_panic_message_is_capped() {
    let tool = FnTool::builder("boom", "").handler(|_, _| async {
        if true {
            panic!("{}", "p".repeat(100_000));
        }
        Ok(())
    });
    let result = registry_with([tool]).execute(call("boom")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ToolPanicked.as_str()));
    let text = only_text(&result);
    assert!(text.len() <= MAX_ERROR_TEXT_BYTES);
    assert!(text.starts_with("Error: tool \"boom\" panicked: ppp"));
    let message = result.error().unwrap().message();
    let full = "tool \"boom\" panicked: ".len() + 100_000;
    let kept = message.find('…').unwrap();
    assert_eq!(
        &message[kept..],
        format!(
            "…[truncated: {} of {} bytes omitted]",
            group(full - kept),
            group(full)
        )
    );
}

#[tokio::test]
async fn malformed_raw_arguments_quote_the_parser_within_the_cap() {
    let registry = registry_with([validating("t", Schema::object().build())]);
    let raw = format!("{{\"a\": \"{}", "x".repeat(2_000_000));
    let result = registry
        .execute(ToolExecutionInput::from_raw("c", "t", &raw))
        .await;
    assert_eq!(result.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
    let text = only_text(&result);
    assert!(text.len() <= MAX_ERROR_TEXT_BYTES);
    assert!(
        text.starts_with(
            "Error: invalid arguments: arguments are not valid JSON: EOF while parsing"
        )
    );
}

#[tokio::test]
async fn a_tools_own_long_message_is_left_to_the_result_budget() {
    // The registry caps the texts it builds from the model's input; a tool's own error is the
    // tool's content, bounded by the result budget instead (see `pipeline/result_budget.rs`).
    let message = "m".repeat(20_000);
    let failing = message.clone();
    let tool = FnTool::builder("verbose", "").handler(move |_, _| {
        let failing = failing.clone();
        async move { Err::<(), _>(ToolError::new(failing)) }
    });
    let result = registry_with([tool]).execute(call("verbose")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::ToolError.as_str()));
    assert_eq!(result.error().unwrap().message(), message);
    assert_eq!(only_text(&result), format!("Error: {message}"));
}

/// `n` with thousands separators.
fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}
