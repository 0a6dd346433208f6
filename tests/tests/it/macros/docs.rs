//! The JSON Schema rustdoc shows on a derived type or a tool is the schema the model receives.
//!
//! Types built from standard types are documented in full and must match the runtime rendering
//! byte for byte. Nested argument types are documented as `{"$ref": "Name"}` (linked to their
//! pages); resolving those references with the nested types' runtime schemas, by the rule the docs
//! state for keys beside a `$ref`, must give the runtime schema exactly. The same holds for each
//! tool's output schema.

// The argument types exist for their schemas; not every field is read back.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use dsh_tools::__private::{DocumentedOutput, DocumentedSchema};
use dsh_tools::{Tool, ToolArgs, ToolDefinition, ToolError, Value, schema::Schema, tool};
use dsh_tools_tests::workload::{Mode, SearchArgs, SearchOptions};
use serde::Serialize;

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
    #[arg(multiple_of = 5, exclusive_minimum = 0, exclusive_maximum = 60)]
    minutes: u8,
    #[arg(multiple_of = 0.5, exclusive_maximum = 1e3)]
    halves: Option<f64>,
    tags: HashSet<String>,
    sorted: Option<BTreeSet<u8>>,
    #[arg(unique_items, min_items = 1)]
    distinct: Vec<i64>,
    #[arg(min_properties = 1, max_properties = 4)]
    owners: BTreeMap<String, String>,
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

fn documented_output<T: DocumentedOutput>() -> Value {
    serde_json::from_str(T::DOCUMENTED_OUTPUT_SCHEMA).expect("documented output schema is JSON")
}

/// A type the docs name by `$ref`: its runtime schema and the notes on its values.
struct Referenced {
    schema: Schema,
    notes: &'static [(&'static str, &'static str)],
}

fn referenced<T: ToolArgs>() -> Referenced {
    Referenced {
        schema: runtime::<T>(),
        notes: T::VALUE_NOTES,
    }
}

type References = HashMap<&'static str, Referenced>;

