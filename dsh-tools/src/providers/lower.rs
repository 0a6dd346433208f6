//! Lowering one tool's canonical `parameters` into a provider's schema subset, recording every
//! change in the [`LoweringReport`].
//!
//! The passes run in the order the reference transformers converge on:
//! 1. inline local `$ref`s (recursive definitions stay under `$defs`, are cut, or block strict
//!    mode, as the dialect says);
//! 2. the root: a union at the root is merged into one object, a missing `type` is added;
//! 3. per node, top down: merge `allOf`, `oneOf` → `anyOf`, widen `prefixItems`, nullable forms,
//!    `const` → `enum`, close objects and require every property (optional ones made nullable),
//!    then the children, then move unsupported constraints into the `description` and drop
//!    annotation-only keys;
//! 4. check the size limits strict modes publish.
//!
//! A strict view that meets something it cannot express without changing the tool's meaning
//! (an open map, an untyped value, recursion where unsupported) stops with [`Blocked`]; the
//! caller then lowers the tool for the dialect's non-strict view and reports the fallback.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use super::dialect::{Dialect, Keyword, Nullable, Profile, Recursion};
use super::nulls::{NullPlan, ToolNullPlan, accepts_null};
use super::report::{Change, LoweringReport};

/// Most schema nodes inlining may produce for one tool (as the schema importer's bound).
const MAX_NODES: usize = 100_000;
/// Deepest nesting followed (as the schema importer's bound).
const MAX_DEPTH: usize = 64;

/// OpenAI strict limits (Structured Outputs "Supported schemas").
const OPENAI_MAX_NESTING: usize = 10;
const OPENAI_MAX_PROPERTIES: usize = 5_000;
const OPENAI_MAX_ENUM_VALUES: usize = 1_000;
const OPENAI_MAX_SCHEMA_TEXT: usize = 120_000;

/// One tool's schema as the provider will see it.
#[derive(Clone, Debug)]
pub(crate) struct LoweredSchema {
    pub(crate) parameters: Value,
    /// Whether the tool is sent strict.
    pub(crate) strict: bool,
    /// Nulls to remove from the model's arguments before the call runs.
    pub(crate) nulls: Option<ToolNullPlan>,
}

/// Why a tool cannot be strict.
#[derive(Debug)]
pub(crate) struct Blocked {
    pub(crate) path: String,
    pub(crate) reason: String,
}

/// Lowers `parameters` of tool `tool` for `dialect`, falling back to the non-strict view when
/// the strict one cannot express it.
pub(crate) fn lower_tool(
    tool: &str,
    parameters: &Value,
    dialect: Dialect,
    report: &mut LoweringReport,
) -> LoweredSchema {
    let profile = dialect.profile();
    match Lowerer::new(tool, profile, parameters).run() {
        Ok((lowered, entries)) => {
            report.entries.extend(entries.entries);
            lowered
        }
        Err(blocked) => {
            // Only strict views block for what they cannot express; a view with no strict
            // mode blocks only on a schema it cannot read at all, and sends it as written.
            let change = if profile.strict {
                Change::StrictFallback
            } else {
                Change::Warning
            };
            report.push(tool, &blocked.path, change, blocked.reason);
            lower_non_strict(tool, parameters, dialect, report)
        }
    }
}

/// Lowers `parameters` for the dialect's non-strict view (which never blocks).
pub(crate) fn lower_non_strict(
    tool: &str,
    parameters: &Value,
    dialect: Dialect,
    report: &mut LoweringReport,
) -> LoweredSchema {
    let profile = dialect.fallback_profile();
    match Lowerer::new(tool, profile, parameters).run() {
        Ok((lowered, entries)) => {
            report.entries.extend(entries.entries);
            lowered
        }
        // Non-strict profiles never block; keep the schema as written if one ever did.
        Err(blocked) => {
            report.push(tool, &blocked.path, Change::Warning, blocked.reason);
            LoweredSchema {
                parameters: parameters.clone(),
                strict: false,
                nulls: None,
            }
        }
    }
}

struct Lowerer<'a> {
    tool: &'a str,
    profile: Profile,
    root: &'a Value,
    report: LoweringReport,
    /// `$ref` targets being inlined, innermost last.
    resolving: Vec<String>,
    /// Recursive targets: pointer → definition name.
    recursive: BTreeMap<String, String>,
    nodes: usize,
    nulls: HashMap<String, NullPlan>,
}

