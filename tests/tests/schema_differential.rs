//! Differential property test: for generated schemas and values, our validator accepts exactly
//! when the `jsonschema` crate (draft 2020-12) accepts the rendered schema, and `validate` is
//! `Ok` exactly when `is_valid` is true. The compiled schema ([`CompiledSchema`]) answers exactly
//! as the interpreter, violations included. Rendered schemas also import back into a model that
//! agrees.
//!
//! Values are derived from the schema (mostly valid) and mutated (wrong types, missing and extra
//! keys, numbers at and across bounds and beside multiples, `1.0` for `1`, `-0`, repeated items,
//! multi-byte strings), so both answers are exercised. Every typed keyword is generated:
//! inclusive and exclusive bounds, `multipleOf` (integer factors only: `jsonschema` divides
//! doubles where the engine reads the decimals as written), `uniqueItems`, `minProperties`,
//! `maxProperties`. `PROPTEST_CASES` sets the number of cases (default 1,000; the local
//! acceptance run uses 10,000 or more).

use std::cell::Cell;

use dsh_tools::schema::{CompiledSchema, Property, Schema, StringFormat};
use dsh_tools_tests::json_values::{NAMES, cases, scalar, value_for};
use dsh_tools_tests::raw_schemas::PATTERNS;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::Number;

/// The checked formats, and one that is only an annotation.
const FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "uuid",
    "email",
    "uri",
    "ipv4",
    "ipv6",
    "color",
];

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

fn leaf_schema() -> impl Strategy<Value = Schema> {
    prop_oneof![
        (
            prop::option::of(0u64..4),
            prop::option::of(0u64..5),
            prop::option::weighted(0.3, prop::sample::select(PATTERNS)),
            prop::option::weighted(0.3, prop::sample::select(FORMATS)),
        )
            .prop_map(|(min, max, pattern, format)| {
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
                if let Some(format) = format {
                    schema = schema.format(StringFormat::from_name(format));
                }
                schema.build()
            }),
        (
            any::<bool>(),
            prop::option::of(bound()),
            prop::option::of(bound()),
            prop::option::weighted(0.3, bound()),
            prop::option::weighted(0.3, bound()),
            prop::option::weighted(0.3, prop::sample::select(&[1_u64, 2, 3, 5, 10][..])),
        )
            .prop_map(
                |(integer, min, max, exclusive_min, exclusive_max, factor)| {
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
                    if let Some(min) = exclusive_min {
                        schema = schema.exclusive_minimum(min);
                    }
                    if let Some(max) = exclusive_max {
                        schema = schema.exclusive_maximum(max);
                    }
                    if let Some(factor) = factor {
                        schema = schema.multiple_of(factor).expect("a factor above 0");
                    }
                    schema.build()
                }
            ),
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
                prop::option::of(0u64..4),
                prop::bool::weighted(0.3),
            )
                .prop_map(|(items, min, max, unique)| {
                    let mut schema = Schema::array(items);
                    if let Some(min) = min {
                        schema = schema.min_items(min);
                    }
                    if let Some(max) = max {
                        schema = schema.max_items(max);
                    }
                    if unique {
                        schema = schema.unique_items();
                    }
                    schema.build()
                }),
            Just(Schema::array_of_any().build()),
            Just(Schema::array_of_any().unique_items().build()),
            (
                prop::collection::vec((inner.clone(), any::<bool>()), 0..4),
                prop::sample::subsequence(NAMES, 4),
                0u8..3,
                inner.clone(),
                property_counts(),
            )
                .prop_map(|(properties, names, additional, values, (min, max))| {
                    let mut object = Schema::object();
                    for ((schema, required), name) in properties.into_iter().zip(names) {
                        object = object.property(Property {
                            name: name.to_owned(),
                            schema,
                            required,
                        });
                    }
                    if let Some(min) = min {
                        object = object.min_properties(min);
                    }
                    if let Some(max) = max {
                        object = object.max_properties(max);
                    }
                    match additional {
                        0 => object.build(),
                        1 => object.additional_properties(true).build(),
                        _ => object.additional_schema(values).build(),
                    }
                }),
            (inner.clone(), property_counts()).prop_map(|(values, (min, max))| {
                let mut map = Schema::map(values);
                if let Some(min) = min {
                    map = map.min_properties(min);
                }
                if let Some(max) = max {
                    map = map.max_properties(max);
                }
                map.build()
            }),
            prop::collection::vec(inner.clone(), 2..4).prop_map(Schema::one_of),
            (inner, 0u8..3).prop_map(|(leaf, shape)| recursive(leaf, shape)),
        ];
        (node, any::<bool>()).prop_map(nullable_if)
    })
}

/// `minProperties` and `maxProperties`, each set now and then.
fn property_counts() -> impl Strategy<Value = (Option<u64>, Option<u64>)> {
    (
        prop::option::weighted(0.2, 0u64..3),
        prop::option::weighted(0.2, 0u64..4),
    )
}

/// A recursive definition around `leaf`: a list (`next`), a tree (`children`) or an expression
/// (`oneOf` of a leaf and an operator over two of itself).
fn recursive(leaf: Schema, shape: u8) -> Schema {
    let body = match shape {
        0 => Schema::object()
            .required("value", leaf)
            .optional("next", Schema::reference("Node").nullable())
            .build(),
        1 => Schema::object()
            .optional("value", leaf)
            .required(
                "children",
                Schema::array(Schema::reference("Node")).max_items(3),
            )
            .build(),
        _ => Schema::one_of([
            Schema::object().required("leaf", leaf).build(),
            Schema::object()
                .required("op", Schema::enumeration(["and", "or"]))
                .required(
                    "args",
                    Schema::array(Schema::reference("Node")).min_items(1),
                )
                .build(),
        ]),
    };
    Schema::definition("Node", body)
}

fn nullable_if((schema, nullable): (Schema, bool)) -> Schema {
    if nullable {
        schema.nullable().description("nullable")
    } else {
        schema
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
        let validator = dsh_tools_tests::oracle::validator(&rendered)
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
        let compiled: CompiledSchema = schema.compile();
        prop_assert_eq!(
            compiled.is_valid(&value),
            ours,
            "the compiled schema disagrees with the interpreter\nschema: {}\nvalue: {}",
            rendered,
            value
        );
        prop_assert_eq!(
            &compiled.validate(&value),
            &validated,
            "the compiled schema reports differently\nschema: {}\nvalue: {}",
            rendered,
            value
        );
        prop_assert_eq!(
            compiled.validate_output(&value),
            schema.validate_output(&value),
            "the compiled schema reports output differently"
        );
        prop_assert_eq!(
            validated.is_ok(),
            ours,
            "validate disagrees with is_valid: {:?}",
            validated
        );
        if let Err(violations) = &validated {
            prop_assert!(violations.total() > 0);
            prop_assert!(violations.iter().all(|v| !v.message().is_empty()));
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
