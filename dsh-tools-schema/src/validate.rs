//! The schema interpreter: checks a JSON value against a [`Schema`].
//!
//! Two walks over the same rules, kept side by side so they cannot drift:
//! - `check` answers "valid?" and stops at the first problem. It never builds a path or
//!   allocates; it is the whole cost of validating a valid value.
//! - `walk` reports every violation into a [`ValidationContext`] in the stable order: missing
//!   required keys (declaration order), the object's key count (`minProperties`,
//!   `maxProperties`), declared properties (declaration order, nested violations inline), then
//!   undeclared keys (payload order); an array's item count, then its first two equal items
//!   (`uniqueItems`), then its items by index; one violation per scalar.
//!   It only runs once `check` has said "invalid", and it skips valid children with a yes/no
//!   check: `check`, or the compiled node's when a [`CompiledSchema`](super::CompiledSchema)
//!   reports (the walk follows the node alongside the schema). Either way the report is this
//!   walk's, so it is the same.
//!
//! Recursion follows the schema, never the value: an `Any` node, a type mismatch or a scalar
//! comparison stops the descent, so a hostile 10,000-deep value costs one step, and the depth is
//! capped at [`MAX_VALIDATION_DEPTH`] whatever the schema.

use serde_json::{Map, Value};

use super::compile::Node;
use super::compiled_check::check as compiled_check;
use super::key::{guess_from_hint, search};
use super::limits::MAX_VALIDATION_DEPTH;
use super::model::{
    AdditionalProperties, ArrayRules, Definition, ObjectRules, Property, Schema, SchemaKind,
    StringRules,
};
use super::property_index::{INDEXED_PROPERTIES, PropertyIndex};
use super::semantics::{count_up_to_two, is_integral, json_equal, same_key};
use super::violation::{JsonType, PathRoot, ValidationContext, ViolationKind, Violations};

/// Objects with at most this many declared properties keep the "which property is this key"
/// table on the stack while reporting.
const INLINE_SLOTS: usize = 16;

// The interpreter's entry points are public for the runtime's one-off checks of a schema it
// does not keep and for the differential suites that hold the compiled checks to it; users
// validate through a `CompiledSchema`, which answers the same, so they are not API.
impl Schema {
    /// Validates a tool's arguments (paths rooted at `arguments`); the error lists every violation.
    /// Not API: validate with [`CompiledSchema::validate`](super::CompiledSchema::validate).
    #[doc(hidden)]
    pub fn validate(&self, value: &Value) -> Result<(), Violations> {
        if self.is_valid(value) {
            return Ok(());
        }
        report(self, None, value, PathRoot::Arguments)
    }

    /// Validates a tool's output value (paths rooted at `value`). Not API: validate with
    /// [`CompiledSchema::validate_output`](super::CompiledSchema::validate_output).
    #[doc(hidden)]
    pub fn validate_output(&self, value: &Value) -> Result<(), Violations> {
        if self.is_valid(value) {
            return Ok(());
        }
        report(self, None, value, PathRoot::Value)
    }

    /// Whether `value` matches, without collecting anything (and without allocating). Not API:
    /// ask [`CompiledSchema::is_valid`](super::CompiledSchema::is_valid).
    #[doc(hidden)]
    pub fn is_valid(&self, value: &Value) -> bool {
        check(self, value, 0, Defs::NONE)
    }
}

/// The definitions enclosing a node, innermost first: what a [`SchemaKind::Ref`] resolves
/// against. A list on the stack of the walk, so entering a definition allocates nothing.
#[derive(Clone, Copy)]
pub(super) struct Defs<'a, 's>(Option<&'a Scope<'a, 's>>);

/// One enclosing definition and those around it.
pub(super) struct Scope<'a, 's> {
    definition: &'s Definition,
    outer: Defs<'a, 's>,
}

impl<'a, 's> Defs<'a, 's> {
    /// No enclosing definition.
    pub(super) const NONE: Self = Self(None);

    /// The innermost definition named `name`.
    pub(super) fn find(self, name: &str) -> Option<&'s Schema> {
        let mut scope = self.0;
        while let Some(current) = scope {
            if current.definition.name == name {
                return Some(&current.definition.schema);
            }
            scope = current.outer.0;
        }
        None
    }
}

