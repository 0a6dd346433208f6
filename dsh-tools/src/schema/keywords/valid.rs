//! The yes/no walk: whether a value matches a node, stopping at the first problem and writing
//! nothing. It is all `is_valid` runs, and what the report walk (`evaluate.rs`) runs for the
//! branches it only tries (`anyOf`, `oneOf`, `not`, `if`, `contains`, `propertyNames`), so
//! the two can never disagree on whether a branch holds.
//!
//! It keeps nothing a report needs: the depth is a number passed down, marks for
//! `unevaluated*` are made only below a schema that reads them, the dynamic scope only in a
//! document with a `$dynamicRef` that uses it, and a [`Node::Leaf`] (a schema of keywords
//! that read the value alone) is decided without any of them. The value checks here are the
//! ones the report walk reports from.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use super::super::limits::MAX_VALIDATION_DEPTH;
use super::super::semantics::{
    compare_numbers, has_at_least_code_points, has_at_most_code_points, is_integral, json_equal,
};
use super::super::violation::JsonType;
use super::marks::Marks;
use super::node::{ANY_TYPE, ArrayKeywords, Check, Checks, Node, NodeId, ObjectKeywords, type_bit};
use super::numbers::is_multiple_of;
use super::scope::Evaluator;

impl Evaluator<'_> {
    /// Whether `value` matches node `id`, `depth` levels down; `marks`, when given, are the
    /// node's own (what it evaluates is marked in them).
    #[inline]
    pub(super) fn valid(
        &mut self,
        id: NodeId,
        value: &Value,
        depth: usize,
        marks: Option<&mut Marks>,
    ) -> bool {
        match &self.arena.nodes[id as usize] {
            Node::Anything => true,
            Node::Nothing => false,
            Node::Leaf(checks) => leaf_holds(checks, value),
            Node::Checks(checks) => {
                let entered = self.enter(checks.resource);
                let valid = self.valid_checks(checks, value, depth, marks);
                self.leave(entered);
                valid
            }
        }
    }

    /// Whether node `id`, applied in place to the value `marks` are of, holds; what it
    /// evaluated is marked only when it does.
    pub(super) fn valid_in_place(
        &mut self,
        id: NodeId,
        value: &Value,
        depth: usize,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        match marks {
            Some(parent) if matches!(self.arena.nodes[id as usize], Node::Checks(_)) => {
                let mut own = Marks::for_value(value);
                let valid = self.valid(id, value, depth, Some(&mut own));
                if valid {
                    parent.merge(&own);
                }
                valid
            }
            // Nothing else evaluates a property or an item.
            _ => self.valid(id, value, depth, None),
        }
    }

    /// Whether the property name `key` matches node `id` (`propertyNames`), `depth` levels
    /// down: a leaf reads the name where it is, anything else gets it as a string value.
    pub(super) fn valid_name(&mut self, id: NodeId, key: &str, depth: usize) -> bool {
        match &self.arena.nodes[id as usize] {
            Node::Anything => true,
            Node::Nothing => false,
            Node::Leaf(checks) => {
                checks.types & type_bit(JsonType::String) != 0
                    && checks.checks.iter().all(|check| text_holds(check, key))
            }
            Node::Checks(_) => self.valid(id, &Value::String(key.to_owned()), depth, None),
        }
    }

    #[inline(never)]
    fn valid_checks(
        &mut self,
        checks: &Checks,
        value: &Value,
        depth: usize,
        marks: Option<&mut Marks>,
    ) -> bool {
        if depth >= MAX_VALIDATION_DEPTH && (checks.in_place || checks.descends && compound(value))
        {
            return false;
        }
        if !has_type(checks.types, value) {
            return false;
        }
        let mut own;
        let mut marks = match marks {
            Some(marks) => Some(marks),
            None if checks.needs_marks => {
                own = Marks::for_value(value);
                Some(&mut own)
            }
            None => None,
        };
        checks
            .checks
            .iter()
            .all(|check| self.valid_check(check, value, depth, &mut marks))
    }

    fn valid_check(
        &mut self,
        check: &Check,
        value: &Value,
        depth: usize,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        match (check, value) {
            (Check::Array(keywords), Value::Array(items)) => {
                array_holds(keywords, items) && self.valid_items(keywords, items, depth, marks)
            }
            (Check::Object(keywords), Value::Object(map)) => {
                object_holds(keywords, map) && self.valid_properties(keywords, map, depth, marks)
            }
            (Check::DependentSchemas(dependents), Value::Object(map)) => {
                dependents.iter().all(|(name, node)| {
                    !has_key(map, name) || self.valid_in_place(*node, value, depth, marks)
                })
            }
            (Check::AllOf(branches), _) => branches
                .iter()
                .all(|&branch| self.valid_in_place(branch, value, depth, marks)),
            (Check::AnyOf(branches), _) => {
                let mut matched = false;
                for &branch in branches.iter() {
                    if self.valid_in_place(branch, value, depth, marks) {
                        matched = true;
                        // Every matching branch's marks count, so with marks all are tried.
                        if marks.is_none() {
                            break;
                        }
                    }
                }
                matched
            }
            (Check::OneOf(branches), _) => self.valid_one_of(branches, value, depth, marks),
            (Check::Not(not), _) => !self.valid(*not, value, depth, None),
            (Check::Condition(condition), _) => {
                let Some(test) = condition.test else {
                    return true;
                };
                let branch = if self.valid_in_place(test, value, depth, marks) {
                    condition.then
                } else {
                    condition.otherwise
                };
                branch.is_none_or(|branch| self.valid_in_place(branch, value, depth, marks))
            }
            (Check::Ref(target), _) => self.valid_reference(*target, value, depth, marks),
            (Check::DynamicRef(reference), _) => {
                let target = self.dynamic_target(reference);
                self.valid_reference(target, value, depth, marks)
            }
            (Check::UnevaluatedItems(node), Value::Array(items)) => {
                for (index, item) in items.iter().enumerate() {
                    let evaluated = marks.as_ref().is_some_and(|marks| marks.is_marked(index));
                    if !evaluated && !self.valid(*node, item, depth + 1, None) {
                        return false;
                    }
                }
                if let Some(marks) = marks {
                    marks.mark_all();
                }
                true
            }
            (Check::UnevaluatedProperties(node), Value::Object(map)) => {
                for (position, item) in map.values().enumerate() {
                    let evaluated = marks
                        .as_ref()
                        .is_some_and(|marks| marks.is_marked(position));
                    if !evaluated && !self.valid(*node, item, depth + 1, None) {
                        return false;
                    }
                }
                if let Some(marks) = marks {
                    marks.mark_all();
                }
                true
            }
            _ => value_holds(check, value),
        }
    }

    /// `prefixItems`, `items` and `contains` over `items`.
    fn valid_items(
        &mut self,
        keywords: &ArrayKeywords,
        items: &[Value],
        depth: usize,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        let prefix = keywords.prefix_items.len().min(items.len());
        for (item, &node) in items.iter().zip(&keywords.prefix_items) {
            if !self.valid(node, item, depth + 1, None) {
                return false;
            }
        }
        let evaluated = match keywords.items {
            Some(node) => {
                for item in &items[prefix..] {
                    if !self.valid(node, item, depth + 1, None) {
                        return false;
                    }
                }
                items.len()
            }
            None => prefix,
        };
        if let Some(marks) = marks {
            (0..evaluated).for_each(|index| marks.mark(index));
        }
        let Some(contains) = keywords.contains else {
            return true;
        };
        let min = keywords.min_contains.unwrap_or(1);
        // Without marks or a maximum, counting can stop at the minimum.
        let enough = (marks.is_none() && keywords.max_contains.is_none()).then_some(min);
        let mut found = 0u64;
        for (index, item) in items.iter().enumerate() {
            if enough.is_some_and(|enough| found >= enough) {
                break;
            }
            if self.valid(contains, item, depth + 1, None) {
                found += 1;
                if let Some(marks) = marks {
                    marks.mark(index);
                }
            }
        }
        found >= min && keywords.max_contains.is_none_or(|max| found <= max)
    }

    /// `properties`, `patternProperties`, `additionalProperties` and `propertyNames` over
    /// `map`.
    fn valid_properties(
        &mut self,
        keywords: &ObjectKeywords,
        map: &Map<String, Value>,
        depth: usize,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        if !keywords.descends() {
            return true;
        }
        for (position, (key, item)) in map.iter().enumerate() {
            let mut matched = false;
            if let Some(&(_, node)) = keywords.properties.iter().find(|(name, _)| name == key) {
                matched = true;
                if !self.valid(node, item, depth + 1, None) {
                    return false;
                }
            }
            for (pattern, node) in &keywords.pattern_properties {
                if pattern.is_match(key) {
                    matched = true;
                    if !self.valid(*node, item, depth + 1, None) {
                        return false;
                    }
                }
            }
            if !matched && let Some(node) = keywords.additional_properties {
                matched = true;
                if !self.valid(node, item, depth + 1, None) {
                    return false;
                }
            }
            if matched && let Some(marks) = marks {
                marks.mark(position);
            }
            if let Some(names) = keywords.property_names
                && !self.valid_name(names, key, depth + 1)
            {
                return false;
            }
        }
        true
    }

    fn valid_one_of(
        &mut self,
        branches: &[NodeId],
        value: &Value,
        depth: usize,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        let mut matched_marks = None;
        let mut matched = 0usize;
        for &branch in branches {
            let mut own = marks.as_ref().map(|_| Marks::for_value(value));
            if self.valid(branch, value, depth, own.as_mut()) {
                matched += 1;
                if matched > 1 {
                    return false;
                }
                matched_marks = own;
            }
        }
        if let (Some(parent), Some(own)) = (marks.as_deref_mut(), &matched_marks) {
            parent.merge(own);
        }
        matched == 1
    }

    /// A reference's target applied in place, one level deeper (so a reference cycle that
    /// consumes nothing stops at the depth cap).
    fn valid_reference(
        &mut self,
        target: NodeId,
        value: &Value,
        depth: usize,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        depth < MAX_VALIDATION_DEPTH && self.valid_in_place(target, value, depth + 1, marks)
    }
}

