//! `#[derive(ToolArgs)]`: schemas, conversion, defaults and serde attributes.

// The argument types exist for their schemas; not every field is read back.
#![allow(dead_code)]

use dsh_tools::{ToolArgs, Value, json};
use dsh_tools_tests::workload::{Mode, SearchArgs, SearchOptions};

fn schema_of<T: ToolArgs>() -> Value {
    T::schema().expect("schema builds").to_json_schema()
}

#[test]
fn search_args_schema() {
    let schema = schema_of::<SearchArgs>();
    println!("{}", serde_json::to_string_pretty(&schema).unwrap());
    assert_eq!(schema["required"], json!(["pattern", "path"]));
    assert_eq!(schema["properties"]["max_results"]["maximum"], json!(10000));
    assert_eq!(schema["additionalProperties"], json!(false));
}

#[test]
fn converts_valid_arguments() {
    let value = json!({
        "pattern": "fn main", "path": "/src", "max_results": 50.0,
        "include": ["*.rs"], "mode": "regex", "options": {"follow_links": true, "depth": 4}
    });
    let schema = SearchArgs::schema().unwrap();
    schema.validate(&value).unwrap();
    let args = SearchArgs::from_json(&value).unwrap();
    assert_eq!(args.max_results, Some(50));
    assert_eq!(args.mode, Some(Mode::Regex));
    assert_eq!(
        args.options,
        Some(SearchOptions {
            follow_links: true,
            depth: Some(4)
        })
    );
}
