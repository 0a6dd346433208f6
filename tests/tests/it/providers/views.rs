//! One lowering rule at a time, on small raw schemas: `$ref` inlining and recursion, type
//! unions, nullable forms, request-wide limits, Gemini's envelope, and `null`s removed through
//! recursive definitions.

use std::sync::Arc;

use dsh_tools::call::RequestSettings;
use dsh_tools::providers::{Change, Dialect, GeminiSchema, LoweredTools, ProviderTools};
use dsh_tools::{FnTool, ToolRegistry, ToolSchema, Value, json};
use dsh_tools_tests::provider_checkers::check_request;

use super::fallbacks;

/// A tool schema.
fn tool_schema(name: &str, description: String, parameters: Value) -> ToolSchema {
    ToolSchema::new(name, description, parameters)
}

fn lower(dialect: Dialect, tools: &[(&str, Value)]) -> LoweredTools {
    let schemas: Vec<ToolSchema> = tools
        .iter()
        .map(|(name, parameters)| {
            tool_schema(name, format!("The {name} tool."), parameters.clone())
        })
        .collect();
    let lowered = LoweredTools::new(Arc::from(schemas), dialect, None);
    let violations = check_request(dialect, &lowered.request_tools);
    assert!(violations.is_empty(), "{}: {violations:#?}", dialect.id());
    lowered
}

fn parameters(tools: &LoweredTools, index: usize) -> &Value {
    &tools.tools[index].parameters
}

fn has_change(tools: &LoweredTools, change: Change, needle: &str) -> bool {
    tools
        .report
        .entries
        .iter()
        .any(|entry| entry.change == change && entry.detail.contains(needle))
}

#[test]
fn a_ref_with_siblings_is_inlined_and_the_referring_description_wins() {
    let schema = json!({
        "type": "object",
        "properties": {"when": {"$ref": "#/$defs/Stamp", "description": "When it happened."}},
        "required": ["when"],
        "additionalProperties": false,
        "$defs": {"Stamp": {"type": "string", "description": "A timestamp.", "format": "date-time"}}
    });
    let tools = lower(Dialect::OpenAiChat { strict: true }, &[("log", schema)]);
    assert_eq!(
        parameters(&tools, 0)["properties"]["when"],
        json!({"type": "string", "description": "When it happened.", "format": "date-time"})
    );
    assert!(parameters(&tools, 0).get("$defs").is_none());
}

#[test]
fn recursion_through_the_root_stays_a_ref_for_openai_and_is_unrolled_then_cut_for_gemini() {
    let schema = json!({
        "type": "object",
        "properties": {"name": {"type": "string"}, "child": {"$ref": "#"}},
        "required": ["name"],
        "additionalProperties": false
    });
    let openai = lower(
        Dialect::OpenAiChat { strict: true },
        &[("node", schema.clone())],
    );
    assert!(openai.tools[0].strict);
    assert_eq!(
        parameters(&openai, 0)["properties"]["child"],
        json!({"anyOf": [{"$ref": "#"}, {"type": "null"}]})
    );
    let gemini = lower(
        Dialect::Gemini {
            schema: GeminiSchema::OpenApi,
        },
        &[("node", schema.clone())],
    );
    // Unrolled three levels deep, then cut to a described free-form object.
    let mut child = &parameters(&gemini, 0)["properties"]["child"];
    for _ in 0..3 {
        assert_eq!(child["properties"]["name"]["type"], "string", "{child}");
        child = &child["properties"]["child"];
    }
    assert_eq!(child["type"], "object");
    assert!(child["description"].as_str().unwrap().contains("recursive"));
    assert!(has_change(
        &gemini,
        Change::Rewritten,
        "recursive $ref \"#\" unrolled 3 levels deep"
    ));
    let anthropic = lower(Dialect::Anthropic { strict: true }, &[("node", schema)]);
    assert!(!anthropic.tools[0].strict);
}

#[test]
fn a_type_union_is_split_into_one_type_per_branch_where_single_types_are_required() {
    let schema = json!({
        "type": "object",
        "properties": {"id": {"type": ["string", "integer"], "minLength": 1, "minimum": 0}},
        "required": ["id"],
        "additionalProperties": false
    });
    for dialect in [
        Dialect::OpenAiChat { strict: true },
        Dialect::Gemini {
            schema: GeminiSchema::OpenApi,
        },
    ] {
        let tools = lower(dialect, &[("get", schema.clone())]);
        let id = &parameters(&tools, 0)["properties"]["id"];
        assert_eq!(id["anyOf"][0]["type"], "string", "{}", dialect.id());
        assert_eq!(id["anyOf"][1]["type"], "integer", "{}", dialect.id());
        assert!(id.get("type").is_none());
    }
}

