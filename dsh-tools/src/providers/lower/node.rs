//! Pass 3, per node, top down: the walk itself, `allOf` merged, `prefixItems` widened and type
//! unions split.

use serde_json::{Map, Value};

use super::shapes::{
    append_description, compact, escape, is_object, keyword_applies_to, null_schema,
};
use super::{Blocked, Lowerer, Place};
use crate::providers::dialect::Nullable;
use crate::providers::nulls::NullPlan;
use crate::providers::report::Change;

impl Lowerer<'_> {
    pub(super) fn node(
        &mut self,
        node: &mut Map<String, Value>,
        path: &str,
        place: Place,
    ) -> Result<NullPlan, Blocked> {
        let profile = self.profile;
        if node.contains_key("$ref") {
            // A recursive reference kept under `$defs`: a `$ref` may carry no siblings.
            let target = node
                .get("$ref")
                .and_then(Value::as_str)
                .unwrap_or("#")
                .to_owned();
            let extra: Vec<String> = node.keys().filter(|key| *key != "$ref").cloned().collect();
            for key in extra {
                node.shift_remove(&key);
                self.note(path, Change::Dropped, format!("{key} beside $ref"));
            }
            let name = target.rsplit('/').next().unwrap_or("#").to_owned();
            let name = if target == "#" { "#".to_owned() } else { name };
            return Ok(NullPlan::reference(&name));
        }
        if let Some(Value::Array(entries)) = node.shift_remove("allOf") {
            if profile.keeps_all_of && entries.len() > 1 {
                node.insert("allOf".to_owned(), Value::Array(entries));
            } else {
                self.merge_all_of(node, entries, path, false)?;
            }
        }
        if profile.one_of_to_any_of
            && let Some(one_of) = node.shift_remove("oneOf")
        {
            if node.contains_key("anyOf") {
                if profile.strict {
                    return Err(self.block(path, "both anyOf and oneOf on one schema"));
                }
                append_description(
                    node,
                    &format!("Must match exactly one of: {}", compact(&one_of)),
                );
                self.note(path, Change::MovedToDescription, "oneOf beside anyOf");
            } else {
                node.insert("anyOf".to_owned(), one_of);
                self.note(
                    path,
                    Change::Rewritten,
                    "oneOf -> anyOf (the registry still requires exactly one branch)",
                );
            }
        }
        if !profile.keeps_prefix_items {
            self.widen_prefix_items(node, path);
        }
        self.split_type_unions(node, path);
        self.normalize_nullable(node, path);
        self.const_to_enum(node, path);
        self.map_to_pairs(node, path);
        self.type_untyped(node, path);
        let mut plan = NullPlan::default();
        if is_object(node) {
            self.object(node, path, place, &mut plan)?;
        } else if profile.strict {
            self.check_strict_leaf(node, path)?;
        }
        // Children.
        if let Some(Value::Object(properties)) = node.get_mut("properties") {
            let names: Vec<String> = properties.keys().cloned().collect();
            for name in names {
                let child_path = format!("{path}/properties/{}", escape(&name));
                let Some(Value::Object(child)) = properties.get_mut(&name) else {
                    continue;
                };
                let nested = self.node(
                    child,
                    &child_path,
                    Place {
                        depth: place.depth + 1,
                    },
                )?;
                plan.attach_nested(&name, nested);
            }
        }
        if let Some(Value::Object(items)) = node.get_mut("items") {
            let items_plan = self.node(items, &format!("{path}/items"), place)?;
            plan.set_items(items_plan);
        }
        if let Some(Value::Array(tuple)) = node.get_mut("prefixItems") {
            for (index, item) in tuple.iter_mut().enumerate() {
                if let Value::Object(item) = item {
                    self.node(item, &format!("{path}/prefixItems/{index}"), place)?;
                }
            }
        }
        if let Some(Value::Object(values)) = node.get_mut("additionalProperties") {
            self.node(values, &format!("{path}/additionalProperties"), place)?;
        }
        let mut union_plan = None;
        for key in ["anyOf", "allOf"] {
            if let Some(Value::Array(branches)) = node.get_mut(key) {
                let mut plans = Vec::new();
                for (index, branch) in branches.iter_mut().enumerate() {
                    if let Value::Object(branch) = branch {
                        plans.push(self.node(branch, &format!("{path}/{key}/{index}"), place)?);
                    }
                }
                if key == "anyOf" && !plans.is_empty() {
                    union_plan = Some(NullPlan::merge(plans));
                }
            }
        }
        self.describe_unsupported(node, path);
        if profile.no_empty_properties
            && place.depth > 0
            && let Some(Value::Object(properties)) = node.get("properties")
            && properties.is_empty()
        {
            node.shift_remove("properties");
            self.note(
                path,
                Change::Rewritten,
                "empty \"properties\" removed (Gemini rejects an object with none)",
            );
        }
        Ok(match union_plan {
            Some(union) => NullPlan::merge(vec![plan, union]),
            None => plan,
        })
    }

    /// Merges `allOf` entries into `node`: properties and `required` combine; any other keyword
    /// must agree. What cannot be merged blocks strict mode or is described in text.
    pub(super) fn merge_all_of(
        &mut self,
        node: &mut Map<String, Value>,
        entries: Vec<Value>,
        path: &str,
        at_root: bool,
    ) -> Result<(), Blocked> {
        let count = entries.len();
        let mut leftovers = Vec::new();
        for entry in entries {
            let Value::Object(entry) = entry else {
                leftovers.push(entry);
                continue;
            };
            let mut rest = Map::new();
            for (key, value) in entry {
                match (key.as_str(), node.get_mut(&key)) {
                    (_, None) => {
                        node.insert(key, value);
                    }
                    (_, Some(existing)) if *existing == value => {}
                    ("properties", Some(Value::Object(existing))) => {
                        let Value::Object(more) = value else {
                            continue;
                        };
                        for (name, schema) in more {
                            match existing.get(&name) {
                                Some(seen) if *seen != schema => {
                                    let merged = Value::Object(
                                        [(
                                            "allOf".to_owned(),
                                            Value::Array(vec![seen.clone(), schema]),
                                        )]
                                        .into_iter()
                                        .collect(),
                                    );
                                    existing.insert(name, merged);
                                }
                                _ => {
                                    existing.insert(name, schema);
                                }
                            }
                        }
                    }
                    ("required", Some(Value::Array(existing))) => {
                        if let Value::Array(more) = value {
                            for name in more {
                                if !existing.contains(&name) {
                                    existing.push(name);
                                }
                            }
                        }
                    }
                    ("description", Some(Value::String(existing))) => {
                        if let Value::String(more) = value {
                            existing.push_str("\n\n");
                            existing.push_str(&more);
                        }
                    }
                    ("title" | "default" | "examples", Some(_)) => {}
                    _ => {
                        rest.insert(key, value);
                    }
                }
            }
            if !rest.is_empty() {
                leftovers.push(Value::Object(rest));
            }
        }
        if leftovers.is_empty() {
            self.note(
                &format!("{path}/allOf"),
                Change::Rewritten,
                format!(
                    "allOf of {count} schema{} merged into {}",
                    if count == 1 { "" } else { "s" },
                    if at_root { "the root" } else { "the node" }
                ),
            );
            return Ok(());
        }
        if self.profile.strict {
            return Err(self.block(
                &format!("{path}/allOf"),
                "allOf whose schemas conflict cannot be merged into one strict schema",
            ));
        }
        let text = compact(&Value::Array(leftovers));
        append_description(node, &format!("Must also match: {text}"));
        self.note(
            &format!("{path}/allOf"),
            Change::MovedToDescription,
            format!("allOf parts that could not be merged: {text}"),
        );
        Ok(())
    }

    /// `prefixItems` (tuples) → `items` as an `anyOf` of the positions' schemas, with the
    /// positions described and the length pinned where the tuple is closed.
    pub(super) fn widen_prefix_items(&mut self, node: &mut Map<String, Value>, path: &str) {
        let Some(Value::Array(tuple)) = node.shift_remove("prefixItems") else {
            return;
        };
        let mut forms: Vec<Value> = Vec::new();
        for schema in &tuple {
            if !forms.contains(schema) {
                forms.push(schema.clone());
            }
        }
        let closed = matches!(node.get("items"), Some(Value::Bool(false)));
        if let Some(Value::Object(extra)) = node.shift_remove("items") {
            let extra = Value::Object(extra);
            if !forms.contains(&extra) {
                forms.push(extra);
            }
        }
        let items = if forms.len() == 1 {
            forms.pop().unwrap_or(Value::Object(Map::new()))
        } else {
            Value::Object(
                [("anyOf".to_owned(), Value::Array(forms))]
                    .into_iter()
                    .collect(),
            )
        };
        node.insert("items".to_owned(), items);
        if closed {
            node.insert("maxItems".to_owned(), Value::from(tuple.len()));
        }
        let positions: Vec<String> = tuple
            .iter()
            .enumerate()
            .map(|(index, schema)| format!("item {}: {}", index + 1, compact(schema)))
            .collect();
        append_description(node, &format!("Positions: {}", positions.join("; ")));
        self.note(
            &format!("{path}/prefixItems"),
            Change::Rewritten,
            "tuple (prefixItems) widened to items of any position's schema; the positions are \
             described in text",
        );
    }

    /// A `type` array naming several non-null types becomes an `anyOf` of one type each,
    /// where the dialect needs single types (Gemini, strict modes).
    pub(super) fn split_type_unions(&mut self, node: &mut Map<String, Value>, path: &str) {
        if !(self.profile.strict || self.profile.nullable == Nullable::OpenApi) {
            return;
        }
        let Some(Value::Array(types)) = node.get("type") else {
            return;
        };
        let names: Vec<String> = types
            .iter()
            .filter_map(Value::as_str)
            .filter(|name| *name != "null")
            .map(str::to_owned)
            .collect();
        if names.len() < 2 {
            return;
        }
        let nullable = types.iter().any(|name| name == "null");
        node.shift_remove("type");
        let keys: Vec<String> = node.keys().cloned().collect();
        let mut branches = Vec::new();
        for name in &names {
            let mut branch = Map::new();
            branch.insert("type".to_owned(), Value::from(name.as_str()));
            for key in &keys {
                if keyword_applies_to(key, name)
                    && let Some(value) = node.get(key)
                {
                    branch.insert(key.clone(), value.clone());
                }
            }
            branches.push(Value::Object(branch));
        }
        for key in &keys {
            if names.iter().any(|name| keyword_applies_to(key, name)) {
                node.shift_remove(key);
            }
        }
        if nullable {
            branches.push(null_schema());
        }
        node.insert("anyOf".to_owned(), Value::Array(branches));
        self.note(
            &format!("{path}/type"),
            Change::Rewritten,
            format!("type union {names:?} split into an anyOf of one type each"),
        );
    }
}
