//! Where a `null` from the model means "absent": the [`NullPlan`] of a strict view.
//!
//! Strict modes require every property, so a property the canonical schema leaves optional is
//! sent required and nullable, and the model answers `null` when it has nothing to say. Where
//! the canonical schema accepts `null` for that property (every `Option<T>` field does), the
//! value is passed on as sent. Where it does not (a field with a default, a raw tool's optional
//! string), the adapter removes the `null` before the call runs, so a strict view never turns
//! a valid call into `INVALID_ARGS`. Nothing else about the arguments is touched.

use std::collections::HashMap;

use serde_json::Value;

/// Deepest nesting a plan follows through recursive definitions (serde_json's own parser stops
/// at 128 levels, so no parsed value is deeper).
const MAX_DEPTH: usize = 128;

/// What to strip inside one schema node.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct NullPlan {
    props: Vec<PropertyPlan>,
    items: Option<Box<NullPlan>>,
    /// The node is a recursive reference: follow the named definition's plan.
    reference: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
struct PropertyPlan {
    name: String,
    /// Remove the property when its value is `null`.
    strip: bool,
    /// The canonical schema accepts `null` here (so no union branch may strip it).
    accepts_null: bool,
    nested: Option<NullPlan>,
}

impl NullPlan {
    /// The plan of a node that refers to the recursive definition `name` (`#` is the root).
    pub(crate) fn reference(name: &str) -> Self {
        Self {
            reference: Some(name.to_owned()),
            ..Self::default()
        }
    }

    /// Records a property: `strip` when its `null` must be removed, `accepts_null` when the
    /// canonical schema takes `null` there (which a union needs to know), and the plan of its
    /// value.
    pub(crate) fn add_property(
        &mut self,
        name: &str,
        strip: bool,
        accepts_null: bool,
        nested: Option<NullPlan>,
    ) {
        if !strip && !accepts_null && nested.is_none() {
            return;
        }
        self.props.push(PropertyPlan {
            name: name.to_owned(),
            strip,
            accepts_null,
            nested,
        });
    }

    /// Attaches the plan of a property's value.
    pub(crate) fn attach_nested(&mut self, name: &str, nested: NullPlan) {
        if nested.is_empty() {
            return;
        }
        match self.props.iter_mut().find(|prop| prop.name == name) {
            Some(prop) => prop.nested = Some(nested),
            None => self.props.push(PropertyPlan {
                name: name.to_owned(),
                strip: false,
                accepts_null: false,
                nested: Some(nested),
            }),
        }
    }

    pub(crate) fn set_items(&mut self, items: NullPlan) {
        self.items = (!items.is_empty()).then(|| Box::new(items));
    }

    /// Whether the plan records nothing at all.
    fn is_empty(&self) -> bool {
        self.props.is_empty() && self.items.is_none() && self.reference.is_none()
    }

    /// Whether applying the plan can change anything.
    pub(crate) fn is_noop(&self) -> bool {
        self.reference.is_none()
            && self.items.as_ref().is_none_or(|items| items.is_noop())
            && self
                .props
                .iter()
                .all(|prop| !prop.strip && prop.nested.as_ref().is_none_or(NullPlan::is_noop))
    }

    /// Removes everything that cannot change a value (once unions are merged, what only said
    /// where `null` is accepted has done its job).
    pub(crate) fn prune(&mut self) {
        for prop in &mut self.props {
            if let Some(nested) = &mut prop.nested {
                nested.prune();
                if nested.is_empty() {
                    prop.nested = None;
                }
            }
        }
        self.props
            .retain(|prop| prop.strip || prop.nested.is_some());
        if let Some(items) = &mut self.items {
            items.prune();
            if items.is_empty() {
                self.items = None;
            }
        }
    }

    /// The plan of a union: a property's `null` is removed only when some branch asks for it
    /// and no branch accepts `null` there.
    pub(crate) fn merge(branches: Vec<NullPlan>) -> Self {
        let mut merged = Self::default();
        let mut items = Vec::new();
        for branch in branches {
            if branch.reference.is_some() {
                // A union branch that recurses: its plan is followed only when it is alone.
                merged.reference = merged.reference.or(branch.reference);
            }
            if let Some(branch_items) = branch.items {
                items.push(*branch_items);
            }
            for prop in branch.props {
                match merged.props.iter_mut().find(|seen| seen.name == prop.name) {
                    None => merged.props.push(prop),
                    Some(seen) => {
                        seen.strip |= prop.strip;
                        seen.accepts_null |= prop.accepts_null;
                        seen.nested = match (seen.nested.take(), prop.nested) {
                            (None, None) => None,
                            (Some(one), None) | (None, Some(one)) => Some(one),
                            (Some(a), Some(b)) => Some(Self::merge(vec![a, b])),
                        };
                    }
                }
            }
        }
        for prop in &mut merged.props {
            prop.strip &= !prop.accepts_null;
        }
        if !items.is_empty() {
            merged.set_items(Self::merge(items));
        }
        merged
    }

    fn apply(&self, value: &mut Value, defs: &HashMap<String, NullPlan>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        if let Some(name) = &self.reference {
            if let Some(plan) = defs.get(name) {
                plan.apply(value, defs, depth + 1);
            }
            return;
        }
        match value {
            Value::Object(map) => {
                for prop in &self.props {
                    let Some(found) = map.get_mut(&prop.name) else {
                        continue;
                    };
                    if found.is_null() {
                        if prop.strip {
                            map.shift_remove(&prop.name);
                        }
                    } else if let Some(nested) = &prop.nested {
                        nested.apply(found, defs, depth + 1);
                    }
                }
            }
            Value::Array(items) => {
                if let Some(plan) = &self.items {
                    for item in items {
                        plan.apply(item, defs, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The plan of one tool's arguments, with the plans of its recursive definitions.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ToolNullPlan {
    pub(crate) root: NullPlan,
    pub(crate) defs: HashMap<String, NullPlan>,
}

impl ToolNullPlan {
    /// Removes every `null` the plan marks from `arguments`.
    pub(crate) fn apply(&self, arguments: &mut Value) {
        self.root.apply(arguments, &self.defs, 0);
    }
}

/// Whether a (canonical) schema node accepts `null`.
pub(crate) fn accepts_null(schema: &Value) -> bool {
    let Value::Object(node) = schema else {
        return schema.as_bool().unwrap_or(false);
    };
    if let Some(constant) = node.get("const") {
        return constant.is_null();
    }
    if let Some(Value::Array(members)) = node.get("enum") {
        return members.iter().any(Value::is_null);
    }
    for union in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = node.get(union) {
            return branches.iter().any(accepts_null);
        }
    }
    if node.get("nullable") == Some(&Value::Bool(true)) {
        return true;
    }
    match node.get("type") {
        Some(Value::String(name)) => name == "null",
        Some(Value::Array(names)) => names.iter().any(|name| name == "null"),
        // No type: anything goes unless a `$ref` or `allOf` says otherwise.
        Some(_) => false,
        None => !node.contains_key("$ref") && !node.contains_key("allOf"),
    }
}
