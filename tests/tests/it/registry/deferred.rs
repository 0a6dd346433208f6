//! Deferred tools: callable but left out of `schemas()` until loaded for a scope, the built-in
//! `tool_search` (keywords, regular expressions, exact names) that loads them, the order that
//! keeps a provider's cached prefix, per-scope loading, restrictions and policies applied to
//! searches, and the registry's errors and events.

use std::sync::{Arc, Mutex};

use dsh_tools::registry::{
    Deferral, RegistryErrorKind, RegistryEvent, TOOL_SEARCH, ToolRestriction, ToolSearchMode,
    ToolSearchQuery,
};
use dsh_tools::{
    AgentId, FnTool, PreToolDecision, ToolExecutionInput, ToolRegistry, errors::ErrorCode, json,
    schema::Schema,
};
use dsh_tools_tests::{call, call_with, only_text, value_tool};

/// A tool with a one-string argument `text`, deferred unless `eager`.
fn tool(name: &str, description: &str, deferred: bool) -> FnTool {
    let name = name.to_owned();
    FnTool::builder(name.clone(), description)
        .arguments(
            Schema::object().optional("text", Schema::string().description("What to act on")),
        )
        .options(dsh_tools::call::ToolOptions {
            defer_loading: deferred,
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(move |_, _| {
            let name = name.clone();
            async move { Ok(json!(name)) }
        })
}

fn names(schemas: &[dsh_tools::ToolSchema]) -> Vec<&str> {
    schemas.iter().map(|schema| schema.name.as_str()).collect()
}

/// A registry with two eager tools and four deferred ones.
fn catalog() -> ToolRegistry {
    let registry = ToolRegistry::new();
    registry
        .register_all([
            tool("read_file", "Read a file from disk.", false),
            tool("write_file", "Write text to a file on disk.", false),
            tool("send_email", "Send an email message to a recipient.", true),
            tool("list_emails", "List the messages of a mailbox.", true),
            tool("get_weather", "The weather forecast for a city.", true),
            tool("create_invoice", "Create an invoice for a customer.", true),
        ])
        .unwrap();
    registry
}

fn search(text: &str) -> ToolExecutionInput {
    call_with(TOOL_SEARCH, json!({ "query": text }))
}

#[tokio::test]
async fn a_deferred_tool_is_callable_but_listed_only_once_loaded() {
    let registry = catalog();
    assert_eq!(
        names(&registry.schemas()),
        ["read_file", "tool_search", "write_file"]
    );
    // Callable before any search.
    let result = registry.execute(call("get_weather")).await;
    assert_eq!(only_text(&result), "get_weather");
    assert_eq!(
        names(&registry.deferred_schemas()),
        ["create_invoice", "get_weather", "list_emails", "send_email"]
    );
}

#[tokio::test]
async fn tool_search_loads_the_best_matches_and_says_what_it_loaded() {
    let registry = catalog();
    let result = registry
        .execute(call_with(
            TOOL_SEARCH,
            json!({"query": "send an email", "max_results": 1}),
        ))
        .await;
    assert!(!result.is_error(), "{result:?}");
    assert_eq!(
        only_text(&result),
        "Found 1 tool; added to your tool list: send_email.\n- send_email: Send an email message \
         to a recipient."
    );
    assert_eq!(
        result.value(),
        Some(&json!({
            "tools": [{"name": "send_email", "description": "Send an email message to a recipient."}],
            "loaded": ["send_email"]
        }))
    );
    assert_eq!(
        names(&registry.schemas()),
        ["read_file", "tool_search", "write_file", "send_email"]
    );
    // Found again: already listed, nothing more loaded.
    let again = registry
        .execute(call_with(
            TOOL_SEARCH,
            json!({"query": "send an email", "max_results": 1}),
        ))
        .await;
    assert!(only_text(&again).starts_with("Found 1 tool, already in your tool list:"));
}

#[tokio::test]
async fn a_load_only_appends_so_the_listed_prefix_stays_the_same() {
    let registry = catalog();
    registry.load_tools(["send_email"]).unwrap();
    let before = registry.schemas();
    // `create_invoice` sorts before everything loaded so far, yet comes after it.
    registry.load_tools(["create_invoice"]).unwrap();
    let after = registry.schemas();
    assert_eq!(&after[..before.len()], &before[..]);
    assert_eq!(
        names(&after),
        [
            "read_file",
            "tool_search",
            "write_file",
            "send_email",
            "create_invoice"
        ]
    );
    assert!(registry.unload_tools().unwrap());
    assert_eq!(
        names(&registry.schemas()),
        ["read_file", "tool_search", "write_file"]
    );
    assert!(!registry.unload_tools().unwrap());
}

#[tokio::test]
async fn loading_is_per_scope() {
    let registry = catalog();
    let one = registry.create_child("one").unwrap();
    let two = registry.create_child("two").unwrap();
    let found = one.execute(search("weather forecast")).await;
    assert!(!found.is_error(), "{found:?}");
    assert!(names(&one.schemas()).contains(&"get_weather"));
    assert!(!names(&two.schemas()).contains(&"get_weather"));
    assert!(!names(&registry.schemas()).contains(&"get_weather"));
}

/// A load is of the tool that was there: once it is disposed, a tool registered later under
/// the same name starts deferred again, in the global list and in every scope's.
#[tokio::test]
async fn a_tool_registered_again_after_its_disposal_is_not_loaded() {
    let registry = ToolRegistry::new();
    let scope = registry.create_child("one").unwrap();
    let _ = registry
        .register(tool("read_file", "Read a file from disk.", false))
        .unwrap();
    let late = registry
        .register(tool("late", "Arrives late.", true))
        .unwrap();
    registry.load_tools(["late"]).unwrap();
    scope.load_tools(["late"]).unwrap();
    assert!(names(&registry.schemas()).contains(&"late"));
    assert!(names(&scope.schemas()).contains(&"late"));
    assert!(late.dispose());
    let _ = registry
        .register(tool("late", "Arrives late again.", true))
        .unwrap();
    assert_eq!(names(&registry.schemas()), ["read_file", "tool_search"]);
    assert_eq!(names(&scope.schemas()), ["read_file", "tool_search"]);
    assert_eq!(registry.load_tools(["late"]).unwrap(), ["late"]);
    assert_eq!(
        names(&registry.schemas()),
        ["read_file", "tool_search", "late"]
    );
}

#[tokio::test]
async fn a_search_never_reveals_a_tool_the_scope_cannot_call() {
    let registry = catalog();
    let scope = registry.create_child("agent").unwrap();
    let _ = scope
        .restrict(ToolRestriction::deny(["send_email", "list_emails"]))
        .unwrap();
    let hits = scope
        .search_tools(&ToolSearchQuery::new(
            "email messages",
            ToolSearchMode::Keywords,
        ))
        .unwrap();
    assert!(hits.is_empty(), "{hits:?}");
    let by_pattern = scope
        .search_tools(&ToolSearchQuery::new(".", ToolSearchMode::Regex))
        .unwrap();
    let found: Vec<&str> = by_pattern.iter().map(|hit| hit.name.as_str()).collect();
    assert_eq!(found, ["create_invoice", "get_weather"]);
    let error = scope.load_tools(["send_email"]).unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::NotDeferred);
    assert_eq!(
        error.to_string(),
        "cannot load \"send_email\": not a deferred tool this scope can call"
    );
}

/// Scopes that see the same deferred tools share one index; each still finds only its own.
#[test]
fn scopes_sharing_an_index_still_find_only_what_they_see() {
    let registry = catalog();
    let plain = registry.create_child("plain").unwrap();
    let restricted = registry.create_child("restricted").unwrap();
    let child = restricted.create_child("child").unwrap();
    let own = registry.create_child("own").unwrap();
    let _ = own
        .register(tool("send_email", "Write by carrier pigeon.", true))
        .unwrap();
    let found = |scope: &dsh_tools::ToolScope, query: &str| -> Vec<String> {
        scope
            .search_tools(&ToolSearchQuery::new(query, ToolSearchMode::Keywords))
            .unwrap()
            .into_iter()
            .map(|hit| hit.name)
            .collect()
    };
    assert_eq!(
        found(&plain, "email message"),
        ["send_email", "list_emails"]
    );
    let _ = restricted
        .restrict(ToolRestriction::deny(["send_email"]))
        .unwrap();
    assert_eq!(found(&child, "email message"), ["list_emails"]);
    assert_eq!(
        found(&plain, "email message"),
        ["send_email", "list_emails"]
    );
    // The scope's own tool shadows the global one, in its search too.
    assert_eq!(found(&own, "pigeon"), ["send_email"]);
    assert!(found(&plain, "pigeon").is_empty());
    // A tool registered later is found by every scope.
    let _ = registry
        .register(tool("send_fax", "Send a fax message.", true))
        .unwrap();
    assert!(found(&plain, "fax").contains(&"send_fax".to_owned()));
    assert!(found(&child, "fax").contains(&"send_fax".to_owned()));
}

#[tokio::test]
async fn a_scope_without_deferred_tools_has_no_tool_search() {
    let registry = ToolRegistry::new();
    let _ = registry.register(value_tool("a", json!(1))).unwrap();
    assert_eq!(names(&registry.schemas()), ["a"]);
    let result = registry.execute(search("anything")).await;
    assert_eq!(result.error_code(), Some(ErrorCode::UnknownTool.as_str()));
}

#[tokio::test]
async fn defer_all_but_these_is_a_scope_policy_its_children_inherit() {
    let registry = ToolRegistry::new();
    registry
        .register_all([
            tool("read_file", "Read a file.", false),
            tool("grep", "Search file contents.", false),
            tool("deploy", "Deploy the service.", false),
        ])
        .unwrap();
    let scope = registry.create_child("agent").unwrap();
    scope
        .set_deferral(Deferral::AllExcept(["read_file".to_owned()].into()))
        .unwrap();
    assert_eq!(names(&scope.schemas()), ["read_file", "tool_search"]);
    let child = scope.create_child("child").unwrap();
    assert_eq!(names(&child.schemas()), ["read_file", "tool_search"]);
    child.set_deferral(Deferral::AsRegistered).unwrap();
    assert_eq!(names(&child.schemas()), ["deploy", "grep", "read_file"]);
    // The global layer keeps its own policy.
    assert_eq!(names(&registry.schemas()), ["deploy", "grep", "read_file"]);
    let loaded = scope.load_tools(["deploy"]).unwrap();
    assert_eq!(loaded, ["deploy"]);
    assert_eq!(
        names(&scope.schemas()),
        ["read_file", "tool_search", "deploy"]
    );
}

#[tokio::test]
async fn regex_and_exact_modes_and_their_errors() {
    let registry = catalog();
    let result = registry
        .execute(call_with(
            TOOL_SEARCH,
            json!({"query": "^(get|create)_", "mode": "regex"}),
        ))
        .await;
    assert_eq!(
        result.value().unwrap()["loaded"],
        json!(["create_invoice", "get_weather"])
    );
    let exact = registry
        .execute(call_with(
            TOOL_SEARCH,
            json!({"query": "list_emails, nothing_here", "mode": "exact"}),
        ))
        .await;
    assert_eq!(exact.value().unwrap()["loaded"], json!(["list_emails"]));
    let broken = registry
        .execute(call_with(
            TOOL_SEARCH,
            json!({"query": "(", "mode": "regex"}),
        ))
        .await;
    assert_eq!(broken.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
    assert!(
        only_text(&broken)
            .starts_with("Error: invalid arguments: \"(\" is not a regular expression"),
        "{broken:?}"
    );
    let wrong = registry
        .execute(call_with(
            TOOL_SEARCH,
            json!({"query": "", "mode": "fuzzy"}),
        ))
        .await;
    assert_eq!(wrong.error_code(), Some(ErrorCode::InvalidArgs.as_str()));
    let none = registry.execute(search("kubernetes cluster")).await;
    assert_eq!(
        only_text(&none),
        "No tool matches \"kubernetes cluster\". Try other or fewer keywords, or mode \"regex\"."
    );
}

#[tokio::test]
async fn tool_search_runs_through_the_pipeline_like_any_tool() {
    let registry = catalog();
    let _hook = registry.on_pre_execute(|execution, next| async move {
        if execution.name() == TOOL_SEARCH {
            return Ok(PreToolDecision::Deny {
                reason: "searching is off".to_owned(),
            });
        }
        let _ = execution;
        next.run().await
    });
    let result = registry.execute(search("email")).await;
    assert!(result.is_error());
    assert_eq!(only_text(&result), "Error: searching is off");
    assert_eq!(
        names(&registry.schemas()),
        ["read_file", "tool_search", "write_file"]
    );
}

#[test]
fn the_search_name_is_reserved() {
    let registry = ToolRegistry::new();
    let error = registry
        .register(value_tool(TOOL_SEARCH, json!(1)))
        .unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::ReservedName);
    assert_eq!(
        error.to_string(),
        "tool name \"tool_search\" is reserved: the registry provides it to search deferred tools"
    );
}

#[tokio::test]
async fn a_load_is_announced_to_change_listeners() {
    let registry = catalog();
    let scope = registry.create_child("agent").unwrap();
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&events);
    let _listener = registry.on_change(move |event| seen.lock().unwrap().push(event.clone()));
    let _ = scope.execute(search("invoice customer")).await;
    assert_eq!(
        *events.lock().unwrap(),
        [RegistryEvent::ToolsLoaded {
            names: vec!["create_invoice".to_owned()],
            agent: Some(AgentId::from("agent")),
        }]
    );
}