/// Whether `value` matches a [`Node::Leaf`]'s checks.
fn leaf_holds(checks: &Checks, value: &Value) -> bool {
    if !has_type(checks.types, value) {
        return false;
    }
    // A string's checks are decided without matching the value's type again per check.
    match value {
        Value::String(text) => checks.checks.iter().all(|check| text_holds(check, text)),
        _ => checks.checks.iter().all(|check| value_holds(check, value)),
    }
}

/// Whether `value` has one of the types `allowed` (bits of [`type_bit`]); an integral number
/// is an `integer` too.
#[inline(always)]
pub(super) fn has_type(allowed: u8, value: &Value) -> bool {
    // Most subschemas have no `type`: one comparison instead of a match on the value.
    if allowed == ANY_TYPE {
        return true;
    }
    let bit = match value {
        Value::Null => type_bit(JsonType::Null),
        Value::Bool(_) => type_bit(JsonType::Boolean),
        Value::Object(_) => type_bit(JsonType::Object),
        Value::Array(_) => type_bit(JsonType::Array),
        Value::String(_) => type_bit(JsonType::String),
        Value::Number(number) => {
            // Whether it is integral matters only when `integer` is allowed and `number` not.
            return allowed & type_bit(JsonType::Number) != 0
                || allowed & type_bit(JsonType::Integer) != 0 && is_integral(number);
        }
    };
    allowed & bit != 0
}

