//! Maps through strict views: a `HashMap<String, T>` argument (nested in a map's values, inside
//! an array, optional) is sent as `{key, value}` pairs, reported with its path, and the model's
//! pairs are mapped back to the tool's canonical arguments before the call is validated and
//! run; a key given twice is `INVALID_ARGS`.

// Argument types exist for their schemas; not every field is read back.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};

use dsh_tools::providers::{Change, Dialect, LoweredTools, ProviderTools};
use dsh_tools::{FnTool, ToolArgs, ToolExecutionInput, ToolRegistry, Value, json, tool};
use dsh_tools_tests::provider_checkers::check_request;

use super::fallbacks;

/// One service.
#[derive(ToolArgs)]
struct Service {
    /// The image to run.
    image: String,
    /// Environment variables.
    env: HashMap<String, String>,
    /// The port, if it listens.
    port: Option<u16>,
    /// Restarts allowed.
    #[arg(default = 1)]
    restarts: u8,
}

/// Configure services.
#[tool]
async fn configure(
    /// Services by name.
    services: HashMap<String, Service>,
    /// Labels, if any.
    labels: Option<BTreeMap<String, String>>,
    /// Groups of weights.
    groups: Vec<BTreeMap<String, u32>>,
) -> String {
    let services: BTreeMap<String, Value> = services
        .into_iter()
        .map(|(name, service)| {
            let env: BTreeMap<String, String> = service.env.into_iter().collect();
            (
                name,
                json!({"image": service.image, "env": env, "port": service.port,
                       "restarts": service.restarts}),
            )
        })
        .collect();
    json!({"services": services, "labels": labels, "groups": groups}).to_string()
}

const STRICT: [Dialect; 4] = [
    Dialect::OpenAiChat { strict: true },
    Dialect::OpenAiResponses { strict: true },
    Dialect::Anthropic { strict: true },
    Dialect::DeepSeek { strict: true },
];

fn registry() -> ToolRegistry {
    let registry = ToolRegistry::new();
    let _ = registry.register(ConfigureTool).expect("fresh name");
    registry
}

fn lowered(registry: &ToolRegistry, dialect: Dialect) -> std::sync::Arc<LoweredTools> {
    let tools = ProviderTools::new(registry, dialect).tools(None);
    let violations = check_request(dialect, &tools.request_tools);
    assert!(violations.is_empty(), "{}: {violations:#?}", dialect.id());
    tools
}

fn rewritten_maps(tools: &LoweredTools) -> Vec<&str> {
    tools
        .report
        .entries
        .iter()
        .filter(|entry| entry.change == Change::Rewritten && entry.detail.starts_with("map sent"))
        .map(|entry| entry.path.as_str())
        .collect()
}

/// The pairs a model sends for the canonical arguments below.
fn pairs_arguments(web_env: Value) -> Value {
    json!({
        "services": [
            {"key": "web", "value": {"image": "nginx", "env": web_env, "port": 80, "restarts": null}},
            {"key": "db", "value": {"image": "postgres", "env": [], "port": null, "restarts": 3}}
        ],
        "labels": [{"key": "team", "value": "core"}],
        "groups": [[{"key": "a", "value": 1}], []]
    })
}

fn canonical_output() -> Value {
    json!({
        "services": {
            "db": {"image": "postgres", "env": {}, "port": null, "restarts": 3},
            "web": {"image": "nginx", "env": {"MODE": "prod", "PATH": "/bin"}, "port": 80,
                    "restarts": 1}
        },
        "labels": {"team": "core"},
        "groups": [{"a": 1}, {}]
    })
}

fn web_env() -> Value {
    json!([{"key": "PATH", "value": "/bin"}, {"key": "MODE", "value": "prod"}])
}

