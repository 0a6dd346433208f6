//! Pass 3, per node, before objects are closed: a map (an object whose `additionalProperties`
//! is a schema, or whose one `patternProperties` entry gives the keys' pattern) sent by a
//! strict view as an array of `{key, value}` pairs, since strict modes close every object.
//!
//! The key's constraints (`propertyNames`, the `patternProperties` pattern) go on the pair's
//! `key`, `minProperties`/`maxProperties` become `minItems`/`maxItems`; the later passes then
//! keep or describe them as the dialect allows, and report what they move. What a pair cannot
//! carry is reported as dropped (the canonical schema still enforces it). The pointer of every
//! rewritten node is recorded, so the adapter can map the model's pairs back to the object
//! (`providers/maps.rs`) before the call is validated.

use serde_json::{Map, Value};

use super::Lowerer;
use super::shapes::{append_description, compact, escape};
use crate::providers::report::Change;

/// What a map's key schema may carry from `propertyNames` (string keywords).
const KEY_KEYWORDS: &[&str] = &[
    "pattern",
    "minLength",
    "maxLength",
    "format",
    "enum",
    "const",
];

impl Lowerer<'_> {
    /// Rewrites `node` into an array of `{key, value}` pairs when it is a map a strict view
    /// cannot send as an object. Returns whether it did.
    pub(super) fn map_to_pairs(&mut self, node: &mut Map<String, Value>, path: &str) -> bool {
        if !self.profile.strict || !names_object_only(node) {
            return false;
        }
        let declares_properties =
            matches!(node.get("properties"), Some(Value::Object(props)) if !props.is_empty());
        if declares_properties {
            // Declared properties beside free keys have no pair form; the object pass blocks.
            return false;
        }
        let Some((value, mut key)) = self.map_parts(node, path) else {
            return false;
        };
        if let Some(names) = node.shift_remove("propertyNames") {
            self.take_key_constraints(&mut key, names, path);
        }
        node.shift_remove("properties");
        node.shift_remove("required");
        for (from, to) in [("minProperties", "minItems"), ("maxProperties", "maxItems")] {
            if let Some(count) = node.shift_remove(from) {
                node.insert(to.to_owned(), count);
            }
        }
        for other in [
            "dependentRequired",
            "dependentSchemas",
            "unevaluatedProperties",
        ] {
            if let Some(dropped) = node.shift_remove(other) {
                self.note(
                    &format!("{path}/{other}"),
                    Change::Dropped,
                    format!(
                        "{other}: {} (a list of pairs cannot carry it; still enforced when \
                         the call runs)",
                        compact(&dropped)
                    ),
                );
            }
        }
        match node.get_mut("type") {
            Some(Value::Array(types)) => {
                for kind in types.iter_mut() {
                    if kind == "object" {
                        *kind = Value::from("array");
                    }
                }
            }
            _ => {
                node.insert("type".to_owned(), Value::from("array"));
            }
        }
        let pair: Map<String, Value> = [
            ("type".to_owned(), Value::from("object")),
            (
                "properties".to_owned(),
                Value::Object(
                    [
                        ("key".to_owned(), Value::Object(key)),
                        ("value".to_owned(), value),
                    ]
                    .into_iter()
                    .collect(),
                ),
            ),
            (
                "required".to_owned(),
                Value::Array(vec![Value::from("key"), Value::from("value")]),
            ),
            ("additionalProperties".to_owned(), Value::Bool(false)),
        ]
        .into_iter()
        .collect();
        node.insert("items".to_owned(), Value::Object(pair));
        append_description(
            node,
            "(A map, sent as a list of {key, value} pairs: one pair per entry, each key at \
             most once.)",
        );
        self.note(
            path,
            Change::Rewritten,
            "map sent as an array of {key, value} pairs (strict mode closes every object); \
             the pairs are mapped back to the object before the call runs, and a key given \
             twice is INVALID_ARGS",
        );
        self.maps.push(path.to_owned());
        true
    }

    /// The value schema and the key schema of a map node, or `None` when it is no map.
    fn map_parts(
        &mut self,
        node: &mut Map<String, Value>,
        path: &str,
    ) -> Option<(Value, Map<String, Value>)> {
        let mut key: Map<String, Value> = [("type".to_owned(), Value::from("string"))]
            .into_iter()
            .collect();
        match (
            node.get("additionalProperties"),
            node.get("patternProperties"),
        ) {
            (Some(Value::Object(_)), None) => {
                let value = node.shift_remove("additionalProperties")?;
                Some((value, key))
            }
            (None | Some(Value::Bool(false)), Some(Value::Object(patterns)))
                if patterns.len() == 1 =>
            {
                let Some(Value::Object(patterns)) = node.shift_remove("patternProperties") else {
                    return None;
                };
                node.shift_remove("additionalProperties");
                let (pattern, value) = patterns.into_iter().next()?;
                self.note(
                    &format!("{path}/patternProperties/{}", escape(&pattern)),
                    Change::Rewritten,
                    format!("the keys' pattern {pattern:?} written on the pairs' key"),
                );
                key.insert("pattern".to_owned(), Value::String(pattern));
                Some((value, key))
            }
            _ => None,
        }
    }

    /// Moves what `propertyNames` says of a string onto the pair's key schema; reports the rest.
    fn take_key_constraints(&mut self, key: &mut Map<String, Value>, names: Value, path: &str) {
        let Value::Object(names) = names else {
            self.note(
                &format!("{path}/propertyNames"),
                Change::Dropped,
                format!(
                    "propertyNames: {} (still enforced when the call runs)",
                    compact(&names)
                ),
            );
            return;
        };
        for (keyword, constraint) in names {
            if keyword == "type" || keyword == "description" {
                continue;
            }
            if KEY_KEYWORDS.contains(&keyword.as_str()) && !key.contains_key(&keyword) {
                key.insert(keyword, constraint);
            } else {
                self.note(
                    &format!("{path}/propertyNames/{}", escape(&keyword)),
                    Change::Dropped,
                    format!(
                        "propertyNames {keyword}: {} (the pairs' key cannot carry it; still \
                         enforced when the call runs)",
                        compact(&constraint)
                    ),
                );
            }
        }
    }
}

/// Whether the node's type names an object and nothing else but `null` (a map-or-string union
/// has no pair form).
fn names_object_only(node: &Map<String, Value>) -> bool {
    match node.get("type") {
        Some(Value::String(name)) => name == "object",
        Some(Value::Array(names)) => {
            names.iter().any(|name| name == "object")
                && names.iter().all(|name| name == "object" || name == "null")
        }
        Some(_) => false,
        None => {
            !node.contains_key("anyOf")
                && (node.contains_key("additionalProperties")
                    || node.contains_key("patternProperties"))
        }
    }
}
