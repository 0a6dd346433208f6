//! `#[derive(ToolArgs)]`: schemas, conversion, defaults and serde attributes.

// The argument types exist for their schemas; not every field is read back.
#![allow(dead_code)]

use dsh_tools::{ToolArgs, Value, json};

/// How to match.
#[derive(ToolArgs, Debug, PartialEq)]
#[tool_args(rename_all = "lowercase")]
enum Mode {
    /// Match the text as written.
    Literal,
    /// Match a regular expression.
    Regex,
}

#[derive(ToolArgs, Debug, PartialEq)]
struct SearchOptions {
    follow_links: bool,
    depth: Option<u32>,
}

/// Search files for a pattern.
#[derive(ToolArgs, Debug, PartialEq)]
struct SearchArgs {
    /// Text or regex to look for.
    #[arg(min_length = 1)]
    pattern: String,
    /// Directory to search from.
    path: String,
    #[arg(minimum = 1, maximum = 10_000)]
    max_results: Option<u32>,
    case_sensitive: Option<bool>,
    include: Option<Vec<String>>,
    mode: Option<Mode>,
    options: Option<SearchOptions>,
}

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