#[test]
fn every_strict_view_keeps_the_tool_strict_and_reports_each_map_with_its_path() {
    let registry = registry();
    for dialect in STRICT {
        let tools = lowered(&registry, dialect);
        let tool = &tools.tools[0];
        assert!(tool.strict, "{}: {}", dialect.id(), tools.report);
        assert_eq!(fallbacks(&tools), 0, "{}", dialect.id());
        // DeepSeek writes a nullable container as anyOf [T, null]; the others as a type list.
        let labels = if matches!(dialect, Dialect::DeepSeek { .. }) {
            "/properties/labels/anyOf/0"
        } else {
            "/properties/labels"
        };
        let mut expected = vec![
            "/properties/services",
            "/properties/services/items/properties/value/properties/env",
            labels,
            "/properties/groups/items",
        ];
        let mut found = rewritten_maps(&tools);
        expected.sort_unstable();
        found.sort_unstable();
        assert_eq!(found, expected, "{}", dialect.id());
        let services = &tool.parameters["properties"]["services"];
        assert_eq!(services["type"], "array", "{}", dialect.id());
        assert_eq!(
            services["items"]["properties"]["key"],
            json!({"type": "string"})
        );
        assert_eq!(services["items"]["required"], json!(["key", "value"]));
        assert_eq!(services["items"]["additionalProperties"], json!(false));
    }
    // OpenAI writes the optional map as a nullable array.
    let tools = lowered(&registry, Dialect::OpenAiChat { strict: true });
    assert_eq!(
        tools.tools[0].parameters["properties"]["labels"]["type"],
        json!(["array", "null"])
    );
}

#[tokio::test]
async fn pairs_from_openai_are_mapped_back_before_validation_and_the_tool_sees_its_maps() {
    let registry = registry();
    let tools = lowered(&registry, Dialect::OpenAiChat { strict: true });
    let arguments = pairs_arguments(web_env()).to_string();
    let response = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [{
        "id": "c1", "type": "function",
        "function": {"name": "configure", "arguments": arguments}}]}}]});
    let mut calls = tools.parse_response(&response).unwrap();
    let inputs = std::mem::take(&mut calls.inputs);
    // Nulls for absent values are removed, then every map is an object again.
    assert_eq!(
        inputs[0].arguments,
        json!({
            "services": {
                "web": {"image": "nginx", "env": {"PATH": "/bin", "MODE": "prod"}, "port": 80},
                "db": {"image": "postgres", "env": {}, "port": null, "restarts": 3}
            },
            "labels": {"team": "core"},
            "groups": [{"a": 1}, {}]
        })
    );
    let result = registry.execute(inputs.into_iter().next().unwrap()).await;
    assert!(!result.is_error(), "{}", result.text());
    let output: Value = serde_json::from_str(&result.text()).unwrap();
    assert_eq!(output, canonical_output());
}

#[tokio::test]
async fn pairs_from_anthropic_and_a_null_optional_map_are_mapped_back() {
    let registry = registry();
    for dialect in [
        Dialect::Anthropic { strict: true },
        Dialect::DeepSeek { strict: true },
    ] {
        let tools = lowered(&registry, dialect);
        let mut arguments = pairs_arguments(web_env());
        arguments["labels"] = Value::Null;
        if matches!(dialect, Dialect::Anthropic { .. }) {
            // Anthropic's strict mode leaves optional properties optional: no null stands in.
            let web = arguments["services"][0]["value"].as_object_mut().unwrap();
            web.shift_remove("restarts");
        }
        let response = match dialect {
            Dialect::Anthropic { .. } => json!({"content": [{"type": "tool_use", "id": "t1",
                "name": "configure", "input": arguments}]}),
            _ => json!({"choices": [{"message": {"role": "assistant", "tool_calls": [{
                "id": "t1", "type": "function",
                "function": {"name": "configure", "arguments": arguments.to_string()}}]}}]}),
        };
        let mut calls = tools.parse_response(&response).unwrap();
        let result = registry
            .execute(
                std::mem::take(&mut calls.inputs)
                    .into_iter()
                    .next()
                    .unwrap(),
            )
            .await;
        assert!(!result.is_error(), "{}: {}", dialect.id(), result.text());
        let mut expected = canonical_output();
        expected["labels"] = Value::Null;
        let output: Value = serde_json::from_str(&result.text()).unwrap();
        assert_eq!(output, expected, "{}", dialect.id());
    }
}

