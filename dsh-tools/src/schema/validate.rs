//! The schema interpreter: checks a JSON value against a [`Schema`] and reports every violation in
//! the stable order (missing required keys, declared properties in declaration order with nested
//! violations inline, then undeclared keys in payload order; arrays by index).
//!
//! Recursion follows the schema, never the value: an `Any` node or a type mismatch stops the walk,
//! so a hostile, deeply nested value costs one step.

use std::cmp::Ordering;

use serde_json::{Number, Value};

use super::model::{
    AdditionalProperties, NumberRules, ObjectRules, Schema, SchemaKind, StringRules,
};
use super::violation::{JsonType, ValidationContext, ViolationKind, Violations};

/// Deepest schema nesting the interpreter follows before reporting `TooDeep`.
pub(crate) const MAX_VALIDATION_DEPTH: usize = 256;

impl Schema {
    /// Validates a tool's arguments; the error lists every violation.
    pub fn validate(&self, value: &Value) -> Result<(), Violations> {
        let mut cx = ValidationContext::for_arguments();
        self.validate_in(value, &mut cx);
        cx.finish()
    }

    /// Validates a tool's output value (paths are rooted at `value`).
    pub fn validate_output(&self, value: &Value) -> Result<(), Violations> {
        let mut cx = ValidationContext::for_output();
        self.validate_in(value, &mut cx);
        cx.finish()
    }

    /// Whether `value` matches, without collecting anything.
    pub fn is_valid(&self, value: &Value) -> bool {
        is_valid_at(self, value, 0)
    }

    /// Validates `value` at the context's current path, reporting into `cx`; `true` when this
    /// node added no violation.
    pub fn validate_in<'v>(&'v self, value: &'v Value, cx: &mut ValidationContext<'v>) -> bool {
        let before = cx.count();
        validate_node(self, value, cx);
        cx.count() == before
    }
}

fn validate_node<'v>(schema: &'v Schema, value: &'v Value, cx: &mut ValidationContext<'v>) {
    if value.is_null() && schema.nullable {
        return;
    }
    if cx.depth() > MAX_VALIDATION_DEPTH {
        cx.report(ViolationKind::TooDeep(MAX_VALIDATION_DEPTH), value);
        return;
    }
    let nullable = schema.nullable;
    match &schema.kind {
        SchemaKind::String(rules) => match value {
            Value::String(text) => {
                if let Some(kind) = string_violation(rules, text) {
                    cx.report(kind, value);
                }
            }
            _ => cx.report(type_error(JsonType::String, nullable), value),
        },
        SchemaKind::Number(rules) => match value {
            Value::Number(number) => {
                if let Some(kind) = bound_violation(rules, number) {
                    cx.report(kind, value);
                }
            }
            _ => cx.report(type_error(JsonType::Number, nullable), value),
        },
        SchemaKind::Integer(rules) => match value {
            Value::Number(number) if is_integral(number) => {
                if let Some(kind) = bound_violation(rules, number) {
                    cx.report(kind, value);
                }
            }
            _ => cx.report(ViolationKind::NotInteger, value),
        },
        SchemaKind::Boolean => {
            if !value.is_boolean() {
                cx.report(type_error(JsonType::Boolean, nullable), value);
            }
        }
        SchemaKind::Null => {
            if !value.is_null() {
                cx.report(type_error(JsonType::Null, false), value);
            }
        }
        SchemaKind::Array(rules) => match value {
            Value::Array(items) => {
                let len = items.len() as u64;
                if let Some(min) = rules.min_items.filter(|min| len < *min) {
                    cx.report(ViolationKind::MinItems(min), value);
                } else if let Some(max) = rules.max_items.filter(|max| len > *max) {
                    cx.report(ViolationKind::MaxItems(max), value);
                }
                if let Some(item_schema) = &rules.items {
                    for (index, item) in items.iter().enumerate() {
                        cx.push_index(index);
                        validate_node(item_schema, item, cx);
                        cx.pop();
                    }
                }
            }
            _ => cx.report(type_error(JsonType::Array, nullable), value),
        },
        SchemaKind::Object(rules) => match value {
            Value::Object(map) => validate_object(rules, map, cx),
            _ => cx.report(type_error(JsonType::Object, nullable), value),
        },
        SchemaKind::Any => {}
        SchemaKind::Enum(members) => {
            if !members.iter().any(|member| json_equal(member, value)) {
                cx.report(ViolationKind::NotInEnum(members), value);
            }
        }
        SchemaKind::Const(constant) => {
            if !json_equal(constant, value) {
                cx.report(ViolationKind::NotConst(constant), value);
            }
        }
        SchemaKind::OneOf(branches) => {
            let depth = cx.depth() + 1;
            let matched = branches
                .iter()
                .filter(|branch| is_valid_at(branch, value, depth))
                .count();
            if matched != 1 {
                cx.report(ViolationKind::OneOf { matched }, value);
            }
        }
    }
}

fn validate_object<'v>(
    rules: &'v ObjectRules,
    map: &'v serde_json::Map<String, Value>,
    cx: &mut ValidationContext<'v>,
) {
    for property in rules.properties.iter().filter(|property| property.required) {
        if !map.contains_key(&property.name) {
            cx.report_missing(&property.name);
        }
    }
    for property in &rules.properties {
        if let Some(item) = map.get(&property.name) {
            cx.push_key(&property.name);
            validate_node(&property.schema, item, cx);
            cx.pop();
        }
    }
    if matches!(rules.additional, AdditionalProperties::Allowed) {
        return;
    }
    for (key, item) in map {
        if rules
            .properties
            .iter()
            .any(|property| property.name == *key)
        {
            continue;
        }
        match &rules.additional {
            AdditionalProperties::Forbidden => cx.report_undeclared(key, item),
            AdditionalProperties::Schema(schema) => {
                cx.push_key(key);
                validate_node(schema, item, cx);
                cx.pop();
            }
            AdditionalProperties::Allowed => {}
        }
    }
}

