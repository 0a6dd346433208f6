//! The yes/no walk: whether a value matches a node, stopping at the first problem and writing
//! nothing. It is all `is_valid` runs, and what the report walk (`evaluate.rs`) runs for the
//! branches it only tries (`anyOf`, `oneOf`, `not`, `if`, `contains`, `propertyNames`), so
//! the two can never disagree on whether a branch holds.
//!
//! It keeps nothing a report needs: the depth is a number passed down, marks for
//! `unevaluated*` are made only below a schema that reads them, the dynamic scope only in a
//! document with a `$dynamicRef` that uses it, and a schema of keywords that read the value
//! alone ([`Node::reads_value_alone`]) is decided without any of them. The value checks here
//! are the ones the report walk reports from.
//!
//! Its functions are shaped for the machine code they become. A node's match is inlined into
//! every caller, and each arm is a call (or a test of the value's type): what an arm read of
//! the value inline would be hoisted ahead of the caller's loop, onto every schema it walks.
//! Each node kind ([`Node`]) has a path of its own, each keyword that applies subschemas a
//! function of its own, and each shape of array or object keywords a loop of its own, so a
//! schema's frame holds only what its own loop needs; the general path
//! ([`valid_checks`](Evaluator::valid_checks)) takes whatever no kind covers, and every kind
//! when properties or items are marked.

use serde_json::{Map, Number, Value};

use super::super::key::Key;
use super::super::limits::MAX_VALIDATION_DEPTH;
use super::super::rules::members;
use super::super::rules::numbers::NumberRules;
use super::super::semantics::is_integral;
use super::super::violation::JsonType;
use super::marks::Marks;
use super::node::{
    ANY_TYPE, Applicator, ArrayKeywords, ArrayShape, Checks, Condition, DynamicReference, Node,
    NodeId, ObjectKeywords, StringKeywords, type_bit,
};
use super::scope::Evaluator;

impl Evaluator<'_, '_> {
    /// Whether `value` matches node `id`, `depth` levels down; `marks`, when given, are the
    /// node's own (what it evaluates is marked in them). Inlined into every caller: the node's
    /// match is all that runs here, every kind's checks but `type` run out of line (what an arm
    /// read of the value inline would be hoisted ahead of its callers' loops).
    #[inline(always)]
    pub(super) fn valid(
        &mut self,
        id: NodeId,
        value: &Value,
        depth: usize,
        marks: Option<&mut Marks>,
    ) -> bool {
        match &self.arena.nodes[id as usize] {
            // The specialised kinds' paths mark nothing: with marks, the general one runs.
            Node::Reference(target, checks) => match (marks, &self.arena.nodes[*target as usize]) {
                // A target that reads the value alone is decided here, without a call (and
                // without a level: it cannot loop).
                (None, target) if target.reads_value_alone() => holds_alone(target, value),
                (None, _) => self.valid_target(*target, value, depth),
                (marks, _) => self.valid_checks(checks, value, depth, marks),
            },
            Node::Object(checks) => match (value, marks, &checks.objects) {
                (Value::Object(map), None, Some(keywords)) => {
                    depth < MAX_VALIDATION_DEPTH && self.valid_object_unmarked(keywords, map, depth)
                }
                (Value::Object(_), marks, _) => self.valid_checks(checks, value, depth, marks),
                // Object keywords say nothing of other values; `type` may refuse them.
                _ => checks.types == ANY_TYPE,
            },
            Node::Array(checks) => match (value, marks, &checks.arrays) {
                (Value::Array(items), None, Some(keywords)) => {
                    depth < MAX_VALIDATION_DEPTH
                        && self.valid_array_unmarked(keywords, items, depth)
                }
                (Value::Array(_), marks, _) => self.valid_checks(checks, value, depth, marks),
                _ => checks.types == ANY_TYPE,
            },
            Node::InPlace(checks) => match marks {
                None => self.valid_applicators(&checks.applicators, value, depth),
                marks => self.valid_checks(checks, value, depth, marks),
            },
            Node::Checks(checks) => self.valid_checks(checks, value, depth, marks),
            Node::Anything => true,
            Node::Nothing => false,
            Node::Type(types, _) => has_type(*types, value),
            Node::Numbers(checks) => numbers_hold(checks, value),
            Node::Strings(checks) => strings_hold(checks, value),
            Node::Listed(checks) => listed_hold(checks, value),
            Node::ObjectItself(checks) => object_itself_holds(checks, value),
            Node::ArrayItself(checks) => array_itself_holds(checks, value),
            Node::Leaf(checks) => leaf_holds(checks, value),
        }
    }

