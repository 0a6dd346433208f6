//! Provider views of the corpus (the quickstart's tools plus adversarial ones): every lowered
//! request passes a checker written from the provider's published constraints, the lowered
//! tools and reports match golden files, names map back, strict fallbacks are reported, and
//! lowered lists are cached per registry snapshot.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use dsh_tools::providers::{
    Change, Dialect, GeminiSchema, LoweredTools, LoweringReport, ProviderTools,
    render_system_prompt,
};
use dsh_tools::{FnTool, ToolExecutionInput, ToolRegistry, json, tool};
use dsh_tools_tests::golden::assert_golden;
use dsh_tools_tests::provider_checkers::check_request;
use dsh_tools_tests::provider_corpus::{
    COLLIDING_NAMES, LEADING_DIGIT_NAME, corpus_registry, long_name, scratch_workspace,
};
use serde_json::Value;

fn corpus() -> ToolRegistry {
    corpus_registry(scratch_workspace())
}

fn lowered(registry: &ToolRegistry, dialect: Dialect) -> Arc<LoweredTools> {
    ProviderTools::new(registry, dialect).tools(None)
}

fn changes<'a>(report: &'a LoweringReport, tool: &'a str, change: Change) -> Vec<&'a str> {
    report
        .entries
        .iter()
        .filter(|entry| entry.tool == tool && entry.change == change)
        .map(|entry| entry.detail.as_str())
        .collect()
}

#[test]
fn every_lowered_request_passes_its_providers_checker() {
    let registry = corpus();
    for dialect in Dialect::ALL {
        let tools = lowered(&registry, dialect);
        let violations = check_request(dialect, &tools.request_tools);
        assert!(
            violations.is_empty(),
            "{}: {} violation(s):\n{}",
            dialect.id(),
            violations.len(),
            violations.join("\n")
        );
    }
}

#[test]
fn the_checkers_catch_what_the_providers_reject() {
    // Without lowering, the canonical schemas break the strict and Gemini rules: proof the
    // checkers can fail.
    let registry = corpus();
    let raw = Value::Array(
        registry
            .schemas()
            .iter()
            .map(|schema| {
                let parameters: &Value = &schema.parameters;
                json!({"type": "function", "function": {"name": schema.name,
                    "description": schema.description, "parameters": parameters,
                    "strict": true}})
            })
            .collect(),
    );
    let violations = check_request(Dialect::OpenAiChat { strict: true }, &raw);
    let text = violations.join("\n");
    assert!(text.contains("required must list every property"), "{text}");
    assert!(
        text.contains("the name breaks the provider's name rule"),
        "{text}"
    );
    assert!(
        text.contains("keyword minLength is not supported"),
        "{text}"
    );
    assert!(text.contains("root must be type \"object\""), "{text}");
    // Gemini's Schema needs a type unless the node is an anyOf, and an array its items.
    let declarations: Vec<Value> = registry
        .schemas()
        .iter()
        .map(|schema| {
            let parameters: &Value = &schema.parameters;
            json!({"name": "canonical", "description": schema.description,
                   "parameters": parameters})
        })
        .collect();
    let raw = json!([{"functionDeclarations": declarations}]);
    let text = check_request(
        Dialect::Gemini {
            schema: GeminiSchema::OpenApi,
        },
        &raw,
    )
    .join("\n");
    for rule in [
        "canonical /properties/document: a schema needs a type unless it is an anyOf",
        "canonical /properties/steps: an array needs items",
        "keyword additionalProperties is not supported",
    ] {
        assert!(text.contains(rule), "{rule} in {text}");
    }
}

#[test]
fn lowered_tools_and_reports_match_the_golden_files() {
    let registry = corpus();
    for dialect in Dialect::ALL {
        let tools = lowered(&registry, dialect);
        let golden = json!({
            "tools": tools.request_tools,
            "report": tools.report,
        });
        assert_golden("providers", dialect.id(), &golden);
    }
}