/// Where a node sits, for the passes that care.
#[derive(Clone, Copy)]
struct Place {
    depth: usize,
}

impl<'a> Lowerer<'a> {
    fn new(tool: &'a str, profile: Profile, root: &'a Value) -> Self {
        Self {
            tool,
            profile,
            root,
            report: LoweringReport::default(),
            resolving: Vec::new(),
            recursive: BTreeMap::new(),
            nodes: 0,
            nulls: HashMap::new(),
        }
    }

    fn note(&mut self, path: &str, change: Change, detail: impl Into<String>) {
        self.report.push(self.tool, path, change, detail);
    }

    fn block(&self, path: &str, reason: impl Into<String>) -> Blocked {
        Blocked {
            path: path.to_owned(),
            reason: reason.into(),
        }
    }

    fn run(mut self) -> Result<(LoweredSchema, LoweringReport), Blocked> {
        let profile = self.profile;
        let mut root = if profile.rewrite {
            self.inline(self.root, "", 0)?
        } else {
            self.root.clone()
        };
        let mut defs = Map::new();
        if profile.rewrite && !self.recursive.is_empty() {
            match profile.recursion {
                Recursion::Block => {
                    let (pointer, _) = self.recursive.iter().next().expect("not empty");
                    return Err(self.block(
                        pointer.trim_start_matches('#'),
                        format!(
                            "recursive schema ({pointer} refers to itself): this strict mode \
                             cannot express recursion"
                        ),
                    ));
                }
                Recursion::Cut => self.cut_recursion(&mut root, ""),
                Recursion::Keep => defs = self.recursive_definitions()?,
            }
        }
        self.lower_root(&mut root)?;
        let mut nulls = None;
        if profile.rewrite {
            let Value::Object(node) = &mut root else {
                return Err(self.block("", "the parameters are not a schema object"));
            };
            let mut root_plan = self.node(node, "", Place { depth: 0 })?;
            let mut lowered_defs = Map::new();
            for (name, mut definition) in defs {
                let path = format!("/$defs/{name}");
                if let Value::Object(node) = &mut definition {
                    let mut plan = self.node(node, &path, Place { depth: 1 })?;
                    plan.prune();
                    self.nulls.insert(name.clone(), plan);
                }
                lowered_defs.insert(name, definition);
            }
            if !lowered_defs.is_empty() {
                node.insert("$defs".to_owned(), Value::Object(lowered_defs));
            }
            root_plan.prune();
            let defs_matter = self.nulls.values().any(|plan| !plan.is_noop());
            if !root_plan.is_noop() || defs_matter {
                if self.recursive.contains_key("#") {
                    self.nulls.insert("#".to_owned(), root_plan.clone());
                }
                nulls = Some(ToolNullPlan {
                    root: root_plan,
                    defs: std::mem::take(&mut self.nulls),
                });
            }
        }
        if profile.strict && profile.require_all {
            self.check_openai_limits(&root)?;
        }
        Ok((
            LoweredSchema {
                parameters: root,
                strict: profile.strict,
                nulls,
            },
            self.report,
        ))
    }

    // ---------------------------------------------------------------------------------------
    // 1. `$ref` inlining.