/// Replaces `{"$ref": name}` (and its nullable `anyOf` form) by the runtime schema of `name`,
/// applying the keys the docs show beside the reference the way the docs say they apply.
fn resolve(doc: &Value, refs: &References) -> Value {
    match doc {
        Value::Object(map) => {
            if let Some(name) = map.get("$ref").and_then(Value::as_str) {
                let referenced = &refs[name];
                return with_siblings(referenced.schema.to_json_schema(), map, referenced);
            }
            if let Some(Value::Array(branches)) = map.get("anyOf")
                && let [reference, null] = branches.as_slice()
                && let (Some(name), Some("null")) = (
                    reference.get("$ref").and_then(Value::as_str),
                    null.get("type").and_then(Value::as_str),
                )
            {
                let referenced = &refs[name];
                let mut schema = referenced.schema.clone();
                schema.nullable = true;
                let resolved = with_siblings(
                    schema.to_json_schema(),
                    reference.as_object().unwrap(),
                    referenced,
                );
                return with_siblings(resolved, map, referenced);
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

/// The keys beside a `$ref` replace the type's own: an `enum` or `const` replaces its values,
/// and a `description` replaces its text, followed by the notes on the values still allowed.
fn with_siblings(
    mut resolved: Value,
    doc: &serde_json::Map<String, Value>,
    referenced: &Referenced,
) -> Value {
    let target = resolved.as_object_mut().unwrap();
    for (key, value) in doc {
        match key.as_str() {
            "$ref" | "anyOf" => {}
            "const" => {
                target.remove("enum");
                target.insert(key.clone(), value.clone());
            }
            _ => {
                target.insert(key.clone(), value.clone());
            }
        }
    }
    if let Some(Value::String(description)) = doc.get("description") {
        let allowed = |value: &str| match (target.get("enum"), target.get("const")) {
            (Some(Value::Array(members)), _) => members.iter().any(|member| member == value),
            (_, Some(constant)) => constant == value,
            _ => true,
        };
        let notes: Vec<String> = referenced
            .notes
            .iter()
            .filter(|(value, _)| allowed(value))
            .map(|(value, note)| format!("- `{value}`: {note}"))
            .collect();
        if !notes.is_empty() {
            let text = format!("{description}\n\n{}", notes.join("\n"));
            target.insert("description".into(), Value::String(text));
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
    let refs = References::from([
        ("Mode", referenced::<Mode>()),
        ("SearchOptions", referenced::<SearchOptions>()),
        ("SearchArgs", referenced::<SearchArgs>()),
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

/// What an edit does with the text it matched.
#[derive(ToolArgs)]
#[tool_args(rename_all = "snake_case")]
enum EditMode {
    /// Replace the matched text.
    Replace,
    /// Insert before it.
    InsertBefore,
    /// Delete it.
    Delete,
}

/// The mode of new files.
#[derive(ToolArgs)]
struct NewFileMode(EditMode);

/// One change.
#[derive(ToolArgs, Serialize)]
struct Change {
    line: u32,
    text: String,
}

/// Edits with documented enum fields.
#[tool]
async fn edit(
    /// What to do.
    mode: EditMode,
    /// What to do next time.
    next_mode: Option<EditMode>,
    /// Only replacing or deleting.
    #[arg(enum = ["replace", "delete"])]
    strict_mode: Option<EditMode>,
    /// Always replacing.
    #[arg(const = "replace")]
    fixed_mode: EditMode,
    /// For new files.
    new_file_mode: NewFileMode,
    /// Modes to try.
    fallbacks: Vec<EditMode>,
) -> Result<Vec<Change>, ToolError> {
    let _ = (
        mode,
        next_mode,
        strict_mode,
        fixed_mode,
        new_file_mode,
        fallbacks,
    );
    Ok(Vec::new())
}

/// Runs in a mode: a lone enum parameter is one property.
#[tool]
async fn run(mode: Mode) {
    let _ = mode;
}

fn edit_references() -> References {
    References::from([
        ("EditMode", referenced::<EditMode>()),
        ("NewFileMode", referenced::<NewFileMode>()),
        ("Change", referenced::<Change>()),
        ("Mode", referenced::<Mode>()),
    ])
}

#[test]
fn documented_enum_fields_resolve_with_the_notes_on_their_values() {
    let refs = edit_references();
    assert_eq!(
        resolve(&documented::<EditTool>(), &refs),
        *EditTool.parameters()
    );
    let description = EditTool.parameters()["properties"]["strict_mode"]["description"].clone();
    assert_eq!(
        description,
        "Only replacing or deleting.\n\n- `replace`: Replace the matched text.\n- `delete`: Delete it."
    );
}

#[test]
fn tool_docs_show_the_output() {
    fn runtime_output<T: Tool>() -> Value {
        runtime::<T::Output>().to_json_schema()
    }
    let refs = edit_references();
    assert_eq!(
        <GreetTool as DocumentedOutput>::DOCUMENTED_OUTPUT_SCHEMA,
        serde_json::to_string_pretty(&runtime_output::<GreetTool>()).unwrap()
    );
    assert_eq!(
        documented_output::<SearchTool>(),
        runtime_output::<SearchTool>()
    );
    assert_eq!(
        resolve(&documented_output::<EditTool>(), &refs),
        runtime_output::<EditTool>()
    );
    assert_eq!(documented_output::<RunTool>(), runtime_output::<RunTool>());
}

#[test]
fn a_lone_parameter_is_documented_in_the_shape_its_type_decides() {
    let refs = edit_references();
    assert_eq!(
        documented::<RunTool>()["properties"]["mode"]["$ref"],
        "Mode"
    );
    assert_eq!(
        resolve(&documented::<RunTool>(), &refs),
        *RunTool.parameters()
    );
    assert_eq!(documented::<SearchTool>()["$ref"], "SearchArgs");
}

/// Dates, ids and addresses brought through `schemars`.
#[derive(ToolArgs)]
struct Brought {
    /// When it happened.
    #[arg(schemars)]
    at: chrono::DateTime<chrono::Utc>,
    /// On which day, if known.
    #[arg(schemars)]
    day: Option<chrono::NaiveDate>,
    /// Which one.
    #[arg(schemars)]
    id: uuid::Uuid,
    /// A whole-number bound the docs leave out, as the runtime does.
    count: u64,
}

#[test]
fn common_schemars_types_are_documented_byte_for_byte() {
    let rendered = serde_json::to_string_pretty(&runtime::<Brought>().to_json_schema()).unwrap();
    assert_eq!(<Brought as DocumentedSchema>::DOCUMENTED_SCHEMA, rendered);
}