/// The name the provider sees for the listed tool `name`.
fn provider_name<'t>(tools: &'t LoweredTools, name: &str) -> &'t str {
    let tool = tools.tools.iter().find(|tool| tool.name == name);
    &tool.expect("the tool is listed").provider_name
}

#[test]
fn names_the_provider_cannot_take_are_mapped_reversibly_and_without_collisions() {
    let registry = corpus();
    for dialect in Dialect::ALL {
        let tools = lowered(&registry, dialect);
        let rule = dialect.name_rule();
        let mut seen = std::collections::HashSet::new();
        for tool in &tools.tools {
            assert!(rule.accepts(&tool.provider_name), "{}", tool.provider_name);
            assert!(
                seen.insert(tool.provider_name.clone()),
                "{} twice",
                tool.provider_name
            );
        }
        let long = long_name();
        assert_ne!(provider_name(&tools, &long), long);
        let renamed = changes(&tools.report, &long, Change::Renamed);
        assert_eq!(renamed.len(), 1, "{}", dialect.id());
    }
    let openai = lowered(&registry, Dialect::OpenAiChat { strict: false });
    let [dotted, plain] = COLLIDING_NAMES;
    assert_eq!(provider_name(&openai, plain), plain);
    assert_ne!(provider_name(&openai, dotted), plain);
    assert_eq!(
        provider_name(&openai, LEADING_DIGIT_NAME),
        LEADING_DIGIT_NAME
    );
    let gemini = lowered(
        &registry,
        Dialect::Gemini {
            schema: GeminiSchema::OpenApi,
        },
    );
    assert_eq!(provider_name(&gemini, LEADING_DIGIT_NAME), "_3d_render");
    // Gemini takes dots: no renaming, no collision.
    assert_eq!(provider_name(&gemini, dotted), dotted);
}

#[test]
fn tools_strict_cannot_express_fall_back_and_the_report_says_why() {
    let registry = corpus();
    let tools = lowered(&registry, Dialect::OpenAiChat { strict: true });
    let strict = |name: &str| {
        tools
            .tools
            .iter()
            .find(|tool| tool.name == name)
            .map(|tool| tool.strict)
            .expect("in the corpus")
    };
    for (tool, reason) in [
        ("store_document", "an untyped value"),
        ("run_pipeline", "an array of untyped items"),
    ] {
        assert!(!strict(tool), "{tool} should fall back");
        let fallbacks = changes(&tools.report, tool, Change::StrictFallback);
        assert_eq!(fallbacks.len(), 1, "{tool}");
        assert!(fallbacks[0].contains(reason), "{tool}: {}", fallbacks[0]);
    }
    for tool in [
        "read_file",
        "search_files",
        "set_labels",
        "deploy_services",
        "register_contact",
        "draw_shape",
        "write_outline",
    ] {
        assert!(strict(tool), "{tool} should stay strict: {}", tools.report);
    }
    // Recursion: OpenAI keeps it under $defs; Anthropic strict cannot.
    let outline = tools
        .tools
        .iter()
        .find(|tool| tool.name == "write_outline")
        .unwrap();
    assert!(outline.parameters["$defs"]["Section"].is_object());
    let anthropic = lowered(&registry, Dialect::Anthropic { strict: true });
    let fallbacks = changes(&anthropic.report, "write_outline", Change::StrictFallback);
    assert!(fallbacks[0].contains("recursive"), "{fallbacks:?}");
    assert!(
        tools
            .report
            .to_string()
            .ends_with(LoweringReport::ENFORCEMENT_NOTE)
    );
}

