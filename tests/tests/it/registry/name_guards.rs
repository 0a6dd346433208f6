//! Name guards (`guard_tools`): guards that decide on a tool's name alone, so the
//! registry asks them without a call too. A tool one denies for a view is denied when called
//! there and is left out of that view's searches (keywords, regex, exact, hybrid), loads and
//! listings; a general guard, which needs the call, never hides anything.

use dsh_tools::registry::{
    HybridSearch, RegistryErrorKind, TOOL_SEARCH, ToolEmbedder, ToolSearchMode, ToolSearchQuery,
};
use dsh_tools::{FnTool, ToolRegistry, ToolScope, json, schema::Schema};
use dsh_tools_tests::{Log, call, call_with, only_text};

/// A tool with a one-string argument `text`, deferred unless `eager`.
fn tool(name: &str, description: &str, deferred: bool) -> FnTool {
    let name = name.to_owned();
    FnTool::builder(name.clone(), description)
        .arguments(Schema::object().optional("text", Schema::string()))
        .options(dsh_tools::call::ToolOptions {
            defer_loading: deferred,
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(move |_, _| {
            let name = name.clone();
            async move { Ok(json!(name)) }
        })
}

/// Two eager tools and four deferred ones.
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

fn listed(scope: &ToolScope) -> Vec<String> {
    scope
        .schemas()
        .iter()
        .map(|schema| schema.name.clone())
        .collect()
}

fn found(scope: &ToolScope, query: &ToolSearchQuery) -> Vec<String> {
    scope
        .search_tools(query)
        .unwrap()
        .into_iter()
        .map(|hit| hit.name)
        .collect()
}

/// Denies `send_email` with a reason.
fn no_email(name: &str) -> Option<String> {
    (name == "send_email").then(|| "email is off for this agent".to_owned())
}

#[tokio::test]
async fn a_name_guard_hides_a_tool_from_its_scope_searches_only() {
    let registry = catalog();
    let guarded = registry.create_child("guarded").unwrap();
    let other = registry.create_child("other").unwrap();
    let _guard = guarded.guard_tools(no_email).unwrap();

    let keywords = ToolSearchQuery::new("email message", ToolSearchMode::Keywords);
    let regex = ToolSearchQuery::new("email", ToolSearchMode::Regex);
    let exact = ToolSearchQuery::new("send_email", ToolSearchMode::Exact);
    assert_eq!(found(&guarded, &keywords), ["list_emails"]);
    assert_eq!(found(&guarded, &regex), ["list_emails"]);
    assert!(found(&guarded, &exact).is_empty());
    // The other scope shares the same index and still finds it.
    assert_eq!(found(&other, &keywords), ["send_email", "list_emails"]);
    assert_eq!(found(&other, &regex), ["list_emails", "send_email"]);
    assert_eq!(found(&other, &exact), ["send_email"]);
    assert_eq!(found(&registry, &exact), ["send_email"]);
    // Nor does `tool_search` through the pipeline find or load it.
    let answer = guarded
        .execute(call_with(TOOL_SEARCH, json!({ "query": "send an email" })))
        .await;
    assert!(!answer.is_error(), "{answer:?}");
    assert!(!only_text(&answer).contains("send_email"), "{answer:?}");
    assert!(!listed(&guarded).contains(&"send_email".to_owned()));
}

#[tokio::test]
async fn a_call_of_a_name_guarded_tool_is_denied_with_the_reason() {
    let registry = catalog();
    let guarded = registry.create_child("guarded").unwrap();
    let other = registry.create_child("other").unwrap();
    let _guard = guarded.guard_tools(no_email).unwrap();
    let result = guarded.execute(call("send_email")).await;
    assert_eq!(only_text(&result), "Error: email is off for this agent");
    let info = result.error().unwrap().info().unwrap();
    assert_eq!((&*info.name, &*info.code), ("ToolDeniedError", "DENIED"));
    assert_eq!(
        only_text(&other.execute(call("send_email")).await),
        "send_email"
    );
    assert_eq!(
        only_text(&guarded.execute(call("get_weather")).await),
        "get_weather"
    );
}

#[tokio::test]
async fn disposing_a_name_guard_makes_the_tool_findable_and_listed_again() {
    let registry = catalog();
    let scope = registry.create_child("agent").unwrap();
    scope.load_tools(["send_email"]).unwrap();
    assert!(listed(&scope).contains(&"send_email".to_owned()));
    // Registered after the listing and the search index were built: it applies at once.
    let exact = ToolSearchQuery::new("send_email", ToolSearchMode::Exact);
    assert_eq!(found(&scope, &exact), ["send_email"]);
    let guard = scope.guard_tools(no_email).unwrap();
    assert!(found(&scope, &exact).is_empty());
    assert_eq!(listed(&scope), ["read_file", "tool_search", "write_file"]);
    assert!(guard.dispose());
    assert_eq!(found(&scope, &exact), ["send_email"]);
    assert_eq!(
        listed(&scope),
        ["read_file", "tool_search", "write_file", "send_email"]
    );
    assert_eq!(
        only_text(&scope.execute(call("send_email")).await),
        "send_email"
    );
}

#[test]
fn a_name_guard_leaves_eager_tools_out_of_the_scope_schemas() {
    let registry = catalog();
    let scope = registry.create_child("agent").unwrap();
    let guard = scope
        .guard_tools(|name: &str| (name == "write_file").then(|| "read-only agent".to_owned()))
        .unwrap();
    assert_eq!(listed(&scope), ["read_file", "tool_search"]);
    assert_eq!(
        listed(&registry),
        ["read_file", "tool_search", "write_file"]
    );
    assert!(guard.dispose());
    assert_eq!(listed(&scope), ["read_file", "tool_search", "write_file"]);
}

#[test]
fn a_name_guarded_tool_cannot_be_loaded() {
    let registry = catalog();
    let scope = registry.create_child("agent").unwrap();
    let _guard = scope.guard_tools(no_email).unwrap();
    let error = scope.load_tools(["send_email"]).unwrap_err();
    assert_eq!(error.kind, RegistryErrorKind::NotDeferred);
    assert_eq!(scope.load_tools(["list_emails"]).unwrap(), ["list_emails"]);
    let deferred: Vec<String> = scope
        .deferred_schemas()
        .iter()
        .map(|schema| schema.name.clone())
        .collect();
    assert_eq!(deferred, ["create_invoice", "get_weather", "list_emails"]);
}

#[test]
fn a_search_keeps_its_count_of_what_the_view_shows() {
    let registry = catalog();
    let scope = registry.create_child("agent").unwrap();
    let _guard = scope.guard_tools(no_email).unwrap();
    // `send_email` ranks first; the one result asked for is the next one.
    let query = ToolSearchQuery {
        max_results: 1,
        ..ToolSearchQuery::new("email message", ToolSearchMode::Keywords)
    };
    assert_eq!(found(&registry, &query), ["send_email"]);
    assert_eq!(found(&scope, &query), ["list_emails"]);
    let everything = ToolSearchQuery {
        max_results: 3,
        ..ToolSearchQuery::new(".", ToolSearchMode::Regex)
    };
    assert_eq!(
        found(&scope, &everything),
        ["create_invoice", "get_weather", "list_emails"]
    );
}

#[test]
fn a_global_name_guard_hides_in_every_scope_and_a_parents_in_its_children() {
    let registry = catalog();
    let parent = registry.create_child("parent").unwrap();
    let child = parent.create_child("child").unwrap();
    let sibling = registry.create_child("sibling").unwrap();
    let exact = ToolSearchQuery::new("get_weather", ToolSearchMode::Exact);
    let _parents = parent
        .guard_tools(|name: &str| (name == "get_weather").then(|| "no weather".to_owned()))
        .unwrap();
    assert!(found(&child, &exact).is_empty());
    assert_eq!(found(&sibling, &exact), ["get_weather"]);
    let global = registry
        .guard_tools(|name: &str| (name == "get_weather").then(|| "nobody".to_owned()))
        .unwrap();
    assert!(found(&sibling, &exact).is_empty());
    assert!(found(&registry, &exact).is_empty());
    assert!(global.dispose());
    assert_eq!(found(&sibling, &exact), ["get_weather"]);
    assert!(found(&child, &exact).is_empty());
}

#[tokio::test]
async fn name_guards_run_with_the_other_guards_in_layer_order() {
    let log = Log::new();
    let registry = catalog();
    let scope = registry.create_child("agent").unwrap();
    let logger = |name: &'static str| {
        let log = log.clone();
        move |_: &dsh_tools::call::ToolExecution| {
            log.push(name);
            None
        }
    };
    let _ = scope.guard(logger("scope guard")).unwrap();
    let seen = log.clone();
    let _ = registry
        .guard_tools(move |_: &str| {
            seen.push("global name guard");
            None
        })
        .unwrap();
    let _ = registry.guard(logger("global guard")).unwrap();
    assert_eq!(
        only_text(&scope.execute(call("read_file")).await),
        "read_file"
    );
    assert_eq!(
        log.entries(),
        ["global name guard", "global guard", "scope guard"]
    );
}

#[tokio::test]
async fn a_general_guard_never_hides_a_tool() {
    let registry = catalog();
    let scope = registry.create_child("agent").unwrap();
    let _guard = scope
        .guard(|execution| (execution.name() == "send_email").then(|| "no email".to_owned()))
        .unwrap();
    assert_eq!(
        found(
            &scope,
            &ToolSearchQuery::new("send_email", ToolSearchMode::Exact)
        ),
        ["send_email"]
    );
    assert_eq!(scope.load_tools(["send_email"]).unwrap(), ["send_email"]);
    assert!(listed(&scope).contains(&"send_email".to_owned()));
    // It still denies the call.
    let result = scope.execute(call("send_email")).await;
    assert_eq!(only_text(&result), "Error: no email");
}

/// One dimension per topic, counting the topic's words.
struct Topics;

impl ToolEmbedder for Topics {
    fn embed(&self, texts: &[&str]) -> Vec<Vec<f32>> {
        const TOPICS: &[&[&str]] = &[&["email", "mail", "inbox", "letter"], &["weather", "rain"]];
        texts
            .iter()
            .map(|text| {
                let text = text.to_lowercase();
                TOPICS
                    .iter()
                    .map(|words| words.iter().filter(|word| text.contains(*word)).count() as f32)
                    .collect()
            })
            .collect()
    }
}

#[test]
fn a_hybrid_search_leaves_out_what_a_name_guard_denies_and_keeps_its_count() {
    let registry = catalog();
    registry.set_tool_embedder(Some(HybridSearch::new(Topics, 0.5)));
    let scope = registry.create_child("agent").unwrap();
    let query = ToolSearchQuery {
        max_results: 1,
        ..ToolSearchQuery::new("send a letter", ToolSearchMode::Keywords)
    };
    assert_eq!(found(&scope, &query), ["send_email"]);
    let guard = scope.guard_tools(no_email).unwrap();
    assert_eq!(found(&scope, &query), ["list_emails"]);
    assert_eq!(found(&registry, &query), ["send_email"]);
    assert!(guard.dispose());
    assert_eq!(found(&scope, &query), ["send_email"]);
}

/// The names in a provider request's `tools`, deferred ones marked.
fn request_names(tools: &dsh_tools::Value) -> Vec<String> {
    tools
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|tool| tool.get("name").or_else(|| tool.get("type")))
                .filter_map(|name| name.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_providers_view_leaves_out_what_a_name_guard_denies() {
    use dsh_tools::AgentId;
    use dsh_tools::providers::{Dialect, ProviderTools};

    let registry = catalog();
    let scope = registry.create_child("agent").unwrap();
    let _other = registry.create_child("other").unwrap();
    let email = scope.guard_tools(no_email).unwrap();
    let _write = scope
        .guard_tools(|name: &str| (name == "write_file").then(|| "read-only agent".to_owned()))
        .unwrap();
    // Anthropic's view also sends the deferred tools, for its native search.
    let view = ProviderTools::new(&registry, Dialect::Anthropic { strict: false });
    let agent = AgentId::from("agent");
    let sent = request_names(&view.tools(Some(&agent)).request_tools);
    assert!(sent.contains(&"read_file".to_owned()), "{sent:?}");
    assert!(sent.contains(&"list_emails".to_owned()), "{sent:?}");
    assert!(!sent.contains(&"write_file".to_owned()), "{sent:?}");
    assert!(!sent.contains(&"send_email".to_owned()), "{sent:?}");
    let other = request_names(&view.tools(Some(&AgentId::from("other"))).request_tools);
    assert!(other.contains(&"write_file".to_owned()), "{other:?}");
    assert!(other.contains(&"send_email".to_owned()), "{other:?}");
    assert!(email.dispose());
    let sent = request_names(&view.tools(Some(&agent)).request_tools);
    assert!(sent.contains(&"send_email".to_owned()), "{sent:?}");
}
