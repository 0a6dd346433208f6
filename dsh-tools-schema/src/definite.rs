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
//!
//! A stream checked again and again as it grows ([`Schema::definite_violations_since`]) is
//! checked on the reader itself, not on a copy of its value, and a [`DefiniteProgress`] keeps
//! which finished members of each open container were already walked clean: a finished member
//! never changes, so a later check walks only what finished since, and the checks of a whole
//! stream walk each finished member about once.

use serde_json::{Map, Value};

use super::limits::MAX_VALIDATION_DEPTH;
use super::model::{
    AdditionalProperties, ArrayRules, ObjectRules, Schema, SchemaKind, StringRules,
};
use super::rules::{arrays, objects};
use super::semantics::same_key;
use super::validate::{Defs, Scope, check, walk};
use super::violation::{PathRoot, ValidationContext, Violations};
use crate::partial_json::{
    OpenLeaf, OpenPath, OpenStep, PartialArray, PartialJson, PartialNode, PartialObject,
};

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
    /// let mut arguments = PartialJson::default();
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
    #[doc(hidden)]
    pub fn definite_violations_in(
        &self,
        value: &Value,
        open: &OpenPath<'_>,
    ) -> Result<(), Violations> {
        let mut cx = ValidationContext::new(PathRoot::Arguments);
        walk_open(self, value, &open.steps, open.leaf, &mut cx, Defs::NONE);
        cx.finish()
    }

    /// [`definite_violations`](Self::definite_violations) of a value still being written, for
    /// a caller that checks the same [`PartialJson`] again as it grows, with the same
    /// `progress` each time: the same violations, found without copying the value so far and
    /// without walking again the finished members an earlier check found clean. Nothing is
    /// reported once the value is finished (or before any of it is known): the final
    /// validation is the caller's.
    ///
    /// ```
    /// use dsh_tools_schema::partial_json::PartialJson;
    /// use dsh_tools_schema::{DefiniteProgress, Schema};
    ///
    /// let schema = Schema::object()
    ///     .required("path", Schema::string())
    ///     .required("content", Schema::string())
    ///     .build();
    /// let mut progress = DefiniteProgress::default();
    /// let mut arguments = PartialJson::default();
    /// arguments.push(r#"{"path": "a.rs", "content": "fn"#).unwrap();
    /// assert!(schema.definite_violations_since(&arguments, &mut progress).is_ok());
    /// // An undeclared key whose value has begun: what a whole check finds.
    /// arguments.push(r#" main() {}", "mode": 7"#).unwrap();
    /// let found = schema.definite_violations_since(&arguments, &mut progress);
    /// let whole = schema.definite_violations(&arguments);
    /// assert_eq!(found.unwrap_err().to_string(), whole.unwrap_err().to_string());
    /// ```
    pub fn definite_violations_since(
        &self,
        partial: &PartialJson,
        progress: &mut DefiniteProgress,
    ) -> Result<(), Violations> {
        let (Some(node), Some(open)) = (partial.node(), partial.open_path()) else {
            return Ok(());
        };
        let same = progress.same_containers(&open.steps);
        let mut clean = vec![0; open.steps.len() + 1];
        let mut cx = ValidationContext::new(PathRoot::Arguments);
        let mut walk = PartialWalk {
            open: &open,
            progress,
            same,
            clean: &mut clean,
        };
        match walk.node(self, node, 0, &mut cx, Defs::NONE) {
            Ok(()) => {
                progress.record(&open.steps, clean);
                cx.finish()
            }
            // What an open node itself breaks is reported with its value: the rare walk that
            // finds such a thing is made again on a copy.
            Err(NeedsValue) => {
                drop(cx);
                match partial.value() {
                    Some(value) => self.definite_violations_in(&value, &open),
                    None => Ok(()),
                }
            }
        }
    }
}

