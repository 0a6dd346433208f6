//! Generators of JSON values for property tests: values shaped by a schema (mostly valid, often
//! subtly not, sometimes anything), scalars in the number forms JSON Schema treats as equal, and
//! small arbitrary JSON. Shared by the differential tests of the schema engine and the macros.

use dsh_tools::schema::Schema;
use proptest::prelude::*;
use serde_json::{Map, Number, Value, json};

/// Strings around the lengths and patterns above: empty, ASCII, two- and four-byte code points.
pub const STRINGS: &[&str] = &[
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

/// Strings in (and just outside) the checked formats, for string schemas with a `format`.
pub const FORMAT_STRINGS: &[&str] = &[
    "2026-12-02T10:00:00Z",
    "2026-12-02T10:00:00",
    "2026-02-30",
    "2024-02-29",
    "23:59:60Z",
    "10:00:00+01:00",
    "P1DT2H",
    "PT",
    "2eb8aa08-aa98-11ea-b4aa-73b441d16380",
    "2eb8aa08aa9811eab4aa73b441d16380",
    "someone@example.com",
    "some..one@example.com",
    "https://example.com/a?b#c",
    "example.com",
    "192.168.0.1",
    "192.168.0.01",
    "::1",
    "1::2::3",
];

pub const NAMES: &[&str] = &["a", "b", "path", "max_results", "é", "a.b", ""];
pub const EXTRA_NAMES: &[&str] = &["x", "extra", "A", "b"];

/// The number of cases: `PROPTEST_CASES`, or 1,000.
pub fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(1_000)
}

/// A finite float as a JSON number.
pub fn number(value: f64) -> Value {
    Value::Number(Number::from_f64(value).expect("finite"))
}

