//! Definite violations: what is already wrong with a value still being written, whatever the
//! rest of its text turns out to be ([`Schema::definite_violations`]).
//!
//! The value so far is finished everywhere except along one chain of open nodes (see
//! [`OpenPath`]). A finished node is validated exactly as the final validation
//! validates it, by the same walk at the same path, so its violations are the final ones. An
//! open node reports only what no continuation can fix:
//! - its type, when the schema does not take it (an open string, object or array keeps its
//!   type; an open number stays a number);
//! - an open object: every finished member as above, an undeclared key in a closed object (the
//!   key is finished and its value has begun), more keys than `maxProperties`;
//! - an open array: its finished items, more items than `maxItems`;
//! - an open string: more characters than `maxLength`.
//!
//! Nothing is reported below a `oneOf`, a keyword document (`SchemaKind::Keywords`) or an
//! `enum`/`const` until the node is finished: which branch or member applies depends on the
//! whole value. A count (`maxItems`, `maxProperties`, `maxLength`) is reported with the count
//! so far as what was found; its path and message are the final ones.

use serde_json::{Map, Value};

use super::limits::MAX_VALIDATION_DEPTH;
use super::model::{
    AdditionalProperties, ArrayRules, ObjectRules, Schema, SchemaKind, StringRules,
};
use super::semantics::{has_at_least_code_points, has_at_most_code_points, same_key};
use super::validate::{Defs, Scope, check, walk};
use super::violation::{PathRoot, ValidationContext, ViolationKind, Violations};
use crate::partial_json::{OpenLeaf, OpenPath, OpenStep, PartialJson};

impl Schema {
    /// The violations a tool's arguments being streamed already have, which no continuation of
    /// their text can fix (see the module docs of `definite.rs` in the source for the rules),
    /// with the paths and messages the final [`validate`](Self::validate) reports them with.
    /// A prefix of valid arguments has none; once the text is finished, this is `validate`.
    ///
    /// ```
    /// use dsh_tools_schema::Schema;
    /// use dsh_tools_schema::partial_json::PartialJson;
    ///
    /// let schema = Schema::object()
    ///     .required("path", Schema::string())
    ///     .required("content", Schema::string())
    ///     .build();
    /// let mut arguments = PartialJson::new();
    /// arguments.push(r#"{"path": 7, "content": "fn main() {"#).unwrap();
    /// let violations = schema.definite_violations(&arguments).unwrap_err();
    /// assert_eq!(violations.to_string(), r#""path" must be a string"#);
    /// ```
    pub fn definite_violations(&self, partial: &PartialJson) -> Result<(), Violations> {
        let Some(value) = partial.value() else {
            return Ok(());
        };
        match partial.open_path() {
            None => self.validate(&value),
            Some(open) => self.definite_violations_in(&value, &open),
        }
    }

    /// [`definite_violations`](Self::definite_violations) of `value`, the value so far of a
    /// [`PartialJson`] (or that value rewritten where it is finished: a provider's stand-ins
    /// removed), whose open nodes are `open` ([`PartialJson::open_path`]).
    pub fn definite_violations_in(
        &self,
        value: &Value,
        open: &OpenPath<'_>,
    ) -> Result<(), Violations> {
        let mut cx = ValidationContext::new(PathRoot::Arguments);
        walk_open(self, value, &open.steps, open.leaf, &mut cx, Defs::NONE);
        cx.finish()
    }
}

/// A finished node: exactly what the final validation reports for it.
fn walk_finished<'v>(
    schema: &'v Schema,
    value: &'v Value,
    cx: &mut ValidationContext<'v>,
    defs: Defs<'_, 'v>,
) {
    if !check(schema, value, cx.depth(), defs) {
        walk(schema, None, value, cx, defs);
    }
}

/// An open node: `steps` lead on to its open member (none: `leaf` is what this node is).
fn walk_open<'v>(
    schema: &'v Schema,
    value: &'v Value,
    steps: &[OpenStep<'_>],
    leaf: OpenLeaf,
    cx: &mut ValidationContext<'v>,
    defs: Defs<'_, 'v>,
) {
    if cx.depth() >= MAX_VALIDATION_DEPTH {
        return;
    }
    let is_container = !steps.is_empty() || leaf == OpenLeaf::Container;
    match (&schema.kind, value) {
        (SchemaKind::Defined(definition), _) => {
            let scope = Scope::new(definition, defs);
            walk_open(&definition.schema, value, steps, leaf, cx, scope.defs());
        }
        (SchemaKind::Ref(name), _) => {
            if let Some(target) = defs.find(name) {
                // A level where the final validation counts one.
                let counts = !target.descends_at_once();
                if counts {
                    cx.descend();
                }
                walk_open(target, value, steps, leaf, cx, defs);
                if counts {
                    cx.ascend();
                }
            }
        }
        (SchemaKind::Object(rules), Value::Object(map)) if is_container => {
            walk_open_object(rules, map, value, steps, leaf, cx, defs);
        }
        (SchemaKind::Array(rules), Value::Array(items)) if is_container => {
            walk_open_array(rules, items, value, steps, leaf, cx, defs);
        }
        (SchemaKind::String(rules), Value::String(text)) if leaf == OpenLeaf::String => {
            check_open_string(rules, text, value, cx);
        }
        (kind, _) if takes_no_value_of_this_type(kind, value) => {
            // The final walk reports a type it does not take from the type alone, and an open
            // node's type is settled: its report is the final one.
            walk(schema, None, value, cx, defs);
        }
        _ => {}
    }
}