#[test]
fn a_root_union_is_merged_into_one_object_for_anthropic() {
    let registry = corpus();
    for dialect in [
        Dialect::Anthropic { strict: false },
        Dialect::Anthropic { strict: true },
    ] {
        let tools = lowered(&registry, dialect);
        let shape = tools
            .request_tools
            .as_array()
            .unwrap()
            .iter()
            .find(|tool| tool["name"] == "draw_shape")
            .unwrap();
        let schema = &shape["input_schema"];
        assert_eq!(schema["type"], "object");
        assert!(schema.get("oneOf").is_none() && schema.get("anyOf").is_none());
        assert_eq!(
            schema["properties"]["kind"]["enum"],
            json!(["circle", "rect"])
        );
        assert_eq!(schema["required"], json!(["kind"]));
        let rewritten = changes(&tools.report, "draw_shape", Change::Rewritten);
        assert!(
            rewritten.iter().any(|detail| detail.contains("root oneOf")),
            "{rewritten:?}"
        );
    }
}

#[test]
fn optional_properties_become_required_and_nullable_in_strict_mode() {
    let registry = corpus();
    let tools = lowered(&registry, Dialect::OpenAiChat { strict: true });
    let read = tools
        .tools
        .iter()
        .find(|tool| tool.name == "read_file")
        .unwrap();
    assert_eq!(
        read.parameters["required"],
        json!(["path", "offset", "limit"])
    );
    assert_eq!(
        read.parameters["properties"]["limit"]["type"],
        json!(["integer", "null"])
    );
    let nullable = changes(&tools.report, "read_file", Change::MadeNullable);
    assert_eq!(
        nullable.len(),
        1,
        "only `limit` had to be made nullable: {nullable:?}"
    );
}

#[tokio::test]
async fn a_null_for_a_property_made_nullable_is_removed_before_the_call_runs() {
    let registry = corpus();
    // The canonical schema does not take `null` for `limit` (it has a default, not an Option).
    let direct = registry
        .execute(ToolExecutionInput::from_raw(
            "c0",
            "read_file",
            r#"{"path": "src/lib.rs", "offset": null, "limit": null}"#,
        ))
        .await;
    assert_eq!(
        direct.error_code(),
        Some("INVALID_ARGS"),
        "{}",
        direct.text()
    );
    // Through the strict view, the model's `null`s mean "absent": the call is valid.
    let tools = lowered(&registry, Dialect::OpenAiChat { strict: true });
    let response = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [{
        "id": "c1", "type": "function", "function": {"name": "read_file",
        "arguments": "{\"path\": \"src/lib.rs\", \"offset\": null, \"limit\": null}"}}]}}]});
    let mut calls = tools.parse_response(&response).unwrap();
    let inputs = std::mem::take(&mut calls.inputs);
    assert_eq!(
        inputs[0].arguments,
        json!({"path": "src/lib.rs", "offset": null})
    );
    let result = registry.execute(inputs.into_iter().next().unwrap()).await;
    assert!(!result.is_error(), "{}", result.text());
    assert!(result.text().contains("greeting"));
    // Non-strict views pass nulls on as sent.
    let plain = lowered(&registry, Dialect::OpenAiChat { strict: false });
    let mut calls = plain.parse_response(&response).unwrap();
    assert_eq!(
        std::mem::take(&mut calls.inputs)[0].arguments,
        json!({"path": "src/lib.rs", "offset": null, "limit": null})
    );
}

/// Tags files.
#[tool]
async fn tag_files(
    /// The tags, each once.
    tags: HashSet<String>,
    /// Minutes between scans.
    #[arg(multiple_of = 5, exclusive_minimum = 0)]
    every: u32,
) -> usize {
    tags.len() + usize::try_from(every).unwrap_or(0)
}

/// Sets labels.
#[tool]
async fn set_tags(
    /// At most two labels.
    #[arg(max_properties = 2)]
    labels: BTreeMap<String, String>,
) -> usize {
    labels.len()
}

/// The lowered parameters of `tool` for `dialect`, with its report.
fn lowered_tool(dialect: Dialect, tool: &str) -> (Value, bool, Arc<LoweredTools>) {
    let registry = ToolRegistry::new();
    let _ = registry.register(TagFilesTool).unwrap();
    let _ = registry.register(SetTagsTool).unwrap();
    let tools = lowered(&registry, dialect);
    let violations = check_request(dialect, &tools.request_tools);
    assert!(violations.is_empty(), "{}: {violations:?}", dialect.id());
    let found = tools
        .tools
        .iter()
        .find(|lowered| lowered.name == tool)
        .expect("registered");
    let (parameters, strict) = (found.parameters.clone(), found.strict);
    (parameters, strict, tools)
}

