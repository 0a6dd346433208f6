//! Where a strict view sent a map as `{key, value}` pairs: the [`MapPlan`], which maps the
//! model's pairs back to the object the tool declares before the call is validated, and the
//! tool's own examples forward to pairs.
//!
//! The plan is read off the lowered schema at the pointers the lowering pass recorded
//! (`lower/maps.rs`), so it follows the view's shape: properties, array items, `anyOf` branches
//! (an optional map is a nullable one) and recursive definitions. It runs after the
//! [`NullPlan`](super::nulls::NullPlan), which works on the view's shape too. A key given twice
//! is a violation named with the canonical path (`duplicate property "env.PATH"`), as a raw
//! argument string repeating a key is; the call then ends as `INVALID_ARGS`. Pairs that are not
//! pairs (a strict provider does not send them) are left as they are, for validation to name.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use dsh_tools_schema::{ValidationContext, Violations};

/// Deepest nesting a plan follows through recursive definitions (serde_json's own parser stops
/// at 128 levels, so no parsed value is deeper).
const MAX_DEPTH: usize = 128;

/// What to map back inside one schema node.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct MapPlan {
    props: Vec<(String, MapPlan)>,
    items: Option<Box<MapPlan>>,
    /// The node is a map sent as pairs; the plan of its values.
    pairs: Option<Box<MapPlan>>,
    /// The node is a recursive reference: follow the named definition's plan.
    reference: Option<String>,
}

/// One step of a canonical path, owned (the value is being rewritten while it is walked).
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

impl MapPlan {
    /// The plan of `schema` (the lowered node at `pointer`), where `pairs` holds the pointers of
    /// the nodes sent as pairs.
    fn build(schema: &Value, pointer: &str, pairs: &HashSet<&str>) -> Self {
        let Value::Object(node) = schema else {
            return Self::default();
        };
        let mut plan = Self::default();
        if let Some(Value::String(target)) = node.get("$ref") {
            let name = if target == "#" {
                "#"
            } else {
                target.rsplit('/').next().unwrap_or("#")
            };
            plan.reference = Some(name.to_owned());
            return plan;
        }
        if pairs.contains(pointer) {
            let value = Self::build(
                &node["items"]["properties"]["value"],
                &format!("{pointer}/items/properties/value"),
                pairs,
            );
            plan.pairs = Some(Box::new(value));
            return plan;
        }
        if let Some(Value::Object(properties)) = node.get("properties") {
            for (name, child) in properties {
                let child_pointer = format!(
                    "{pointer}/properties/{}",
                    crate::providers::lower::escape(name)
                );
                let nested = Self::build(child, &child_pointer, pairs);
                if !nested.is_empty() {
                    plan.props.push((name.clone(), nested));
                }
            }
        }
        if let Some(items) = node.get("items") {
            let items = Self::build(items, &format!("{pointer}/items"), pairs);
            if !items.is_empty() {
                plan.items = Some(Box::new(items));
            }
        }
        if let Some(Value::Array(branches)) = node.get("anyOf") {
            for (index, branch) in branches.iter().enumerate() {
                let branch = Self::build(branch, &format!("{pointer}/anyOf/{index}"), pairs);
                plan.absorb(branch);
            }
        }
        plan
    }

    /// Merges a union branch's plan in: a value is mapped back where any branch says so.
    fn absorb(&mut self, branch: MapPlan) {
        if branch.is_empty() {
            return;
        }
        self.reference = self.reference.take().or(branch.reference);
        self.pairs = match (self.pairs.take(), branch.pairs) {
            (Some(mut one), Some(other)) => {
                one.absorb(*other);
                Some(one)
            }
            (one, other) => one.or(other),
        };
        self.items = match (self.items.take(), branch.items) {
            (Some(mut one), Some(other)) => {
                one.absorb(*other);
                Some(one)
            }
            (one, other) => one.or(other),
        };
        for (name, nested) in branch.props {
            match self.props.iter_mut().find(|(seen, _)| *seen == name) {
                Some((_, seen)) => seen.absorb(nested),
                None => self.props.push((name, nested)),
            }
        }
    }

    fn is_empty(&self) -> bool {
        self.props.is_empty()
            && self.items.is_none()
            && self.pairs.is_none()
            && self.reference.is_none()
    }

    /// Pairs back into objects (`to_object`) or objects into pairs, recording the repeated
    /// keys met on the way.
    fn apply(&self, value: &mut Value, walk: &mut Walk<'_>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        if let Some(name) = &self.reference {
            if let Some(plan) = walk.defs.get(name) {
                plan.apply(value, walk, depth + 1);
            }
            return;
        }
        if let Some(values) = &self.pairs {
            if walk.to_object {
                pairs_to_object(value, values, walk, depth);
            } else {
                object_to_pairs(value, values, walk, depth);
            }
            return;
        }
        match value {
            Value::Object(map) => {
                for (name, plan) in &self.props {
                    if let Some(found) = map.get_mut(name) {
                        walk.path.push(Step::Key(name.clone()));
                        plan.apply(found, walk, depth + 1);
                        walk.path.pop();
                    }
                }
            }
            Value::Array(items) => {
                if let Some(plan) = &self.items {
                    for (index, item) in items.iter_mut().enumerate() {
                        walk.path.push(Step::Index(index));
                        plan.apply(item, walk, depth + 1);
                        walk.path.pop();
                    }
                }
            }
            _ => {}
        }
    }
}

