//! Generators of raw JSON Schemas (draft 2020-12) in every keyword combination
//! [`Schema::from_json_schema`](dsh_tools::schema::Schema::from_json_schema) accepts, plus near
//! misses it refuses: every `type` form (`"T"`, `["T"]`, `["T", "null"]`, `["null", "T"]`, none),
//! `enum` and `const` beside each of them (members that fit the type, `null`, both keywords
//! at once), each type's own constraints, `required` in any order, `additionalProperties` as
//! `true`, `false`, a schema or absent, `true` as a schema, `oneOf`, the nullable `anyOf` form,
//! `$ref` into `$defs` or `definitions`, and every annotation the importer keeps or drops.
//!
//! Differential tests import these, then compare the model with the `jsonschema` crate on the
//! raw schema itself, which is what a schema's author meant.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use crate::json_values::{NAMES, STRINGS, number};

/// Patterns that mean the same in ECMA-262, in the engine and in the `jsonschema` crate.
pub const PATTERNS: &[&str] = &[
    "^a", "b$", "^[a-c]*$", "é", "^(ab)+$", "[0-9]", "^\\d+$", "\\w",
];

/// Where a `type` keyword puts the type name.
#[derive(Clone, Copy, Debug)]
enum TypeForm {
    Absent,
    Single,
    OneItemArray,
    NullLast,
    NullFirst,
}

fn type_form() -> impl Strategy<Value = TypeForm> {
    prop_oneof![
        1 => Just(TypeForm::Absent),
        4 => Just(TypeForm::Single),
        1 => Just(TypeForm::OneItemArray),
        3 => Just(TypeForm::NullLast),
        2 => Just(TypeForm::NullFirst),
    ]
}

/// Sets `type` on `node` in `form`.
fn put_type(node: &mut Map<String, Value>, name: &str, form: TypeForm) {
    let value = match form {
        TypeForm::Absent => return,
        TypeForm::Single => json!(name),
        TypeForm::OneItemArray => json!([name]),
        TypeForm::NullLast => json!([name, "null"]),
        TypeForm::NullFirst => json!(["null", name]),
    };
    node.insert("type".to_owned(), value);
}

/// Scalars of the JSON type `name` (numbers in the forms JSON Schema treats as equal).
fn scalars_of(name: &str) -> Vec<Value> {
    match name {
        "string" => STRINGS.iter().take(10).map(|text| json!(text)).collect(),
        "integer" => vec![
            json!(-2),
            json!(0),
            json!(1),
            number(1.0),
            json!(3),
            json!(10),
        ],
        "number" => vec![json!(-2), number(0.5), json!(1), number(2.5), json!(10)],
        "boolean" => vec![json!(true), json!(false)],
        _ => vec![Value::Null],
    }
}

/// `enum` and/or `const` drawn from `pool`, `null` sometimes among them.
fn values_keywords(pool: Vec<Value>) -> impl Strategy<Value = Vec<(&'static str, Value)>> {
    let mut with_null = pool.clone();
    with_null.push(Value::Null);
    (
        0u8..6,
        prop::sample::subsequence(with_null.clone(), 1..=with_null.len().min(4)),
        prop::sample::select(with_null),
    )
        .prop_map(|(choice, members, constant)| match choice {
            // Mostly neither: the type's own keywords need exercising too.
            0..=2 => Vec::new(),
            3 => vec![("enum", Value::Array(members))],
            4 => vec![("const", constant)],
            _ => {
                // Both: the const is one of the members (the importer refuses any other).
                let constant = members[0].clone();
                vec![("enum", Value::Array(members)), ("const", constant)]
            }
        })
}

/// Annotations, kept (`title`, `description`, `default`, `examples`) or dropped (the rest).
fn annotations() -> impl Strategy<Value = Vec<(&'static str, Value)>> {
    let all: Vec<(&'static str, Value)> = vec![
        ("title", json!("A title")),
        ("description", json!("What it is")),
        ("default", json!(1)),
        ("examples", json!(["e", 2])),
        ("format", json!("email")),
        ("$comment", json!("a comment")),
        ("deprecated", json!(true)),
        ("readOnly", json!(false)),
        ("writeOnly", json!(false)),
        ("contentEncoding", json!("base64")),
        ("contentMediaType", json!("text/plain")),
    ];
    prop_oneof![
        3 => Just(Vec::new()),
        1 => prop::sample::subsequence(all, 1..4),
    ]
}

