//! Generators of JSON Schema 2020-12 documents beyond the typed subset, for the keyword engine:
//! every applicator (`allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`,
//! `prefixItems`, `contains`, `patternProperties`, `propertyNames`, `unevaluated*`), the
//! validation keywords with and without `type` (`multipleOf`, exclusive bounds, `uniqueItems`,
//! `minContains`/`maxContains`, `minProperties`/`maxProperties`, `dependentRequired`, type
//! lists), boolean schemas, and `$ref`s into `$defs` (recursive ones too), combined with the
//! typed subset's keywords.
//!
//! `multipleOf` takes integral factors only: on fractions, `jsonschema` divides in doubles while
//! the engine is exact, and the two may round a quotient differently.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use crate::raw_schemas::PATTERNS;

/// The keys documents and values share, so properties meet the keys they describe.
pub const KEYS: &[&str] = &["a", "b", "x1", "xy", "é"];

/// Values for the generated documents: the keys above, numbers around small multiples, strings
/// of a few lengths and formats, nested up to three levels.
pub fn keyword_value() -> BoxedStrategy<Value> {
    let scalar = prop_oneof![
        Just(json!(0)),
        Just(json!(1)),
        Just(json!(1.0)),
        Just(json!(2)),
        Just(json!(3)),
        Just(json!(4)),
        Just(json!(6)),
        Just(json!(-1)),
        Just(json!(2.5)),
        Just(json!(10)),
        Just(json!(true)),
        Just(json!(false)),
        Just(json!(null)),
        Just(json!("")),
        Just(json!("a")),
        Just(json!("ab")),
        Just(json!("abc")),
        Just(json!("é")),
        Just(json!("2026-12-02")),
        Just(json!("someone@example.com")),
    ];
    scalar
        .prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec((prop::sample::select(KEYS), inner), 0..4).prop_map(object),
            ]
        })
        .boxed()
}

/// A schema object of one keyword.
fn one(key: &'static str, value: BoxedStrategy<Value>) -> BoxedStrategy<Map<String, Value>> {
    value
        .prop_map(move |value| {
            let mut map = Map::new();
            map.insert(key.to_owned(), value);
            map
        })
        .boxed()
}

/// An object of these entries (a later one wins a repeated key).
fn object(entries: Vec<(&str, Value)>) -> Value {
    Value::Object(
        entries
            .into_iter()
            .map(|(key, value)| (key.to_owned(), value))
            .collect(),
    )
}

fn small() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(0)),
        Just(json!(1)),
        Just(json!(2)),
        Just(json!(3)),
        Just(json!(2.5)),
        Just(json!(-1)),
    ]
}

fn types() -> impl Strategy<Value = Value> {
    const NAMES: &[&str] = &[
        "object", "array", "string", "number", "integer", "boolean", "null",
    ];
    prop_oneof![
        prop::sample::select(NAMES).prop_map(Value::from),
        prop::sample::subsequence(NAMES, 1..4)
            .prop_map(|list| Value::Array(list.into_iter().map(Value::from).collect())),
    ]
}

/// One keyword (or a pair that belongs together) that takes no subschema.
fn assertion() -> BoxedStrategy<Map<String, Value>> {
    prop_oneof![
        one("type", types().boxed()),
        one("minimum", small().boxed()),
        one("maximum", small().boxed()),
        one("exclusiveMinimum", small().boxed()),
        one("exclusiveMaximum", small().boxed()),
        one("multipleOf", (1u64..4).prop_map(Value::from).boxed()),
        one("minLength", (0u64..3).prop_map(Value::from).boxed()),
        one("maxLength", (0u64..3).prop_map(Value::from).boxed()),
        one(
            "pattern",
            prop::sample::select(PATTERNS).prop_map(Value::from).boxed()
        ),
        one(
            "format",
            prop::sample::select(&["date", "email", "color"][..])
                .prop_map(Value::from)
                .boxed()
        ),
        one(
            "enum",
            prop::collection::vec(keyword_value(), 1..4)
                .prop_map(Value::Array)
                .boxed()
        ),
        one("const", keyword_value()),
        one("minItems", (0u64..3).prop_map(Value::from).boxed()),
        one("maxItems", (0u64..3).prop_map(Value::from).boxed()),
        one("uniqueItems", any::<bool>().prop_map(Value::from).boxed()),
        one("minProperties", (0u64..3).prop_map(Value::from).boxed()),
        one("maxProperties", (0u64..3).prop_map(Value::from).boxed()),
        one(
            "required",
            prop::sample::subsequence(KEYS, 1..3)
                .prop_map(|keys| json!(keys))
                .boxed()
        ),
        one(
            "dependentRequired",
            (
                prop::sample::select(KEYS),
                prop::sample::subsequence(KEYS, 1..3)
            )
                .prop_map(|(key, needed)| json!({ key: needed }))
                .boxed()
        ),
    ]
    .boxed()
}