/// One application of a plan: the direction, the definitions, where it is, what repeated.
struct Walk<'a> {
    defs: &'a HashMap<String, MapPlan>,
    to_object: bool,
    /// Arguments still being written: a list's last pair may be unfinished (skipped).
    partial: bool,
    path: Vec<Step>,
    repeats: Vec<(Vec<Step>, String)>,
}

/// `[{"key": k, "value": v}, …]` → `{k: v, …}`, the values mapped back first. Anything that is
/// not a list of pairs is left for validation to name.
fn pairs_to_object(value: &mut Value, values: &MapPlan, walk: &mut Walk<'_>, depth: usize) {
    let Value::Array(items) = value else {
        return;
    };
    let last = items.len().saturating_sub(1);
    let all_pairs = items.iter().enumerate().all(|(index, item)| {
        item.as_object().is_some_and(|pair| {
            (pair.len() == 2
                && pair.get("key").is_some_and(Value::is_string)
                && pair.contains_key("value"))
                // The pair the model is still writing.
                || (walk.partial && index == last && pair.len() < 2)
        })
    });
    if !all_pairs {
        return;
    }
    let mut map = Map::with_capacity(items.len());
    for item in std::mem::take(items) {
        let Value::Object(mut pair) = item else {
            continue;
        };
        let (Some(Value::String(key)), Some(mut entry)) =
            (pair.shift_remove("key"), pair.shift_remove("value"))
        else {
            continue;
        };
        if map.contains_key(&key) {
            // The first value stays; the call fails anyway, naming the key.
            walk.repeats.push((walk.path.clone(), key));
            continue;
        }
        walk.path.push(Step::Key(key.clone()));
        values.apply(&mut entry, walk, depth + 1);
        walk.path.pop();
        map.insert(key, entry);
    }
    *value = Value::Object(map);
}

/// `{k: v, …}` → `[{"key": k, "value": v}, …]`, the values mapped first (for examples).
fn object_to_pairs(value: &mut Value, values: &MapPlan, walk: &mut Walk<'_>, depth: usize) {
    let Value::Object(map) = value else {
        return;
    };
    let mut pairs = Vec::with_capacity(map.len());
    for (key, mut entry) in std::mem::take(map) {
        walk.path.push(Step::Key(key.clone()));
        values.apply(&mut entry, walk, depth + 1);
        walk.path.pop();
        let pair: Map<String, Value> = [
            ("key".to_owned(), Value::String(key)),
            ("value".to_owned(), entry),
        ]
        .into_iter()
        .collect();
        pairs.push(Value::Object(pair));
    }
    *value = Value::Array(pairs);
}

/// The plan of one tool's arguments, with the plans of its recursive definitions.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ToolMapPlan {
    root: MapPlan,
    defs: HashMap<String, MapPlan>,
}

impl ToolMapPlan {
    /// The plan of the lowered `parameters`, whose nodes at `pointers` are maps sent as pairs;
    /// `None` when there are none.
    pub(crate) fn build(parameters: &Value, pointers: &[String]) -> Option<Self> {
        if pointers.is_empty() {
            return None;
        }
        let pairs: HashSet<&str> = pointers.iter().map(String::as_str).collect();
        let root = MapPlan::build(parameters, "", &pairs);
        let mut defs = HashMap::new();
        if let Some(Value::Object(definitions)) = parameters.get("$defs") {
            for (name, definition) in definitions {
                let pointer = format!("/$defs/{}", crate::providers::lower::escape(name));
                let plan = MapPlan::build(definition, &pointer, &pairs);
                if !plan.is_empty() {
                    defs.insert(name.clone(), plan);
                }
            }
        }
        if !root.is_empty() {
            // A `$ref: "#"` (recursion through the root) follows the root's plan.
            defs.insert("#".to_owned(), root.clone());
        }
        Some(Self { root, defs })
    }

    /// Maps the pairs in `arguments` back to objects; every key a list of pairs repeats is a
    /// violation (`duplicate property "env.PATH"`).
    pub(crate) fn to_objects(&self, arguments: &mut Value) -> Result<(), Violations> {
        let mut walk = self.walk(true);
        self.root.apply(arguments, &mut walk, 0);
        if walk.repeats.is_empty() {
            return Ok(());
        }
        let repeats = walk.repeats;
        let mut cx = ValidationContext::for_arguments();
        for (path, key) in &repeats {
            for step in path {
                match step {
                    Step::Key(name) => cx.push_key(name),
                    Step::Index(index) => cx.push_index(*index),
                }
            }
            cx.report_duplicate(key);
            for _ in path {
                cx.pop();
            }
        }
        cx.finish()
    }

    /// Maps the pairs of arguments still being written back to objects, as far as they go: a
    /// list's unfinished last pair is left out, a repeated key keeps its first value.
    pub(crate) fn to_objects_so_far(&self, arguments: &mut Value) {
        let mut walk = self.walk(true);
        walk.partial = true;
        self.root.apply(arguments, &mut walk, 0);
    }

    /// Writes the objects in `arguments` (canonical form, such as an input example) as pairs.
    pub(crate) fn to_pairs(&self, arguments: &mut Value) {
        let mut walk = self.walk(false);
        self.root.apply(arguments, &mut walk, 0);
    }

    fn walk(&self, to_object: bool) -> Walk<'_> {
        Walk {
            defs: &self.defs,
            to_object,
            partial: false,
            path: Vec::new(),
            repeats: Vec::new(),
        }
    }
}
