//! Recursive argument types: a derived tree, a schemars tree and a hand-written recursive JSON
//! Schema are published with `$defs`/`$ref`, validated at every level with paths, converted, and
//! lowered for each provider (kept where it takes recursion, cut and reported where not).

use std::sync::Arc;

use dsh_tools::providers::{Change, Dialect, GeminiSchema, LoweredTools};
use dsh_tools::schema::Schema;
use dsh_tools::{FnTool, ToolArgs, ToolRegistry, ToolSchema, Value, json, tool};
use dsh_tools_tests::provider_checkers::check_request;

/// One heading of an outline.
#[allow(dead_code)]
#[derive(Debug, ToolArgs)]
struct Outline {
    /// The heading.
    title: String,
    /// The headings below it.
    #[arg(default)]
    children: Vec<Outline>,
}

impl Outline {
    fn count(&self) -> usize {
        1 + self.children.iter().map(Outline::count).sum::<usize>()
    }
}

/// Counts the headings of an outline, past a minimum.
#[tool]
async fn count_headings(outline: Outline, at_least: Option<usize>) -> usize {
    outline.count().max(at_least.unwrap_or(0))
}

/// Counts the headings of an outline given as the whole arguments.
#[tool]
async fn count_root(outline: Outline) -> usize {
    outline.count()
}

/// A filter expression: a comparison or a combination of filters.
#[allow(dead_code)]
#[derive(Debug, ToolArgs)]
#[tool_args(tag = "op")]
enum Filter {
    /// `field == value`.
    Eq { field: String, value: String },
    /// Every filter holds.
    All { filters: Vec<Filter> },
    /// The filter does not hold.
    Not { filter: Box<Filter> },
}

impl Filter {
    fn depth(&self) -> usize {
        match self {
            Filter::Eq { .. } => 1,
            Filter::All { filters } => 1 + filters.iter().map(Filter::depth).max().unwrap_or(0),
            Filter::Not { filter } => 1 + filter.depth(),
        }
    }
}

/// Measures how deep a filter nests.
#[tool]
async fn filter_depth(filter: Filter, label: Option<String>) -> String {
    format!("{}:{}", label.unwrap_or_default(), filter.depth())
}

async fn run(registry: &ToolRegistry, name: &str, arguments: Value) -> (bool, String) {
    let result = registry
        .execute(dsh_tools_tests::call_with(name, arguments))
        .await;
    (result.is_error(), result.text())
}

#[test]
fn a_derived_tree_is_published_under_defs_and_refers_back_to_itself() {
    let registry = ToolRegistry::new();
    let _ = registry.register(CountHeadingsTool).unwrap();
    let parameters = registry.get("count_headings").unwrap().parameters().clone();
    assert_eq!(
        parameters["properties"]["outline"],
        json!({"$ref": "#/$defs/Outline"})
    );
    let outline = &parameters["$defs"]["Outline"];
    assert_eq!(outline["type"], "object");
    assert_eq!(outline["description"], "One heading of an outline.");
    assert_eq!(
        outline["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Outline"})
    );
    // The published schema means what the validator enforces.
    let validator = jsonschema::draft202012::new(&parameters).unwrap();
    assert!(validator.is_valid(&json!({"outline": {"title": "a", "children": [{"title": "b"}]}})));
    assert!(!validator.is_valid(&json!({"outline": {"title": "a", "children": [{"title": 1}]}})));
}

#[test]
fn a_tree_that_is_the_whole_arguments_stays_an_object_at_the_root() {
    let schema = <Outline as ToolArgs>::schema().unwrap();
    let rendered = schema.to_json_schema();
    assert_eq!(rendered["type"], "object");
    assert_eq!(
        rendered["properties"]["children"]["items"],
        json!({"$ref": "#"})
    );
    assert!(rendered.get("$defs").is_none());
    // Imported back, it renders the same.
    let imported = Schema::from_json_schema(&rendered).unwrap();
    assert_eq!(imported.to_json_schema(), rendered);
}