/// Scalars with the number forms JSON Schema treats as equal (`1`, `1.0`, `-0`, `0`).
pub fn scalar() -> impl Strategy<Value = Value> {
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

/// Any JSON value, small.
pub fn any_json() -> impl Strategy<Value = Value> {
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

/// A value shaped by `schema`: mostly valid, often subtly not, sometimes anything.
pub fn value_for(schema: &Schema) -> BoxedStrategy<Value> {
    let near = near_value(schema);
    let null = Just(Value::Null);
    prop_oneof![
        12 => near,
        1 => null,
        1 => any_json(),
    ]
    .boxed()
}

/// A value close to what `schema` accepts.
pub fn near_value(schema: &Schema) -> BoxedStrategy<Value> {
    use dsh_tools::schema::{AdditionalProperties, SchemaKind};
    match &schema.kind {
        SchemaKind::String(rules) if rules.matching.format.is_some() => {
            prop::sample::select([STRINGS, FORMAT_STRINGS].concat())
                .prop_map(Value::from)
                .boxed()
        }
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
            let bounds = [
                rules.minimum.as_ref(),
                rules.maximum.as_ref(),
                rules.exclusive_minimum(),
                rules.exclusive_maximum(),
            ];
            for bound in bounds.into_iter().flatten() {
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
            // An exclusive bound itself is the value most likely to be misjudged: drawn often.
            for bound in [rules.exclusive_minimum(), rules.exclusive_maximum()]
                .into_iter()
                .flatten()
            {
                candidates.extend([Value::Number(bound.clone()), Value::Number(bound.clone())]);
                candidates.extend(bound.as_f64().and_then(Number::from_f64).map(Value::Number));
            }
            if let Some(factor) = rules.multiple_of() {
                candidates.push(Value::Number(factor.clone()));
                if let Some(f) = factor.as_i64() {
                    for multiple in [2, 3, -1, -4] {
                        candidates.push(json!(f.saturating_mul(multiple)));
                    }
                    candidates.push(json!(f.saturating_add(1)));
                    candidates.push(number(f.saturating_mul(2) as f64));
                }
                // Past 2^53 a float's shortest text is not its value: `multipleOf` is decided
                // on the decimal JSON wrote, where `jsonschema` divides the double.
                candidates.retain(|candidate| {
                    !candidate.as_number().is_some_and(|n| {
                        n.is_f64()
                            && n.as_f64()
                                .is_some_and(|f| f.abs() >= 9_007_199_254_740_992.0)
                    })
                });
            }
            prop::sample::select(candidates).boxed()
        }
        SchemaKind::Boolean => any::<bool>().prop_map(Value::Bool).boxed(),
        SchemaKind::Null => Just(Value::Null).boxed(),
        // A keyword document's values come from its generator's own corpus.
        SchemaKind::Keywords(_) => any_json().boxed(),
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
            // Often a repeat of an earlier item, in the same or the other number form.
            (
                prop::collection::vec(item, 0..5),
                any::<bool>(),
                any::<usize>(),
            )
                .prop_map(|(mut items, repeat, pick)| {
                    if repeat && !items.is_empty() {
                        let earlier = flip_number_form(items[pick % items.len()].clone());
                        let at = pick % (items.len() + 1);
                        items.insert(at, earlier);
                    }
                    Value::Array(items)
                })
                .boxed()
        }
        SchemaKind::Defined(_) | SchemaKind::Ref(_) => near_value(&unfolded(schema)),
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

/// `items` with every item equal to an earlier one (JSON equality) left out.
pub fn without_repeats(items: Vec<Value>) -> Vec<Value> {
    let mut kept: Vec<Value> = Vec::with_capacity(items.len());
    for item in items {
        // A `const` compares by JSON equality, numbers by value.
        if !kept
            .iter()
            .any(|earlier| Schema::constant(earlier.clone()).is_valid(&item))
        {
            kept.push(item);
        }
    }
    kept
}

/// `1` ↔ `1.0` for integral numbers, so equal-by-value forms meet `enum` and `const`.
pub fn flip_number_form(value: Value) -> Value {
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

/// A value `schema` accepts (nearly always: leaves are drawn from [`near_value`] and filtered,
/// containers are built from valid parts), for properties that need many valid samples of large
/// schemas.
pub fn valid_value(schema: &Schema) -> BoxedStrategy<Value> {
    use dsh_tools::schema::{AdditionalProperties, SchemaKind};
    let non_null = match &schema.kind {
        SchemaKind::Defined(_) | SchemaKind::Ref(_) => valid_value(&unfolded(schema)),
        SchemaKind::Array(rules) => {
            let item = match &rules.items {
                Some(items) => valid_value(items),
                None => any_json().boxed(),
            };
            let min = rules.constraints.min_items.unwrap_or(0) as usize;
            let max = rules
                .constraints
                .max_items
                .map_or(min + 3, |max| max as usize)
                .max(min);
            let unique = rules.constraints.unique_items;
            prop::collection::vec(item, min..=max)
                .prop_map(move |items| {
                    Value::Array(if unique {
                        without_repeats(items)
                    } else {
                        items
                    })
                })
                .boxed()
        }
        SchemaKind::Object(rules) => {
            let declared: Vec<BoxedStrategy<Option<(String, Value)>>> = rules
                .properties
                .iter()
                .map(|property| {
                    let name = property.name.clone();
                    let value = valid_value(&property.schema);
                    if property.required {
                        value
                            .prop_map(move |value| Some((name.clone(), value)))
                            .boxed()
                    } else {
                        prop::option::weighted(0.6, value)
                            .prop_map(move |value| value.map(|value| (name.clone(), value)))
                            .boxed()
                    }
                })
                .collect();
            let extras = match &rules.additional {
                AdditionalProperties::Schema(values) => prop::collection::vec(
                    (prop::sample::select(EXTRA_NAMES), valid_value(values)),
                    0..3,
                )
                .boxed(),
                _ => Just(Vec::new()).boxed(),
            };
            let declared_names: Vec<String> = rules
                .properties
                .iter()
                .map(|property| property.name.clone())
                .collect();
            let max_properties = rules
                .constraints
                .max_properties
                .map_or(usize::MAX, |max| max as usize);
            (declared, extras)
                .prop_map(move |(declared, extras)| {
                    let mut map: Map<String, Value> = declared.into_iter().flatten().collect();
                    for (key, value) in extras {
                        if map.len() < max_properties
                            && !declared_names.iter().any(|name| name == key)
                        {
                            map.insert(key.to_owned(), value);
                        }
                    }
                    Value::Object(map)
                })
                .boxed()
        }
        SchemaKind::OneOf(branches) => {
            let options: Vec<BoxedStrategy<Value>> = branches.iter().map(valid_value).collect();
            let whole = schema.clone();
            prop::strategy::Union::new(options)
                .prop_filter("matches exactly one branch", move |value| {
                    whole.is_valid(value)
                })
                .boxed()
        }
        _ => {
            let leaf = schema.clone();
            near_value(schema)
                .prop_filter("valid leaf", move |value| leaf.is_valid(value))
                .boxed()
        }
    };
    if schema.nullable {
        prop_oneof![7 => non_null, 1 => Just(Value::Null)].boxed()
    } else {
        non_null
    }
}

/// A value `schema` accepts but for one property: for an object schema, a valid object with one
/// declared property's value replaced by a near one (so a mistake about that property alone is
/// not hidden behind others'); for any other schema, [`value_for`].
pub fn one_off(schema: &Schema) -> BoxedStrategy<Value> {
    use dsh_tools::schema::SchemaKind;
    let SchemaKind::Object(rules) = &schema.kind else {
        return value_for(schema);
    };
    if rules.properties.is_empty() {
        return value_for(schema);
    }
    let options: Vec<BoxedStrategy<Value>> = rules
        .properties
        .iter()
        .map(|property| {
            let name = property.name.clone();
            (valid_value(schema), value_for(&property.schema))
                .prop_map(move |(mut object, near)| {
                    if let Value::Object(map) = &mut object {
                        map.insert(name.clone(), near);
                    }
                    object
                })
                .boxed()
        })
        .collect();
    prop::strategy::Union::new(options).boxed()
}

/// How many times [`unfolded`] expands a reference to the same definition.
pub const UNFOLDINGS: usize = 3;

/// `schema` without definitions, for generating values: each definition inlined, and each
/// reference expanded into its definition's schema up to [`UNFOLDINGS`] times, then `null`.
/// Values are generated from the result and checked against the recursive original.
pub fn unfolded(schema: &Schema) -> Schema {
    unfold(schema, &mut Vec::new())
}

fn unfold<'s>(schema: &'s Schema, enclosing: &mut Vec<(&'s str, &'s Schema, usize)>) -> Schema {
    use dsh_tools::schema::{AdditionalProperties, SchemaKind};
    let mut out = schema.clone();
    match &schema.kind {
        SchemaKind::Defined(definition) => {
            enclosing.push((&definition.name, &definition.schema, 0));
            let mut inner = unfold(&definition.schema, enclosing);
            enclosing.pop();
            inner.nullable |= schema.nullable;
            return inner;
        }
        SchemaKind::Ref(name) => {
            let Some(index) = enclosing
                .iter()
                .rposition(|(defined, _, _)| defined == name)
            else {
                return Schema::null();
            };
            let (_, body, used) = enclosing[index];
            if used >= UNFOLDINGS {
                return Schema::null();
            }
            enclosing[index].2 += 1;
            let mut inner = unfold(body, enclosing);
            enclosing[index].2 -= 1;
            inner.nullable |= schema.nullable;
            return inner;
        }
        SchemaKind::Array(rules) => {
            if let (SchemaKind::Array(out_rules), Some(items)) = (&mut out.kind, &rules.items) {
                out_rules.items = Some(Box::new(unfold(items, enclosing)));
            }
        }
        SchemaKind::Object(rules) => {
            if let SchemaKind::Object(out_rules) = &mut out.kind {
                for (property, source) in out_rules.properties.iter_mut().zip(&rules.properties) {
                    property.schema = unfold(&source.schema, enclosing);
                }
                if let AdditionalProperties::Schema(values) = &rules.additional {
                    out_rules.additional =
                        AdditionalProperties::Schema(Box::new(unfold(values, enclosing)));
                }
            }
        }
        SchemaKind::OneOf(branches) => {
            out.kind = SchemaKind::OneOf(
                branches
                    .iter()
                    .map(|branch| unfold(branch, enclosing))
                    .collect(),
            );
        }
        _ => {}
    }
    out
}