impl<'a, 's> Scope<'a, 's> {
    pub(super) fn new(definition: &'s Definition, outer: Defs<'a, 's>) -> Self {
        Self { definition, outer }
    }

    pub(super) fn defs(&'a self) -> Defs<'a, 's> {
        Defs(Some(self))
    }
}

/// Every violation of `value`, which a yes/no check has already found invalid, with paths
/// rooted at `root`. Shared with [`CompiledSchema`](super::CompiledSchema), which passes
/// `schema`'s compiled node to skip valid children faster; both report alike.
pub(super) fn report(
    schema: &Schema,
    node: Option<&Node>,
    value: &Value,
    root: PathRoot,
) -> Result<(), Violations> {
    let mut cx = ValidationContext::new(root);
    walk(schema, node, value, &mut cx, Defs::NONE);
    cx.finish()
}

// ---------------------------------------------------------------------------------------------
// check: the allocation-free yes/no walk
// ---------------------------------------------------------------------------------------------

pub(super) fn check<'s>(
    schema: &'s Schema,
    value: &Value,
    depth: usize,
    defs: Defs<'_, 's>,
) -> bool {
    if schema.nullable && value.is_null() {
        return true;
    }
    match (&schema.kind, value) {
        (SchemaKind::String(rules), Value::String(text)) => string_violation(rules, text).is_none(),
        (SchemaKind::Number(rules), Value::Number(number)) => rules.holds(number),
        (SchemaKind::Integer(rules), Value::Number(number)) => {
            is_integral(number) && rules.holds(number)
        }
        (SchemaKind::Boolean, Value::Bool(_)) | (SchemaKind::Null, Value::Null) => true,
        (SchemaKind::Array(rules), Value::Array(items)) => {
            depth < MAX_VALIDATION_DEPTH && check_array(rules, items, depth, defs)
        }
        (SchemaKind::Object(rules), Value::Object(map)) => {
            depth < MAX_VALIDATION_DEPTH && check_object(rules, map, depth, defs)
        }
        (SchemaKind::Any, _) => true,
        (SchemaKind::Enum(members), _) => is_member(members, value),
        (SchemaKind::Const(constant), _) => is_member(std::slice::from_ref(constant), value),
        (SchemaKind::OneOf(branches), _) => {
            depth < MAX_VALIDATION_DEPTH
                && count_up_to_two(branches, |branch| check(branch, value, depth + 1, defs)) == 1
        }
        (SchemaKind::Defined(definition), _) => {
            let scope = Scope::new(definition, defs);
            check(&definition.schema, value, depth, scope.defs())
        }
        // A reference counts as a level unless its target descends into the value at once, so
        // a schema that refers to itself without nesting (`{"$ref": "#"}`) still stops at the
        // cap, and a recursive type is followed as deep as the value goes.
        (SchemaKind::Ref(name), _) => defs.find(name).is_some_and(|target| {
            if target.descends_at_once() {
                check(target, value, depth, defs)
            } else {
                depth < MAX_VALIDATION_DEPTH && check(target, value, depth + 1, defs)
            }
        }),
        (SchemaKind::Keywords(keywords), _) => keywords.check(value, depth),
        _ => false,
    }
}