fn is_valid_at(schema: &Schema, value: &Value, depth: usize) -> bool {
    if value.is_null() && schema.nullable {
        return true;
    }
    if depth > MAX_VALIDATION_DEPTH {
        return false;
    }
    match &schema.kind {
        SchemaKind::String(rules) => value
            .as_str()
            .is_some_and(|text| string_violation(rules, text).is_none()),
        SchemaKind::Number(rules) => value
            .as_number()
            .is_some_and(|number| bound_violation(rules, number).is_none()),
        SchemaKind::Integer(rules) => value
            .as_number()
            .is_some_and(|number| is_integral(number) && bound_violation(rules, number).is_none()),
        SchemaKind::Boolean => value.is_boolean(),
        SchemaKind::Null => value.is_null(),
        SchemaKind::Array(rules) => value.as_array().is_some_and(|items| {
            let len = items.len() as u64;
            rules.min_items.is_none_or(|min| len >= min)
                && rules.max_items.is_none_or(|max| len <= max)
                && rules.items.as_ref().is_none_or(|item_schema| {
                    items
                        .iter()
                        .all(|item| is_valid_at(item_schema, item, depth + 1))
                })
        }),
        SchemaKind::Object(rules) => value.as_object().is_some_and(|map| {
            rules
                .properties
                .iter()
                .all(|property| match map.get(&property.name) {
                    Some(item) => is_valid_at(&property.schema, item, depth + 1),
                    None => !property.required,
                })
                && match &rules.additional {
                    AdditionalProperties::Allowed => true,
                    AdditionalProperties::Forbidden => map.keys().all(|key| {
                        rules
                            .properties
                            .iter()
                            .any(|property| property.name == *key)
                    }),
                    AdditionalProperties::Schema(schema) => map.iter().all(|(key, item)| {
                        rules
                            .properties
                            .iter()
                            .any(|property| property.name == *key)
                            || is_valid_at(schema, item, depth + 1)
                    }),
                }
        }),
        SchemaKind::Any => true,
        SchemaKind::Enum(members) => members.iter().any(|member| json_equal(member, value)),
        SchemaKind::Const(constant) => json_equal(constant, value),
        SchemaKind::OneOf(branches) => {
            branches
                .iter()
                .filter(|branch| is_valid_at(branch, value, depth + 1))
                .count()
                == 1
        }
    }
}

fn type_error(expected: JsonType, nullable: bool) -> ViolationKind<'static> {
    ViolationKind::Type { expected, nullable }
}

/// The first string constraint `text` breaks (one violation per scalar).
fn string_violation<'s>(rules: &'s StringRules, text: &str) -> Option<ViolationKind<'s>> {
    if rules.min_length.is_some() || rules.max_length.is_some() {
        let length = text.chars().count() as u64;
        if let Some(min) = rules.min_length.filter(|min| length < *min) {
            return Some(ViolationKind::MinLength(min));
        }
        if let Some(max) = rules.max_length.filter(|max| length > *max) {
            return Some(ViolationKind::MaxLength(max));
        }
    }
    match &rules.pattern {
        Some(pattern) if !pattern.is_match(text) => Some(ViolationKind::Pattern(pattern.as_str())),
        _ => None,
    }
}

/// The first bound `number` breaks.
fn bound_violation<'s>(rules: &'s NumberRules, number: &Number) -> Option<ViolationKind<'s>> {
    if let Some(min) = &rules.minimum
        && compare_numbers(number, min) == Ordering::Less
    {
        return Some(ViolationKind::Minimum(min));
    }
    if let Some(max) = &rules.maximum
        && compare_numbers(number, max) == Ordering::Greater
    {
        return Some(ViolationKind::Maximum(max));
    }
    None
}

/// Whether a JSON number has no fractional part (`1`, `1.0`, `1e3`, `-0`).
pub(crate) fn is_integral(number: &Number) -> bool {
    number.is_i64() || number.is_u64() || number.as_f64().is_some_and(|f| f.fract() == 0.0)
}

/// Exact numeric order of two JSON numbers (integers beyond 2^53 included).
pub(crate) fn compare_numbers(a: &Number, b: &Number) -> Ordering {
    match (exact_integer(a), exact_integer(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => {
            let x = a.as_f64().unwrap_or(f64::NAN);
            let y = b.as_f64().unwrap_or(f64::NAN);
            // A non-integral float is below 2^53 in magnitude, so rounding the other side to f64
            // cannot move it across: the f64 order is exact here.
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
    }
}

/// The number as an exact integer, when it is one (floats included while in `i128` range).
fn exact_integer(number: &Number) -> Option<i128> {
    if let Some(i) = number.as_i64() {
        return Some(i128::from(i));
    }
    if let Some(u) = number.as_u64() {
        return Some(i128::from(u));
    }
    let f = number.as_f64()?;
    // 2^127 bounds i128; every float of that magnitude or more is out of range.
    const LIMIT: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
    (f.fract() == 0.0 && f.abs() < LIMIT).then_some(f as i128)
}

/// JSON equality: numbers by value (`1 == 1.0`), containers element-wise.
pub(crate) fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare_numbers(x, y) == Ordering::Equal,
        (Value::Array(xs), Value::Array(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| json_equal(x, y))
        }
        (Value::Object(xs), Value::Object(ys)) => {
            xs.len() == ys.len()
                && xs
                    .iter()
                    .all(|(key, x)| ys.get(key).is_some_and(|y| json_equal(x, y)))
        }
        _ => a == b,
    }
}
