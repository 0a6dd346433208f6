//! Pass 1: local `$ref`s inlined; recursive definitions kept under `$defs`, cut, or blocking
//! strict mode, as the dialect says.

use serde_json::{Map, Value};

use super::shapes::{escape, unescape};
use super::{Blocked, Lowerer};
use crate::providers::report::Change;

/// Most schema nodes inlining may produce for one tool (as the schema importer's bound).
const MAX_NODES: usize = 100_000;
/// Deepest nesting followed (as the schema importer's bound).
const MAX_DEPTH: usize = 64;

impl Lowerer<'_> {
    /// A copy of `schema` with every local `$ref` inlined; a reference back into a target being
    /// inlined becomes `{"$ref": "#/$defs/<name>"}` (or `#` for the root) and is recorded.
    pub(super) fn inline(
        &mut self,
        schema: &Value,
        path: &str,
        depth: usize,
    ) -> Result<Value, Blocked> {
        self.nodes += 1;
        if self.nodes > MAX_NODES || depth > MAX_DEPTH {
            return Err(self.block(
                path,
                "the schema is too large or too deep to inline its references",
            ));
        }
        let Value::Object(node) = schema else {
            return Ok(schema.clone());
        };
        if let Some(Value::String(target)) = node.get("$ref") {
            return self.inline_ref(node, target, path, depth);
        }
        let mut out = Map::new();
        for (key, value) in node {
            match key.as_str() {
                // Inlined where used.
                "$defs" | "definitions" => {}
                _ => {
                    let child = format!("{path}/{}", escape(key));
                    out.insert(key.clone(), self.inline_child(key, value, &child, depth)?);
                }
            }
        }
        Ok(Value::Object(out))
    }

    pub(super) fn inline_child(
        &mut self,
        key: &str,
        value: &Value,
        path: &str,
        depth: usize,
    ) -> Result<Value, Blocked> {
        match key {
            "properties" | "patternProperties" | "dependentSchemas" => {
                let Value::Object(map) = value else {
                    return Ok(value.clone());
                };
                let mut out = Map::new();
                for (name, schema) in map {
                    let child = format!("{path}/{}", escape(name));
                    out.insert(name.clone(), self.inline(schema, &child, depth + 1)?);
                }
                Ok(Value::Object(out))
            }
            "items"
            | "additionalProperties"
            | "not"
            | "if"
            | "then"
            | "else"
            | "contains"
            | "propertyNames"
            | "unevaluatedItems"
            | "unevaluatedProperties" => {
                if value.is_object() {
                    self.inline(value, path, depth + 1)
                } else if let Value::Array(tuple) = value {
                    // Draft-07 tuple `items`.
                    let mut out = Vec::with_capacity(tuple.len());
                    for (index, schema) in tuple.iter().enumerate() {
                        out.push(self.inline(schema, &format!("{path}/{index}"), depth + 1)?);
                    }
                    Ok(Value::Array(out))
                } else {
                    Ok(value.clone())
                }
            }
            "prefixItems" | "anyOf" | "oneOf" | "allOf" => {
                let Value::Array(list) = value else {
                    return Ok(value.clone());
                };
                let mut out = Vec::with_capacity(list.len());
                for (index, schema) in list.iter().enumerate() {
                    out.push(self.inline(schema, &format!("{path}/{index}"), depth + 1)?);
                }
                Ok(Value::Array(out))
            }
            _ => Ok(value.clone()),
        }
    }

    pub(super) fn inline_ref(
        &mut self,
        node: &Map<String, Value>,
        target: &str,
        path: &str,
        depth: usize,
    ) -> Result<Value, Blocked> {
        let Some(pointer) = target.strip_prefix('#') else {
            return Err(self.block(
                path,
                format!("$ref {target:?} is not local: it cannot be inlined"),
            ));
        };
        if self.resolving.iter().any(|seen| seen == target) || pointer.is_empty() {
            let name = self.definition_name(target);
            let reference = if name == "#" {
                "#".to_owned()
            } else {
                format!("#/$defs/{name}")
            };
            let mut out = Map::new();
            out.insert("$ref".to_owned(), Value::String(reference));
            return Ok(Value::Object(out));
        }
        let Some(resolved) = self.root.pointer(pointer) else {
            return Err(self.block(path, format!("$ref {target:?} points at nothing")));
        };
        self.resolving.push(target.to_owned());
        let inlined = self.inline(resolved, path, depth + 1);
        self.resolving.pop();
        let mut inlined = match inlined? {
            Value::Object(map) => map,
            other => return Ok(other),
        };
        let siblings: Vec<(&String, &Value)> =
            node.iter().filter(|(key, _)| *key != "$ref").collect();
        if siblings.is_empty() {
            return Ok(Value::Object(inlined));
        }
        let mut rest = Map::new();
        for (key, value) in siblings {
            let child = format!("{path}/{}", escape(key));
            let value = self.inline_child(key, value, &child, depth)?;
            match inlined.get(key) {
                None => {
                    inlined.insert(key.clone(), value);
                }
                Some(existing) if *existing == value => {}
                // The referring site's words are the more specific ones.
                Some(_) if key == "description" || key == "title" || key == "default" => {
                    inlined.insert(key.clone(), value);
                }
                Some(_) => {
                    rest.insert(key.clone(), value);
                }
            }
        }
        if rest.is_empty() {
            return Ok(Value::Object(inlined));
        }
        // Keywords beside `$ref` that clash with the target's: both apply (`allOf`).
        let mut out = Map::new();
        out.insert(
            "allOf".to_owned(),
            Value::Array(vec![Value::Object(inlined), Value::Object(rest)]),
        );
        Ok(Value::Object(out))
    }

    /// The `$defs` name of a recursive target (`#` for the root), recorded for later.
    pub(super) fn definition_name(&mut self, target: &str) -> String {
        if target == "#" {
            self.recursive.insert("#".to_owned(), "#".to_owned());
            return "#".to_owned();
        }
        if let Some(name) = self.recursive.get(target) {
            return name.clone();
        }
        let last = target.rsplit('/').next().unwrap_or(target);
        let base: String = unescape(last)
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let mut name = if base.is_empty() {
            "def".to_owned()
        } else {
            base
        };
        let stem = name.clone();
        let mut counter = 2;
        while self.recursive.values().any(|taken| *taken == name) {
            name = format!("{stem}_{counter}");
            counter += 1;
        }
        self.recursive.insert(target.to_owned(), name.clone());
        name
    }

    /// The recursive definitions, inlined (references to themselves kept), until every
    /// definition they mention is present.
    pub(super) fn recursive_definitions(&mut self) -> Result<Map<String, Value>, Blocked> {
        let mut defs = Map::new();
        loop {
            let pending: Vec<(String, String)> = self
                .recursive
                .iter()
                .filter(|(pointer, name)| *pointer != "#" && !defs.contains_key(name.as_str()))
                .map(|(pointer, name)| (pointer.clone(), name.clone()))
                .collect();
            if pending.is_empty() {
                return Ok(defs);
            }
            for (pointer, name) in pending {
                let target = self
                    .root
                    .pointer(pointer.trim_start_matches('#'))
                    .ok_or_else(|| self.block(&pointer, "recursive $ref points at nothing"))?;
                self.resolving.push(pointer.clone());
                let body = self.inline(target, &format!("/$defs/{name}"), 1);
                self.resolving.pop();
                defs.insert(name, body?);
            }
        }
    }

    /// [`unroll_recursion`](Self::unroll_recursion) of the whole (inlined) root, `definitions`
    /// being the recursive definitions.
    pub(super) fn unroll(&mut self, root: &mut Value, definitions: &Map<String, Value>) {
        let whole = root.clone();
        let mut unrolling = Unrolling {
            definitions,
            root: &whole,
            noted: Vec::new(),
        };
        self.unroll_recursion(root, "", &mut unrolling, UNROLLED_LEVELS);
    }

    /// Replaces every recursive reference with the schema it refers to, `levels` deep, and
    /// below that with a free-form object that says what it stands for: a provider that cannot
    /// take recursion still sees the shape of the first levels.
    fn unroll_recursion(
        &mut self,
        schema: &mut Value,
        path: &str,
        unrolling: &mut Unrolling<'_>,
        levels: usize,
    ) {
        match schema {
            Value::Object(node) => {
                if let Some(Value::String(target)) = node.get("$ref") {
                    let target = target.clone();
                    if unrolling.noted.iter().all(|noted| *noted != target) {
                        self.note(
                            path,
                            Change::Rewritten,
                            format!(
                                "recursive $ref {target:?} unrolled {UNROLLED_LEVELS} levels deep; \
                                 deeper levels are sent as free-form objects described in text"
                            ),
                        );
                        unrolling.noted.push(target.clone());
                    }
                    let body = match target.strip_prefix("#/$defs/") {
                        Some(name) => unrolling.definitions.get(name),
                        None => Some(unrolling.root),
                    };
                    match body {
                        Some(body) if levels > 0 => {
                            *schema = body.clone();
                            self.unroll_recursion(schema, path, unrolling, levels - 1);
                        }
                        _ => *schema = free_form(&target),
                    }
                    return;
                }
                let keys: Vec<String> = node.keys().cloned().collect();
                for key in keys {
                    let child_path = format!("{path}/{}", escape(&key));
                    if let Some(child) = node.get_mut(&key) {
                        self.unroll_recursion(child, &child_path, unrolling, levels);
                    }
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter_mut().enumerate() {
                    self.unroll_recursion(item, &format!("{path}/{index}"), unrolling, levels);
                }
            }
            _ => {}
        }
    }
}

/// How deep [`Lowerer::unroll_recursion`] expands a recursive schema for a provider that cannot
/// take `$ref`.
const UNROLLED_LEVELS: usize = 3;

/// What unrolling reads: the recursive definitions, the whole (inlined) root for `#`, and the
/// targets already reported.
struct Unrolling<'a> {
    definitions: &'a Map<String, Value>,
    root: &'a Value,
    noted: Vec<String>,
}

/// The free-form object a recursive reference is cut to, saying what it stands for.
fn free_form(target: &str) -> Value {
    let what = if target == "#" {
        "the tool's arguments".to_owned()
    } else {
        let name = target.rsplit('/').next().unwrap_or(target).to_owned();
        format!("`{name}`")
    };
    let mut cut = Map::new();
    cut.insert("type".to_owned(), Value::from("object"));
    cut.insert(
        "description".to_owned(),
        Value::String(format!(
            "Same shape as {what} (recursive; not expanded further)."
        )),
    );
    Value::Object(cut)
}
