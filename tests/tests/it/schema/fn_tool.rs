//! A hand-written tool's shown and enforced schemas come from one place: `arguments(schema)`
//! renders the schema as the `parameters` the model sees and compiles it into the check every
//! call passes; `raw_parameters(value)` shows a raw JSON Schema and checks nothing; a tool given
//! neither takes no arguments, and both says and enforces it.

use dsh_tools::schema::Schema;
use dsh_tools::{FnTool, ToolDefinition, errors::ErrorCode, json};
use dsh_tools_tests::{call_with, only_text, registry_with};

fn echo(builder: dsh_tools::call::FnToolBuilder) -> FnTool {
    builder.handler(|arguments, _| async move { Ok(arguments) })
}

#[tokio::test]
async fn arguments_are_shown_and_enforced_from_one_schema() {
    let schema = Schema::object()
        .required("path", Schema::string().length(1..))
        .optional("limit", Schema::integer().range(1..=100))
        .build();
    let tool = echo(FnTool::builder("read", "Reads.").arguments(schema.clone()));
    assert_eq!(tool.parameters(), &schema.to_json_schema());
    let registry = registry_with([tool]);
    let result = registry
        .execute(call_with("read", json!({"path": "", "limit": 0, "x": 1})))
        .await;
    assert_eq!(result.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
    assert_eq!(
        only_text(&result),
        "Error: invalid arguments: \"path\" must be at least 1 character long; \"limit\" must be \
         >= 1; \"x\" is not a declared property (additionalProperties: false)"
    );
    let ok = registry
        .execute(call_with("read", json!({"path": "/a", "limit": 5})))
        .await;
    assert_eq!(ok.value(), Some(&json!({"path": "/a", "limit": 5})));
    // What the model is shown means to a JSON Schema validator what the tool enforces.
    let shown = jsonschema::draft202012::new(&schema.to_json_schema()).unwrap();
    assert!(!shown.is_valid(&json!({"path": "", "limit": 0})));
}

#[tokio::test]
async fn raw_parameters_are_shown_and_never_validated() {
    let raw =
        json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
    let tool = echo(FnTool::builder("raw", "").raw_parameters(raw.clone()));
    assert_eq!(tool.parameters(), &raw);
    let result = registry_with([tool])
        .execute(call_with("raw", json!({"n": "not a number"})))
        .await;
    assert_eq!(result.value(), Some(&json!({"n": "not a number"})));
}

#[tokio::test]
async fn the_last_call_decides_and_both_halves_follow_it() {
    let schema = Schema::object().required("n", Schema::integer()).build();
    // Raw after a schema: shown raw, validated by nothing.
    let raw = json!({"type": "object"});
    let tool = echo(
        FnTool::builder("t", "")
            .arguments(schema.clone())
            .raw_parameters(raw.clone()),
    );
    assert_eq!(tool.parameters(), &raw);
    let result = registry_with([tool])
        .execute(call_with("t", json!({"n": "x"})))
        .await;
    assert!(!result.is_error());
    // A schema after raw: shown and enforced.
    let tool = echo(
        FnTool::builder("t", "")
            .raw_parameters(raw)
            .arguments(schema.clone()),
    );
    assert_eq!(tool.parameters(), &schema.to_json_schema());
    let result = registry_with([tool])
        .execute(call_with("t", json!({"n": "x"})))
        .await;
    assert_eq!(result.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
}

#[tokio::test]
async fn a_tool_without_arguments_says_so_and_enforces_it() {
    let tool = echo(FnTool::builder("none", ""));
    assert_eq!(
        tool.parameters(),
        &json!({"type": "object", "properties": {}, "additionalProperties": false})
    );
    let registry = registry_with([tool]);
    let empty = registry.execute(call_with("none", json!({}))).await;
    assert_eq!(empty.value(), Some(&json!({})));
    let extra = registry.execute(call_with("none", json!({"x": 1}))).await;
    assert_eq!(
        only_text(&extra),
        "Error: invalid arguments: \"x\" is not a declared property (additionalProperties: false)"
    );
}