#[test]
fn an_input_example_is_checked_at_registration() {
    let registry = ToolRegistry::new();
    let schema = || Schema::object().required("city", Schema::string().length(1..));
    let bad = FnTool::builder("weather", "The forecast.")
        .arguments(schema())
        .options(dsh_tools::call::ToolOptions {
            input_examples: vec![json!({"city": "Paris"}), json!({"city": ""})],
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(|_, _| async { Ok(json!(null)) });
    let error = registry.register(bad).unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::InvalidDefinition);
    assert_eq!(
        error.to_string(),
        "tool \"weather\" input example 2 does not match its parameters: \"city\" must be at \
         least 1 character long"
    );
    let good = FnTool::builder("weather", "The forecast.")
        .arguments(schema())
        .options(dsh_tools::call::ToolOptions {
            input_examples: vec![json!({"city": "Paris"})],
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(|_, _| async { Ok(json!(null)) });
    let _ = registry.register(good).unwrap();
    assert_eq!(
        registry.schemas()[0].input_examples,
        [json!({"city": "Paris"})]
    );
}

/// Looks up the weather forecast for a city.
#[dsh_tools::tool(
    defer_loading,
    example = r#"{"city": "Paris"}"#,
    example = r#"{"city": "Lyon", "days": 3}"#
)]
async fn forecast(city: String, days: Option<u32>) -> String {
    format!("{city} for {} days", days.unwrap_or(1))
}

#[tokio::test]
async fn tool_keys_defer_a_typed_tool_and_give_its_examples() {
    use dsh_tools::ToolDefinition;
    assert!(ForecastTool.options().defer_loading);
    assert_eq!(
        ForecastTool.options().input_examples,
        [json!({"city": "Paris"}), json!({"city": "Lyon", "days": 3})]
    );
    let registry = ToolRegistry::new();
    let _ = registry.register(ForecastTool).unwrap();
    assert_eq!(names(&registry.schemas()), ["tool_search"]);
    let found = registry
        .execute(search("weather forecast for a city"))
        .await;
    assert_eq!(found.value().unwrap()["loaded"], json!(["forecast"]));
    let schemas = registry.schemas();
    assert_eq!(names(&schemas), ["tool_search", "forecast"]);
    assert_eq!(schemas[1].input_examples.len(), 2);
}

mod provider_views {
    use super::*;
    use dsh_tools::Value;
    use dsh_tools::providers::{
        Change, Dialect, GeminiSchema, ProviderTools, ToolSearchForm, render_system_prompt,
    };

    fn request_names(tools: &Value) -> Vec<String> {
        tools
            .as_array()
            .unwrap()
            .iter()
            .map(|tool| {
                let name = tool.get("name").or_else(|| tool.get("type")).unwrap();
                let deferred = tool.get("defer_loading") == Some(&json!(true));
                format!(
                    "{}{}",
                    name.as_str().unwrap(),
                    if deferred { " (deferred)" } else { "" }
                )
            })
            .collect()
    }

    #[test]
    fn anthropic_searches_natively_and_its_results_load_into_the_scope() {
        let registry = catalog();
        let view = ProviderTools::new(&registry, Dialect::Anthropic { strict: false });
        let tools = view.tools(None);
        assert_eq!(
            request_names(&tools.request_tools),
            [
                "read_file",
                "write_file",
                "create_invoice (deferred)",
                "get_weather (deferred)",
                "list_emails (deferred)",
                "send_email (deferred)",
                "tool_search_tool_bm25",
            ]
        );
        assert_eq!(
            tools.request_tools.as_array().unwrap().last(),
            Some(
                &json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"})
            )
        );
        let deferred: Vec<&str> = tools
            .report
            .entries
            .iter()
            .filter(|entry| entry.change == Change::Deferred)
            .map(|entry| entry.tool.as_str())
            .collect();
        assert_eq!(
            deferred,
            [
                "",
                "create_invoice",
                "get_weather",
                "list_emails",
                "send_email"
            ]
        );
        assert_eq!(
            tools.report.entries[0].detail,
            "4 deferred tools sent with defer_loading, searched by the provider's native \
             tool_search_tool_bm25_20251119 instead of the registry's tool_search"
        );
        let response = json!({"content": [
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "tool_search_tool_bm25",
             "input": {"query": "weather"}},
            {"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_1",
             "content": {"type": "tool_search_tool_search_result",
                         "tool_references": [{"type": "tool_reference", "tool_name": "get_weather"}]}},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"text": "Paris"}}
        ]});
        let calls = tools.parse_response(&response).unwrap();
        assert_eq!(calls.loaded_tools.as_slice(), ["get_weather"]);
        assert_eq!(calls.calls.len(), 1);
        assert_eq!(
            names(&registry.schemas()),
            ["read_file", "tool_search", "write_file", "get_weather"]
        );
    }

    #[test]
    fn loaded_tools_reports_only_what_was_loaded() {
        let registry = catalog();
        let view = ProviderTools::new(&registry, Dialect::Anthropic { strict: false });
        let tools = view.tools(None);
        let response = json!({"content": [
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "tool_search_tool_bm25",
             "input": {"query": "anything"}},
            {"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_1",
             "content": {"type": "tool_search_tool_search_result",
                         "tool_references": [
                             {"type": "tool_reference", "tool_name": "made_up"},
                             {"type": "tool_reference", "tool_name": "read_file"},
                             {"type": "tool_reference", "tool_name": "get_weather"}]}}
        ]});
        let calls = tools.parse_response(&response).unwrap();
        assert_eq!(calls.loaded_tools.as_slice(), ["get_weather"]);
        assert_eq!(
            names(&registry.schemas()),
            ["read_file", "tool_search", "write_file", "get_weather"]
        );
    }

    #[test]
    fn openai_responses_uses_the_hosted_search_and_reads_its_output() {
        let registry = catalog();
        let view = ProviderTools::new(&registry, Dialect::OpenAiResponses { strict: false });
        let tools = view.tools(None);
        let request = tools.request_tools.as_array().unwrap();
        assert_eq!(request.last(), Some(&json!({"type": "tool_search"})));
        assert_eq!(request[2]["name"], "create_invoice");
        assert_eq!(request[2]["defer_loading"], true);
        assert!(request.iter().all(|tool| tool["name"] != TOOL_SEARCH));
        let response = json!({"output": [
            {"type": "tool_search_call", "id": "ts_1", "execution": "server", "status": "completed",
             "arguments": {"query": "invoice"}},
            {"type": "tool_search_output", "id": "tso_1", "execution": "server", "status": "completed",
             "tools": [{"type": "function", "name": "create_invoice", "description": "…",
                        "parameters": {"type": "object"}}]}
        ]});
        let calls = tools.parse_response(&response).unwrap();
        assert!(calls.calls.is_empty());
        assert_eq!(calls.loaded_tools.as_slice(), ["create_invoice"]);
        assert!(names(&registry.schemas()).contains(&"create_invoice"));
    }

    /// Anthropic's custom tool search ("Tool search tool — custom tool search
    /// implementation", platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool):
    /// the deferred tools are sent with `defer_loading` beside the client's search tool, and its
    /// `tool_result` holds a `tool_reference` block per tool found.
    #[tokio::test]
    async fn anthropic_client_search_answers_with_tool_references() {
        let registry = catalog();
        let view = ProviderTools::new(&registry, Dialect::Anthropic { strict: false })
            .tool_search_form(ToolSearchForm::Client);
        let tools = view.tools(None);
        assert_eq!(
            request_names(&tools.request_tools),
            [
                "read_file",
                "tool_search",
                "write_file",
                "create_invoice (deferred)",
                "get_weather (deferred)",
                "list_emails (deferred)",
                "send_email (deferred)",
            ]
        );
        assert_eq!(
            tools.report.entries[0].detail,
            "4 deferred tools sent with defer_loading, found by the registry's tool_search, \
             whose results load them as tool_reference blocks"
        );
        let response = json!({"content": [
            {"type": "tool_use", "id": "toolu_1", "name": "tool_search",
             "input": {"query": "weather forecast"}},
            {"type": "tool_use", "id": "toolu_2", "name": "read_file", "input": {}}
        ]});
        let mut calls = tools.parse_response(&response).unwrap();
        let outcome = registry
            .execute_batch(std::mem::take(&mut calls.inputs), 2)
            .await;
        let messages = tools
            .format_batch(calls.calls.as_slice(), &outcome)
            .unwrap();
        let content = &messages[0]["content"];
        assert_eq!(
            content[0],
            json!({"type": "tool_result", "tool_use_id": "toolu_1",
                   "content": [{"type": "tool_reference", "tool_name": "get_weather"}]})
        );
        // Every other result keeps its content.
        assert_eq!(content[1]["content"][0]["type"], "text");
        // A search that found nothing answers in words.
        let nothing = json!({"content": [{"type": "tool_use", "id": "toolu_3",
            "name": "tool_search", "input": {"query": "zzzz qqqq"}}]});
        let mut calls = tools.parse_response(&nothing).unwrap();
        let outcome = registry
            .execute_batch(std::mem::take(&mut calls.inputs), 1)
            .await;
        let messages = tools
            .format_batch(calls.calls.as_slice(), &outcome)
            .unwrap();
        assert_eq!(messages[0]["content"][0]["content"][0]["type"], "text");
        // Other providers have no such form: the registry's search as a function.
        let chat = ProviderTools::new(&registry, Dialect::OpenAiChat { strict: false })
            .tool_search_form(ToolSearchForm::Client)
            .tools(None);
        assert!(chat.tools.iter().all(|tool| !tool.deferred));
    }

    #[test]
    fn other_providers_and_the_registry_form_send_tool_search_as_a_function() {
        let registry = catalog();
        for (dialect, form) in [
            (
                Dialect::OpenAiChat { strict: false },
                ToolSearchForm::Native,
            ),
            (
                Dialect::Gemini {
                    schema: GeminiSchema::OpenApi,
                },
                ToolSearchForm::Native,
            ),
            (
                Dialect::Anthropic { strict: false },
                ToolSearchForm::Registry,
            ),
        ] {
            let view = ProviderTools::new(&registry, dialect).tool_search_form(form);
            let tools = view.tools(None);
            let sent: Vec<&str> = tools.tools.iter().map(|tool| tool.name.as_str()).collect();
            assert_eq!(
                sent,
                ["read_file", "tool_search", "write_file"],
                "{dialect:?}"
            );
            assert!(tools.tools.iter().all(|tool| !tool.deferred));
            assert_eq!(
                tools.report.entries[0].detail,
                "4 deferred tools left out until the registry's tool_search loads them"
            );
        }
    }

    #[test]
    fn input_examples_go_to_anthropic_and_the_prompt_catalog() {
        let registry = ToolRegistry::new();
        let _ = registry
            .register(
                FnTool::builder("weather", "The forecast.")
                    .arguments(
                        Schema::object()
                            .required("city", Schema::string())
                            .optional("days", Schema::integer())
                            .additional_properties(true),
                    )
                    .options(dsh_tools::call::ToolOptions {
                        input_examples: vec![
                            json!({"city": "Paris", "note": "an extra key"}),
                            json!({"city": "Lyon", "days": 3}),
                        ],
                        ..dsh_tools::call::ToolOptions::default()
                    })
                    .handler(|_, _| async { Ok(json!(null)) }),
            )
            .unwrap();
        let plain = ProviderTools::new(&registry, Dialect::Anthropic { strict: false }).tools(None);
        assert_eq!(
            plain.request_tools[0]["input_examples"],
            json!([{"city": "Paris", "note": "an extra key"}, {"city": "Lyon", "days": 3}])
        );
        // Strict closes the object: the example with an extra key no longer fits.
        let strict = ProviderTools::new(&registry, Dialect::Anthropic { strict: true }).tools(None);
        assert_eq!(
            strict.request_tools[0]["input_examples"],
            json!([{"city": "Lyon", "days": 3}])
        );
        assert!(
            strict
                .report
                .entries
                .iter()
                .any(|entry| entry.change == Change::Dropped
                    && entry.detail == "input example 1 is not valid against the lowered schema")
        );
        let openai =
            ProviderTools::new(&registry, Dialect::OpenAiChat { strict: false }).tools(None);
        assert!(openai.request_tools[0].get("input_examples").is_none());
        let prompt = render_system_prompt(&registry.schemas());
        assert!(prompt.contains(
            "Example arguments: {\"city\":\"Paris\",\"note\":\"an extra key\"}\nExample arguments: {\"city\":\"Lyon\",\"days\":3}\n"
        ), "{prompt}");
    }
}

