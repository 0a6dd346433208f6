//! `#[derive(ToolArgs)]`: schemas, conversion, defaults and serde attributes.

// The argument types exist for their schemas; not every field is read back.
#![allow(dead_code)]

use dsh_tools::schema::CompiledSchema;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

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

/// A schedule with every rule JSON Schema has for numbers, arrays and maps.
#[derive(ToolArgs, Debug)]
struct Schedule {
    #[arg(multiple_of = 5, exclusive_minimum = 0, exclusive_maximum = 100)]
    every_minutes: u32,
    #[arg(multiple_of = 0.25, minimum = 0)]
    hours: Option<f64>,
    #[arg(exclusive_minimum = -1.5, exclusive_maximum = 1.5)]
    offset: f64,
    tags: HashSet<String>,
    #[arg(unique_items, max_items = 3)]
    ids: Vec<u8>,
    order: Option<BTreeSet<u32>>,
    #[arg(min_properties = 1, max_properties = 2)]
    labels: HashMap<String, String>,
    #[arg(max_properties = 1)]
    extra: Option<BTreeMap<String, i32>>,
}

/// The interpreter, the compiled schema, the generated check and `jsonschema` on the rendered
/// schema give one verdict on `value`; for an invalid value both validators report the same
/// messages, which are returned.
fn verdict<T: ToolArgs>(value: &Value) -> Result<(), Vec<String>> {
    let schema = T::schema().unwrap();
    let compiled = CompiledSchema::from(&schema);
    let oracle = dsh_tools_tests::oracle::validator(&schema.to_json_schema()).unwrap();
    let valid = schema.is_valid(value);
    assert_eq!(T::is_valid_json(value), valid, "generated check on {value}");
    assert_eq!(
        compiled.is_valid(value),
        valid,
        "compiled schema on {value}"
    );
    assert_eq!(oracle.is_valid(value), valid, "jsonschema on {value}");
    let reported = schema.validate(value);
    assert_eq!(
        compiled.validate(value),
        reported,
        "compiled report on {value}"
    );
    reported.map_err(|violations| {
        violations
            .reported
            .iter()
            .map(|violation| violation.message().to_owned())
            .collect()
    })
}

fn schedule(changes: Value) -> Value {
    let mut value = json!({
        "every_minutes": 15,
        "hours": 1.75,
        "offset": -1.25,
        "tags": ["a", "b"],
        "ids": [1, 2, 3],
        "order": [3, 1, 2],
        "labels": {"team": "core"},
        "extra": {"x": 1},
    });
    for (key, change) in changes.as_object().unwrap() {
        value[key] = change.clone();
    }
    value
}

#[test]
fn number_array_and_map_rules_are_published_in_the_schema() {
    let properties = schema_of::<Schedule>()["properties"].clone();
    assert_eq!(
        properties["every_minutes"],
        json!({
            "type": "integer",
            "minimum": 0,
            "maximum": 4294967295_u64,
            "exclusiveMinimum": 0,
            "exclusiveMaximum": 100,
            "multipleOf": 5
        })
    );
    assert_eq!(
        properties["hours"],
        json!({"type": ["number", "null"], "minimum": 0, "multipleOf": 0.25})
    );
    assert_eq!(
        properties["offset"],
        json!({"type": "number", "exclusiveMinimum": -1.5, "exclusiveMaximum": 1.5})
    );
    assert_eq!(
        properties["tags"],
        json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true})
    );
    assert_eq!(
        properties["ids"],
        json!({
            "type": "array",
            "items": {"type": "integer", "minimum": 0, "maximum": 255},
            "maxItems": 3,
            "uniqueItems": true
        })
    );
    assert_eq!(properties["order"]["uniqueItems"], json!(true));
    assert_eq!(
        properties["labels"],
        json!({
            "type": "object",
            "additionalProperties": {"type": "string"},
            "minProperties": 1,
            "maxProperties": 2
        })
    );
    assert_eq!(
        properties["extra"],
        json!({
            "type": ["object", "null"],
            "additionalProperties": {
                "type": "integer",
                "minimum": -2147483648,
                "maximum": 2147483647
            },
            "maxProperties": 1
        })
    );
    // The keys come in the documented order.
    let keys: Vec<&String> = properties["ids"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["type", "items", "maxItems", "uniqueItems"]);
}