#[test]
fn derived_sets_multiples_and_key_counts_lower_as_each_provider_allows() {
    // OpenAI's strict mode takes `multipleOf` and `exclusiveMinimum`, not `uniqueItems`.
    let (parameters, strict, tools) =
        lowered_tool(Dialect::OpenAiChat { strict: true }, "tag_files");
    assert!(strict);
    let every = &parameters["properties"]["every"];
    assert_eq!(
        (&every["multipleOf"], &every["exclusiveMinimum"]),
        (&json!(5), &json!(0))
    );
    let tags = &parameters["properties"]["tags"];
    assert!(tags.get("uniqueItems").is_none(), "{tags}");
    assert_eq!(
        tags["description"],
        "The tags, each once. (items must be distinct)"
    );
    assert_eq!(
        changes(&tools.report, "tag_files", Change::MovedToDescription),
        ["uniqueItems: true"]
    );
    // Anthropic's strict mode takes none of them: each is moved into the description.
    let (parameters, strict, tools) =
        lowered_tool(Dialect::Anthropic { strict: true }, "tag_files");
    assert!(strict);
    let every = &parameters["properties"]["every"];
    assert!(every.get("multipleOf").is_none() && every.get("exclusiveMinimum").is_none());
    let description = every["description"].as_str().unwrap();
    assert!(
        description.contains("greater than 0") && description.contains("a multiple of 5"),
        "{description}"
    );
    let moved = changes(&tools.report, "tag_files", Change::MovedToDescription);
    for keyword in ["multipleOf: 5", "exclusiveMinimum: 0", "uniqueItems: true"] {
        assert!(moved.contains(&keyword), "{keyword} in {moved:?}");
    }
    // A view without a strict mode sends the keywords as they are.
    let (parameters, _, _) = lowered_tool(Dialect::OpenAiChat { strict: false }, "tag_files");
    assert_eq!(parameters["properties"]["tags"]["uniqueItems"], json!(true));
    assert_eq!(parameters["properties"]["every"]["multipleOf"], json!(5));
    // A map is sent strict as {key, value} pairs; its key count becomes the pairs' count.
    let (parameters, strict, tools) =
        lowered_tool(Dialect::OpenAiChat { strict: true }, "set_tags");
    assert!(strict, "{}", tools.report);
    let labels = &parameters["properties"]["labels"];
    assert_eq!(labels["type"], "array");
    assert_eq!(labels["maxItems"], json!(2));
    assert_eq!(
        labels["items"],
        json!({
            "type": "object",
            "properties": {"key": {"type": "string"}, "value": {"type": "string"}},
            "required": ["key", "value"],
            "additionalProperties": false
        })
    );
    assert_eq!(
        changes(&tools.report, "set_tags", Change::StrictFallback),
        Vec::<&str>::new()
    );
    // DeepSeek's strict mode takes no item counts: described, and reported.
    let (parameters, strict, tools) = lowered_tool(Dialect::DeepSeek { strict: true }, "set_tags");
    assert!(strict);
    let labels = &parameters["properties"]["labels"];
    assert!(labels.get("maxItems").is_none(), "{labels}");
    assert!(
        labels["description"]
            .as_str()
            .unwrap()
            .contains("at most 2 items"),
        "{labels}"
    );
    assert_eq!(
        changes(&tools.report, "set_tags", Change::MovedToDescription),
        ["maxItems: 2"]
    );
}