/// [`check`] for a child node, with the common leaves decided in place: most nodes of a
/// payload are scalars, and a call per scalar is a large share of the whole cost.
#[inline(always)]
fn check_child<'s>(schema: &'s Schema, value: &Value, depth: usize, defs: Defs<'_, 's>) -> bool {
    match (&schema.kind, value) {
        (SchemaKind::String(rules), Value::String(text)) => string_violation(rules, text).is_none(),
        (SchemaKind::Integer(rules), Value::Number(number)) => {
            is_integral(number) && rules.holds(number)
        }
        (SchemaKind::Boolean, Value::Bool(_)) => true,
        _ => check(schema, value, depth, defs),
    }
}

fn check_array<'s>(
    rules: &'s ArrayRules,
    items: &[Value],
    depth: usize,
    defs: Defs<'_, 's>,
) -> bool {
    array_size_violation(rules, items.len()).is_none()
        && rules.items.as_deref().is_none_or(|item_schema| {
            items
                .iter()
                .all(|item| check(item_schema, item, depth + 1, defs))
        })
        // After the items: they are checked against their schema before any two are compared.
        && rules.constraints.relations_hold(items)
}

fn check_object<'s>(
    rules: &'s ObjectRules,
    map: &Map<String, Value>,
    depth: usize,
    defs: Defs<'_, 's>,
) -> bool {
    if object_size_violation(rules, map.len()).is_some() {
        return false;
    }
    let properties = &rules.properties;
    let mut lookup = Lookup::new(properties);
    let mut required_seen = 0usize;
    let mut declared_seen = 0usize;
    let mut hint = 0usize;
    for (key, item) in map {
        match lookup.find(key, hint) {
            Some(index) => {
                let property = &properties[index];
                if !check_child(&property.schema, item, depth + 1, defs) {
                    return false;
                }
                required_seen += usize::from(property.required);
                declared_seen += 1;
                hint = index + 1;
            }
            None => match &rules.additional {
                AdditionalProperties::Forbidden => return false,
                AdditionalProperties::Allowed => {}
                AdditionalProperties::Schema(schema) => {
                    if !check_child(schema, item, depth + 1, defs) {
                        return false;
                    }
                }
            },
        }
    }
    // Each payload key is unique and maps to at most one property, so every required property
    // was present exactly when the counts agree (and trivially when every property was).
    declared_seen == properties.len()
        || required_seen == properties.iter().filter(|p| p.required).count()
}

/// Finds the declared properties of one object by name: where the hint expects them (see
/// [`guess_from_hint`]), else by a scan, or in a large object by an index built at the first
/// miss (the interpreter keeps nothing between calls).
struct Lookup<'s> {
    properties: &'s [Property],
    index: Option<PropertyIndex>,
}

impl<'s> Lookup<'s> {
    #[inline(always)]
    fn new(properties: &'s [Property]) -> Self {
        Self {
            properties,
            index: None,
        }
    }

    /// The index of the property named `key`.
    #[inline(always)]
    fn find(&mut self, key: &str, hint: usize) -> Option<usize> {
        let properties = self.properties;
        guess_from_hint(properties.len(), hint, |index| {
            same_key(&properties[index].name, key)
        })
        .or_else(|| self.find_elsewhere(key))
    }

    #[inline(never)]
    fn find_elsewhere(&mut self, key: &str) -> Option<usize> {
        let properties = self.properties;
        let is_named = |index: usize| same_key(&properties[index].name, key);
        if properties.len() <= INDEXED_PROPERTIES {
            return search(properties.len(), is_named);
        }
        self.index
            .get_or_insert_with(|| {
                PropertyIndex::new(properties.iter().map(|property| property.name.as_str()))
            })
            .get(key, is_named)
    }
}

// ---------------------------------------------------------------------------------------------
// walk: the reporting walk
// ---------------------------------------------------------------------------------------------

/// Whether the child `value` of `schema` (compiled as `node`, when it is) is valid: the
/// reporting walk's way to skip the valid children of an invalid value.
#[inline(always)]
fn skip<'s>(
    schema: &'s Schema,
    node: Option<&Node>,
    value: &Value,
    depth: usize,
    defs: Defs<'_, 's>,
) -> bool {
    match node {
        Some(node) => compiled_check(node, value, depth),
        None => check_child(schema, value, depth, defs),
    }
}