#[tokio::test]
async fn a_key_given_twice_in_the_pairs_is_invalid_args_naming_its_canonical_path() {
    let registry = registry();
    let tools = lowered(&registry, Dialect::OpenAiChat { strict: true });
    let mut arguments = pairs_arguments(json!([
        {"key": "PATH", "value": "/bin"},
        {"key": "PATH", "value": "/usr/bin"}
    ]));
    arguments["groups"][1] = json!([{"key": "b", "value": 1}, {"key": "b", "value": 2}]);
    let response = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [{
        "id": "c1", "type": "function",
        "function": {"name": "configure", "arguments": arguments.to_string()}}]}}]});
    let mut calls = tools.parse_response(&response).unwrap();
    let input = std::mem::take(&mut calls.inputs)
        .into_iter()
        .next()
        .unwrap();
    assert!(input.is_malformed());
    let result = registry.execute(input).await;
    assert_eq!(result.error_code(), Some("INVALID_ARGS"));
    assert_eq!(
        result.text(),
        "Error: invalid arguments: duplicate property \"services.web.env.PATH\"; duplicate \
         property \"groups[1].b\""
    );
    // The same arguments, sent as an object repeating the key, read the same.
    let raw = r#"{"services": {"web": {"image": "nginx", "env": {"PATH": "/bin", "PATH": "/usr/bin"}}}, "groups": []}"#;
    let direct = registry
        .execute(ToolExecutionInput::from_raw("c2", "configure", raw))
        .await;
    assert_eq!(
        direct.text(),
        "Error: invalid arguments: duplicate property \"services.web.env.PATH\""
    );
}

#[tokio::test]
async fn non_strict_views_send_and_take_the_map_as_an_object() {
    let registry = registry();
    for dialect in [
        Dialect::OpenAiChat { strict: false },
        Dialect::Anthropic { strict: false },
    ] {
        let tools = lowered(&registry, dialect);
        assert!(rewritten_maps(&tools).is_empty(), "{}", dialect.id());
        assert_eq!(
            tools.tools[0].parameters["properties"]["services"]["type"],
            "object"
        );
    }
    let tools = lowered(&registry, Dialect::OpenAiChat { strict: false });
    let arguments = json!({"services": {"web": {"image": "nginx", "env": {"A": "1"}}},
                           "groups": [{"a": 2}]});
    let response = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [{
        "id": "c1", "type": "function",
        "function": {"name": "configure", "arguments": arguments.to_string()}}]}}]});
    let mut calls = tools.parse_response(&response).unwrap();
    let inputs = std::mem::take(&mut calls.inputs);
    assert_eq!(inputs[0].arguments, arguments);
    let result = registry.execute(inputs.into_iter().next().unwrap()).await;
    assert!(!result.is_error(), "{}", result.text());
}