#[test]
fn lowered_lists_are_cached_per_snapshot_and_a_registration_invalidates_them() {
    let registry = corpus();
    let openai = ProviderTools::new(&registry, Dialect::OpenAiChat { strict: true });
    let first = openai.tools(None);
    let again = openai.tools(None);
    assert!(Arc::ptr_eq(&first, &again));
    let registration = registry
        .register(
            FnTool::builder("late_tool", "Registered later.")
                .handler(|_, _| async { Ok(json!("ok")) }),
        )
        .unwrap();
    let after = openai.tools(None);
    assert!(!Arc::ptr_eq(&first, &after));
    assert_eq!(after.tools.len(), first.tools.len() + 1);
    assert!(Arc::ptr_eq(&after, &openai.tools(None)));
    registration.dispose();
    let disposed = openai.tools(None);
    assert_eq!(disposed.tools.len(), first.tools.len());
    // Scopes are cached on their own.
    registry.create_child("agent-1").unwrap();
    let agent = dsh_tools::AgentId::from("agent-1");
    let scoped = openai.tools(Some(&agent));
    assert!(Arc::ptr_eq(&scoped, &openai.tools(Some(&agent))));
}

#[test]
fn the_system_prompt_is_byte_identical_for_an_unchanged_tool_set() {
    let registry = corpus();
    let first = render_system_prompt(&registry.schemas());
    let second = render_system_prompt(&corpus().schemas());
    assert_eq!(first, second);
    assert!(first.starts_with("# Tools\n"));
    assert!(first.contains("\n## read_file\n\nRead a text file, or a window of its lines.\n"));
    let golden = Value::String(first);
    assert_golden("providers", "system-prompt", &golden);
}

/// A tool whose arguments need the keyword engine: what each provider view makes of it.
fn keyword_tool_registry() -> ToolRegistry {
    let schema = dsh_tools::schema::Schema::from_json_schema(&json!({
        "type": "object",
        "properties": {
            "mode": {"enum": ["file", "url"]},
            "path": {"type": "string", "not": {"pattern": "^/etc"}},
            "url": {"type": "string", "format": "uri"},
            "count": {"type": "integer", "multipleOf": 10, "exclusiveMinimum": 0},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "contains": {"const": "main"}},
            "labels": {"type": "object", "properties": {"a": {"type": "string"}}, "maxProperties": 4, "propertyNames": {"maxLength": 8}},
        },
        "required": ["mode"],
        "dependentRequired": {"url": ["mode"]},
        "if": {"properties": {"mode": {"const": "file"}}},
        "then": {"required": ["path"]},
        "else": {"required": ["url"]},
        "unevaluatedProperties": false,
    }))
    .unwrap();
    assert!(matches!(
        schema.kind,
        dsh_tools::schema::SchemaKind::Keywords(_)
    ));
    let registry = ToolRegistry::new();
    let _ = registry
        .register(
            FnTool::builder("fetch", "Fetches a file or a URL.")
                .arguments(schema)
                .handler(|_, _| async { Ok(json!("ok")) }),
        )
        .unwrap();
    registry
}

#[test]
fn keyword_schemas_lower_for_every_provider_and_what_changes_is_reported() {
    let registry = keyword_tool_registry();
    for dialect in Dialect::ALL {
        let tools = lowered(&registry, dialect);
        let violations = check_request(dialect, &tools.request_tools);
        assert!(
            violations.is_empty(),
            "{}: {}\n{}",
            dialect.id(),
            violations.join("\n"),
            tools.request_tools
        );
        // No keyword is lost without a word: each stays in the lowered schema, or the report
        // says where it went.
        let request = tools.request_tools.to_string();
        for keyword in [
            "not",
            "multipleOf",
            "exclusiveMinimum",
            "uniqueItems",
            "contains",
            "propertyNames",
            "dependentRequired",
            "if",
            "then",
            "else",
            "unevaluatedProperties",
        ] {
            let kept = request.contains(&format!("\"{keyword}\":"));
            let moved = changes(&tools.report, "fetch", Change::MovedToDescription)
                .iter()
                .any(|detail| detail.starts_with(&format!("{keyword}: ")));
            assert!(
                kept || moved,
                "{}: {keyword} vanished\n{request}",
                dialect.id()
            );
        }
    }
}