#[tokio::test]
async fn every_level_of_a_tree_is_validated_with_its_path_and_converted() {
    let registry = ToolRegistry::new();
    let _ = registry.register(CountHeadingsTool).unwrap();
    let tree = json!({"outline": {"title": "a", "children": [
        {"title": "b", "children": [{"title": "c"}, {"title": "d"}]},
        {"title": "e"}
    ]}});
    assert_eq!(
        run(&registry, "count_headings", tree).await,
        (false, "5".to_owned())
    );

    let bad = json!({"outline": {"title": "a", "children": [
        {"title": "b", "children": [{"title": 3}, {"name": "d"}]}
    ]}});
    let (is_error, text) = run(&registry, "count_headings", bad).await;
    assert!(is_error);
    assert!(
        text.contains(r#""outline.children[0].children[0].title" must be a string"#),
        "{text}"
    );
    assert!(
        text.contains(r#"missing required property "outline.children[0].children[1].title""#),
        "{text}"
    );
    assert!(
        text.contains(r#""outline.children[0].children[1].name" is not a declared property"#),
        "{text}"
    );
}

#[tokio::test]
async fn a_recursive_tagged_enum_validates_and_converts() {
    let registry = ToolRegistry::new();
    let _ = registry.register(FilterDepthTool).unwrap();
    let parameters = registry.get("filter_depth").unwrap().parameters().clone();
    assert_eq!(
        parameters["properties"]["filter"],
        json!({"$ref": "#/$defs/Filter"})
    );
    let filter = json!({"op": "All", "filters": [
        {"op": "Eq", "field": "a", "value": "1"},
        {"op": "Not", "filter": {"op": "All", "filters": []}}
    ]});
    assert_eq!(
        run(
            &registry,
            "filter_depth",
            json!({"filter": filter, "label": "x"})
        )
        .await,
        (false, "x:3".to_owned())
    );
    let (is_error, _) = run(
        &registry,
        "filter_depth",
        json!({"filter": {"op": "Not", "filter": {"op": "Eq", "field": "a"}}}),
    )
    .await;
    assert!(is_error);
}

/// An outline `levels` headings deep (each heading an object and its `children` an array: two
/// JSON levels per heading), built in code.
fn outline_of_depth(levels: usize) -> Value {
    let mut outline = json!({"title": "leaf"});
    for _ in 1..levels {
        let mut node = serde_json::Map::new();
        node.insert("title".to_owned(), Value::from("node"));
        node.insert("children".to_owned(), Value::Array(vec![outline]));
        outline = Value::Object(node);
    }
    outline
}

/// The cap counts the value's own levels: a reference to the type's definition is not one, so
/// an outline 128 headings deep (256 JSON levels: its `children` arrays and their objects) is
/// validated and converted, on a thread's default 2 MiB stack, and one heading more is the first
/// refused — with the depth it really has.
#[test]
fn the_depth_cap_counts_the_values_levels_not_the_references() {
    let outcome = std::thread::spawn(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let registry = ToolRegistry::new();
        let _ = registry.register(CountRootTool).unwrap();
        let deepest = runtime.block_on(run(&registry, "count_root", outline_of_depth(128)));
        let past = runtime.block_on(run(&registry, "count_root", outline_of_depth(129)));
        (deepest, past)
    })
    .join()
    .expect("validation and conversion fit a default stack");
    let (deepest, past) = outcome;
    assert_eq!(deepest, (false, "128".to_owned()));
    assert!(past.0);
    assert!(
        past.1.contains("nests deeper than 256 levels"),
        "{}",
        past.1
    );
    // Refused at the heading 256 levels down (128 `children` and 128 indices), whose own
    // members would be the 257th.
    let path = vec!["children[0]"; 128].join(".");
    assert!(past.1.contains(&format!("\"{path}\"")), "{}", past.1);
}

#[tokio::test]
async fn a_value_nested_past_the_cap_is_refused_without_overflowing() {
    let registry = ToolRegistry::new();
    let _ = registry.register(CountRootTool).unwrap();
    // 400 levels, built in code (the JSON parser would stop at 128).
    let mut outline = json!({"title": "leaf"});
    for _ in 0..400 {
        let mut node = serde_json::Map::new();
        node.insert("title".to_owned(), Value::from("node"));
        node.insert("children".to_owned(), Value::Array(vec![outline]));
        outline = Value::Object(node);
    }
    let arguments = outline;
    let outcome = std::thread::Builder::new()
        .stack_size(8 * 1024 * 1024)
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .build()
                .unwrap();
            runtime.block_on(run(&registry, "count_root", arguments))
        })
        .unwrap()
        .join()
        .expect("validation overflowed");
    assert!(outcome.0, "{}", outcome.1);
    assert!(
        outcome.1.contains("nests deeper than 256 levels"),
        "{}",
        outcome.1
    );
}