#[test]
fn valid_values_pass_every_validator_and_convert() {
    for value in [
        schedule(json!({})),
        schedule(json!({"every_minutes": 95, "hours": null, "order": null, "extra": null})),
        schedule(json!({"every_minutes": 5.0, "hours": 0, "offset": 1.4999})),
        schedule(json!({"tags": [], "ids": [], "labels": {"a": "1", "b": "2"}, "extra": {}})),
        // Equal values in different number forms are different strings.
        schedule(json!({"tags": ["1", "1.0", "01"]})),
    ] {
        assert_eq!(verdict::<Schedule>(&value), Ok(()), "{value}");
        let converted = Schedule::from_json(&value).unwrap();
        assert_eq!(
            converted.tags.len(),
            value["tags"].as_array().unwrap().len(),
            "no tag is dropped"
        );
    }
}

#[test]
fn each_rule_reports_in_the_keyword_engines_words() {
    let cases = [
        (
            json!({"every_minutes": 7}),
            r#""every_minutes" must be a multiple of 5"#,
        ),
        (
            json!({"every_minutes": 0}),
            r#""every_minutes" must be > 0"#,
        ),
        (
            json!({"every_minutes": 100}),
            r#""every_minutes" must be < 100"#,
        ),
        (
            json!({"hours": 0.3}),
            r#""hours" must be a multiple of 0.25"#,
        ),
        (json!({"hours": -0.25}), r#""hours" must be >= 0"#),
        (json!({"offset": -1.5}), r#""offset" must be > -1.5"#),
        (json!({"offset": 2}), r#""offset" must be < 1.5"#),
        (
            json!({"tags": ["a", "b", "a"]}),
            r#""tags" must have unique items (items 0 and 2 are equal)"#,
        ),
        (
            json!({"ids": [1, 2, 1.0]}),
            r#""ids" must have unique items (items 0 and 2 are equal)"#,
        ),
        (
            json!({"order": [4, 4]}),
            r#""order" must have unique items (items 0 and 1 are equal)"#,
        ),
        (
            json!({"labels": {}}),
            r#""labels" must have at least 1 property"#,
        ),
        (
            json!({"labels": {"a": "1", "b": "2", "c": "3"}}),
            r#""labels" must have at most 2 properties"#,
        ),
        (
            json!({"extra": {"x": 1, "y": 2}}),
            r#""extra" must have at most 1 property"#,
        ),
    ];
    for (changes, message) in cases {
        let value = schedule(changes);
        assert_eq!(
            verdict::<Schedule>(&value),
            Err(vec![message.to_owned()]),
            "{value}"
        );
    }
}

#[test]
fn every_broken_rule_is_reported_in_one_pass() {
    let value = schedule(json!({
        "every_minutes": 101,
        "tags": ["x", "x", 3],
        "ids": [1, 1, 2, 3],
        "labels": {"a": "1", "b": "2", "c": 3},
    }));
    assert_eq!(
        verdict::<Schedule>(&value).unwrap_err(),
        [
            r#""every_minutes" must be < 100"#,
            r#""tags" must have unique items (items 0 and 1 are equal)"#,
            r#""tags[2]" must be a string"#,
            r#""ids" must have at most 3 items"#,
            r#""ids" must have unique items (items 0 and 1 are equal)"#,
            r#""labels" must have at most 2 properties"#,
            r#""labels.c" must be a string"#,
        ]
    );
}

/// A set of tags, as a tool takes it.
#[derive(ToolArgs, Debug)]
struct Tagged {
    tags: HashSet<String>,
}

#[test]
fn a_set_rejects_a_duplicate_instead_of_dropping_it() {
    let duplicated = json!({"tags": ["release", "hotfix", "release"]});
    assert!(!Tagged::is_valid_json(&duplicated));
    assert_eq!(
        Tagged::schema()
            .unwrap()
            .validate(&duplicated)
            .unwrap_err()
            .to_string(),
        r#""tags" must have unique items (items 0 and 2 are equal)"#
    );
    let distinct = json!({"tags": ["release", "hotfix"]});
    assert_eq!(verdict::<Tagged>(&distinct), Ok(()));
    assert_eq!(Tagged::from_json(&distinct).unwrap().tags.len(), 2);
}

/// A set of many items is checked in one pass, and a late repeat is still found.
#[test]
fn a_long_set_finds_its_first_repeat() {
    let mut tags: Vec<Value> = (0..5_000).map(|n| json!(format!("tag{n}"))).collect();
    let distinct = json!({ "tags": tags.clone() });
    assert_eq!(verdict::<Tagged>(&distinct), Ok(()));
    tags.push(json!("tag4321"));
    let repeated = json!({ "tags": tags });
    assert_eq!(
        verdict::<Tagged>(&repeated).unwrap_err(),
        [r#""tags" must have unique items (items 4321 and 5000 are equal)"#]
    );
}