/// Reports the violations of `value` against `schema`; `node` is `schema` compiled, when it is.
pub(super) fn walk<'v>(
    schema: &'v Schema,
    node: Option<&Node>,
    value: &'v Value,
    cx: &mut ValidationContext<'v>,
    defs: Defs<'_, 'v>,
) {
    if value.is_null() && schema.nullable {
        return;
    }
    // Only nodes that descend are capped, exactly as in `check` (a reference where it counts
    // as a level).
    let descends = match (&schema.kind, value) {
        (SchemaKind::Array(_), Value::Array(_))
        | (SchemaKind::Object(_), Value::Object(_))
        | (SchemaKind::OneOf(_), _) => true,
        (SchemaKind::Ref(name), _) => defs
            .find(name)
            .is_some_and(|target| !target.descends_at_once()),
        _ => false,
    };
    if descends && cx.depth() >= MAX_VALIDATION_DEPTH {
        cx.report(ViolationKind::TooDeep(MAX_VALIDATION_DEPTH), value);
        return;
    }
    let nullable = schema.nullable;
    match (&schema.kind, value) {
        (SchemaKind::String(rules), Value::String(text)) => {
            if let Some(kind) = string_violation(rules, text) {
                cx.report(kind, value);
            }
        }
        (SchemaKind::String(_), _) => cx.report(type_error(JsonType::String, nullable), value),
        (SchemaKind::Number(rules), Value::Number(number)) => {
            if let Some(kind) = rules.violation(number) {
                cx.report(kind, value);
            }
        }
        (SchemaKind::Number(_), _) => cx.report(type_error(JsonType::Number, nullable), value),
        (SchemaKind::Integer(rules), Value::Number(number)) if is_integral(number) => {
            if let Some(kind) = rules.violation(number) {
                cx.report(kind, value);
            }
        }
        (SchemaKind::Integer(_), _) => cx.report(ViolationKind::NotInteger, value),
        (SchemaKind::Boolean, Value::Bool(_)) | (SchemaKind::Null, Value::Null) => {}
        (SchemaKind::Boolean, _) => cx.report(type_error(JsonType::Boolean, nullable), value),
        (SchemaKind::Null, _) => cx.report(type_error(JsonType::Null, false), value),
        (SchemaKind::Array(rules), Value::Array(items)) => {
            if let Some(kind) = array_size_violation(rules, items.len()) {
                cx.report(kind, value);
            }
            rules
                .constraints
                .each_relation_violation(items, |kind| cx.report(kind, value));
            if let Some(item_schema) = rules.items.as_deref() {
                let item_node = node.and_then(Node::items);
                let depth = cx.depth() + 1;
                let mut rest = items.iter().enumerate();
                let first =
                    rest.find(|&(_, item)| !skip(item_schema, item_node, item, depth, defs));
                if let Some((first, item)) = first {
                    // The items after the first invalid one may well be invalid too. (Asked
                    // here, before the loop, which then stays as lean as the counting past the
                    // report cap needs.)
                    cx.expect_reports(items.len() - first);
                    cx.push_index(first);
                    walk(item_schema, item_node, item, cx, defs);
                    cx.pop();
                    for (index, item) in rest {
                        if skip(item_schema, item_node, item, depth, defs) {
                            continue;
                        }
                        cx.push_index(index);
                        walk(item_schema, item_node, item, cx, defs);
                        cx.pop();
                    }
                }
            }
        }
        (SchemaKind::Array(_), _) => cx.report(type_error(JsonType::Array, nullable), value),
        (SchemaKind::Object(rules), Value::Object(map)) => {
            walk_object(rules, node, map, value, cx, defs);
        }
        (SchemaKind::Object(_), _) => cx.report(type_error(JsonType::Object, nullable), value),
        (SchemaKind::Any, _) => {}
        (SchemaKind::Enum(members), _) => {
            if !members.iter().any(|member| json_equal(member, value)) {
                cx.report(ViolationKind::NotInEnum(members), value);
            }
        }
        (SchemaKind::Const(constant), _) => {
            if !json_equal(constant, value) {
                cx.report(ViolationKind::NotConst(constant), value);
            }
        }
        (SchemaKind::OneOf(branches), _) => {
            let depth = cx.depth() + 1;
            let matched = branches
                .iter()
                .enumerate()
                .filter(
                    |(index, branch)| match node.and_then(|node| node.branch(*index)) {
                        Some(branch) => compiled_check(branch, value, depth),
                        None => check(branch, value, depth, defs),
                    },
                )
                .count();
            match matched {
                1 => {}
                0 => walk_unmatched(branches, node, value, cx, defs),
                _ => cx.report(ViolationKind::OneOf { matched }, value),
            }
        }
        (SchemaKind::Defined(definition), _) => {
            let scope = Scope::new(definition, defs);
            let inner = node.and_then(Node::defined);
            walk(&definition.schema, inner, value, cx, scope.defs());
        }
        (SchemaKind::Ref(name), _) => match defs.find(name) {
            Some(target) => {
                let target_node = node.and_then(Node::referenced);
                let counts = !target.descends_at_once();
                if counts {
                    cx.descend();
                }
                walk(target, target_node.as_deref(), value, cx, defs);
                if counts {
                    cx.ascend();
                }
            }
            None => cx.report(ViolationKind::UnresolvedRef(name), value),
        },
        (SchemaKind::Keywords(keywords), _) => {
            keywords.report(value, cx);
        }
    }
}