mod through_schemars {
    use super::*;
    use schemars::JsonSchema;
    use serde::Deserialize;

    /// A directory tree.
    #[allow(dead_code)]
    #[derive(Debug, Deserialize, JsonSchema)]
    pub struct Tree {
        /// The directory's name.
        pub name: String,
        /// What it holds.
        pub children: Vec<Tree>,
    }

    impl Tree {
        fn size(&self) -> usize {
            1 + self.children.iter().map(Tree::size).sum::<usize>()
        }
    }

    /// Counts the directories of a tree.
    #[tool]
    async fn count_tree(#[arg(schemars)] tree: Tree) -> usize {
        tree.size()
    }

    #[tokio::test]
    async fn a_schemars_tree_registers_validates_and_converts() {
        let registry = ToolRegistry::new();
        let _ = registry.register(CountTreeTool).unwrap();
        let parameters = registry.get("count_tree").unwrap().parameters().clone();
        assert_eq!(
            parameters["properties"]["tree"],
            json!({"$ref": "#/$defs/Tree"})
        );
        assert_eq!(
            parameters["$defs"]["Tree"]["properties"]["children"]["items"],
            json!({"$ref": "#/$defs/Tree"})
        );
        let tree = json!({"tree": {"name": "/", "children": [{"name": "a", "children": []}]}});
        assert_eq!(
            run(&registry, "count_tree", tree).await,
            (false, "2".to_owned())
        );
        let bad = json!({"tree": {"name": "/", "children": [{"name": "a"}]}});
        let (is_error, text) = run(&registry, "count_tree", bad).await;
        assert!(is_error);
        assert!(
            text.contains(r#"missing required property "tree.children[0].children""#),
            "{text}"
        );
    }
}

#[tokio::test]
async fn a_hand_written_recursive_schema_is_enforced_for_a_fn_tool() {
    let schema = json!({
        "type": "object",
        "properties": {"expr": {"$ref": "#/$defs/Expr"}},
        "required": ["expr"],
        "additionalProperties": false,
        "$defs": {"Expr": {"oneOf": [
            {"type": "number"},
            {"type": "object", "properties": {
                "op": {"enum": ["+", "*"]},
                "args": {"type": "array", "items": {"$ref": "#/$defs/Expr"}, "minItems": 2}
            }, "required": ["op", "args"], "additionalProperties": false}
        ]}}
    });
    let tool = FnTool::builder("eval", "Evaluates an expression.")
        .arguments(Schema::from_json_schema(&schema).unwrap())
        .handler(|_arguments, _run| async move { Ok(json!("ok")) });
    let registry = ToolRegistry::new();
    let _ = registry.register(tool).unwrap();
    let good = json!({"expr": {"op": "+", "args": [1, {"op": "*", "args": [2, 3]}]}});
    assert!(!run(&registry, "eval", good).await.0);
    let bad = json!({"expr": {"op": "+", "args": [1, {"op": "*", "args": [2]}]}});
    let (is_error, text) = run(&registry, "eval", bad).await;
    assert!(is_error, "{text}");
}

fn lower(dialect: Dialect, parameters: Value) -> LoweredTools {
    let schemas = vec![ToolSchema::new(
        "count_headings",
        "Counts headings.",
        parameters,
    )];
    let lowered = LoweredTools::new(Arc::from(schemas), dialect, None);
    let violations = check_request(dialect, &lowered.request_tools);
    assert!(violations.is_empty(), "{}: {violations:#?}", dialect.id());
    lowered
}

#[test]
fn provider_views_keep_recursion_where_they_can_and_cut_it_with_a_report_where_not() {
    let registry = ToolRegistry::new();
    let _ = registry.register(CountHeadingsTool).unwrap();
    let parameters = registry.get("count_headings").unwrap().parameters().clone();
    let openai = lower(Dialect::OpenAiChat { strict: true }, parameters.clone());
    let lowered = &openai.tools[0];
    assert!(lowered.strict, "{:#?}", openai.report);
    let gemini = lower(
        Dialect::Gemini {
            schema: GeminiSchema::OpenApi,
        },
        parameters,
    );
    assert!(
        gemini
            .report
            .entries
            .iter()
            .any(|entry| entry.change == Change::Rewritten && entry.detail.contains("recursive")),
        "{:#?}",
        gemini.report
    );
}