#[test]
fn nullable_forms_follow_each_provider() {
    let schema = json!({
        "type": "object",
        "properties": {
            "filter": {
                "anyOf": [
                    {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"],
                     "additionalProperties": false},
                    {"type": "null"}
                ]
            },
            "tags": {"type": ["array", "null"], "items": {"type": "string"}}
        },
        "required": ["filter", "tags"],
        "additionalProperties": false
    });
    let gemini = lower(
        Dialect::Gemini {
            schema: GeminiSchema::OpenApi,
        },
        &[("find", schema.clone())],
    );
    let filter = &parameters(&gemini, 0)["properties"]["filter"];
    assert_eq!(filter["type"], "object");
    assert_eq!(filter["nullable"], true);
    assert_eq!(
        parameters(&gemini, 0)["properties"]["tags"]["nullable"],
        true
    );
    let deepseek = lower(
        Dialect::DeepSeek { strict: true },
        &[("find", schema.clone())],
    );
    let tags = &parameters(&deepseek, 0)["properties"]["tags"];
    assert_eq!(tags["anyOf"][0]["type"], "array");
    assert_eq!(tags["anyOf"][1], json!({"type": "null"}));
    let openai = lower(Dialect::OpenAiChat { strict: true }, &[("find", schema)]);
    assert_eq!(
        parameters(&openai, 0)["properties"]["tags"]["type"],
        json!(["array", "null"])
    );
}

#[test]
fn anthropic_strict_tools_past_the_request_limits_are_sent_non_strict() {
    let simple = json!({
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a"],
        "additionalProperties": false
    });
    let names: Vec<String> = (0..25).map(|index| format!("tool_{index:02}")).collect();
    let tools: Vec<(&str, Value)> = names
        .iter()
        .map(|name| (name.as_str(), simple.clone()))
        .collect();
    let lowered = lower(Dialect::Anthropic { strict: true }, &tools);
    let strict = lowered.tools.iter().filter(|tool| tool.strict).count();
    assert_eq!(strict, 20);
    assert_eq!(fallbacks(&lowered), 5);
    assert!(!lowered.tools[24].strict);
}

/// A tool whose request settings are `settings`.
fn with_settings(name: &str, settings: RequestSettings) -> ToolSchema {
    let mut schema = tool_schema(
        name,
        format!("The {name} tool."),
        json!({
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "required": ["a"],
            "additionalProperties": false
        }),
    );
    schema.settings = settings;
    schema
}

fn lower_schemas(dialect: Dialect, schemas: Vec<ToolSchema>) -> LoweredTools {
    let lowered = LoweredTools::new(Arc::from(schemas), dialect, None);
    let violations = check_request(dialect, &lowered.request_tools);
    assert!(violations.is_empty(), "{}: {violations:#?}", dialect.id());
    lowered
}

#[test]
fn a_tools_own_strict_setting_wins_over_the_dialect() {
    let schemas = || {
        vec![
            with_settings(
                "always",
                RequestSettings {
                    strict: Some(true),
                    ..RequestSettings::default()
                },
            ),
            with_settings("as_the_dialect", RequestSettings::default()),
            with_settings(
                "never",
                RequestSettings {
                    strict: Some(false),
                    ..RequestSettings::default()
                },
            ),
        ]
    };
    // Anthropic writes `strict` only when on (its default is off).
    let loose = lower_schemas(Dialect::Anthropic { strict: false }, schemas());
    assert_eq!(loose.request_tools[0]["strict"], true);
    assert!(loose.request_tools[1].get("strict").is_none());
    assert!(loose.request_tools[2].get("strict").is_none());
    let strict = lower_schemas(Dialect::Anthropic { strict: true }, schemas());
    let flags: Vec<bool> = strict.tools.iter().map(|tool| tool.strict).collect();
    assert_eq!(flags, [true, true, false]);
    assert!(strict.request_tools[2].get("strict").is_none());
    // OpenAI Chat: a non-strict list names only the tool strict by its own setting.
    let chat = lower_schemas(Dialect::OpenAiChat { strict: false }, schemas());
    assert_eq!(chat.request_tools[0]["function"]["strict"], true);
    assert!(chat.request_tools[1]["function"].get("strict").is_none());
    let chat = lower_schemas(Dialect::OpenAiChat { strict: true }, schemas());
    assert_eq!(chat.request_tools[2]["function"]["strict"], false);
    // DeepSeek's strict beta takes the same switch; Gemini has none.
    let deepseek = lower_schemas(Dialect::DeepSeek { strict: false }, schemas());
    assert_eq!(deepseek.request_tools[0]["function"]["strict"], true);
    let gemini = lower_schemas(
        Dialect::Gemini {
            schema: GeminiSchema::OpenApi,
        },
        schemas(),
    );
    assert!(gemini.tools.iter().all(|tool| !tool.strict));
}