    /// A copy of `schema` with every local `$ref` inlined; a reference back into a target being
    /// inlined becomes `{"$ref": "#/$defs/<name>"}` (or `#` for the root) and is recorded.
    fn inline(&mut self, schema: &Value, path: &str, depth: usize) -> Result<Value, Blocked> {
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

    fn inline_child(
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

    fn inline_ref(
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
    fn definition_name(&mut self, target: &str) -> String {
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
    fn recursive_definitions(&mut self) -> Result<Map<String, Value>, Blocked> {
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

    /// Replaces every recursive reference with a free-form object that says what it stands for.
    fn cut_recursion(&mut self, schema: &mut Value, path: &str) {
        match schema {
            Value::Object(node) => {
                if let Some(Value::String(target)) = node.get("$ref") {
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
                    self.note(
                        path,
                        Change::Rewritten,
                        format!(
                            "recursive $ref {target:?} cut: sent as a free-form object \
                             described in text"
                        ),
                    );
                    *node = cut;
                    return;
                }
                let keys: Vec<String> = node.keys().cloned().collect();
                for key in keys {
                    let child_path = format!("{path}/{}", escape(&key));
                    if let Some(child) = node.get_mut(&key) {
                        self.cut_recursion(child, &child_path);
                    }
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter_mut().enumerate() {
                    self.cut_recursion(item, &format!("{path}/{index}"));
                }
            }
            _ => {}
        }
    }

    // ---------------------------------------------------------------------------------------
    // 2. The root.

    fn lower_root(&mut self, root: &mut Value) -> Result<(), Blocked> {
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
    fn merge_root_union(&mut self, node: &mut Map<String, Value>) -> Result<(), Blocked> {
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
    fn resolve_top_refs(&self, list: Vec<Value>) -> Vec<Value> {
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

    // ---------------------------------------------------------------------------------------
    // 3. Per node.

    fn node(
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
    fn merge_all_of(
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
    fn widen_prefix_items(&mut self, node: &mut Map<String, Value>, path: &str) {
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
    fn split_type_unions(&mut self, node: &mut Map<String, Value>, path: &str) {
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

    /// Writes a nullable schema in the dialect's form.
    fn normalize_nullable(&mut self, node: &mut Map<String, Value>, path: &str) {
        let profile = self.profile;
        if !profile.rewrite {
            return;
        }
        // A `null` member of an enum, where enums take no null.
        if profile.enum_without_null
            && let Some(Value::Array(members)) = node.get_mut("enum")
            && members.iter().any(Value::is_null)
        {
            members.retain(|member| !member.is_null());
            let empty = members.is_empty();
            if empty {
                node.shift_remove("enum");
                node.insert("type".to_owned(), Value::from("null"));
            } else {
                add_null_type(node);
            }
            self.note(
                &format!("{path}/enum"),
                Change::Rewritten,
                "null enum member written as a nullable type",
            );
        }
        match profile.nullable {
            Nullable::TypeArray => {}
            Nullable::AnyOfForContainers => {
                let container = matches!(
                    node.get("type"),
                    Some(Value::Array(types))
                        if types.iter().any(|name| name == "null")
                            && types.iter().any(|name| name == "object" || name == "array")
                );
                if container {
                    let kind = single_type_of(node).unwrap_or_default();
                    let mut inner = std::mem::take(node);
                    inner.insert("type".to_owned(), Value::String(kind.clone()));
                    if let Some(Value::Array(members)) = inner.get_mut("enum") {
                        members.retain(|member| !member.is_null());
                    }
                    if let Some(description) = inner.shift_remove("description") {
                        node.insert("description".to_owned(), description);
                    }
                    node.insert(
                        "anyOf".to_owned(),
                        Value::Array(vec![Value::Object(inner), null_schema()]),
                    );
                    self.note(
                        &format!("{path}/type"),
                        Change::Rewritten,
                        format!("nullable {kind} written as anyOf [{kind}, null]"),
                    );
                }
            }
            Nullable::OpenApi => {
                if let Some(Value::Array(types)) = node.get("type") {
                    let nullable = types.iter().any(|name| name == "null");
                    let rest: Vec<&str> = types
                        .iter()
                        .filter_map(Value::as_str)
                        .filter(|name| *name != "null")
                        .collect();
                    let single = match rest.as_slice() {
                        [one] => (*one).to_owned(),
                        [] => "null".to_owned(),
                        _ => return,
                    };
                    node.insert("type".to_owned(), Value::String(single));
                    if nullable {
                        node.insert("nullable".to_owned(), Value::Bool(true));
                        self.note(
                            &format!("{path}/type"),
                            Change::Rewritten,
                            "type [T, \"null\"] written as \"nullable\": true",
                        );
                    }
                }
                // `anyOf: [X, {"type": "null"}]` → X with `nullable`.
                let collapsible = matches!(
                    node.get("anyOf"),
                    Some(Value::Array(branches))
                        if branches.len() == 2 && branches.iter().any(is_null_schema)
                );
                if collapsible {
                    let Some(Value::Array(branches)) = node.shift_remove("anyOf") else {
                        return;
                    };
                    let other = branches.into_iter().find(|branch| !is_null_schema(branch));
                    if let Some(Value::Object(other)) = other {
                        for (key, value) in other {
                            if key == "description" && node.contains_key("description") {
                                continue;
                            }
                            node.insert(key, value);
                        }
                    }
                    node.insert("nullable".to_owned(), Value::Bool(true));
                    // The branch may itself be `type: [T, "null"]`.
                    self.normalize_nullable(node, path);
                    self.note(
                        &format!("{path}/anyOf"),
                        Change::Rewritten,
                        "anyOf [T, null] written as T with \"nullable\": true",
                    );
                }
            }
        }
    }

    fn const_to_enum(&mut self, node: &mut Map<String, Value>, path: &str) {
        let profile = self.profile;
        if profile.const_to_enum
            && let Some(constant) = node.shift_remove("const")
        {
            if !node.contains_key("type")
                && let Some(kind) = json_type(&constant)
            {
                node.insert("type".to_owned(), Value::from(kind));
            }
            let detail = format!(
                "const {} -> enum [{}]",
                compact(&constant),
                compact(&constant)
            );
            node.insert("enum".to_owned(), Value::Array(vec![constant]));
            self.note(path, Change::Rewritten, detail);
        }
        if profile.string_enums_only {
            let non_string = matches!(
                node.get("enum"),
                Some(Value::Array(members)) if members.iter().any(|member| !member.is_string())
            );
            if non_string {
                let Some(members) = node.shift_remove("enum") else {
                    return;
                };
                if !node.contains_key("type")
                    && let Some(kind) = members.as_array().and_then(|list| common_type(list))
                {
                    node.insert("type".to_owned(), Value::from(kind));
                }
                let text = compact(&members);
                append_description(node, &format!("(one of {text})"));
                self.note(
                    &format!("{path}/enum"),
                    Change::MovedToDescription,
                    format!("enum {text} (only string enums are accepted)"),
                );
            }
        }
    }

    /// Closes an object (strict), requires every property (optional ones made nullable), and
    /// records where a `null` the model sends must be removed.
    fn object(
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
                    "patternProperties (a map keyed by pattern) cannot be strict",
                ));
            }
            match node.get("additionalProperties") {
                Some(Value::Object(_)) => {
                    return Err(self.block(
                        path,
                        "an open map (additionalProperties with a schema) cannot be strict",
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
    fn check_strict_leaf(&self, node: &Map<String, Value>, path: &str) -> Result<(), Blocked> {
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

    /// Moves the keywords the dialect cannot take into the description; drops annotations.
    fn describe_unsupported(&mut self, node: &mut Map<String, Value>, path: &str) {
        let profile = self.profile;
        if !profile.rewrite {
            return;
        }
        let keys: Vec<String> = node.keys().cloned().collect();
        let mut texts = Vec::new();
        for key in keys {
            let rule = match key.as_str() {
                "type"
                | "properties"
                | "required"
                | "additionalProperties"
                | "items"
                | "anyOf"
                | "enum"
                | "const"
                | "nullable"
                | "description"
                | "$ref"
                | "$defs" => {
                    continue;
                }
                "allOf" if profile.keeps_all_of => continue,
                "prefixItems" if profile.keeps_prefix_items => continue,
                "oneOf" if !profile.one_of_to_any_of => continue,
                "format" => match (profile.formats, node.get("format").and_then(Value::as_str)) {
                    (None, _) => Keyword::Keep,
                    (Some(allowed), Some(format)) if allowed.contains(&format) => Keyword::Keep,
                    _ => Keyword::Describe,
                },
                "minItems" => {
                    let keep = (profile.keyword)("minItems") == Keyword::Keep;
                    let small_enough = match (profile.max_min_items, node.get("minItems")) {
                        (Some(max), Some(value)) => value.as_u64().is_some_and(|n| n <= max),
                        _ => true,
                    };
                    if keep && small_enough {
                        Keyword::Keep
                    } else {
                        Keyword::Describe
                    }
                }
                other => (profile.keyword)(other),
            };
            match rule {
                Keyword::Keep => {}
                Keyword::Drop => {
                    if let Some(value) = node.shift_remove(&key) {
                        self.note(
                            &format!("{path}/{}", escape(&key)),
                            Change::Dropped,
                            format!("{key}: {}", compact(&value)),
                        );
                    }
                }
                Keyword::Describe => {
                    if let Some(value) = node.shift_remove(&key) {
                        let text = constraint_text(&key, &value);
                        self.note(
                            &format!("{path}/{}", escape(&key)),
                            Change::MovedToDescription,
                            format!("{key}: {}", compact(&value)),
                        );
                        texts.push(text);
                    }
                }
            }
        }
        if !texts.is_empty() {
            append_description(node, &format!("({})", texts.join("; ")));
        }
    }

    // ---------------------------------------------------------------------------------------
    // 4. Limits.

    fn check_openai_limits(&self, root: &Value) -> Result<(), Blocked> {
        let mut stats = Stats::default();
        stats.walk(root, 0);
        if stats.max_nesting > OPENAI_MAX_NESTING {
            return Err(self.block(
                "",
                format!(
                    "objects nest {} levels deep; strict mode allows {OPENAI_MAX_NESTING}",
                    stats.max_nesting
                ),
            ));
        }
        if stats.properties > OPENAI_MAX_PROPERTIES {
            return Err(self.block(
                "",
                format!(
                    "{} properties; strict mode allows {OPENAI_MAX_PROPERTIES}",
                    stats.properties
                ),
            ));
        }
        if stats.enum_values > OPENAI_MAX_ENUM_VALUES {
            return Err(self.block(
                "",
                format!(
                    "{} enum values; strict mode allows {OPENAI_MAX_ENUM_VALUES}",
                    stats.enum_values
                ),
            ));
        }
        if stats.text > OPENAI_MAX_SCHEMA_TEXT {
            return Err(self.block(
                "",
                format!(
                    "{} characters of property names and enum values; strict mode allows \
                     {OPENAI_MAX_SCHEMA_TEXT}",
                    stats.text
                ),
            ));
        }
        Ok(())
    }
}

/// Counts what OpenAI's strict limits count.
#[derive(Default)]
struct Stats {
    max_nesting: usize,
    properties: usize,
    enum_values: usize,
    text: usize,
}

impl Stats {
    fn walk(&mut self, schema: &Value, nesting: usize) {
        let Value::Object(node) = schema else {
            return;
        };
        if let Some(Value::Object(properties)) = node.get("properties") {
            let nesting = nesting + 1;
            self.max_nesting = self.max_nesting.max(nesting);
            self.properties += properties.len();
            for (name, child) in properties {
                self.text += name.chars().count();
                self.walk(child, nesting);
            }
        }
        for key in ["enum", "const"] {
            if let Some(value) = node.get(key) {
                let members = value.as_array().map_or(1, Vec::len);
                self.enum_values += members;
                self.text += compact(value).chars().count();
            }
        }
        for key in ["items", "additionalProperties"] {
            if let Some(child) = node.get(key) {
                self.walk(child, nesting);
            }
        }
        for key in ["anyOf", "prefixItems"] {
            if let Some(Value::Array(list)) = node.get(key) {
                for child in list {
                    self.walk(child, nesting);
                }
            }
        }
        if let Some(Value::Object(defs)) = node.get("$defs") {
            for child in defs.values() {
                self.walk(child, nesting);
            }
        }
    }
}

// -------------------------------------------------------------------------------------------
// Helpers.

/// JSON Pointer escaping of one segment.
pub(crate) fn escape(segment: &str) -> String {
    if segment.contains(['~', '/']) {
        segment.replace('~', "~0").replace('/', "~1")
    } else {
        segment.to_owned()
    }
}

fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

/// Compact JSON text.
pub(crate) fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

fn null_schema() -> Value {
    Value::Object(
        [("type".to_owned(), Value::from("null"))]
            .into_iter()
            .collect(),
    )
}

fn is_null_schema(schema: &Value) -> bool {
    schema.as_object().is_some_and(|node| {
        node.get("type") == Some(&Value::from("null"))
            && node.keys().all(|key| key == "type" || key == "description")
    })
}

fn is_object(node: &Map<String, Value>) -> bool {
    match node.get("type") {
        Some(Value::String(name)) => name == "object",
        Some(Value::Array(names)) => names.iter().any(|name| name == "object"),
        Some(_) => false,
        None => {
            node.contains_key("properties")
                || node.contains_key("additionalProperties")
                || node.contains_key("patternProperties")
        }
    }
}

fn single_type_of(node: &Map<String, Value>) -> Option<String> {
    match node.get("type")? {
        Value::String(name) => Some(name.clone()),
        Value::Array(names) => names
            .iter()
            .filter_map(Value::as_str)
            .find(|name| *name != "null")
            .map(str::to_owned),
        _ => None,
    }
}

/// Adds `null` to a node's type (a single type becomes a `[T, "null"]` array).
fn add_null_type(node: &mut Map<String, Value>) {
    match node.get_mut("type") {
        Some(Value::String(name)) if name != "null" => {
            let name = std::mem::take(name);
            node.insert(
                "type".to_owned(),
                Value::Array(vec![Value::String(name), Value::from("null")]),
            );
        }
        Some(Value::Array(names)) if !names.iter().any(|name| name == "null") => {
            names.push(Value::from("null"));
        }
        _ => {}
    }
}

/// Makes a schema accept `null` in the plainest form (later passes rewrite the form per dialect).
fn make_nullable(schema: &mut Value) {
    let Value::Object(node) = schema else {
        return;
    };
    if let Some(Value::Array(members)) = node.get_mut("enum") {
        members.push(Value::Null);
    }
    if let Some(constant) = node.shift_remove("const") {
        node.insert("enum".to_owned(), Value::Array(vec![constant, Value::Null]));
    }
    if node.contains_key("type") {
        add_null_type(node);
        return;
    }
    if let Some(Value::Array(branches)) = node.get_mut("anyOf") {
        branches.push(null_schema());
        return;
    }
    if node.contains_key("enum") {
        return;
    }
    // A `$ref` or anything else: wrap it.
    let inner = std::mem::take(node);
    let mut inner = inner;
    let description = inner.shift_remove("description");
    if let Some(description) = description {
        node.insert("description".to_owned(), description);
    }
    node.insert(
        "anyOf".to_owned(),
        Value::Array(vec![Value::Object(inner), null_schema()]),
    );
}

/// The JSON type of a value (`integer` for an integral number).
fn json_type(value: &Value) -> Option<&'static str> {
    Some(match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(number) => {
            if number.is_i64() || number.is_u64() {
                "integer"
            } else {
                "number"
            }
        }
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    })
}

/// The one JSON type every member has.
fn common_type(members: &[Value]) -> Option<&'static str> {
    let mut kinds = members
        .iter()
        .filter(|member| !member.is_null())
        .map(json_type);
    let first = kinds.next()??;
    let mut kind = first;
    for other in kinds {
        match (kind, other?) {
            (a, b) if a == b => {}
            ("integer", "number") | ("number", "integer") => kind = "number",
            _ => return None,
        }
    }
    Some(kind)
}

/// The forms a merged root property takes: one form as it is, constants of one type as one
/// `enum`, anything else as an `anyOf`.
fn merge_forms(mut forms: Vec<Value>) -> Value {
    if forms.len() == 1 {
        return forms.pop().unwrap_or(Value::Object(Map::new()));
    }
    let mut constants = Vec::new();
    let mut description = None;
    let all_constants = forms.iter().all(|form| {
        let Some(node) = form.as_object() else {
            return false;
        };
        let mut found = false;
        for (key, value) in node {
            match key.as_str() {
                "const" => {
                    constants.push(value.clone());
                    found = true;
                }
                "enum" => {
                    if let Value::Array(members) = value {
                        constants.extend(members.iter().cloned());
                        found = true;
                    }
                }
                "type" => {}
                "description" => {
                    description.get_or_insert_with(|| value.clone());
                }
                _ => return false,
            }
        }
        found
    });
    if all_constants && let Some(kind) = common_type(&constants) {
        let mut node = Map::new();
        if let Some(description) = description {
            node.insert("description".to_owned(), description);
        }
        node.insert("type".to_owned(), Value::from(kind));
        node.insert("enum".to_owned(), Value::Array(constants));
        return Value::Object(node);
    }
    Value::Object(
        [("anyOf".to_owned(), Value::Array(forms))]
            .into_iter()
            .collect(),
    )
}

/// One line describing a root-union branch: its constants, its required properties, its words.
fn describe_shape(index: usize, branch: &Map<String, Value>) -> String {
    let mut parts = Vec::new();
    if let Some(Value::Object(properties)) = branch.get("properties") {
        for (name, schema) in properties {
            if let Some(constant) = schema.get("const") {
                parts.push(format!("{name} = {}", compact(constant)));
            } else if let Some(Value::Array(members)) = schema.get("enum")
                && members.len() == 1
            {
                parts.push(format!("{name} = {}", compact(&members[0])));
            }
        }
    }
    if let Some(Value::Array(required)) = branch.get("required") {
        let names: Vec<&str> = required.iter().filter_map(Value::as_str).collect();
        if !names.is_empty() {
            parts.push(format!("requires {}", names.join(", ")));
        }
    }
    if let Some(Value::Object(properties)) = branch.get("properties") {
        let names: Vec<&str> = properties.keys().map(String::as_str).collect();
        parts.push(format!("properties {}", names.join(", ")));
    }
    let mut line = format!("{}. {}", index + 1, parts.join("; "));
    if let Some(Value::String(description)) = branch.get("description") {
        line.push_str(" — ");
        line.push_str(description);
    }
    line
}

/// Appends `text` to the node's description (a new paragraph when there is one).
fn append_description(node: &mut Map<String, Value>, text: &str) {
    match node.get_mut("description") {
        Some(Value::String(description)) if !description.is_empty() => {
            description.push(' ');
            description.push_str(text);
        }
        _ => {
            node.insert("description".to_owned(), Value::from(text));
        }
    }
}

/// Whether a keyword constrains values of JSON type `kind` (for splitting type unions).
fn keyword_applies_to(key: &str, kind: &str) -> bool {
    match key {
        "minLength" | "maxLength" | "pattern" | "format" => kind == "string",
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
            kind == "number" || kind == "integer"
        }
        "items" | "prefixItems" | "minItems" | "maxItems" | "uniqueItems" | "contains" => {
            kind == "array"
        }
        "properties"
        | "required"
        | "additionalProperties"
        | "patternProperties"
        | "minProperties"
        | "maxProperties"
        | "propertyNames" => kind == "object",
        _ => false,
    }
}

/// A constraint in words, for the description.
fn constraint_text(key: &str, value: &Value) -> String {
    let plural = |n: &Value, one: &str, many: &str| {
        if n.as_u64() == Some(1) {
            format!("1 {one}")
        } else {
            format!("{} {many}", compact(n))
        }
    };
    match key {
        "minLength" => format!("at least {}", plural(value, "character", "characters")),
        "maxLength" => format!("at most {}", plural(value, "character", "characters")),
        "pattern" => format!(
            "must match the regular expression {}",
            value
                .as_str()
                .map_or_else(|| compact(value), |p| format!("`{p}`"))
        ),
        "format" => format!("format: {}", value.as_str().unwrap_or_default()),
        "minimum" => format!("minimum {}", compact(value)),
        "maximum" => format!("maximum {}", compact(value)),
        "exclusiveMinimum" => format!("greater than {}", compact(value)),
        "exclusiveMaximum" => format!("less than {}", compact(value)),
        "multipleOf" => format!("a multiple of {}", compact(value)),
        "minItems" => format!("at least {}", plural(value, "item", "items")),
        "maxItems" => format!("at most {}", plural(value, "item", "items")),
        "uniqueItems" if value == &Value::Bool(true) => "items must be distinct".to_owned(),
        "minProperties" => format!("at least {}", plural(value, "property", "properties")),
        "maxProperties" => format!("at most {}", plural(value, "property", "properties")),
        "default" => format!("default: {}", compact(value)),
        "not" => format!("must not match {}", compact(value)),
        "contains" => format!("must contain an item matching {}", compact(value)),
        "propertyNames" => format!("property names must match {}", compact(value)),
        "title" => format!(
            "title: {}",
            value.as_str().map_or_else(|| compact(value), str::to_owned)
        ),
        "allOf" => format!("must also match all of {}", compact(value)),
        "prefixItems" => format!("items by position: {}", compact(value)),
        _ => format!("{key}: {}", compact(value)),
    }
}