    /// A [`Node::InPlace`]'s applicators. One alone (the common case) is a dispatch whose every
    /// arm is a tail call, so this sets up no frame.
    #[inline(never)]
    fn valid_applicators(
        &mut self,
        applicators: &[Applicator],
        value: &Value,
        depth: usize,
    ) -> bool {
        if depth >= MAX_VALIDATION_DEPTH {
            return false;
        }
        match applicators {
            [only] => self.valid_applicator(only, value, depth, None),
            _ => self.valid_each_applicator(applicators, value, depth),
        }
    }

    #[inline(never)]
    fn valid_each_applicator(
        &mut self,
        applicators: &[Applicator],
        value: &Value,
        depth: usize,
    ) -> bool {
        applicators
            .iter()
            .all(|applicator| self.valid_applicator(applicator, value, depth, None))
    }

    /// A [`Node::Reference`]'s target, one level deeper where it counts as one
    /// ([`Arena::reference_counts`](super::node::Arena::reference_counts): so a reference
    /// cycle that consumes nothing stops at the depth cap).
    #[inline(never)]
    fn valid_target(&mut self, target: NodeId, value: &Value, depth: usize) -> bool {
        if !self.arena.reference_counts(target) {
            return self.valid(target, value, depth, None);
        }
        depth < MAX_VALIDATION_DEPTH && self.valid(target, value, depth + 1, None)
    }

    /// Whether node `id`, applied in place to the value `marks` are of, holds; what it
    /// evaluated is marked only when it does.
    #[inline(always)]
    pub(super) fn valid_in_place(
        &mut self,
        id: NodeId,
        value: &Value,
        depth: usize,
        marks: Option<&mut Marks>,
    ) -> bool {
        match marks {
            None => self.valid(id, value, depth, None),
            Some(parent) => self.valid_in_place_marked(id, value, depth, parent),
        }
    }

    #[inline(never)]
    fn valid_in_place_marked(
        &mut self,
        id: NodeId,
        value: &Value,
        depth: usize,
        parent: &mut Marks,
    ) -> bool {
        let node = &self.arena.nodes[id as usize];
        let Some(checks) = node.checks().filter(|_| node.marks()) else {
            // Nothing else evaluates a property or an item.
            return self.valid(id, value, depth, None);
        };
        let mut own = Marks::for_value(value);
        let valid = self.valid_checks(checks, value, depth, Some(&mut own));
        if valid {
            parent.merge(&own);
        }
        valid
    }

    /// Whether the property name `key` matches node `id` (`propertyNames`), `depth` levels
    /// down: a leaf reads the name where it is, anything else gets it as a string value.
    pub(super) fn valid_name(&mut self, id: NodeId, key: &str, depth: usize) -> bool {
        let node = &self.arena.nodes[id as usize];
        match node.checks() {
            None => matches!(node, Node::Anything),
            Some(checks) if node.reads_value_alone() => {
                checks.types & type_bit(JsonType::String) != 0
                    && checks
                        .enumeration
                        .as_deref()
                        .is_none_or(|members| members.iter().any(|member| is_text(member, key)))
                    && checks
                        .constant
                        .as_deref()
                        .is_none_or(|constant| is_text(constant, key))
                    && checks
                        .strings
                        .as_deref()
                        .is_none_or(|keywords| text_holds(keywords, key))
            }
            _ => self.valid(id, &Value::String(key.to_owned()), depth, None),
        }
    }

