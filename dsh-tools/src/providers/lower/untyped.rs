//! Pass 3, per node, for views whose schema needs a `type` on every node unless it is an
//! `anyOf` (Gemini's OpenAPI `Schema`): an untyped value (a `serde_json::Value` field, `{}`) is
//! written as an `anyOf` of the JSON types, nullable; an `enum` without a type gets its
//! members' type; an object without one gets `"type": "object"`; an array without `items`
//! gets items of any type. The model's answer is the JSON value itself, so nothing is mapped
//! back; what the form cannot offer (an array nested in an array of untyped items) is reported.

use serde_json::{Map, Value};

use super::Lowerer;
use super::shapes::{common_type, is_object};
use crate::providers::report::Change;

impl Lowerer<'_> {
    /// Gives `node` a `type`, or makes it an `anyOf` of the JSON types, where the dialect
    /// requires one.
    pub(super) fn type_untyped(&mut self, node: &mut Map<String, Value>, path: &str) {
        if !self.profile.typed_nodes {
            return;
        }
        if !node.contains_key("type") && !node.contains_key("anyOf") {
            if let Some(Value::Array(members)) = node.get("enum")
                && let Some(kind) = common_type(members)
            {
                node.insert("type".to_owned(), Value::from(kind));
                self.note(
                    path,
                    Change::Rewritten,
                    format!("\"type\": \"{kind}\" added to an enum (a type is required here)"),
                );
            } else if is_object(node) {
                node.insert("type".to_owned(), Value::from("object"));
                self.note(
                    path,
                    Change::Rewritten,
                    "\"type\": \"object\" added (a type is required here)",
                );
            } else if !node.contains_key("enum") {
                node.insert("anyOf".to_owned(), Value::Array(any_json(true)));
                node.insert("nullable".to_owned(), Value::Bool(true));
                self.note(
                    path,
                    Change::Rewritten,
                    "untyped value (any JSON) written as a nullable anyOf of string, number, \
                     boolean, object and array (a type is required unless the node is an \
                     anyOf); the array's items offer no nested array",
                );
            }
        }
        let is_array = node.get("type") == Some(&Value::from("array"));
        if is_array && !node.contains_key("items") {
            node.insert("items".to_owned(), any_items());
            self.note(
                &format!("{path}/items"),
                Change::Rewritten,
                "array of untyped items: items written as an anyOf of string, number, boolean \
                 and object (an array needs items); a nested array is not offered",
            );
        }
    }
}

/// One branch per JSON type; with `arrays`, an array of any non-array item too.
fn any_json(arrays: bool) -> Vec<Value> {
    let mut branches: Vec<Value> = ["string", "number", "boolean", "object"]
        .into_iter()
        .map(typed)
        .collect();
    if arrays {
        let mut array = Map::new();
        array.insert("type".to_owned(), Value::from("array"));
        array.insert("items".to_owned(), any_items());
        branches.push(Value::Object(array));
    }
    branches
}

/// Items of any type but array (the form cannot nest itself without end).
fn any_items() -> Value {
    Value::Object(
        [("anyOf".to_owned(), Value::Array(any_json(false)))]
            .into_iter()
            .collect(),
    )
}

fn typed(kind: &str) -> Value {
    Value::Object(
        [("type".to_owned(), Value::from(kind))]
            .into_iter()
            .collect(),
    )
}