/// Merges keyword maps; a later one wins a shared key.
fn merged(parts: Vec<Map<String, Value>>) -> Value {
    let mut node = Map::new();
    for part in parts {
        node.extend(part);
    }
    Value::Object(node)
}

/// A document node: one to three keyword groups, applicators holding nested nodes.
fn node() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        8 => prop::collection::vec(assertion(), 1..3).prop_map(merged),
        1 => Just(json!(true)),
        1 => Just(json!(false)),
        1 => Just(json!({})),
    ];
    leaf.prop_recursive(3, 24, 3, |inner| {
        let list = |inner: BoxedStrategy<Value>| {
            prop::collection::vec(inner, 1..3)
                .prop_map(Value::Array)
                .boxed()
        };
        let named = |inner: BoxedStrategy<Value>| {
            prop::collection::vec((prop::sample::select(KEYS), inner), 1..3)
                .prop_map(object)
                .boxed()
        };
        let inner = inner.boxed();
        let applicator = prop_oneof![
            one("allOf", list(inner.clone())),
            one("anyOf", list(inner.clone())),
            one("oneOf", list(inner.clone())),
            one("not", inner.clone()),
            (
                inner.clone(),
                prop::option::of(inner.clone()),
                prop::option::of(inner.clone())
            )
                .prop_map(|(test, then, otherwise)| {
                    let mut map = Map::new();
                    map.insert("if".to_owned(), test);
                    if let Some(then) = then {
                        map.insert("then".to_owned(), then);
                    }
                    if let Some(otherwise) = otherwise {
                        map.insert("else".to_owned(), otherwise);
                    }
                    map
                }),
            one("properties", named(inner.clone())),
            one(
                "patternProperties",
                (
                    prop::sample::select(&["^x", "^[a-b]$", "é"][..]),
                    inner.clone()
                )
                    .prop_map(|(pattern, schema)| json!({ pattern: schema }))
                    .boxed()
            ),
            one("additionalProperties", inner.clone()),
            one("propertyNames", inner.clone()),
            one("dependentSchemas", named(inner.clone())),
            one("items", inner.clone()),
            one("prefixItems", list(inner.clone())),
            (
                inner.clone(),
                prop::option::of(0u64..3),
                prop::option::of(0u64..3)
            )
                .prop_map(|(contains, min, max)| {
                    let mut map = Map::new();
                    map.insert("contains".to_owned(), contains);
                    if let Some(min) = min {
                        map.insert("minContains".to_owned(), Value::from(min));
                    }
                    if let Some(max) = max {
                        map.insert("maxContains".to_owned(), Value::from(max));
                    }
                    map
                }),
            one("unevaluatedProperties", inner.clone()),
            one("unevaluatedItems", inner.clone()),
        ];
        prop_oneof![
            3 => (applicator.clone(), prop::collection::vec(assertion(), 0..2)).prop_map(
                |(applicator, assertions)| {
                    let mut parts = assertions;
                    parts.push(applicator);
                    merged(parts)
                }
            ),
            1 => (applicator.clone(), applicator).prop_map(|(a, b)| merged(vec![a, b])),
        ]
    })
    .boxed()
}

/// A document: a node, sometimes behind a `$ref` into `$defs`, sometimes with a definition that
/// refers to itself (a tree whose children are checked as the root is).
pub fn keyword_schema() -> BoxedStrategy<Value> {
    prop_oneof![
        4 => node(),
        1 => (node(), node()).prop_map(|(definition, root)| {
            let mut root = match root {
                Value::Object(map) => map,
                Value::Bool(true) => Map::new(),
                _ => {
                    let mut map = Map::new();
                    map.insert("not".to_owned(), json!({}));
                    map
                }
            };
            root.insert("$defs".to_owned(), json!({ "d": definition }));
            root.insert("$ref".to_owned(), json!("#/$defs/d"));
            Value::Object(root)
        }),
        1 => node().prop_map(|leaf| json!({
            "$defs": {
                "tree": {
                    "type": "object",
                    "properties": {"a": leaf, "b": {"type": "array", "items": {"$ref": "#/$defs/tree"}}},
                    "unevaluatedProperties": {"type": "integer"},
                },
            },
            "$ref": "#/$defs/tree",
        })),
        1 => node().prop_map(|leaf| json!({
            "anyOf": [leaf, {"type": "array", "items": {"$ref": "#"}}],
        })),
    ]
    .boxed()
}