    /// A schema with subschemas. Kept small, with every keyword that applies a subschema in a
    /// function of its own: a frame that holds only what this function needs is set up once
    /// per schema, where one holding every keyword's state cost more than most checks.
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
        // `unevaluated*` reads only arrays and objects.
        if marks.is_some() || checks.needs_marks && compound(value) {
            return self.valid_checks_marked(checks, value, depth, marks);
        }
        if !values_hold(checks, value) {
            return false;
        }
        let entered = self.enter(checks.resource);
        let valid = self.valid_descending(checks, value, depth, None)
            && checks
                .applicators
                .iter()
                .all(|applicator| self.valid_applicator(applicator, value, depth, None));
        self.leave(entered);
        valid
    }

    /// [`valid_checks`](Self::valid_checks) where properties or items are marked: under a
    /// schema that reads them (`unevaluated*`), or for it.
    #[inline(never)]
    fn valid_checks_marked(
        &mut self,
        checks: &Checks,
        value: &Value,
        depth: usize,
        marks: Option<&mut Marks>,
    ) -> bool {
        if !values_hold(checks, value) {
            return false;
        }
        let mut own;
        let mut marks = match marks {
            Some(marks) => Some(marks),
            None => {
                own = Marks::for_value(value);
                Some(&mut own)
            }
        };
        let entered = self.enter(checks.resource);
        let valid = self.valid_descending(checks, value, depth, marks.as_deref_mut())
            && checks.applicators.iter().all(|applicator| {
                self.valid_applicator(applicator, value, depth, marks.as_deref_mut())
            })
            && self.valid_unevaluated(checks, value, depth, marks);
        self.leave(entered);
        valid
    }

    /// The array or object keywords, for an array or an object.
    #[inline(always)]
    fn valid_descending(
        &mut self,
        checks: &Checks,
        value: &Value,
        depth: usize,
        marks: Option<&mut Marks>,
    ) -> bool {
        match (value, marks) {
            (Value::Array(items), None) => checks
                .arrays
                .as_deref()
                .is_none_or(|keywords| self.valid_array_unmarked(keywords, items, depth)),
            (Value::Array(items), marks) => checks
                .arrays
                .as_deref()
                .is_none_or(|keywords| self.valid_array(keywords, items, depth, marks)),
            (Value::Object(map), None) => checks
                .objects
                .as_deref()
                .is_none_or(|keywords| self.valid_object_unmarked(keywords, map, depth)),
            (Value::Object(map), marks) => checks
                .objects
                .as_deref()
                .is_none_or(|keywords| self.valid_object(keywords, map, depth, marks)),
            _ => true,
        }
    }

    /// The array keywords, nothing marked: the loop their shape needs, called straight.
    #[inline(always)]
    fn valid_array_unmarked(
        &mut self,
        keywords: &ArrayKeywords,
        items: &[Value],
        depth: usize,
    ) -> bool {
        match keywords.shape {
            ArrayShape::Each(node) => self.valid_each(node, items, depth),
            ArrayShape::Prefix => self.valid_prefix(&keywords.prefix_items, items, depth),
            ArrayShape::Items => self.valid_item_schemas(keywords, items, depth, None),
            ArrayShape::Contains(node) => {
                self.valid_contains_unmarked(keywords, node, items, depth)
            }
            ArrayShape::General => self.valid_array(keywords, items, depth, None),
        }
    }

    /// The object keywords, nothing marked: `properties` and `additionalProperties` alone in
    /// their own loop.
    #[inline(always)]
    fn valid_object_unmarked(
        &mut self,
        keywords: &ObjectKeywords,
        map: &Map<String, Value>,
        depth: usize,
    ) -> bool {
        if keywords.declared_only {
            self.valid_declared_properties(keywords, map, depth)
        } else {
            self.valid_object(keywords, map, depth, None)
        }
    }

    /// `unevaluatedItems` and `unevaluatedProperties`, after everything else marked.
    fn valid_unevaluated(
        &mut self,
        checks: &Checks,
        value: &Value,
        depth: usize,
        marks: Option<&mut Marks>,
    ) -> bool {
        match value {
            Value::Array(items) => checks
                .unevaluated_items
                .is_none_or(|node| self.valid_unevaluated_items(node, items, depth, marks)),
            Value::Object(map) => checks
                .unevaluated_properties
                .is_none_or(|node| self.valid_unevaluated_properties(node, map, depth, marks)),
            _ => true,
        }
    }

    /// One in-place applicator: a dispatch only, so that it inlines into both loops above
    /// (without marks, every marking branch folds away).
    #[inline(always)]
    fn valid_applicator(
        &mut self,
        applicator: &Applicator,
        value: &Value,
        depth: usize,
        marks: Option<&mut Marks>,
    ) -> bool {
        match applicator {
            Applicator::DependentSchemas(dependents) => match value {
                Value::Object(map) => {
                    self.valid_dependent_schemas(dependents, value, map, depth, marks)
                }
                _ => true,
            },
            Applicator::AllOf(branches) => self.valid_all_of(branches, value, depth, marks),
            Applicator::AnyOf(branches) => self.valid_any_of(branches, value, depth, marks),
            Applicator::OneOf(branches) => self.valid_one_of(branches, value, depth, marks),
            Applicator::Not(not) => self.valid_not(*not, value, depth),
            Applicator::Condition(condition) => {
                self.valid_condition(condition, value, depth, marks)
            }
            Applicator::Ref(target) => self.valid_reference(*target, value, depth, marks),
            Applicator::DynamicRef(reference) => {
                self.valid_dynamic_reference(reference, value, depth, marks)
            }
        }
    }

    #[inline(never)]
    fn valid_not(&mut self, not: NodeId, value: &Value, depth: usize) -> bool {
        !self.valid(not, value, depth, None)
    }

    #[inline(never)]
    fn valid_dynamic_reference(
        &mut self,
        reference: &DynamicReference,
        value: &Value,
        depth: usize,
        marks: Option<&mut Marks>,
    ) -> bool {
        let target = self.dynamic_target(reference);
        self.valid_reference(target, value, depth, marks)
    }

    /// A reference's target applied in place, one level deeper where it counts as one (so a
    /// reference cycle that consumes nothing stops at the depth cap).
    #[inline(never)]
    fn valid_reference(
        &mut self,
        target: NodeId,
        value: &Value,
        depth: usize,
        marks: Option<&mut Marks>,
    ) -> bool {
        if !self.arena.reference_counts(target) {
            return self.valid_in_place(target, value, depth, marks);
        }
        depth < MAX_VALIDATION_DEPTH && self.valid_in_place(target, value, depth + 1, marks)
    }

    #[inline(never)]
    fn valid_all_of(
        &mut self,
        branches: &[NodeId],
        value: &Value,
        depth: usize,
        mut marks: Option<&mut Marks>,
    ) -> bool {
        branches
            .iter()
            .all(|&branch| self.valid_in_place(branch, value, depth, marks.as_deref_mut()))
    }

    #[inline(never)]
    fn valid_any_of(
        &mut self,
        branches: &[NodeId],
        value: &Value,
        depth: usize,
        mut marks: Option<&mut Marks>,
    ) -> bool {
        let mut matched = false;
        for &branch in branches {
            if self.valid_in_place(branch, value, depth, marks.as_deref_mut()) {
                matched = true;
                // Every matching branch's marks count, so with marks all are tried.
                if marks.is_none() {
                    break;
                }
            }
        }
        matched
    }

    #[inline(never)]
    fn valid_one_of(
        &mut self,
        branches: &[NodeId],
        value: &Value,
        depth: usize,
        marks: Option<&mut Marks>,
    ) -> bool {
        let Some(parent) = marks else {
            let mut matched = false;
            for &branch in branches {
                if self.valid(branch, value, depth, None) {
                    if matched {
                        return false;
                    }
                    matched = true;
                }
            }
            return matched;
        };
        let mut matched_marks = None;
        for &branch in branches {
            let mut own = Marks::for_value(value);
            if self.valid(branch, value, depth, Some(&mut own)) {
                if matched_marks.is_some() {
                    return false;
                }
                matched_marks = Some(own);
            }
        }
        match matched_marks {
            Some(own) => {
                parent.merge(&own);
                true
            }
            None => false,
        }
    }

    #[inline(never)]
    fn valid_condition(
        &mut self,
        condition: &Condition,
        value: &Value,
        depth: usize,
        mut marks: Option<&mut Marks>,
    ) -> bool {
        let Some(test) = condition.test else {
            return true;
        };
        let branch = if self.valid_in_place(test, value, depth, marks.as_deref_mut()) {
            condition.then
        } else {
            condition.otherwise
        };
        branch.is_none_or(|branch| self.valid_in_place(branch, value, depth, marks))
    }

    #[inline(never)]
    fn valid_dependent_schemas(
        &mut self,
        dependents: &[(Key, NodeId)],
        value: &Value,
        map: &Map<String, Value>,
        depth: usize,
        mut marks: Option<&mut Marks>,
    ) -> bool {
        dependents.iter().all(|(name, node)| {
            !has_key(map, name) || self.valid_in_place(*node, value, depth, marks.as_deref_mut())
        })
    }

    /// `items` alone, nothing marked: the commonest shape, in a loop that keeps nothing else.
    #[inline(never)]
    fn valid_each(&mut self, node: NodeId, items: &[Value], depth: usize) -> bool {
        items
            .iter()
            .all(|item| self.valid(node, item, depth + 1, None))
    }

    /// The array keywords: what they read of the array itself, then `prefixItems`, `items`
    /// and `contains` over its items.
    #[inline(never)]
    fn valid_array(
        &mut self,
        keywords: &ArrayKeywords,
        items: &[Value],
        depth: usize,
        mut marks: Option<&mut Marks>,
    ) -> bool {
        if !array_holds(keywords, items)
            || !self.item_schemas_hold(keywords, items, depth, marks.as_deref_mut())
        {
            return false;
        }
        keywords
            .contains
            .is_none_or(|contains| self.valid_contains(keywords, contains, items, depth, marks))
    }

    /// `prefixItems` alone, nothing marked.
    #[inline(never)]
    fn valid_prefix(&mut self, prefix: &[NodeId], items: &[Value], depth: usize) -> bool {
        items
            .iter()
            .zip(prefix)
            .all(|(item, &node)| self.valid(node, item, depth + 1, None))
    }

    /// `prefixItems` and `items`.
    #[inline(never)]
    fn valid_item_schemas(
        &mut self,
        keywords: &ArrayKeywords,
        items: &[Value],
        depth: usize,
        marks: Option<&mut Marks>,
    ) -> bool {
        self.item_schemas_hold(keywords, items, depth, marks)
    }

    /// `prefixItems` and `items` over the items, marking those they evaluated when they hold:
    /// the body of [`valid_item_schemas`](Self::valid_item_schemas), inlined into
    /// [`valid_array`](Self::valid_array) as well, so neither pays a call for it.
    #[inline(always)]
    fn item_schemas_hold(
        &mut self,
        keywords: &ArrayKeywords,
        items: &[Value],
        depth: usize,
        marks: Option<&mut Marks>,
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
        true
    }

    /// `contains`, with `minContains` and `maxContains`, nothing marked: without a maximum,
    /// the count stops at the minimum.
    #[inline(never)]
    fn valid_contains_unmarked(
        &mut self,
        keywords: &ArrayKeywords,
        contains: NodeId,
        items: &[Value],
        depth: usize,
    ) -> bool {
        let min = keywords.min_contains.unwrap_or(1);
        let Some(max) = keywords.max_contains else {
            let mut found = 0u64;
            for item in items {
                if found >= min {
                    break;
                }
                found += u64::from(self.valid(contains, item, depth + 1, None));
            }
            return found >= min;
        };
        let mut found = 0u64;
        for item in items {
            found += u64::from(self.valid(contains, item, depth + 1, None));
        }
        (min..=max).contains(&found)
    }

    /// `contains`, with `minContains` and `maxContains`.
    #[inline(never)]
    fn valid_contains(
        &mut self,
        keywords: &ArrayKeywords,
        contains: NodeId,
        items: &[Value],
        depth: usize,
        mut marks: Option<&mut Marks>,
    ) -> bool {
        let min = keywords.min_contains.unwrap_or(1);
        // Without marks or a maximum, counting can stop at the minimum.
        let enough = if marks.is_none() && keywords.max_contains.is_none() {
            min
        } else {
            u64::MAX
        };
        let mut found = 0u64;
        for (index, item) in items.iter().enumerate() {
            if found >= enough {
                break;
            }
            if self.valid(contains, item, depth + 1, None) {
                found += 1;
                if let Some(marks) = marks.as_deref_mut() {
                    marks.mark(index);
                }
            }
        }
        found >= min && keywords.max_contains.is_none_or(|max| found <= max)
    }

    /// The object keywords: what they read of the object itself, then `properties`,
    /// `patternProperties`, `additionalProperties` and `propertyNames` over its properties.
    #[inline(never)]
    fn valid_object(
        &mut self,
        keywords: &ObjectKeywords,
        map: &Map<String, Value>,
        depth: usize,
        marks: Option<&mut Marks>,
    ) -> bool {
        if !keywords.descends() {
            return object_holds(keywords, map);
        }
        if keywords.reads_object() && !object_holds_besides_properties(keywords, map) {
            return false;
        }
        if marks.is_none()
            && keywords.pattern_properties.is_empty()
            && keywords.property_names.is_none()
        {
            self.valid_declared_properties(keywords, map, depth)
        } else {
            self.valid_properties(keywords, map, depth, marks)
        }
    }

    /// `properties` and `additionalProperties` alone, nothing marked: the commonest shape, in
    /// a loop that keeps nothing else.
    #[inline(never)]
    fn valid_declared_properties(
        &mut self,
        keywords: &ObjectKeywords,
        map: &Map<String, Value>,
        depth: usize,
    ) -> bool {
        // The required properties are counted as they are met (keys are unique).
        let mut required = 0usize;
        for (key, item) in map {
            let node = match keywords
                .properties
                .iter()
                .find(|property| property.name.matches(key))
            {
                Some(property) => {
                    required += usize::from(property.required);
                    property.node
                }
                None => match keywords.additional_properties {
                    Some(node) => node,
                    None => continue,
                },
            };
            if !self.valid(node, item, depth + 1, None) {
                return false;
            }
        }
        required == keywords.required_properties
    }

    /// Every property keyword over the properties, marking what they evaluate.
    #[inline(never)]
    fn valid_properties(
        &mut self,
        keywords: &ObjectKeywords,
        map: &Map<String, Value>,
        depth: usize,
        mut marks: Option<&mut Marks>,
    ) -> bool {
        let mut required = 0usize;
        for (position, (key, item)) in map.iter().enumerate() {
            let mut matched = false;
            if let Some(property) = keywords
                .properties
                .iter()
                .find(|property| property.name.matches(key))
            {
                matched = true;
                required += usize::from(property.required);
                if !self.valid(property.node, item, depth + 1, None) {
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
            if matched && let Some(marks) = marks.as_deref_mut() {
                marks.mark(position);
            }
            if let Some(names) = keywords.property_names
                && !self.valid_name(names, key, depth + 1)
            {
                return false;
            }
        }
        required == keywords.required_properties
    }

    #[inline(never)]
    fn valid_unevaluated_items(
        &mut self,
        node: NodeId,
        items: &[Value],
        depth: usize,
        marks: Option<&mut Marks>,
    ) -> bool {
        for (index, item) in items.iter().enumerate() {
            let evaluated = marks.as_ref().is_some_and(|marks| marks.is_marked(index));
            if !evaluated && !self.valid(node, item, depth + 1, None) {
                return false;
            }
        }
        if let Some(marks) = marks {
            marks.mark_all();
        }
        true
    }

    #[inline(never)]
    fn valid_unevaluated_properties(
        &mut self,
        node: NodeId,
        map: &Map<String, Value>,
        depth: usize,
        marks: Option<&mut Marks>,
    ) -> bool {
        for (position, item) in map.values().enumerate() {
            let evaluated = marks
                .as_ref()
                .is_some_and(|marks| marks.is_marked(position));
            if !evaluated && !self.valid(node, item, depth + 1, None) {
                return false;
            }
        }
        if let Some(marks) = marks {
            marks.mark_all();
        }
        true
    }
}

/// Whether `value` matches `node`, one that reads the value alone
/// ([`Node::reads_value_alone`]): decided in place, but for a general leaf's one call.
#[inline(always)]
pub(super) fn holds_alone(node: &Node, value: &Value) -> bool {
    match node {
        Node::Nothing => false,
        Node::Type(types, _) => has_type(*types, value),
        Node::Numbers(checks) => numbers_hold(checks, value),
        Node::Strings(checks) => strings_hold(checks, value),
        Node::Listed(checks) => listed_hold(checks, value),
        Node::ObjectItself(checks) => object_itself_holds(checks, value),
        Node::ArrayItself(checks) => array_itself_holds(checks, value),
        Node::Leaf(checks) => leaf_holds(checks, value),
        _ => true,
    }
}

/// Whether `value` matches a [`Node::Numbers`].
#[inline(never)]
fn numbers_hold(checks: &Checks, value: &Value) -> bool {
    match (value, &checks.numbers) {
        (Value::Number(number), Some(keywords)) => number_keywords_hold(keywords, number),
        // Number keywords say nothing of other values; `type` may refuse them.
        _ => checks.types == ANY_TYPE,
    }
}

/// Whether `value` matches a [`Node::Listed`].
#[inline(never)]
fn listed_hold(checks: &Checks, value: &Value) -> bool {
    listed_holds(checks, value)
}

/// Whether `value` matches a [`Node::ObjectItself`].
#[inline(never)]
fn object_itself_holds(checks: &Checks, value: &Value) -> bool {
    match (value, &checks.objects) {
        (Value::Object(map), Some(keywords)) => object_keywords_hold(keywords, map),
        _ => checks.types == ANY_TYPE,
    }
}

/// Whether `value` matches a [`Node::ArrayItself`].
#[inline(never)]
fn array_itself_holds(checks: &Checks, value: &Value) -> bool {
    match (value, &checks.arrays) {
        (Value::Array(items), Some(keywords)) => array_holds(keywords, items),
        _ => checks.types == ANY_TYPE,
    }
}

/// Whether `value` matches a [`Node::Strings`].
#[inline(never)]
fn strings_hold(checks: &Checks, value: &Value) -> bool {
    match (value, &checks.strings) {
        (Value::String(text), Some(keywords)) => text_keywords_hold(keywords, text),
        _ => checks.types == ANY_TYPE,
    }
}

/// Whether `value` matches a [`Node::Leaf`]'s checks. Every call here is in tail position
/// (`enum` and `const`, which compare values, have a function of their own), so this dispatch
/// saves no registers and sets up no frame.
#[inline(never)]
pub(super) fn leaf_holds(checks: &Checks, value: &Value) -> bool {
    if !has_type(checks.types, value) {
        return false;
    }
    if checks.enumeration.is_some() || checks.constant.is_some() {
        return leaf_holds_listed(checks, value);
    }
    own_type_holds(checks, value)
}

/// [`leaf_holds`] past `type`, for a leaf with `enum` or `const`.
#[inline(never)]
fn leaf_holds_listed(checks: &Checks, value: &Value) -> bool {
    listed_holds(checks, value) && own_type_holds(checks, value)
}

/// `type`, `enum`, `const`, and the number or string keywords: what a schema reads of the
/// value itself before it looks inside it.
#[inline(always)]
fn values_hold(checks: &Checks, value: &Value) -> bool {
    has_type(checks.types, value)
        && listed_holds(checks, value)
        && match value {
            Value::Number(number) => checks
                .numbers
                .as_deref()
                .is_none_or(|keywords| number_holds(keywords, number)),
            Value::String(text) => checks
                .strings
                .as_deref()
                .is_none_or(|keywords| text_holds(keywords, text)),
            _ => true,
        }
}

/// `enum` and `const`.
#[inline(always)]
fn listed_holds(checks: &Checks, value: &Value) -> bool {
    checks
        .enumeration
        .as_deref()
        .is_none_or(|listed| members::is_listed(listed, value))
        && checks
            .constant
            .as_deref()
            .is_none_or(|constant| members::is_constant(constant, value))
}

/// The keywords of the value's own type, read of the value itself (nothing descends here).
#[inline(always)]
fn own_type_holds(checks: &Checks, value: &Value) -> bool {
    match value {
        Value::Number(number) => match &checks.numbers {
            Some(keywords) => number_holds(keywords, number),
            None => true,
        },
        Value::String(text) => match &checks.strings {
            Some(keywords) => text_holds(keywords, text),
            None => true,
        },
        Value::Array(items) => match &checks.arrays {
            Some(keywords) => array_holds(keywords, items),
            None => true,
        },
        Value::Object(map) => match &checks.objects {
            Some(keywords) => object_holds(keywords, map),
            None => true,
        },
        _ => true,
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
                || allowed & type_bit(JsonType::Integer) != 0
                    && (number.is_u64() || number.is_i64() || is_integral_float(number));
        }
    };
    allowed & bit != 0
}