/// Whether a check that reads only the value holds (applicators and keywords of another type
/// than the value's hold: they say nothing about it here).
pub(super) fn value_holds(check: &Check, value: &Value) -> bool {
    match (check, value) {
        (_, Value::String(text)) => text_holds(check, text),
        (Check::Enum(members), _) => members.iter().any(|member| json_equal(member, value)),
        (Check::Const(constant), _) => json_equal(constant, value),
        (Check::Minimum(bound), Value::Number(number)) => {
            compare_numbers(number, bound) != Ordering::Less
        }
        (Check::Maximum(bound), Value::Number(number)) => {
            compare_numbers(number, bound) != Ordering::Greater
        }
        (Check::ExclusiveMinimum(bound), Value::Number(number)) => {
            compare_numbers(number, bound) == Ordering::Greater
        }
        (Check::ExclusiveMaximum(bound), Value::Number(number)) => {
            compare_numbers(number, bound) == Ordering::Less
        }
        (Check::MultipleOf(factor), Value::Number(number)) => is_multiple_of(number, factor),
        (Check::Array(keywords), Value::Array(items)) => array_holds(keywords, items),
        (Check::Object(keywords), Value::Object(map)) => object_holds(keywords, map),
        _ => true,
    }
}

/// [`value_holds`] for a string value, given as its text (a property name is checked so
/// without being copied into a value).
#[inline]
fn text_holds(check: &Check, text: &str) -> bool {
    match check {
        Check::Enum(members) => members.iter().any(|member| member.as_str() == Some(text)),
        Check::Const(constant) => constant.as_str() == Some(text),
        Check::MinLength(min) => has_at_least_code_points(text, *min),
        Check::MaxLength(max) => has_at_most_code_points(text, *max),
        Check::Pattern(pattern) => pattern.is_match(text),
        Check::Format(format) => format.matches(text),
        _ => true,
    }
}

/// `minItems`, `maxItems` and `uniqueItems`: what an array keyword reads of the array itself.
fn array_holds(keywords: &ArrayKeywords, items: &[Value]) -> bool {
    let count = items.len() as u64;
    keywords.min_items.is_none_or(|min| count >= min)
        && keywords.max_items.is_none_or(|max| count <= max)
        && !(keywords.unique_items && first_repeat(items).is_some())
}

/// `required`, `dependentRequired`, `minProperties` and `maxProperties`: what an object keyword
/// reads of the object itself.
fn object_holds(keywords: &ObjectKeywords, map: &Map<String, Value>) -> bool {
    let count = map.len() as u64;
    keywords.required.iter().all(|name| has_key(map, name))
        && keywords.dependent_required.iter().all(|(name, needed)| {
            !has_key(map, name) || needed.iter().all(|other| has_key(map, other))
        })
        && keywords.min_properties.is_none_or(|min| count >= min)
        && keywords.max_properties.is_none_or(|max| count <= max)
}

/// Whether `value` is an array or an object (what a descending keyword enters).
pub(super) fn compound(value: &Value) -> bool {
    matches!(value, Value::Array(_) | Value::Object(_))
}

/// Whether `map` has `key`: by a scan in a small object, where hashing the key costs more.
pub(super) fn has_key(map: &Map<String, Value>, key: &str) -> bool {
    if map.len() <= 8 {
        map.keys().any(|candidate| candidate == key)
    } else {
        map.contains_key(key)
    }
}

/// The first two equal items (by JSON equality, numbers by value), by index.
pub(super) fn first_repeat(items: &[Value]) -> Option<(usize, usize)> {
    for second in 1..items.len() {
        for first in 0..second {
            if json_equal(&items[first], &items[second]) {
                return Some((first, second));
            }
        }
    }
    None
}