#[test]
fn key_constraints_and_counts_go_on_the_pairs_and_what_cannot_is_reported() {
    let headers = FnTool::builder("send", "Send a request.")
        .raw_parameters(json!({
            "type": "object",
            "properties": {
                "headers": {
                    "type": "object",
                    "propertyNames": {"pattern": "^[A-Z][a-z-]*$", "maxLength": 40,
                                      "not": {"const": "Host"}},
                    "additionalProperties": {"type": "string"},
                    "minProperties": 1,
                    "maxProperties": 8
                },
                "ids": {
                    "type": "object",
                    "patternProperties": {"^[0-9]+$": {"type": "integer"}},
                    "additionalProperties": false
                }
            },
            "required": ["headers", "ids"],
            "additionalProperties": false
        }))
        .options(dsh_tools::call::ToolOptions {
            input_examples: vec![json!({"headers": {"Accept": "text/plain"}, "ids": {"1": 7}})],
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(|arguments, _| async move { Ok(arguments) });
    let registry = ToolRegistry::new();
    let _ = registry.register(headers).unwrap();
    let tools = lowered(&registry, Dialect::OpenAiChat { strict: true });
    let parameters = &tools.tools[0].parameters;
    let headers = &parameters["properties"]["headers"];
    assert_eq!(
        (&headers["minItems"], &headers["maxItems"]),
        (&json!(1), &json!(8))
    );
    let key = &headers["items"]["properties"]["key"];
    assert_eq!(key["pattern"], "^[A-Z][a-z-]*$");
    assert_eq!(key["type"], "string");
    // OpenAI strict takes no maxLength: described on the key, and reported.
    assert!(key.get("maxLength").is_none());
    assert_eq!(key["description"], "(at most 40 characters)");
    let ids = &parameters["properties"]["ids"];
    assert_eq!(ids["items"]["properties"]["key"]["pattern"], "^[0-9]+$");
    assert_eq!(
        ids["items"]["properties"]["value"],
        json!({"type": "integer"})
    );
    let entries: Vec<String> = tools
        .report
        .entries
        .iter()
        .filter(|entry| entry.change != Change::Closed)
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        entries,
        [
            "send /properties/headers/propertyNames/not: dropped: propertyNames not: \
             {\"const\":\"Host\"} (the pairs' key cannot carry it; still enforced when the call \
             runs)",
            "send /properties/headers: rewritten: map sent as an array of {key, value} pairs \
             (strict mode closes every object); the pairs are mapped back to the object before \
             the call runs, and a key given twice is INVALID_ARGS",
            "send /properties/headers/items/properties/key/maxLength: moved to description: \
             maxLength: 40",
            "send /properties/ids/patternProperties/^[0-9]+$: rewritten: the keys' pattern \
             \"^[0-9]+$\" written on the pairs' key",
            "send /properties/ids: rewritten: map sent as an array of {key, value} pairs (strict \
             mode closes every object); the pairs are mapped back to the object before the call \
             runs, and a key given twice is INVALID_ARGS",
        ]
    );
    // Anthropic's input examples are written as pairs too, so the strict schema takes them.
    let anthropic = lowered(&registry, Dialect::Anthropic { strict: true });
    assert_eq!(
        anthropic.tools[0].input_examples,
        [
            json!({"headers": [{"key": "Accept", "value": "text/plain"}],
                "ids": [{"key": "1", "value": 7}]})
        ]
    );
}

#[test]
fn a_map_beside_declared_properties_still_falls_back_and_says_why() {
    let mixed = FnTool::builder("tag", "Tag a thing.")
        .raw_parameters(json!({
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
            "additionalProperties": {"type": "string"}
        }))
        .handler(|arguments, _| async move { Ok(arguments) });
    let registry = ToolRegistry::new();
    let _ = registry.register(mixed).unwrap();
    let tools = lowered(&registry, Dialect::OpenAiChat { strict: true });
    assert!(!tools.tools[0].strict);
    let fallbacks: Vec<&str> = tools
        .report
        .entries
        .iter()
        .filter(|entry| entry.change == Change::StrictFallback)
        .map(|entry| entry.detail.as_str())
        .collect();
    assert_eq!(
        fallbacks,
        [
            "an open map (additionalProperties with a schema) beside declared properties cannot \
          be strict"
        ]
    );
}

#[test]
fn maps_inside_recursive_definitions_are_mapped_back_at_every_level() {
    let tree = FnTool::builder("plant", "Plant a tree.")
        .raw_parameters(json!({
            "type": "object",
            "properties": {"root": {"$ref": "#/$defs/Node"}},
            "required": ["root"],
            "additionalProperties": false,
            "$defs": {"Node": {
                "type": "object",
                "properties": {
                    "attrs": {"type": "object", "additionalProperties": {"type": "string"}},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
                },
                "required": ["attrs", "children"],
                "additionalProperties": false
            }}
        }))
        .handler(|arguments, _| async move { Ok(arguments) });
    let registry = ToolRegistry::new();
    let _ = registry.register(tree).unwrap();
    // OpenAI keeps the recursion under $defs; the map inside it is sent as pairs.
    let tools = lowered(&registry, Dialect::OpenAiChat { strict: true });
    assert!(tools.tools[0].strict, "{}", tools.report);
    let node = &tools.tools[0].parameters["$defs"]["Node"];
    assert_eq!(node["properties"]["attrs"]["type"], "array");
    let pairs = |key: &str, value: &str| json!([{"key": key, "value": value}]);
    let arguments = json!({"root": {"attrs": pairs("a", "1"), "children": [
        {"attrs": pairs("b", "2"), "children": [
            {"attrs": [{"key": "c", "value": "3"}, {"key": "c", "value": "4"}], "children": []}
        ]}
    ]}});
    let response = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [{
        "id": "c1", "type": "function",
        "function": {"name": "plant", "arguments": arguments.to_string()}}]}}]});
    let mut calls = tools.parse_response(&response).unwrap();
    let input = std::mem::take(&mut calls.inputs)
        .into_iter()
        .next()
        .unwrap();
    assert_eq!(
        input.arguments,
        json!({"root": {"attrs": {"a": "1"}, "children": [
            {"attrs": {"b": "2"}, "children": [{"attrs": {"c": "3"}, "children": []}]}
        ]}})
    );
    assert!(input.is_malformed(), "the repeated key refuses the call");
}