/// Whether the float `number` is integral, out of line: inlined, its arithmetic is hoisted
/// ahead of the loops that check a type, onto every schema they walk.
#[inline(never)]
fn is_integral_float(number: &Number) -> bool {
    is_integral(number)
}

/// Whether `value` is the string `text`.
fn is_text(value: &Value, text: &str) -> bool {
    value.as_str() == Some(text)
}

/// The number keywords (`rules/numbers.rs`), out of line (the leaf kinds inline
/// [`number_keywords_hold`] into their one call instead).
#[inline(never)]
fn number_holds(keywords: &NumberRules, number: &Number) -> bool {
    number_keywords_hold(keywords, number)
}

#[inline(always)]
fn number_keywords_hold(keywords: &NumberRules, number: &Number) -> bool {
    keywords.parsed_hold(number)
}

/// The string keywords (`rules/lengths.rs`, `rules/matching.rs`), on a string value or a
/// property name (checked without being copied into a value); out of line, as
/// [`number_holds`].
#[inline(never)]
fn text_holds(keywords: &StringKeywords, text: &str) -> bool {
    text_keywords_hold(keywords, text)
}

#[inline(always)]
fn text_keywords_hold(keywords: &StringKeywords, text: &str) -> bool {
    keywords.lengths.holds(text) && keywords.matching.holds(text)
}