/// Whether `kind` is a typed kind that refuses every value of `value`'s JSON type.
fn takes_no_value_of_this_type(kind: &SchemaKind, value: &Value) -> bool {
    let takes = match kind {
        SchemaKind::String(_) => value.is_string(),
        SchemaKind::Number(_) | SchemaKind::Integer(_) => value.is_number(),
        SchemaKind::Boolean => value.is_boolean(),
        SchemaKind::Null => value.is_null(),
        SchemaKind::Array(_) => value.is_array(),
        SchemaKind::Object(_) => value.is_object(),
        _ => return false,
    };
    !takes
}

fn walk_open_object<'v>(
    rules: &'v ObjectRules,
    map: &'v Map<String, Value>,
    value: &'v Value,
    steps: &[OpenStep<'_>],
    leaf: OpenLeaf,
    cx: &mut ValidationContext<'v>,
    defs: Defs<'_, 'v>,
) {
    // Keys only ever come: more than the most is final (once the fewest no longer matters: the
    // final check reports too few first).
    if let Some(max) = rules.max_properties
        && map.len() as u64 > max
        && rules
            .min_properties
            .is_none_or(|min| map.len() as u64 >= min)
    {
        cx.report(ViolationKind::MaxProperties(max), value);
    }
    let open_key = match steps.first() {
        Some(OpenStep::Key(key)) => Some(*key),
        _ => None,
    };
    for (key, child) in map {
        let is_open = open_key.is_some_and(|open| open == key);
        let declared = rules
            .properties
            .iter()
            .find(|property| same_key(&property.name, key));
        let schema = match (declared, &rules.additional) {
            (Some(property), _) => &property.schema,
            (None, AdditionalProperties::Forbidden) => {
                cx.report_undeclared(key, child);
                continue;
            }
            (None, AdditionalProperties::Allowed) => continue,
            (None, AdditionalProperties::Schema(schema)) => schema,
        };
        cx.push_key(key);
        if is_open {
            walk_open(schema, child, &steps[1..], leaf, cx, defs);
        } else {
            walk_finished(schema, child, cx, defs);
        }
        cx.pop();
    }
}

fn walk_open_array<'v>(
    rules: &'v ArrayRules,
    items: &'v [Value],
    value: &'v Value,
    steps: &[OpenStep<'_>],
    leaf: OpenLeaf,
    cx: &mut ValidationContext<'v>,
    defs: Defs<'_, 'v>,
) {
    // Items only ever come: more than the most is final (and the fewest no longer matters).
    if let Some(max) = rules.max_items
        && items.len() as u64 > max
        && rules.min_items.is_none_or(|min| items.len() as u64 >= min)
    {
        cx.report(ViolationKind::MaxItems(max), value);
    }
    let Some(item_schema) = rules.items.as_deref() else {
        return;
    };
    let open_index = match steps.first() {
        Some(OpenStep::Index(index)) => Some(*index),
        _ => None,
    };
    for (index, item) in items.iter().enumerate() {
        cx.push_index(index);
        if open_index == Some(index) {
            walk_open(item_schema, item, &steps[1..], leaf, cx, defs);
        } else {
            walk_finished(item_schema, item, cx, defs);
        }
        cx.pop();
    }
}

/// An open string: only a length already past the longest is final.
fn check_open_string<'v>(
    rules: &'v StringRules,
    text: &str,
    value: &'v Value,
    cx: &mut ValidationContext<'v>,
) {
    let Some(max) = rules.max_length else {
        return;
    };
    // The final check reports a string too short before one too long; an open string that has
    // reached the shortest stays there.
    let long_enough = rules
        .min_length
        .is_none_or(|min| has_at_least_code_points(text, min));
    if long_enough && !has_at_most_code_points(text, max) {
        cx.report(ViolationKind::MaxLength(max), value);
    }
}