fn node_from(entries: Vec<(&'static str, Value)>) -> Map<String, Value> {
    entries
        .into_iter()
        .map(|(key, value)| (key.to_owned(), value))
        .collect()
}

fn bound() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(0)),
        Just(json!(1)),
        Just(json!(-1)),
        Just(json!(3)),
        Just(number(2.5)),
        Just(json!(u64::MAX)),
        Just(json!(i64::MIN)),
    ]
}

/// A leaf schema: a scalar type with its constraints, an untyped `enum`/`const`, `{}` or `true`.
pub fn raw_leaf() -> BoxedStrategy<Value> {
    let typed = (
        prop::sample::select(&["string", "integer", "number", "boolean", "null"][..]),
        type_form(),
        prop::option::of(0u64..4),
        prop::option::of(0u64..5),
        prop::option::weighted(0.3, prop::sample::select(PATTERNS)),
        prop::option::of(bound()),
        prop::option::of(bound()),
        annotations(),
    )
        .prop_flat_map(
            |(name, form, min_length, max_length, pattern, minimum, maximum, notes)| {
                let mut node = node_from(notes);
                let form = if name == "null" && !matches!(form, TypeForm::Absent) {
                    TypeForm::Single
                } else {
                    form
                };
                // Without a type, only enum/const may constrain: other keywords need one.
                if !matches!(form, TypeForm::Absent) {
                    put_type(&mut node, name, form);
                    match name {
                        "string" => {
                            put(&mut node, "minLength", min_length.map(Value::from));
                            put(&mut node, "maxLength", max_length.map(Value::from));
                            put(&mut node, "pattern", pattern.map(Value::from));
                        }
                        "integer" | "number" => {
                            put(&mut node, "minimum", minimum);
                            put(&mut node, "maximum", maximum);
                        }
                        _ => {}
                    }
                }
                values_keywords(scalars_of(name)).prop_map(move |values| {
                    let mut node = node.clone();
                    node.extend(values.into_iter().map(|(k, v)| (k.to_owned(), v)));
                    Value::Object(node)
                })
            },
        );
    prop_oneof![
        12 => typed,
        1 => Just(json!({})),
        1 => Just(json!(true)),
    ]
    .boxed()
}

fn put(node: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    if let Some(value) = value {
        node.insert(key.to_owned(), value);
    }
}

/// A raw schema of any shape, nested up to three levels, with `$ref`s hoisted into `$defs` or
/// `definitions` some of the time.
pub fn raw_schema() -> BoxedStrategy<Value> {
    let tree = raw_leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            // array
            (
                type_form(),
                prop::option::weighted(0.8, inner.clone()),
                prop::option::of(0u64..3),
                prop::option::of(0u64..4),
                annotations(),
            )
                .prop_map(|(form, items, min, max, notes)| {
                    let mut node = node_from(notes);
                    put_type(&mut node, "array", non_absent(form));
                    put(&mut node, "items", items);
                    put(&mut node, "minItems", min.map(Value::from));
                    put(&mut node, "maxItems", max.map(Value::from));
                    Value::Object(node)
                }),
            // object
            (
                type_form(),
                prop::collection::vec(inner.clone(), 0..4),
                prop::sample::subsequence(NAMES, 4),
                prop::collection::vec(any::<bool>(), 4),
                any::<prop::sample::Index>(),
                0u8..4,
                inner.clone(),
                annotations(),
            )
                .prop_flat_map(
                    |(form, schemas, names, required, seed, additional, values, notes)| {
                        let mut node = node_from(notes);
                        put_type(&mut node, "object", non_absent(form));
                        let mut properties = Map::new();
                        let mut required_names = Vec::new();
                        for ((schema, name), required) in
                            schemas.into_iter().zip(names).zip(required)
                        {
                            properties.insert(name.to_owned(), schema);
                            if required {
                                required_names.push(Value::from(name));
                            }
                        }
                        if !properties.is_empty() || seed.index(2) == 0 {
                            node.insert("properties".to_owned(), Value::Object(properties));
                        }
                        match additional {
                            0 => {}
                            1 => put(&mut node, "additionalProperties", Some(json!(true))),
                            2 => put(&mut node, "additionalProperties", Some(json!(false))),
                            _ => put(&mut node, "additionalProperties", Some(values)),
                        }
                        // `required` in any order: it decides the order missing keys are reported in.
                        Just(required_names)
                            .prop_shuffle()
                            .prop_map(move |required| {
                                let mut node = node.clone();
                                if !required.is_empty() {
                                    node.insert("required".to_owned(), Value::Array(required));
                                }
                                Value::Object(node)
                            })
                    },
                ),
            // oneOf
            (prop::collection::vec(inner.clone(), 2..4), annotations()).prop_map(
                |(branches, notes)| {
                    let mut node = node_from(notes);
                    node.insert("oneOf".to_owned(), Value::Array(branches));
                    Value::Object(node)
                }
            ),
            // the nullable anyOf form, in either order
            (inner, any::<bool>(), annotations()).prop_map(|(schema, null_first, notes)| {
                let mut node = node_from(notes);
                let null = json!({"type": "null"});
                let branches = if null_first {
                    vec![null, schema]
                } else {
                    vec![schema, null]
                };
                node.insert("anyOf".to_owned(), Value::Array(branches));
                Value::Object(node)
            }),
        ]
    });
    (tree, 0u8..6, any::<prop::sample::Index>())
        .prop_map(|(tree, hoist, which)| match hoist {
            0 => hoist_into(tree, "$defs", &which),
            1 => hoist_into(tree, "definitions", &which),
            _ => tree,
        })
        .boxed()
}

