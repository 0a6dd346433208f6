//! Pass 2: the root — a union at the root merged into one object, a missing `type` added.

use serde_json::{Map, Value};

use super::shapes::{append_description, compact, describe_shape, merge_forms};
use super::{Blocked, Lowerer};
use crate::providers::report::Change;

impl Lowerer<'_> {
    pub(super) fn lower_root(&mut self, root: &mut Value) -> Result<(), Blocked> {
        let Value::Object(node) = root else {
            self.note(
                "",
                Change::Warning,
                "the parameters are not a schema object; providers expect an object schema",
            );
            return Ok(());
        };
        let has_union = ["anyOf", "oneOf", "allOf"]
            .iter()
            .any(|key| node.contains_key(*key));
        if has_union && self.profile.merge_root_unions {
            self.merge_root_union(node)?;
        }
        match node.get("type") {
            Some(Value::String(name)) if name == "object" => {}
            Some(Value::Array(names)) if names.iter().any(|name| name == "object") => {
                node.insert("type".to_owned(), Value::from("object"));
                self.note(
                    "",
                    Change::Rewritten,
                    "root type narrowed to \"object\" (tool arguments are always an object)",
                );
            }
            None => {
                node.insert("type".to_owned(), Value::from("object"));
                self.note(
                    "",
                    Change::Rewritten,
                    "\"type\": \"object\" added at the root, as providers require",
                );
            }
            Some(other) => {
                let other = other.to_string();
                self.note(
                    "",
                    Change::Warning,
                    format!("root type is {other}; providers expect an object schema"),
                );
            }
        }
        Ok(())
    }

    /// Merges a root-level `anyOf`/`oneOf`/`allOf` of object schemas into one object: the union
    /// of the properties (a property declared differently by several branches becomes an
    /// `anyOf` of its forms, or one `enum` of their constants), required where every branch
    /// requires it, closed when every branch is closed; the shapes are listed in the description.
    pub(super) fn merge_root_union(
        &mut self,
        node: &mut Map<String, Value>,
    ) -> Result<(), Blocked> {
        if let Some(Value::Array(entries)) = node.shift_remove("allOf") {
            let mut entries: Vec<Value> = entries;
            if !self.profile.rewrite {
                entries = self.resolve_top_refs(entries);
            }
            self.merge_all_of(node, entries, "", true)?;
        }
        let (key, branches) = match (node.shift_remove("anyOf"), node.shift_remove("oneOf")) {
            (Some(Value::Array(branches)), None) => ("anyOf", branches),
            (None, Some(Value::Array(branches))) => ("oneOf", branches),
            (None, None) => return Ok(()),
            (any_of, one_of) => {
                let mut both = Vec::new();
                for value in [any_of, one_of].into_iter().flatten() {
                    if let Value::Array(list) = value {
                        both.extend(list);
                    }
                }
                ("anyOf", both)
            }
        };
        let branches = if self.profile.rewrite {
            branches
        } else {
            self.resolve_top_refs(branches)
        };
        let objects: Vec<&Map<String, Value>> =
            branches.iter().filter_map(Value::as_object).collect();
        let all_objects = objects.len() == branches.len()
            && objects.iter().all(|branch| {
                branch.get("type").is_none_or(|kind| kind == "object")
                    && !branch.contains_key("anyOf")
                    && !branch.contains_key("oneOf")
            });
        if !all_objects {
            if self.profile.strict {
                return Err(self.block(
                    "",
                    format!("the root is a {key} whose branches are not all plain objects"),
                ));
            }
            let text = compact(&Value::Array(branches.clone()));
            append_description(node, &format!("The arguments must match one of: {text}"));
            self.note(
                &format!("/{key}"),
                Change::MovedToDescription,
                format!("root {key} of non-object branches described in text"),
            );
            return Ok(());
        }
        let mut properties: Vec<(String, Vec<Value>)> = Vec::new();
        for branch in &objects {
            if let Some(Value::Object(props)) = branch.get("properties") {
                for (name, schema) in props {
                    match properties.iter_mut().find(|(seen, _)| seen == name) {
                        Some((_, forms)) => {
                            if !forms.contains(schema) {
                                forms.push(schema.clone());
                            }
                        }
                        None => properties.push((name.clone(), vec![schema.clone()])),
                    }
                }
            }
        }
        let required_in = |branch: &Map<String, Value>, name: &str| {
            branch
                .get("required")
                .and_then(Value::as_array)
                .is_some_and(|list| list.iter().any(|item| item == name))
        };
        let mut merged_props = Map::new();
        let mut required = Vec::new();
        for (name, forms) in properties {
            if objects.iter().all(|branch| required_in(branch, &name)) {
                required.push(Value::String(name.clone()));
            }
            merged_props.insert(name, merge_forms(forms));
        }
        let closed = objects
            .iter()
            .all(|branch| branch.get("additionalProperties") == Some(&Value::Bool(false)));
        let shapes: Vec<String> = objects
            .iter()
            .enumerate()
            .map(|(index, branch)| describe_shape(index, branch))
            .collect();
        node.insert("type".to_owned(), Value::from("object"));
        node.insert("properties".to_owned(), Value::Object(merged_props));
        if !required.is_empty() {
            node.insert("required".to_owned(), Value::Array(required));
        }
        if closed {
            node.insert("additionalProperties".to_owned(), Value::Bool(false));
        }
        append_description(
            node,
            &format!("Use exactly one of these shapes:\n{}", shapes.join("\n")),
        );
        self.note(
            &format!("/{key}"),
            Change::Rewritten,
            format!(
                "root {key} of {} object shapes merged into one object (providers take no \
                 union at the root); the shapes are listed in the description",
                objects.len()
            ),
        );
        Ok(())
    }

    /// Resolves a `$ref` at the top of each entry (views that keep references elsewhere).
    pub(super) fn resolve_top_refs(&self, list: Vec<Value>) -> Vec<Value> {
        list.into_iter()
            .map(|entry| {
                let Some(Value::String(target)) = entry.get("$ref") else {
                    return entry;
                };
                let Some(Value::Object(resolved)) = target
                    .strip_prefix('#')
                    .and_then(|pointer| self.root.pointer(pointer))
                else {
                    return entry;
                };
                let mut merged = resolved.clone();
                if let Value::Object(siblings) = &entry {
                    for (key, value) in siblings {
                        if key != "$ref" {
                            merged.insert(key.clone(), value.clone());
                        }
                    }
                }
                Value::Object(merged)
            })
            .collect()
    }
}
