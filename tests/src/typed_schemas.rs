//! A generator of typed schemas ([`Schema`] built in code) for property tests: every typed
//! keyword (string lengths, patterns and formats; inclusive and exclusive bounds, integer
//! `multipleOf`; item counts and `uniqueItems`; closed, open and map objects with property
//! counts), `enum`, `const`, `oneOf`, nullable nodes and recursive definitions, nested three
//! levels deep. Shared by the schema engine's differential test and the streaming tests.

use dsh_tools::schema::{Property, Schema, StringFormat};
use proptest::prelude::*;
use serde_json::{Number, Value};
use std::ops::Bound;

use crate::json_values::{NAMES, scalar};
use crate::raw_schemas::PATTERNS;

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
                let mut schema = Schema::string().length(counts(min, max));
                if let Some(pattern) = pattern {
                    schema = schema.pattern(pattern).expect("valid pattern");
                }
                if let Some(format) = format {
                    schema = schema.format(StringFormat::from(format));
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
                    // Imported rather than built: the builder's `range` sets one lower and one
                    // upper bound, and the engines must also agree where a schema states an
                    // inclusive and an exclusive bound on the same side.
                    let mut document = serde_json::Map::new();
                    let kind = if integer { "integer" } else { "number" };
                    document.insert("type".to_owned(), kind.into());
                    let bounds = [
                        ("minimum", min),
                        ("maximum", max),
                        ("exclusiveMinimum", exclusive_min),
                        ("exclusiveMaximum", exclusive_max),
                        ("multipleOf", factor.map(Number::from)),
                    ];
                    for (keyword, bound) in bounds {
                        if let Some(bound) = bound {
                            document.insert(keyword.to_owned(), Value::Number(bound));
                        }
                    }
                    Schema::from_json_schema(&Value::Object(document)).expect("a typed number")
                }
            ),
        Just(Schema::boolean()),
        Just(Schema::null()),
        Just(Schema::any()),
        prop::collection::vec(scalar(), 1..4).prop_map(Schema::enumeration),
        scalar().prop_map(Schema::constant),
    ]
}

pub fn schema_strategy() -> impl Strategy<Value = Schema> {
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
                    let mut schema = Schema::array(items).item_count(counts(min, max));
                    if unique {
                        schema = schema.unique_items();
                    }
                    schema.build()
                }),
            Just(Schema::array(Schema::any()).build()),
            Just(Schema::array(Schema::any()).unique_items().build()),
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
                    object = object.property_count(counts(min, max));
                    match additional {
                        0 => object.build(),
                        1 => object.additional_properties(true).build(),
                        _ => object.additional_schema(values).build(),
                    }
                }),
            (inner.clone(), property_counts()).prop_map(|(values, (min, max))| {
                Schema::object()
                    .additional_schema(values)
                    .property_count(counts(min, max))
                    .build()
            }),
            prop::collection::vec(inner.clone(), 2..4).prop_map(Schema::one_of),
            (inner, 0u8..3).prop_map(|(leaf, shape)| recursive(leaf, shape)),
        ];
        (node, any::<bool>()).prop_map(nullable_if)
    })
}

/// The range of counts between optional inclusive bounds.
fn counts(min: Option<u64>, max: Option<u64>) -> (Bound<u64>, Bound<u64>) {
    (
        min.map_or(Bound::Unbounded, Bound::Included),
        max.map_or(Bound::Unbounded, Bound::Included),
    )
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
                Schema::array(Schema::reference("Node")).item_count(..=3),
            )
            .build(),
        _ => Schema::one_of([
            Schema::object().required("leaf", leaf).build(),
            Schema::object()
                .required("op", Schema::enumeration(["and", "or"]))
                .required(
                    "args",
                    Schema::array(Schema::reference("Node")).item_count(1..),
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