/// Reports a value no branch of a `oneOf` matched, with something the model can fix: for a
/// tagged union (every branch an object with a required string constant under one key), a
/// missing or unknown tag with the tag's values, or the violations of the branch its tag names;
/// otherwise the violations of the closest branch; only when no branch even has the value's
/// type, the count of matching branches.
fn walk_unmatched<'v>(
    branches: &'v [Schema],
    node: Option<&Node>,
    value: &'v Value,
    cx: &mut ValidationContext<'v>,
    defs: Defs<'_, 'v>,
) {
    let branch_node = |index: usize| node.and_then(|node| node.branch(index));
    if let Value::Object(map) = value
        && let Some((tag, tags)) = discriminator(branches, defs)
    {
        let tag_values: Vec<Value> = tags.iter().map(|tag| Value::from(*tag)).collect();
        match map.get(tag) {
            None => cx.report_missing_tag(tag, &tag_values),
            Some(found) => match tags.iter().position(|tag| found.as_str() == Some(tag)) {
                Some(index) => walk(&branches[index], branch_node(index), value, cx, defs),
                None => {
                    cx.push_key(tag);
                    cx.report(ViolationKind::NotInEnum(&tag_values), found);
                    cx.pop();
                }
            },
        }
        return;
    }
    match closest_branch(branches, value, cx.depth() + 1, defs) {
        Some(index) => walk(&branches[index], branch_node(index), value, cx, defs),
        None => cx.report(ViolationKind::OneOf { matched: 0 }, value),
    }
}

/// A schema seen through definitions and references: what it checks at its top.
fn resolved<'s>(schema: &'s Schema, defs: Defs<'_, 's>) -> &'s Schema {
    match &schema.kind {
        SchemaKind::Defined(definition) => &definition.schema,
        SchemaKind::Ref(name) => defs.find(name).unwrap_or(schema),
        _ => schema,
    }
}

