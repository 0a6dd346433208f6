//! Pass 3, per node: objects closed and every property required (optional ones made
//! nullable) where the strict view asks for it, and the leaves strict mode cannot express.

use serde_json::{Map, Value};

use super::shapes::{append_description, compact, escape, make_nullable};
use super::{Blocked, Lowerer, Place};
use crate::providers::nulls::{NullPlan, accepts_null};
use crate::providers::report::Change;

impl Lowerer<'_> {
    /// Closes an object (strict), requires every property (optional ones made nullable), and
    /// records where a `null` the model sends must be removed.
    pub(super) fn object(
        &mut self,
        node: &mut Map<String, Value>,
        path: &str,
        _place: Place,
        plan: &mut NullPlan,
    ) -> Result<(), Blocked> {
        let profile = self.profile;
        let has_properties =
            matches!(node.get("properties"), Some(Value::Object(props)) if !props.is_empty());
        if profile.strict {
            if node.contains_key("patternProperties") {
                return Err(self.block(
                    path,
                    "patternProperties beside declared properties, or with several patterns, cannot \
                     be strict",
                ));
            }
            match node.get("additionalProperties") {
                Some(Value::Object(_)) => {
                    return Err(self.block(
                        path,
                        "an open map (additionalProperties with a schema) beside declared properties \
                         cannot be strict",
                    ));
                }
                Some(Value::Bool(false)) => {}
                other => {
                    if !has_properties && !node.contains_key("properties") {
                        return Err(self.block(
                            path,
                            "a free-form object (no declared properties) cannot be strict",
                        ));
                    }
                    let was = match other {
                        Some(Value::Bool(true)) => "additionalProperties: true",
                        _ => "additionalProperties not declared",
                    };
                    node.insert("additionalProperties".to_owned(), Value::Bool(false));
                    self.note(
                        path,
                        Change::Closed,
                        format!("{was}; strict mode offers only the declared properties"),
                    );
                }
            }
            if !node.contains_key("properties") {
                node.insert("properties".to_owned(), Value::Object(Map::new()));
            }
        } else if profile.no_additional_properties {
            match node.shift_remove("additionalProperties") {
                Some(Value::Object(values)) => {
                    let text = compact(&Value::Object(values));
                    append_description(node, &format!("(any keys; each value: {text})"));
                    self.note(
                        &format!("{path}/additionalProperties"),
                        Change::MovedToDescription,
                        format!("map values {text} (Gemini's schema has no additionalProperties)"),
                    );
                }
                Some(Value::Bool(false)) => {
                    self.note(
                        &format!("{path}/additionalProperties"),
                        Change::Dropped,
                        "additionalProperties: false (Gemini's schema has no such field)",
                    );
                }
                Some(other) => {
                    self.note(
                        &format!("{path}/additionalProperties"),
                        Change::Dropped,
                        format!("additionalProperties: {}", compact(&other)),
                    );
                }
                None => {}
            }
        }
        let required: Vec<String> = node
            .get("required")
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        let Some(Value::Object(properties)) = node.get_mut("properties") else {
            return Ok(());
        };
        let mut strips = Vec::new();
        let mut all = Vec::with_capacity(properties.len());
        for (name, schema) in properties.iter_mut() {
            all.push(Value::String(name.clone()));
            let takes_null = accepts_null(schema);
            let optional = !required.contains(name);
            let strip = optional && !takes_null && profile.require_all;
            strips.push((name.clone(), strip, takes_null));
            if !(profile.require_all && optional) {
                continue;
            }
            let child_path = format!("{path}/properties/{}", escape(name));
            if takes_null {
                self.report.push(
                    self.tool,
                    &child_path,
                    Change::Rewritten,
                    "optional property made required (it already accepts null, which stands \
                     for absent)",
                );
            } else {
                make_nullable(schema);
                self.report.push(
                    self.tool,
                    &child_path,
                    Change::MadeNullable,
                    "optional property made required and nullable; a null the model sends is \
                     removed before the call runs",
                );
            }
        }
        if profile.require_all {
            node.insert("required".to_owned(), Value::Array(all));
        }
        for (name, strip, takes_null) in strips {
            plan.add_property(&name, strip, takes_null, None);
        }
        Ok(())
    }

    /// Strict leaves must be typed: an untyped value or an array of untyped items cannot be.
    pub(super) fn check_strict_leaf(
        &self,
        node: &Map<String, Value>,
        path: &str,
    ) -> Result<(), Blocked> {
        let typed = ["type", "enum", "const", "anyOf", "$ref", "allOf"]
            .iter()
            .any(|key| node.contains_key(*key));
        if !typed {
            return Err(self.block(path, "an untyped value (any JSON) cannot be strict"));
        }
        let is_array = match node.get("type") {
            Some(Value::String(name)) => name == "array",
            Some(Value::Array(names)) => names.iter().any(|name| name == "array"),
            _ => false,
        };
        if is_array {
            let typed_items = match node.get("items") {
                Some(Value::Object(items)) => !items.is_empty(),
                _ => node.contains_key("prefixItems"),
            };
            if !typed_items {
                return Err(self.block(path, "an array of untyped items cannot be strict"));
            }
        }
        Ok(())
    }
}