fn non_absent(form: TypeForm) -> TypeForm {
    match form {
        TypeForm::Absent => TypeForm::Single,
        other => other,
    }
}

/// Moves one subschema of `root` (a property, the items, a branch…) into `root[keyword].d` and
/// points at it with a `$ref`.
fn hoist_into(mut root: Value, keyword: &str, which: &prop::sample::Index) -> Value {
    let count = count_subschemas(&root);
    if count == 0 || !root.is_object() {
        return root;
    }
    let mut target = which.index(count);
    let reference = json!({"$ref": format!("#/{keyword}/d")});
    let Some(moved) = replace_subschema(&mut root, &mut target, reference) else {
        return root;
    };
    let mut defs = Map::new();
    defs.insert("d".to_owned(), moved);
    root[keyword] = Value::Object(defs);
    root
}

fn children_mut(node: &mut Value) -> Vec<&mut Value> {
    let Value::Object(map) = node else {
        return Vec::new();
    };
    let mut children = Vec::new();
    for (key, value) in map.iter_mut() {
        match key.as_str() {
            "items" | "additionalProperties" if value.is_object() => children.push(value),
            "properties" => {
                if let Value::Object(properties) = value {
                    children.extend(properties.values_mut());
                }
            }
            "oneOf" | "anyOf" => {
                if let Value::Array(branches) = value {
                    children.extend(branches.iter_mut());
                }
            }
            _ => {}
        }
    }
    children
}

fn count_subschemas(node: &Value) -> usize {
    let mut copy = node.clone();
    children_mut(&mut copy)
        .into_iter()
        .map(|child| 1 + count_subschemas(child))
        .sum()
}

fn replace_subschema(node: &mut Value, target: &mut usize, reference: Value) -> Option<Value> {
    for child in children_mut(node) {
        if *target == 0 {
            return Some(std::mem::replace(child, reference));
        }
        *target -= 1;
        let below = count_subschemas(child);
        if *target < below {
            return replace_subschema(child, target, reference);
        }
        *target -= below;
    }
    None
}

/// Every `enum` member and `const` anywhere in `schema`, and `null`: values worth trying at the
/// root, where a widened `enum` would show.
pub fn listed_values(schema: &Value) -> Vec<Value> {
    let mut found = vec![Value::Null];
    collect_listed(schema, &mut found);
    found
}

fn collect_listed(node: &Value, found: &mut Vec<Value>) {
    match node {
        Value::Object(map) => {
            for (key, value) in map {
                match key.as_str() {
                    "enum" => {
                        if let Value::Array(members) = value {
                            found.extend(members.iter().cloned());
                        }
                    }
                    "const" => found.push(value.clone()),
                    _ => collect_listed(value, found),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_listed(item, found)),
        _ => {}
    }
}
