//! Differential property test: for generated schemas and values, our validator accepts exactly
//! when the `jsonschema` crate (draft 2020-12) accepts the rendered schema, and `validate` is
//! `Ok` exactly when `is_valid` is true. Rendered schemas also import back into a model that
//! agrees.
//!
//! Values are derived from the schema (mostly valid) and mutated (wrong types, missing and extra
//! keys, numbers at and across bounds, `1.0` for `1`, `-0`, multi-byte strings), so both
//! answers are exercised. `PROPTEST_CASES` sets the number of cases (default 1,000; the local
//! acceptance run uses 10,000 or more).

use std::cell::Cell;

use dsh_tools::schema::{Property, Schema};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Map, Number, Value, json};

/// Patterns that mean the same in Rust's `regex` and ECMA-262 (no `.`, `\d`, `\w`, flags).
const PATTERNS: &[&str] = &["^a", "b$", "^[a-c]*$", "é", "^(ab)+$", "[0-9]"];

/// Strings around the lengths and patterns above: empty, ASCII, two- and four-byte code points.
const STRINGS: &[&str] = &[
    "",
    "a",
    "b",
    "ab",
    "abab",
    "abc",
    "cab",
    "x",
    "xyz",
    "a1",
    "é",
    "éé",
    "😀",
    "😀😀😀",
    "aé😀",
    "0",
    "zzzz",
    "ccba",
    "name",
];

const NAMES: &[&str] = &["a", "b", "path", "max_results", "é", "a.b", ""];
const EXTRA_NAMES: &[&str] = &["x", "extra", "A", "b"];

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(1_000)
}

fn number(value: f64) -> Value {
    Value::Number(Number::from_f64(value).expect("finite"))
}

/// Scalars with the number forms JSON Schema treats as equal (`1`, `1.0`, `-0`, `0`).
fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(1)),
        Just(number(1.0)),
        Just(json!(2)),
        Just(json!(0)),
        Just(number(-0.0)),
        Just(number(2.5)),
        Just(json!(-1)),
        Just(json!(u64::MAX)),
        Just(json!(i64::MIN)),
        Just(json!(true)),
        Just(json!(false)),
        Just(Value::Null),
        prop::sample::select(STRINGS).prop_map(Value::from),
    ]
}

/// Number bounds, including the edges of the exact integer ranges.
fn bound() -> impl Strategy<Value = Number> {
    prop_oneof![
        Just(Number::from(0)),
        Just(Number::from(1)),
        Just(Number::from(-1)),
        Just(Number::from(10)),
        Just(Number::from(u64::MAX)),
        Just(Number::from(i64::MIN)),
        Just(Number::from(9_007_199_254_740_993_u64)),
        Just(Number::from_f64(2.5).unwrap()),
        Just(Number::from_f64(-0.0).unwrap()),
        Just(Number::from_f64(1e3).unwrap()),
        (-20i64..20).prop_map(Number::from),
    ]
}

/// Any JSON value, small.
fn any_json() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(NAMES), inner), 0..3).prop_map(|entries| {
                Value::Object(
                    entries
                        .into_iter()
                        .map(|(key, value)| (key.to_owned(), value))
                        .collect(),
                )
            }),
        ]
    })
}

fn leaf_schema() -> impl Strategy<Value = Schema> {
    prop_oneof![
        (
            prop::option::of(0u64..4),
            prop::option::of(0u64..5),
            prop::option::weighted(0.3, prop::sample::select(PATTERNS)),
        )
            .prop_map(|(min, max, pattern)| {
                let mut schema = Schema::string();
                if let Some(min) = min {
                    schema = schema.min_length(min);
                }
                if let Some(max) = max {
                    schema = schema.max_length(max);
                }
                if let Some(pattern) = pattern {
                    schema = schema.pattern(pattern).expect("valid pattern");
                }
                schema.build()
            }),
        (
            any::<bool>(),
            prop::option::of(bound()),
            prop::option::of(bound())
        )
            .prop_map(|(integer, min, max)| {
                let mut schema = if integer {
                    Schema::integer()
                } else {
                    Schema::number()
                };
                if let Some(min) = min {
                    schema = schema.minimum(min);
                }
                if let Some(max) = max {
                    schema = schema.maximum(max);
                }
                schema.build()
            }),
        Just(Schema::boolean()),
        Just(Schema::null()),
        Just(Schema::any()),
        prop::collection::vec(scalar(), 1..4).prop_map(Schema::enumeration),
        scalar().prop_map(Schema::constant),
    ]
}

