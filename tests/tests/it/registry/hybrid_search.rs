//! Hybrid tool search: an application's embedding model (`ToolEmbedder`) fused with the keyword
//! ranking, finding tools a request names in none of their words, and asked only once per tool.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use dsh_tools::registry::{
    HybridSearch, TOOL_SEARCH, ToolEmbedder, ToolSearchMode, ToolSearchQuery,
};
use dsh_tools::{FnTool, ToolRegistry, json};
use dsh_tools_tests::{call_with, only_text};

/// A stand-in for a model: one dimension per topic, counting the topic's words.
struct Topics {
    texts_embedded: Arc<AtomicUsize>,
}

const TOPICS: &[&[&str]] = &[
    &["weather", "forecast", "rain", "umbrella", "sunny"],
    &["email", "mail", "inbox", "letter"],
    &["invoice", "bill", "payment", "owe"],
];

impl ToolEmbedder for Topics {
    fn embed(&self, texts: &[&str]) -> Vec<Vec<f32>> {
        self.texts_embedded.fetch_add(texts.len(), Ordering::SeqCst);
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

fn registry() -> ToolRegistry {
    let registry = ToolRegistry::new();
    for (name, description) in [
        ("get_weather", "The weather forecast for a city."),
        ("send_email", "Send an email message to a recipient."),
        ("create_invoice", "Create an invoice for a customer."),
    ] {
        let _ = registry
            .register(
                FnTool::builder(name, description)
                    .options(dsh_tools::call::ToolOptions {
                        defer_loading: true,
                        ..dsh_tools::call::ToolOptions::default()
                    })
                    .handler(|_, _| async { Ok(json!("ok")) }),
            )
            .unwrap();
    }
    registry
}

fn names(registry: &ToolRegistry, query: &str) -> Vec<String> {
    registry
        .search_tools(&ToolSearchQuery {
            max_results: 2,
            ..ToolSearchQuery::new(query, ToolSearchMode::Keywords)
        })
        .unwrap()
        .into_iter()
        .map(|hit| hit.name)
        .collect()
}

#[tokio::test]
async fn an_embedder_finds_what_no_keyword_names_and_embeds_each_tool_once() {
    let registry = registry();
    assert!(names(&registry, "do I need an umbrella").is_empty());

    let texts_embedded = Arc::new(AtomicUsize::new(0));
    registry.set_tool_embedder(Some(HybridSearch::new(
        Topics {
            texts_embedded: Arc::clone(&texts_embedded),
        },
        0.5,
    )));
    assert_eq!(names(&registry, "do I need an umbrella")[0], "get_weather");
    // Three tools and the query.
    assert_eq!(texts_embedded.load(Ordering::SeqCst), 4);
    assert_eq!(
        names(&registry, "how much do they owe me")[0],
        "create_invoice"
    );
    // Only the query this time.
    assert_eq!(texts_embedded.load(Ordering::SeqCst), 5);
    // A keyword match still counts: both rankings agree on the email tool.
    assert_eq!(names(&registry, "send the letter")[0], "send_email");

    // The model's finds are loaded by tool_search like the keyword ones.
    let result = registry
        .execute(call_with(
            TOOL_SEARCH,
            json!({"query": "is it going to be sunny"}),
        ))
        .await;
    assert!(
        only_text(&result).contains("added to your tool list: get_weather"),
        "{result:?}"
    );

    // Keywords only again.
    registry.set_tool_embedder(None);
    assert!(names(&registry, "do I need an umbrella").is_empty());
}

#[test]
fn the_keyword_weight_decides_between_the_rankings() {
    let registry = registry();
    let topics = || Topics {
        texts_embedded: Arc::new(AtomicUsize::new(0)),
    };
    // "customer" is a keyword of the invoice tool; "letter" means email to the model.
    registry.set_tool_embedder(Some(HybridSearch::new(topics(), 1.0)));
    assert_eq!(names(&registry, "customer letter"), ["create_invoice"]);
    registry.set_tool_embedder(Some(HybridSearch::new(topics(), 0.0)));
    assert_eq!(names(&registry, "customer letter")[0], "send_email");
}