#[tokio::test]
async fn a_search_in_flight_when_its_scope_is_disposed_loads_into_no_other_scope() {
    let registry = catalog();
    let (entered_tx, entered_rx) = tokio::sync::oneshot::channel::<()>();
    let (go_tx, go_rx) = tokio::sync::oneshot::channel::<()>();
    let gates = Arc::new(Mutex::new(Some((entered_tx, go_rx))));
    // Holds the first search between its admission and its body.
    let _ = registry
        .on_pre_execute(move |_, next| {
            let gate = gates.lock().unwrap().take();
            async move {
                if let Some((entered, go)) = gate {
                    let _ = entered.send(());
                    let _ = go.await;
                }
                next.run().await
            }
        })
        .unwrap();
    let agent = AgentId::from("writer");
    let first = registry.create_child(agent.clone()).unwrap();
    let running = tokio::spawn(first.execute(search("send an email")));
    entered_rx.await.unwrap();
    assert!(first.dispose());
    let second = registry.create_child(agent.clone()).unwrap();
    go_tx.send(()).unwrap();
    let result = running.await.unwrap();
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::ScopeDisposed.as_str()),
        "{result:?}"
    );
    assert_eq!(
        names(&second.schemas()),
        ["read_file", "tool_search", "write_file"]
    );

    // The same through the registry, naming the agent: the call is the first scope's.
    let (entered_tx, entered_rx) = tokio::sync::oneshot::channel::<()>();
    let (go_tx, go_rx) = tokio::sync::oneshot::channel::<()>();
    let gates = Arc::new(Mutex::new(Some((entered_tx, go_rx))));
    let _ = second
        .on_pre_execute(move |_, next| {
            let gate = gates.lock().unwrap().take();
            async move {
                if let Some((entered, go)) = gate {
                    let _ = entered.send(());
                    let _ = go.await;
                }
                next.run().await
            }
        })
        .unwrap();
    let running = tokio::spawn(registry.execute(search("send an email").with_agent(agent.clone())));
    entered_rx.await.unwrap();
    assert!(second.dispose());
    let third = registry.create_child(agent).unwrap();
    go_tx.send(()).unwrap();
    let result = running.await.unwrap();
    assert_eq!(
        result.error_code(),
        Some(ErrorCode::ScopeDisposed.as_str()),
        "{result:?}"
    );
    assert_eq!(
        names(&third.schemas()),
        ["read_file", "tool_search", "write_file"]
    );
}