fn schema_strategy() -> impl Strategy<Value = Schema> {
    let decorated_leaf = (leaf_schema(), any::<bool>()).prop_map(nullable_if);
    decorated_leaf.prop_recursive(3, 24, 4, |inner| {
        let node = prop_oneof![
            (
                inner.clone(),
                prop::option::of(0u64..3),
                prop::option::of(0u64..4)
            )
                .prop_map(|(items, min, max)| {
                    let mut schema = Schema::array(items);
                    if let Some(min) = min {
                        schema = schema.min_items(min);
                    }
                    if let Some(max) = max {
                        schema = schema.max_items(max);
                    }
                    schema.build()
                }),
            Just(Schema::array_of_any().build()),
            (
                prop::collection::vec((inner.clone(), any::<bool>()), 0..4),
                prop::sample::subsequence(NAMES, 4),
                0u8..3,
                inner.clone(),
            )
                .prop_map(|(properties, names, additional, values)| {
                    let mut object = Schema::object();
                    for ((schema, required), name) in properties.into_iter().zip(names) {
                        object = object.property(Property {
                            name: name.to_owned(),
                            schema,
                            required,
                        });
                    }
                    match additional {
                        0 => object.build(),
                        1 => object.additional_properties(true).build(),
                        _ => object.additional_schema(values).build(),
                    }
                }),
            inner.clone().prop_map(|values| Schema::map(values).build()),
            prop::collection::vec(inner, 2..4).prop_map(Schema::one_of),
        ];
        (node, any::<bool>()).prop_map(nullable_if)
    })
}

fn nullable_if((schema, nullable): (Schema, bool)) -> Schema {
    if nullable {
        schema.nullable().description("nullable")
    } else {
        schema
    }
}

/// A value shaped by `schema`: mostly valid, often subtly not, sometimes anything.
fn value_for(schema: &Schema) -> BoxedStrategy<Value> {
    let near = near_value(schema);
    let null = Just(Value::Null);
    prop_oneof![
        12 => near,
        1 => null,
        1 => any_json(),
    ]
    .boxed()
}

fn near_value(schema: &Schema) -> BoxedStrategy<Value> {
    use dsh_tools::schema::{AdditionalProperties, SchemaKind};
    match &schema.kind {
        SchemaKind::String(_) => prop::sample::select(STRINGS).prop_map(Value::from).boxed(),
        SchemaKind::Number(rules) | SchemaKind::Integer(rules) => {
            let mut candidates = vec![
                json!(0),
                number(-0.0),
                json!(1),
                number(1.0),
                number(1e3),
                number(0.5),
                json!(-3),
            ];
            for bound in rules.minimum.iter().chain(&rules.maximum) {
                candidates.push(Value::Number(bound.clone()));
                if let Some(f) = bound.as_f64() {
                    for delta in [-1.0, -0.5, 0.5, 1.0] {
                        if let Some(n) = Number::from_f64(f + delta) {
                            candidates.push(Value::Number(n));
                        }
                    }
                    if let Some(n) = Number::from_f64(f) {
                        candidates.push(Value::Number(n));
                    }
                }
                if let Some(i) = bound.as_i64() {
                    candidates.push(json!(i.saturating_add(1)));
                    candidates.push(json!(i.saturating_sub(1)));
                }
                if let Some(u) = bound.as_u64() {
                    candidates.push(json!(u.saturating_add(1)));
                    candidates.push(json!(u.saturating_sub(1)));
                }
            }
            prop::sample::select(candidates).boxed()
        }
        SchemaKind::Boolean => any::<bool>().prop_map(Value::Bool).boxed(),
        SchemaKind::Null => Just(Value::Null).boxed(),
        SchemaKind::Any => any_json().boxed(),
        SchemaKind::Enum(members) => {
            let members = members.clone();
            prop_oneof![
                4 => prop::sample::select(members).prop_map(flip_number_form),
                1 => scalar(),
            ]
            .boxed()
        }
        SchemaKind::Const(constant) => prop_oneof![
            4 => Just(flip_number_form(constant.clone())),
            1 => scalar(),
        ]
        .boxed(),
        SchemaKind::OneOf(branches) => {
            let options: Vec<BoxedStrategy<Value>> = branches.iter().map(value_for).collect();
            prop::strategy::Union::new(options).boxed()
        }
        SchemaKind::Array(rules) => {
            let item = match &rules.items {
                Some(items) => value_for(items),
                None => any_json().boxed(),
            };
            prop::collection::vec(item, 0..5)
                .prop_map(Value::Array)
                .boxed()
        }
        SchemaKind::Object(rules) => {
            let declared: Vec<BoxedStrategy<Option<(String, Value)>>> = rules
                .properties
                .iter()
                .map(|property| {
                    let name = property.name.clone();
                    let presence = if property.required { 0.9 } else { 0.5 };
                    prop::option::weighted(presence, value_for(&property.schema))
                        .prop_map(move |value| value.map(|value| (name.clone(), value)))
                        .boxed()
                })
                .collect();
            let extra_value = match &rules.additional {
                AdditionalProperties::Schema(values) => value_for(values),
                _ => any_json().boxed(),
            };
            let extras =
                prop::collection::vec((prop::sample::select(EXTRA_NAMES), extra_value), 0..2);
            (declared, extras, any::<bool>())
                .prop_map(|(declared, extras, extras_first)| {
                    let declared = declared.into_iter().flatten();
                    let extras = extras
                        .into_iter()
                        .map(|(key, value)| (key.to_owned(), value));
                    let map: Map<String, Value> = if extras_first {
                        extras.chain(declared).collect()
                    } else {
                        declared.chain(extras).collect()
                    };
                    Value::Object(map)
                })
                .boxed()
        }
    }
}

