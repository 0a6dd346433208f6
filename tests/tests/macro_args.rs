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

#[derive(ToolArgs, Debug)]
struct Optional {
    #[arg(enum = [1, 2])]
    level: Option<u8>,
    #[arg(const = "x")]
    marker: Option<String>,
}

#[test]
fn an_option_with_enum_or_const_accepts_null_and_says_so() {
    let schema = Optional::schema().unwrap();
    let rendered = schema.to_json_schema();
    assert_eq!(
        rendered["properties"],
        json!({
            "level": {"type": ["integer", "null"], "enum": [1, 2, null]},
            "marker": {"type": ["string", "null"], "enum": ["x", null]}
        })
    );
    // The rendering, the interpreter, the generated check and the conversion agree on `null`.
    let oracle = jsonschema::draft202012::new(&rendered).unwrap();
    for value in [
        json!({"level": null, "marker": null}),
        json!({"level": 2, "marker": "x"}),
    ] {
        assert!(oracle.is_valid(&value));
        assert!(schema.is_valid(&value) && Optional::is_valid_json(&value));
        Optional::from_json(&value).unwrap();
    }
    let nulls = Optional::from_json(&json!({"level": null, "marker": null})).unwrap();
    assert_eq!((nulls.level, nulls.marker), (None, None));
    for value in [json!({"level": 3}), json!({"marker": "y"})] {
        assert!(!oracle.is_valid(&value));
        assert!(!schema.is_valid(&value) && !Optional::is_valid_json(&value));
    }
    // Imported back, the rendering still takes `null`.
    let imported = dsh_tools::schema::Schema::from_json_schema(&rendered).unwrap();
    assert!(imported.is_valid(&json!({"level": null, "marker": null})));
    assert_eq!(imported.to_json_schema(), rendered);
}

/// Counters as wide as Rust has them.
#[derive(ToolArgs)]
struct Wide {
    total: u64,
    delta: i64,
    ratio: f32,
    #[arg(maximum = 1000)]
    capped: u64,
}

#[test]
fn a_types_own_bounds_beyond_2_53_are_enforced_and_not_shown() {
    let schema = Wide::schema().unwrap();
    let rendered = schema.to_json_schema();
    let properties = &rendered["properties"];
    assert_eq!(
        properties["total"],
        json!({"type": "integer", "minimum": 0})
    );
    assert_eq!(properties["delta"], json!({"type": "integer"}));
    assert_eq!(properties["ratio"], json!({"type": "number"}));
    assert_eq!(
        properties["capped"],
        json!({"type": "integer", "minimum": 0, "maximum": 1000})
    );
    assert!(!rendered.to_string().contains("18446744073709551615"));
    let too_big =
        json!({"total": 18_446_744_073_709_551_616.0, "delta": -1e19, "ratio": 1e39, "capped": 1});
    assert!(!Wide::is_valid_json(&too_big));
    assert_eq!(
        schema.validate(&too_big).unwrap_err().to_string(),
        r#""total" must be <= 18446744073709551615; "delta" must be >= -9223372036854775808; "ratio" must be <= 3.4028234663852886e+38"#
    );
}