/// The tag of a tagged union: a key every branch requires with a distinct string constant,
/// and those constants in branch order.
fn discriminator<'s>(
    branches: &'s [Schema],
    defs: Defs<'_, 's>,
) -> Option<(&'s str, Vec<&'s str>)> {
    let tag_of = |branch: &'s Schema, key: &str| -> Option<&'s str> {
        let SchemaKind::Object(rules) = &resolved(branch, defs).kind else {
            return None;
        };
        let property = rules
            .properties
            .iter()
            .find(|property| property.required && property.name == key)?;
        match &property.schema.kind {
            SchemaKind::Const(Value::String(tag)) => Some(tag.as_str()),
            _ => None,
        }
    };
    let SchemaKind::Object(first) = &resolved(branches.first()?, defs).kind else {
        return None;
    };
    first.properties.iter().find_map(|candidate| {
        let key = candidate.name.as_str();
        let tags: Option<Vec<&str>> = branches.iter().map(|branch| tag_of(branch, key)).collect();
        let tags = tags?;
        let distinct = tags
            .iter()
            .enumerate()
            .all(|(index, tag)| !tags[..index].contains(tag));
        distinct.then_some((key, tags))
    })
}

/// The branch `value` comes closest to: among those of the value's type, the one with the
/// fewest problems at the value's own level (missing required and undeclared keys, invalid
/// children, each decided by the yes/no check, so finding it costs one pass per branch);
/// the first of equals. `None` when no branch has the value's type.
fn closest_branch<'s>(
    branches: &'s [Schema],
    value: &Value,
    depth: usize,
    defs: Defs<'_, 's>,
) -> Option<usize> {
    branches
        .iter()
        .enumerate()
        .filter_map(|(index, branch)| {
            Some((problems(resolved(branch, defs), value, depth, defs)?, index))
        })
        .min()
        .map(|(_, index)| index)
}

/// How many problems `value` has at its own level against `schema`, or `None` when it is not
/// even of the schema's type.
fn problems<'s>(
    schema: &'s Schema,
    value: &Value,
    depth: usize,
    defs: Defs<'_, 's>,
) -> Option<usize> {
    if value.is_null() && schema.nullable {
        return Some(0);
    }
    match (&schema.kind, value) {
        (SchemaKind::Object(rules), Value::Object(map)) => {
            let missing = rules
                .properties
                .iter()
                .filter(|property| property.required && !map.contains_key(&property.name))
                .count();
            let mut count =
                missing + usize::from(object_size_violation(rules, map.len()).is_some());
            for (key, item) in map {
                match rules
                    .properties
                    .iter()
                    .find(|property| property.name == *key)
                {
                    Some(property) => {
                        count += usize::from(!check(&property.schema, item, depth + 1, defs));
                    }
                    None => match &rules.additional {
                        AdditionalProperties::Forbidden => count += 1,
                        AdditionalProperties::Allowed => {}
                        AdditionalProperties::Schema(values) => {
                            count += usize::from(!check(values, item, depth + 1, defs));
                        }
                    },
                }
            }
            Some(count)
        }
        (SchemaKind::Array(rules), Value::Array(items)) => {
            let size = usize::from(array_size_violation(rules, items.len()).is_some())
                + usize::from(!rules.constraints.relations_hold(items));
            let invalid = rules.items.as_deref().map_or(0, |item_schema| {
                items
                    .iter()
                    .filter(|item| !check(item_schema, item, depth + 1, defs))
                    .count()
            });
            Some(size + invalid)
        }
        (SchemaKind::String(_), Value::String(_))
        | (SchemaKind::Number(_) | SchemaKind::Integer(_), Value::Number(_))
        | (SchemaKind::Boolean, Value::Bool(_))
        | (SchemaKind::Null, Value::Null) => Some(1),
        (SchemaKind::Enum(_) | SchemaKind::Const(_) | SchemaKind::Any, _) => Some(1),
        _ => None,
    }
}