/// What the definite checks of one value being written found clean so far (see
/// [`Schema::definite_violations_since`]): per open container, how many of its first finished
/// members were walked without a violation. Start each stream with a new one.
#[derive(Clone, Debug, Default)]
pub struct DefiniteProgress {
    /// The open path of the last check: the container at depth `d` is the same one as long as
    /// the first `d` steps are.
    steps: Vec<OwnedStep>,
    /// Per depth of that path, the finished members walked clean.
    clean: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum OwnedStep {
    Key(String),
    Index(usize),
}

impl OwnedStep {
    fn is(&self, step: &OpenStep<'_>) -> bool {
        match (self, step) {
            (Self::Key(known), OpenStep::Key(key)) => known == key,
            (Self::Index(known), OpenStep::Index(index)) => known == index,
            _ => false,
        }
    }
}

impl DefiniteProgress {
    /// How many depths of the path `steps` lead to the same containers as the last check's:
    /// a key is given once per object and items only come, so the same steps reach the same
    /// container.
    fn same_containers(&self, steps: &[OpenStep<'_>]) -> usize {
        let common = self
            .steps
            .iter()
            .zip(steps)
            .take_while(|(known, step)| known.is(step))
            .count();
        // Depths 0..=common are the same containers, when the last check had them.
        (common + 1).min(self.clean.len())
    }

    fn record(&mut self, steps: &[OpenStep<'_>], clean: Vec<usize>) {
        self.steps.clear();
        self.steps.extend(steps.iter().map(|step| match step {
            OpenStep::Key(key) => OwnedStep::Key((*key).to_owned()),
            OpenStep::Index(index) => OwnedStep::Index(*index),
        }));
        self.clean = clean;
    }
}

/// The walk of [`Schema::definite_violations_since`] met an open node that breaks its schema
/// by itself, which is reported with the node's value.
struct NeedsValue;

/// One check of [`Schema::definite_violations_since`]: [`walk_open`] on the reader's nodes.
struct PartialWalk<'p, 'o> {
    open: &'p OpenPath<'o>,
    progress: &'p DefiniteProgress,
    /// Depths below which the containers are the last check's.
    same: usize,
    /// Per depth, the finished members found clean by this check.
    clean: &'p mut Vec<usize>,
}

impl PartialWalk<'_, '_> {
    /// The finished members of the container at `depth` an earlier check found clean.
    fn clean_before(&self, depth: usize) -> usize {
        if depth < self.same {
            self.progress.clean.get(depth).copied().unwrap_or(0)
        } else {
            0
        }
    }

    /// An open node at `depth` of the open path, as [`walk_open`] walks it.
    fn node<'v>(
        &mut self,
        schema: &'v Schema,
        node: PartialNode<'v>,
        depth: usize,
        cx: &mut ValidationContext<'v>,
        defs: Defs<'_, 'v>,
    ) -> Result<(), NeedsValue> {
        if cx.depth() >= MAX_VALIDATION_DEPTH {
            return Ok(());
        }
        let steps = &self.open.steps[depth..];
        let leaf = self.open.leaf;
        let is_container = !steps.is_empty() || leaf == OpenLeaf::Container;
        match (&schema.kind, node) {
            (SchemaKind::Defined(definition), _) => {
                let scope = Scope::new(definition, defs);
                self.node(&definition.schema, node, depth, cx, scope.defs())
            }
            (SchemaKind::Ref(name), _) => {
                let Some(target) = defs.find(name) else {
                    return Ok(());
                };
                let counts = !target.descends_at_once();
                if counts {
                    cx.descend();
                }
                let walked = self.node(target, node, depth, cx, defs);
                if counts {
                    cx.ascend();
                }
                walked
            }
            (SchemaKind::Object(rules), PartialNode::Object(object)) if is_container => {
                self.object(rules, object, depth, cx, defs)
            }
            (SchemaKind::Array(rules), PartialNode::Array(array)) if is_container => {
                self.array(rules, array, depth, cx, defs)
            }
            (SchemaKind::String(rules), PartialNode::String(text)) if leaf == OpenLeaf::String => {
                if open_string_breaks(rules, text) {
                    return Err(NeedsValue);
                }
                Ok(())
            }
            (kind, node) if takes_no_node_of_this_type(kind, node) => Err(NeedsValue),
            _ => Ok(()),
        }
    }

    /// [`walk_open_object`] on an open object of the reader.
    fn object<'v>(
        &mut self,
        rules: &'v ObjectRules,
        object: PartialObject<'v>,
        depth: usize,
        cx: &mut ValidationContext<'v>,
        defs: Defs<'_, 'v>,
    ) -> Result<(), NeedsValue> {
        let entries = object.entries();
        // The open member is in the value so far when the path steps into it.
        let open = match self.open.steps.get(depth) {
            Some(OpenStep::Key(_)) => object.open_key(),
            _ => None,
        };
        let members = entries.len() + usize::from(open.is_some());
        if objects::open_count_violation(rules.constraints.counts(), members).is_some() {
            return Err(NeedsValue);
        }
        let skip = self.clean_before(depth).min(entries.len());
        let mut clean = skip;
        for (index, (key, child)) in entries.iter().enumerate().skip(skip) {
            let before = cx.count();
            let schema = match member_rule(rules, key) {
                MemberRule::Checked(schema) => Some(schema),
                MemberRule::Forbidden => {
                    cx.report_undeclared(key, child);
                    None
                }
                MemberRule::Free => None,
            };
            if let Some(schema) = schema {
                cx.push_key(key);
                walk_finished(schema, child, cx, defs);
                cx.pop();
            }
            if clean == index && cx.count() == before {
                clean += 1;
            }
        }
        self.clean[depth] = clean;
        let Some(key) = open else {
            return Ok(());
        };
        let schema = match member_rule(rules, key) {
            MemberRule::Checked(schema) => schema,
            // An undeclared key is reported with its value's type.
            MemberRule::Forbidden => return Err(NeedsValue),
            MemberRule::Free => return Ok(()),
        };
        let Some(child) = object.open_value() else {
            return Ok(());
        };
        cx.push_key(key);
        let walked = self.node(schema, child, depth + 1, cx, defs);
        cx.pop();
        walked
    }