/// The array keywords that read the array itself (`rules/arrays.rs`: `minItems`, `maxItems`,
/// `uniqueItems`).
#[inline(always)]
fn array_holds(keywords: &ArrayKeywords, items: &[Value]) -> bool {
    keywords.constraints.holds(items)
}

/// `required`, `dependentRequired`, `minProperties` and `maxProperties`: what an object keyword
/// reads of the object itself.
#[inline(never)]
fn object_holds(keywords: &ObjectKeywords, map: &Map<String, Value>) -> bool {
    object_keywords_hold(keywords, map)
}

#[inline(always)]
fn object_keywords_hold(keywords: &ObjectKeywords, map: &Map<String, Value>) -> bool {
    let count = map.len() as u64;
    keywords.required.iter().all(|name| has_key(map, name))
        && keywords.dependent_required.iter().all(|(name, needed)| {
            !has_key(map, name) || needed.iter().all(|other| has_key(map, other))
        })
        && keywords.property_counts.holds(count)
}

/// [`object_holds`] but for the required properties `properties` declares, which the walk
/// over the properties counts.
#[inline(never)]
fn object_holds_besides_properties(keywords: &ObjectKeywords, map: &Map<String, Value>) -> bool {
    let count = map.len() as u64;
    keywords
        .required_elsewhere
        .iter()
        .all(|name| has_key(map, name))
        && keywords.dependent_required.iter().all(|(name, needed)| {
            !has_key(map, name) || needed.iter().all(|other| has_key(map, other))
        })
        && keywords.property_counts.holds(count)
}

/// Whether `value` is an array or an object (what a descending keyword enters).
pub(super) fn compound(value: &Value) -> bool {
    matches!(value, Value::Array(_) | Value::Object(_))
}

/// Whether `map` has `key`: by a scan in a small object, where hashing the key costs more
/// than comparing lengths (and a word or two) with every key.
pub(super) fn has_key(map: &Map<String, Value>, key: &Key) -> bool {
    if map.len() <= 16 {
        map.keys().any(|candidate| key.matches(candidate))
    } else {
        map.contains_key(key.as_str())
    }
}