#[tokio::test]
async fn a_streamed_call_with_pairs_finishes_with_its_maps_and_no_early_violation() {
    use dsh_tools::providers::stream::StreamEvent;
    let registry = registry();
    let tools = lowered(&registry, Dialect::Anthropic { strict: true });
    let mut arguments = pairs_arguments(web_env());
    let web = arguments["services"][0]["value"].as_object_mut().unwrap();
    web.shift_remove("restarts");
    let text = arguments.to_string();
    let (first, rest) = text.split_at(text.len() / 2);
    let mut stream = tools.stream();
    let mut events = Vec::new();
    for event in [
        json!({"type": "content_block_start", "index": 0, "content_block":
               {"type": "tool_use", "id": "t1", "name": "configure", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0,
               "delta": {"type": "input_json_delta", "partial_json": first}}),
        json!({"type": "content_block_delta", "index": 0,
               "delta": {"type": "input_json_delta", "partial_json": rest}}),
        json!({"type": "content_block_stop", "index": 0}),
    ] {
        events.extend(stream.push(&event).unwrap());
        if stream.calls()[0].input().is_none() {
            // What a pending card is shown: the maps, not the view's pairs.
            let so_far = stream.arguments_so_far(0).unwrap();
            let services = &so_far["services"];
            assert!(services.is_null() || services.is_object(), "{so_far}");
        }
    }
    // What the model wrote keeps the view's pairs.
    assert_eq!(
        stream.calls()[0].partial_arguments.value(),
        Some(arguments.clone())
    );
    assert!(
        !events
            .iter()
            .any(|event| matches!(event, StreamEvent::Definite { .. })),
        "{events:?}"
    );
    let calls = stream.into_tool_calls().unwrap();
    let input = calls.inputs[0].clone();
    assert_eq!(
        input.arguments["services"]["web"]["env"],
        json!({"PATH": "/bin", "MODE": "prod"})
    );
    // Before the call ended, the whole text read as the input will be: maps, not pairs.
    assert_eq!(stream_arguments_before_end(&tools, &text), input.arguments);
    let result = registry.execute(input).await;
    assert!(!result.is_error(), "{}", result.text());
    let output: Value = serde_json::from_str(&result.text()).unwrap();
    assert_eq!(output, canonical_output());
}

/// The arguments so far of an Anthropic call of `configure` whose whole `text` has arrived but
/// which has not ended yet.
fn stream_arguments_before_end(tools: &dsh_tools::providers::LoweredTools, text: &str) -> Value {
    let mut stream = tools.stream();
    for event in [
        json!({"type": "content_block_start", "index": 0, "content_block":
               {"type": "tool_use", "id": "t1", "name": "configure", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0,
               "delta": {"type": "input_json_delta", "partial_json": text}}),
    ] {
        stream.push(&event).unwrap();
    }
    stream.arguments_so_far(0).unwrap()
}