#[test]
fn deepseek_strict_lists_report_the_beta_url_and_every_function_not_strict() {
    let details = |lowered: &LoweredTools| -> Vec<String> {
        lowered
            .report
            .entries
            .iter()
            .filter(|entry| entry.tool.is_empty() && entry.change == Change::Warning)
            .map(|entry| entry.detail.clone())
            .collect()
    };
    let beta =
        "strict tools: DeepSeek's strict mode is a beta, served only from its /beta base URL";
    let mixed = vec![
        with_settings(
            "always",
            RequestSettings {
                strict: Some(true),
                ..RequestSettings::default()
            },
        ),
        with_settings("loose", RequestSettings::default()),
    ];
    assert_eq!(
        details(&lower_schemas(Dialect::DeepSeek { strict: false }, mixed)),
        [
            beta.to_owned(),
            "DeepSeek's strict mode wants every function strict; sent non-strict: loose".to_owned()
        ]
    );
    let all = vec![
        with_settings("a", RequestSettings::default()),
        with_settings("b", RequestSettings::default()),
    ];
    assert_eq!(
        details(&lower_schemas(
            Dialect::DeepSeek { strict: true },
            all.clone()
        )),
        [beta]
    );
    assert!(details(&lower_schemas(Dialect::DeepSeek { strict: false }, all)).is_empty());
}

#[test]
fn tools_strict_by_their_own_setting_keep_within_anthropics_request_limits() {
    let schemas: Vec<ToolSchema> = (0..22)
        .map(|index| {
            with_settings(
                &format!("tool_{index:02}"),
                RequestSettings {
                    strict: Some(true),
                    ..RequestSettings::default()
                },
            )
        })
        .collect();
    let lowered = lower_schemas(Dialect::Anthropic { strict: false }, schemas);
    let strict = lowered.tools.iter().filter(|tool| tool.strict).count();
    assert_eq!(strict, 20);
    assert_eq!(fallbacks(&lowered), 2);
}

#[test]
fn eager_input_streaming_is_sent_to_anthropic_only_and_only_when_asked() {
    let schemas = || {
        vec![
            with_settings(
                "eager",
                RequestSettings {
                    eager_input_streaming: true,
                    ..RequestSettings::default()
                },
            ),
            with_settings("plain", RequestSettings::default()),
        ]
    };
    let anthropic = lower_schemas(Dialect::Anthropic { strict: false }, schemas());
    assert_eq!(anthropic.request_tools[0]["eager_input_streaming"], true);
    assert!(
        anthropic.request_tools[1]
            .get("eager_input_streaming")
            .is_none()
    );
    assert!(anthropic.tools[0].eager_input_streaming);
    for dialect in [
        Dialect::OpenAiChat { strict: false },
        Dialect::OpenAiResponses { strict: false },
        Dialect::Gemini {
            schema: GeminiSchema::OpenApi,
        },
    ] {
        let lowered = lower_schemas(dialect, schemas());
        assert!(
            !lowered
                .request_tools
                .to_string()
                .contains("eager_input_streaming")
        );
        assert!(lowered.tools.iter().all(|tool| !tool.eager_input_streaming));
    }
}

#[tokio::test]
async fn a_registered_tools_settings_reach_the_view() {
    let registry = ToolRegistry::new();
    let _ = registry
        .register(
            FnTool::builder("write_file", "Write a file.")
                .options(dsh_tools::call::ToolOptions {
                    request_settings: RequestSettings {
                        strict: Some(true),
                        eager_input_streaming: true,
                    },
                    ..dsh_tools::call::ToolOptions::default()
                })
                .handler(|_, _| async move { Ok(Value::Null) }),
        )
        .unwrap();
    let tools = ProviderTools::new(&registry, Dialect::Anthropic { strict: false }).tools(None);
    let entry = &tools.request_tools[0];
    assert_eq!(entry["strict"], true);
    assert_eq!(entry["eager_input_streaming"], true);
    // The settings are the request's, not part of what `schemas()` serializes by default.
    let plain = serde_json::to_value(ToolSchema::new("x", "y", json!({}))).unwrap();
    assert!(plain.get("settings").is_none());
}

#[test]
fn openai_strict_limits_send_an_oversized_tool_non_strict() {
    let members: Vec<Value> = (0..1_001).map(|n| json!(format!("v{n}"))).collect();
    let schema = json!({
        "type": "object",
        "properties": {"choice": {"type": "string", "enum": members}},
        "required": ["choice"],
        "additionalProperties": false
    });
    let tools = lower(Dialect::OpenAiChat { strict: true }, &[("pick", schema)]);
    assert!(!tools.tools[0].strict);
    assert!(has_change(
        &tools,
        Change::StrictFallback,
        "1001 enum values"
    ));
}

