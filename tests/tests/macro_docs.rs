//! The JSON Schema rustdoc shows on a derived type or a tool is the schema the model receives.
//!
//! Types built from standard types are documented in full and must match the runtime rendering
//! byte for byte. Nested argument types are documented as `{"$ref": "Name"}`; resolving those
//! references with the nested types' runtime schemas must give the runtime schema exactly.

// The argument types exist for their schemas; not every field is read back.
#![allow(dead_code)]

use std::collections::HashMap;

use dsh_tools::__private::DocumentedSchema;
use dsh_tools::{Schema, ToolArgs, ToolDefinition, Value, tool};
use dsh_tools_tests::workload::{Mode, SearchArgs, SearchOptions};

/// Every standard shape with every key.
#[derive(ToolArgs)]
#[tool_args(title = "Everything", additional_properties = true)]
struct Standard {
    text: String,
    letter: char,
    #[arg(default = true)]
    flag: bool,
    tiny: i8,
    small: u16,
    wide: i128,
    unsigned: usize,
    #[arg(minimum = -1.5, maximum = 2.5)]
    ratio: f32,
    precise: f64,
    #[arg(min_items = 1, max_items = 3)]
    list: Vec<Option<String>>,
    fixed: [u8; 4],
    map: HashMap<String, f64>,
    raw: Value,
    object: serde_json::Map<String, Value>,
    #[arg(enum = ["a", "b"], default = "a")]
    choice: String,
    #[arg(const = 2)]
    version: u8,
    #[arg(pattern = "^x", max_length = 9, examples = ["xy", "xz"])]
    word: Option<String>,
    unit: (),
    boxed: Box<u32>,
}

/// Greets.
#[tool]
async fn greet(
    /// Who to greet.
    name: String,
    /// How many times.
    #[arg(default = 1, maximum = 3)]
    times: u8,
) -> String {
    name.repeat(usize::from(times))
}

/// Searches.
#[tool]
async fn search(args: SearchArgs) -> Vec<String> {
    vec![args.path]
}

fn runtime<T: ToolArgs>() -> Schema {
    T::schema().expect("schema builds")
}

fn documented<T: DocumentedSchema>() -> Value {
    serde_json::from_str(T::DOCUMENTED_SCHEMA).expect("documented schema is JSON")
}

/// Replaces `{"$ref": name}` (and its nullable `anyOf` form) by the runtime schema of `name`,
/// with the sibling keys the docs show beside the reference.
fn resolve(doc: &Value, refs: &HashMap<&str, Schema>) -> Value {
    match doc {
        Value::Object(map) => {
            if let Some(name) = map.get("$ref").and_then(Value::as_str) {
                return with_siblings(refs[name].to_json_schema(), map);
            }
            if let Some(Value::Array(branches)) = map.get("anyOf")
                && let [reference, null] = branches.as_slice()
                && let (Some(name), Some("null")) = (
                    reference.get("$ref").and_then(Value::as_str),
                    null.get("type").and_then(Value::as_str),
                )
            {
                let mut schema = refs[name].clone();
                schema.nullable = true;
                let resolved =
                    with_siblings(schema.to_json_schema(), reference.as_object().unwrap());
                return with_siblings(resolved, map);
            }
            Value::Object(
                map.iter()
                    .map(|(key, value)| (key.clone(), resolve(value, refs)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(|item| resolve(item, refs)).collect()),
        other => other.clone(),
    }
}

fn with_siblings(mut resolved: Value, doc: &serde_json::Map<String, Value>) -> Value {
    let target = resolved.as_object_mut().unwrap();
    for (key, value) in doc {
        if key != "$ref" && key != "anyOf" {
            target.insert(key.clone(), value.clone());
        }
    }
    resolved
}

#[test]
fn standard_types_are_documented_byte_for_byte() {
    let rendered = serde_json::to_string_pretty(&runtime::<Standard>().to_json_schema()).unwrap();
    assert_eq!(<Standard as DocumentedSchema>::DOCUMENTED_SCHEMA, rendered);
    let options =
        serde_json::to_string_pretty(&runtime::<SearchOptions>().to_json_schema()).unwrap();
    assert_eq!(
        <SearchOptions as DocumentedSchema>::DOCUMENTED_SCHEMA,
        options
    );
    let mode = serde_json::to_string_pretty(&runtime::<Mode>().to_json_schema()).unwrap();
    assert_eq!(<Mode as DocumentedSchema>::DOCUMENTED_SCHEMA, mode);
}

#[test]
fn nested_types_resolve_to_the_runtime_schema() {
    let refs = HashMap::from([
        ("Mode", runtime::<Mode>()),
        ("SearchOptions", runtime::<SearchOptions>()),
        ("SearchArgs", runtime::<SearchArgs>()),
    ]);
    let doc = documented::<SearchArgs>();
    assert!(
        doc.to_string().contains("$ref"),
        "nested types are shown as references"
    );
    assert_eq!(
        resolve(&doc, &refs),
        runtime::<SearchArgs>().to_json_schema()
    );
    assert_eq!(
        resolve(&documented::<SearchTool>(), &refs),
        *SearchTool.parameters()
    );
}

#[test]
fn tool_docs_show_the_parameters() {
    let rendered = serde_json::to_string_pretty(GreetTool.parameters()).unwrap();
    assert_eq!(<GreetTool as DocumentedSchema>::DOCUMENTED_SCHEMA, rendered);
    assert_eq!(
        <GreetToolArgs as DocumentedSchema>::DOCUMENTED_SCHEMA,
        rendered
    );
}