fn walk_object<'v>(
    rules: &'v ObjectRules,
    node: Option<&Node>,
    map: &'v Map<String, Value>,
    value: &'v Value,
    cx: &mut ValidationContext<'v>,
    defs: Defs<'_, 'v>,
) {
    let properties = &rules.properties;
    // slots[i]: the payload's value for property i, found in one pass over the payload.
    let mut inline = [None; INLINE_SLOTS];
    let mut spilled;
    let slots: &mut [Option<&'v Value>] = if properties.len() <= INLINE_SLOTS {
        &mut inline[..properties.len()]
    } else {
        spilled = vec![None; properties.len()];
        &mut spilled
    };
    // The undeclared entries, in payload order (allocated only when there is one).
    let mut undeclared: Vec<(&'v str, &'v Value)> = Vec::new();
    let mut lookup = Lookup::new(properties);
    let mut hint = 0usize;
    for (key, item) in map {
        match lookup.find(key, hint) {
            Some(index) => {
                slots[index] = Some(item);
                hint = index + 1;
            }
            None => undeclared.push((key, item)),
        }
    }

    if rules.required_order.is_empty() {
        for (property, slot) in properties.iter().zip(slots.iter()) {
            if property.required && slot.is_none() {
                cx.report_missing(&property.name);
            }
        }
    } else {
        for index in rules.required_indices() {
            if slots[index].is_none() {
                cx.report_missing(&properties[index].name);
            }
        }
    }
    if let Some(kind) = object_size_violation(rules, map.len()) {
        cx.report(kind, value);
    }
    let depth = cx.depth() + 1;
    for (index, (property, slot)) in properties.iter().zip(slots.iter()).enumerate() {
        // Most children of an invalid payload are valid; the yes/no walk clears them cheaper
        // than the reporting walk can.
        let Some(item) = *slot else { continue };
        let child = node.and_then(|node| node.property(index));
        if !skip(&property.schema, child, item, depth, defs) {
            cx.push_key(&property.name);
            walk(&property.schema, child, item, cx, defs);
            cx.pop();
        }
    }
    match &rules.additional {
        AdditionalProperties::Allowed => {}
        AdditionalProperties::Forbidden => {
            for (key, item) in undeclared {
                cx.report_undeclared(key, item);
            }
        }
        AdditionalProperties::Schema(schema) => {
            let values = node.and_then(Node::additional);
            for (key, item) in undeclared {
                if !skip(schema, values, item, depth, defs) {
                    cx.push_key(key);
                    walk(schema, values, item, cx, defs);
                    cx.pop();
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// scalar rules, shared by both walks
// ---------------------------------------------------------------------------------------------

fn type_error(expected: JsonType, nullable: bool) -> ViolationKind<'static> {
    ViolationKind::Type { expected, nullable }
}

/// The first string constraint `text` breaks (one violation per scalar): the families' leaves
/// (`rules/lengths.rs`, `rules/matching.rs`), written with early returns over the per-keyword
/// checks and inlined whole, which measured as cheap as the checks written out here.
#[inline(always)]
fn string_violation<'s>(rules: &'s StringRules, text: &str) -> Option<ViolationKind<'s>> {
    if let Some(kind) = rules.lengths.first_violation(text) {
        return Some(kind);
    }
    rules.matching.first_violation(text)
}

/// The key-count bound an object of `len` keys breaks (`rules/objects.rs`' leaf).
#[inline(always)]
fn object_size_violation(rules: &ObjectRules, len: usize) -> Option<ViolationKind<'static>> {
    rules.constraints.size_violation(len)
}

/// The item-count bound `len` breaks (`rules/arrays.rs`' leaf).
#[inline]
fn array_size_violation(rules: &ArrayRules, len: usize) -> Option<ViolationKind<'static>> {
    rules.constraints.size_violation(len)
}

/// Whether `value` is JSON-equal to one of `members`, out of line: inlined, the comparison
/// would weigh on every node [`check`]'s match dispatches.
#[inline(never)]
fn is_member(members: &[Value], value: &Value) -> bool {
    members.iter().any(|member| json_equal(member, value))
}