    /// [`walk_open_array`] on an open array of the reader.
    fn array<'v>(
        &mut self,
        rules: &'v ArrayRules,
        array: PartialArray<'v>,
        depth: usize,
        cx: &mut ValidationContext<'v>,
        defs: Defs<'_, 'v>,
    ) -> Result<(), NeedsValue> {
        let items = array.items();
        let open = matches!(self.open.steps.get(depth), Some(OpenStep::Index(_)));
        let count = items.len() + usize::from(open);
        if arrays::open_count_violation(rules.constraints.counts(), count).is_some() {
            return Err(NeedsValue);
        }
        let Some(item_schema) = rules.items.as_deref() else {
            return Ok(());
        };
        let skip = self.clean_before(depth).min(items.len());
        let mut clean = skip;
        for (index, item) in items.iter().enumerate().skip(skip) {
            let before = cx.count();
            cx.push_index(index);
            walk_finished(item_schema, item, cx, defs);
            cx.pop();
            if clean == index && cx.count() == before {
                clean += 1;
            }
        }
        self.clean[depth] = clean;
        let Some(child) = open.then(|| array.open_item()).flatten() else {
            return Ok(());
        };
        cx.push_index(items.len());
        let walked = self.node(item_schema, child, depth + 1, cx, defs);
        cx.pop();
        walked
    }
}

/// Whether `kind` is a typed kind that refuses every value of an open node's JSON type.
fn takes_no_node_of_this_type(kind: &SchemaKind, node: PartialNode<'_>) -> bool {
    let takes = match (kind, node) {
        (SchemaKind::String(_), PartialNode::String(_))
        | (SchemaKind::Number(_) | SchemaKind::Integer(_), PartialNode::Number(_))
        | (SchemaKind::Array(_), PartialNode::Array(_))
        | (SchemaKind::Object(_), PartialNode::Object(_)) => true,
        (
            SchemaKind::String(_)
            | SchemaKind::Number(_)
            | SchemaKind::Integer(_)
            | SchemaKind::Boolean
            | SchemaKind::Null
            | SchemaKind::Array(_)
            | SchemaKind::Object(_),
            _,
        ) => false,
        _ => return false,
    };
    !takes
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

/// What an object's rules say of a member named `key`.
enum MemberRule<'v> {
    /// Its value is checked against this schema (declared, or the additional members' schema).
    Checked(&'v Schema),
    /// Undeclared where undeclared members are forbidden.
    Forbidden,
    /// Undeclared and free.
    Free,
}

fn member_rule<'v>(rules: &'v ObjectRules, key: &str) -> MemberRule<'v> {
    let declared = rules
        .properties
        .iter()
        .find(|property| same_key(&property.name, key));
    match (declared, &rules.additional) {
        (Some(property), _) => MemberRule::Checked(&property.schema),
        (None, AdditionalProperties::Forbidden) => MemberRule::Forbidden,
        (None, AdditionalProperties::Allowed) => MemberRule::Free,
        (None, AdditionalProperties::Schema(schema)) => MemberRule::Checked(schema),
    }
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
    if let Some(kind) = objects::open_count_violation(rules.constraints.counts(), map.len()) {
        cx.report(kind, value);
    }
    let open_key = match steps.first() {
        Some(OpenStep::Key(key)) => Some(*key),
        _ => None,
    };
    for (key, child) in map {
        let is_open = open_key.is_some_and(|open| open == key);
        let schema = match member_rule(rules, key) {
            MemberRule::Checked(schema) => schema,
            MemberRule::Forbidden => {
                cx.report_undeclared(key, child);
                continue;
            }
            MemberRule::Free => continue,
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
    if let Some(kind) = arrays::open_count_violation(rules.constraints.counts(), items.len()) {
        cx.report(kind, value);
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
    if let Some(kind) = rules.lengths.open_violation(text) {
        cx.report(kind, value);
    }
}

/// Whether an open string is already longer than `maxLength` allows, for good.
fn open_string_breaks(rules: &StringRules, text: &str) -> bool {
    rules.lengths.open_violation(text).is_some()
}