/// `1` ↔ `1.0` for integral numbers, so equal-by-value forms meet `enum` and `const`.
fn flip_number_form(value: Value) -> Value {
    match &value {
        Value::Number(n) if n.is_f64() => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => json!(f as i64),
            _ => value,
        },
        Value::Number(n) => match n.as_i64() {
            Some(i) if i.unsigned_abs() < 1 << 52 => number(i as f64),
            _ => value,
        },
        _ => value,
    }
}

#[test]
fn validator_agrees_with_jsonschema_on_rendered_schemas() {
    let cases = cases();
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let valid = Cell::new(0u32);
    let invalid = Cell::new(0u32);
    let strategy = schema_strategy().prop_flat_map(|schema| {
        let value = value_for(&schema);
        (Just(schema), value)
    });
    let result = runner.run(&strategy, |(schema, value)| {
        let rendered = schema.to_json_schema();
        let validator = jsonschema::draft202012::new(&rendered)
            .map_err(|error| TestCaseError::fail(format!("rendered schema rejected: {error}")))?;
        let theirs = validator.is_valid(&value);
        let ours = schema.is_valid(&value);
        let validated = schema.validate(&value);
        prop_assert_eq!(
            ours,
            theirs,
            "is_valid disagrees with jsonschema\nschema: {}\nvalue: {}",
            rendered,
            value
        );
        prop_assert_eq!(
            validated.is_ok(),
            ours,
            "validate disagrees with is_valid: {:?}",
            validated
        );
        if let Err(violations) = &validated {
            prop_assert!(violations.total() > 0);
            prop_assert!(violations.iter().all(|v| !v.message.is_empty()));
        }
        prop_assert_eq!(
            schema.validate_output(&value).is_ok(),
            ours,
            "validate_output disagrees"
        );
        // What we render imports back into a model that means the same.
        match Schema::from_json_schema(&rendered) {
            Ok(imported) => prop_assert_eq!(
                imported.is_valid(&value),
                ours,
                "re-imported schema disagrees\nschema: {}\nvalue: {}",
                rendered,
                value
            ),
            Err(error) => {
                return Err(TestCaseError::fail(format!(
                    "rendered schema does not import: {error}\nschema: {rendered}"
                )));
            }
        }
        if ours {
            valid.set(valid.get() + 1);
        } else {
            invalid.set(invalid.get() + 1);
        }
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
    eprintln!(
        "differential: {cases} cases, {} valid, {} invalid, 0 disagreements",
        valid.get(),
        invalid.get()
    );
    if cases >= 200 {
        // Both answers must be exercised for the agreement to mean anything.
        assert!(
            valid.get() * 10 >= cases,
            "too few valid values: {}",
            valid.get()
        );
        assert!(
            invalid.get() * 10 >= cases,
            "too few invalid values: {}",
            invalid.get()
        );
    }
}