#[test]
fn openai_warns_past_128_tools() {
    let simple = json!({"type": "object", "properties": {}, "additionalProperties": false});
    let names: Vec<String> = (0..130).map(|index| format!("t{index:03}")).collect();
    let tools: Vec<(&str, Value)> = names
        .iter()
        .map(|name| (name.as_str(), simple.clone()))
        .collect();
    let schemas: Vec<ToolSchema> = tools
        .iter()
        .map(|(name, parameters)| tool_schema(name, String::new(), parameters.clone()))
        .collect();
    let lowered = LoweredTools::new(
        Arc::from(schemas),
        Dialect::OpenAiChat { strict: false },
        None,
    );
    assert!(has_change(
        &lowered,
        Change::Warning,
        "at most 128 functions"
    ));
    assert!(
        !check_request(
            Dialect::OpenAiChat { strict: false },
            &lowered.request_tools
        )
        .is_empty()
    );
}

#[test]
fn gemini_leaves_out_the_parameters_of_a_tool_without_arguments_and_warns_about_odd_property_names()
{
    let none = json!({"type": "object", "properties": {}, "additionalProperties": false});
    let odd = json!({
        "type": "object",
        "properties": {"file-path": {"type": "string"}},
        "required": ["file-path"]
    });
    let tools = lower(
        Dialect::Gemini {
            schema: GeminiSchema::OpenApi,
        },
        &[("ping", none), ("open", odd)],
    );
    let declarations = &tools.request_tools[0]["functionDeclarations"];
    assert!(declarations[0].get("parameters").is_none());
    assert!(declarations[1].get("parameters").is_some());
    assert!(has_change(&tools, Change::Warning, "\"file-path\""));
}

#[tokio::test]
async fn nulls_are_removed_through_recursive_definitions() {
    let registry = ToolRegistry::new();
    let _registration = registry
        .register(
            FnTool::builder("outline", "Write an outline.")
                .raw_parameters(json!({
                    "type": "object",
                    "properties": {"sections": {"type": "array", "items": {"$ref": "#/$defs/S"}}},
                    "required": ["sections"],
                    "additionalProperties": false,
                    "$defs": {"S": {
                        "type": "object",
                        "properties": {
                            "heading": {"type": "string"},
                            "note": {"type": "string"},
                            "children": {"type": "array", "items": {"$ref": "#/$defs/S"}}
                        },
                        "required": ["heading", "children"],
                        "additionalProperties": false
                    }}
                }))
                .handler(|arguments, _| async move { Ok(arguments) }),
        )
        .unwrap();
    let tools = ProviderTools::new(&registry, Dialect::OpenAiChat { strict: true }).tools(None);
    assert!(tools.tools[0].strict);
    let arguments = json!({"sections": [{"heading": "a", "note": null, "children": [
        {"heading": "b", "note": null, "children": [
            {"heading": "c", "note": "kept", "children": []}]}]}]});
    let response = json!({"choices": [{"message": {"tool_calls": [{"id": "c1",
        "type": "function", "function": {"name": "outline",
        "arguments": arguments.to_string()}}]}}]});
    let mut calls = tools.parse_response(&response).unwrap();
    assert_eq!(
        std::mem::take(&mut calls.inputs)[0].arguments,
        json!({"sections": [{"heading": "a", "children": [
            {"heading": "b", "children": [
                {"heading": "c", "note": "kept", "children": []}]}]}]})
    );
}

#[test]
fn a_null_inside_a_union_is_kept_when_some_branch_accepts_it() {
    // `x` accepts null in one branch: the model's null is passed on as sent.
    let schema = json!({
        "type": "object",
        "properties": {"v": {"anyOf": [
            {"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": false},
            {"type": "object", "properties": {"x": {"type": ["integer", "null"]}, "y": {"type": "integer"}},
             "additionalProperties": false}
        ]}},
        "required": ["v"],
        "additionalProperties": false
    });
    let tools = lower(Dialect::OpenAiChat { strict: true }, &[("u", schema)]);
    let response = json!({"choices": [{"message": {"tool_calls": [{"id": "c1",
        "type": "function", "function": {"name": "u",
        "arguments": "{\"v\": {\"x\": null, \"y\": null}}"}}]}}]});
    let mut calls = tools.parse_response(&response).unwrap();
    assert_eq!(
        std::mem::take(&mut calls.inputs)[0].arguments,
        json!({"v": {"x": null}})
    );
}
