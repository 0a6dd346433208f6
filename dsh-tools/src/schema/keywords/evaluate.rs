//! Evaluation of a compiled document: every keyword of a schema against a value, the
//! properties and items each schema evaluated passed up for `unevaluatedProperties` and
//! `unevaluatedItems`, and the dynamic scope kept for `$dynamicRef`.
//!
//! One walk serves three callers through its [`Sink`]: a yes/no check that stops at the first
//! problem and writes nothing ([`Silent`]), a count of the problems of a branch, to find the
//! closest one ([`Counting`]), and the report into a [`ValidationContext`] ([`Report`]), which
//! only runs once a check said "invalid". Branches that are tried rather than applied
//! (`anyOf`, `oneOf`, `not`, `if`, `contains`, `propertyNames`) are always checked silently;
//! the report then gives what the model can fix: the closest branch of a union, the branch of
//! a condition that applied, one sentence for `not`.

use serde_json::{Map, Value};

use super::super::limits::MAX_VALIDATION_DEPTH;
use super::super::semantics::{
    compare_numbers, has_at_least_code_points, has_at_most_code_points, is_integral, json_equal,
};
use super::super::violation::{JsonType, ValidationContext, ViolationKind};
use super::node::{Arena, ArrayKeywords, Node, NodeId, ObjectKeywords, Rules};
use super::numbers::is_multiple_of;
use std::cmp::Ordering;

/// Where a walk's findings go.
pub(crate) trait Sink<'v> {
    /// Whether findings are kept: when not, the walk stops at the first one.
    const REPORTS: bool;
    fn depth(&self) -> usize;
    fn push_key(&mut self, key: &'v str);
    fn push_index(&mut self, index: usize);
    fn pop(&mut self);
    fn descend(&mut self);
    fn ascend(&mut self);
    fn report(&mut self, kind: ViolationKind<'_>, value: &Value);
    fn missing(&mut self, key: &str);
    fn missing_dependency(&mut self, key: &str, because: &str);
    fn undeclared(&mut self, key: &str, value: &Value);
    fn unevaluated(&mut self, key: &str, value: &Value);
    fn property_name(&mut self, key: &str);
}

/// A yes/no check: keeps only the depth.
pub(crate) struct Silent {
    pub(crate) depth: usize,
}

impl<'v> Sink<'v> for Silent {
    const REPORTS: bool = false;
    fn depth(&self) -> usize {
        self.depth
    }
    fn push_key(&mut self, _: &'v str) {
        self.depth += 1;
    }
    fn push_index(&mut self, _: usize) {
        self.depth += 1;
    }
    fn pop(&mut self) {
        self.depth -= 1;
    }
    fn descend(&mut self) {
        self.depth += 1;
    }
    fn ascend(&mut self) {
        self.depth -= 1;
    }
    fn report(&mut self, _: ViolationKind<'_>, _: &Value) {}
    fn missing(&mut self, _: &str) {}
    fn missing_dependency(&mut self, _: &str, _: &str) {}
    fn undeclared(&mut self, _: &str, _: &Value) {}
    fn unevaluated(&mut self, _: &str, _: &Value) {}
    fn property_name(&mut self, _: &str) {}
}

/// Counts problems, and whether the value's type itself was refused where the count began:
/// how close a branch of a union comes.
struct Counting {
    depth: usize,
    /// How many properties and items deep the walk is from where the count began (references
    /// followed do not count: they stay at the same value).
    level: usize,
    count: usize,
    wrong_type: bool,
}

impl Counting {
    fn new(depth: usize) -> Self {
        Self {
            depth,
            level: 0,
            count: 0,
            wrong_type: false,
        }
    }

    /// Smaller is closer: a branch of the value's type first, then the fewest problems.
    fn distance(&self) -> (bool, usize) {
        (self.wrong_type, self.count)
    }
}

impl<'v> Sink<'v> for Counting {
    const REPORTS: bool = true;
    fn depth(&self) -> usize {
        self.depth
    }
    fn push_key(&mut self, _: &'v str) {
        self.depth += 1;
        self.level += 1;
    }
    fn push_index(&mut self, _: usize) {
        self.depth += 1;
        self.level += 1;
    }
    fn pop(&mut self) {
        self.depth -= 1;
        self.level -= 1;
    }
    fn descend(&mut self) {
        self.depth += 1;
    }
    fn ascend(&mut self) {
        self.depth -= 1;
    }
    fn report(&mut self, kind: ViolationKind<'_>, _: &Value) {
        self.count += 1;
        if self.level == 0
            && matches!(
                kind,
                ViolationKind::Type { .. } | ViolationKind::Types(_) | ViolationKind::NotInteger
            )
        {
            self.wrong_type = true;
        }
    }
    fn missing(&mut self, _: &str) {
        self.count += 1;
    }
    fn missing_dependency(&mut self, _: &str, _: &str) {
        self.count += 1;
    }
    fn undeclared(&mut self, _: &str, _: &Value) {
        self.count += 1;
    }
    fn unevaluated(&mut self, _: &str, _: &Value) {
        self.count += 1;
    }
    fn property_name(&mut self, _: &str) {
        self.count += 1;
    }
}

/// The report, into the caller's context.
pub(crate) struct Report<'c, 'v>(pub(crate) &'c mut ValidationContext<'v>);

impl<'v> Sink<'v> for Report<'_, 'v> {
    const REPORTS: bool = true;
    fn depth(&self) -> usize {
        self.0.depth()
    }
    fn push_key(&mut self, key: &'v str) {
        self.0.push_key(key);
    }
    fn push_index(&mut self, index: usize) {
        self.0.push_index(index);
    }
    fn pop(&mut self) {
        self.0.pop();
    }
    fn descend(&mut self) {
        self.0.descend();
    }
    fn ascend(&mut self) {
        self.0.ascend();
    }
    fn report(&mut self, kind: ViolationKind<'_>, value: &Value) {
        self.0.report(kind, value);
    }
    fn missing(&mut self, key: &str) {
        self.0.report_missing(key);
    }
    fn missing_dependency(&mut self, key: &str, because: &str) {
        self.0.report_missing_dependency(key, because);
    }
    fn undeclared(&mut self, key: &str, value: &Value) {
        self.0.report_undeclared(key, value);
    }
    fn unevaluated(&mut self, key: &str, value: &Value) {
        self.0.report_unevaluated(key, value);
    }
    fn property_name(&mut self, key: &str) {
        self.0.report_property_name(key);
    }
}

/// Which properties (by position in the object) and items of one value the schemas applied
/// to it in place have evaluated.
#[derive(Default)]
struct Marks {
    properties: Vec<bool>,
    items: Vec<bool>,
}

impl Marks {
    fn for_value(value: &Value) -> Self {
        match value {
            Value::Object(map) => Self {
                properties: vec![false; map.len()],
                items: Vec::new(),
            },
            Value::Array(items) => Self {
                properties: Vec::new(),
                items: vec![false; items.len()],
            },
            _ => Self::default(),
        }
    }

    fn merge(&mut self, other: &Marks) {
        for (mark, other) in self.properties.iter_mut().zip(&other.properties) {
            *mark |= *other;
        }
        for (mark, other) in self.items.iter_mut().zip(&other.items) {
            *mark |= *other;
        }
    }
}

fn mark_property(marks: &mut Option<&mut Marks>, position: usize) {
    if let Some(marks) = marks
        && let Some(mark) = marks.properties.get_mut(position)
    {
        *mark = true;
    }
}

fn mark_item(marks: &mut Option<&mut Marks>, index: usize) {
    if let Some(marks) = marks
        && let Some(mark) = marks.items.get_mut(index)
    {
        *mark = true;
    }
}

/// One evaluation of a document.
pub(crate) struct Evaluator<'d> {
    arena: &'d Arena,
    /// The resources entered, outermost first (kept only when a `$dynamicRef` can use it).
    scope: Vec<u32>,
}

/// Records a failure: a walk that does not report stops at once.
macro_rules! fail {
    ($valid:ident) => {{
        if !S::REPORTS {
            return false;
        }
        $valid = false;
    }};
}

impl<'d> Evaluator<'d> {
    pub(crate) fn new(arena: &'d Arena) -> Self {
        Self {
            arena,
            scope: Vec::new(),
        }
    }

    /// Evaluates `value` against node `id`; `true` when valid.
    pub(crate) fn evaluate<'v, S: Sink<'v>>(
        &mut self,
        id: NodeId,
        value: &'v Value,
        sink: &mut S,
    ) -> bool {
        self.node(id, value, sink, None, "schema false")
    }

    fn node<'v, S: Sink<'v>>(
        &mut self,
        id: NodeId,
        value: &'v Value,
        sink: &mut S,
        marks: Option<&mut Marks>,
        refusal: &'static str,
    ) -> bool {
        let arena = self.arena;
        match &arena.nodes[id as usize] {
            Node::Anything => true,
            Node::Nothing => {
                sink.report(ViolationKind::NotAllowed(refusal), value);
                false
            }
            Node::Rules(rules) => {
                let entered = arena.dynamic && self.scope.last() != Some(&rules.resource);
                if entered {
                    self.scope.push(rules.resource);
                }
                let valid = self.rules(rules, value, sink, marks);
                if entered {
                    self.scope.pop();
                }
                valid
            }
        }
    }

    /// A schema applied to the same value, its marks kept only when it holds.
    fn in_place<'v, S: Sink<'v>>(
        &mut self,
        id: NodeId,
        value: &'v Value,
        sink: &mut S,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        match marks {
            None => self.node(id, value, sink, None, "schema false"),
            Some(parent) => {
                let mut own = Marks::for_value(value);
                let valid = self.node(id, value, sink, Some(&mut own), "schema false");
                if valid {
                    parent.merge(&own);
                }
                valid
            }
        }
    }

    /// Whether `value` holds against `id`, with nothing reported, at the sink's depth.
    fn holds<'v, S: Sink<'v>>(
        &mut self,
        id: NodeId,
        value: &'v Value,
        sink: &S,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        let mut silent = Silent {
            depth: sink.depth(),
        };
        self.in_place(id, value, &mut silent, marks)
    }

    fn rules<'v, S: Sink<'v>>(
        &mut self,
        rules: &Rules,
        value: &'v Value,
        sink: &mut S,
        marks: Option<&mut Marks>,
    ) -> bool {
        let descends = matches!(value, Value::Array(_) | Value::Object(_))
            && (rules.arrays.is_some() || rules.objects.is_some())
            || !rules.all_of.is_empty()
            || !rules.any_of.is_empty()
            || !rules.one_of.is_empty()
            || rules.not.is_some()
            || rules.condition.is_some()
            || rules.reference.is_some()
            || rules.dynamic_reference.is_some();
        if descends && sink.depth() >= MAX_VALIDATION_DEPTH {
            sink.report(ViolationKind::TooDeep(MAX_VALIDATION_DEPTH), value);
            return false;
        }
        let mut own;
        let mut marks = match marks {
            Some(marks) => Some(marks),
            None if rules.needs_marks => {
                own = Marks::for_value(value);
                Some(&mut own)
            }
            None => None,
        };
        let mut valid = true;
        if let Some(types) = &rules.types
            && !types.iter().any(|wanted| has_type(value, *wanted))
        {
            // The value's other constraints are noise beside its type being wrong.
            sink.report(type_violation(types), value);
            return false;
        }
        if let Some(members) = &rules.enumeration
            && !members.iter().any(|member| json_equal(member, value))
        {
            sink.report(ViolationKind::NotInEnum(members), value);
            fail!(valid);
        }
        if let Some(constant) = &rules.constant
            && !json_equal(constant, value)
        {
            sink.report(ViolationKind::NotConst(constant), value);
            fail!(valid);
        }
        match value {
            Value::Number(number) => {
                if let Some(keywords) = &rules.numbers {
                    let bounds = [
                        (&keywords.minimum, Ordering::Less, false),
                        (&keywords.maximum, Ordering::Greater, false),
                        (&keywords.exclusive_minimum, Ordering::Greater, true),
                        (&keywords.exclusive_maximum, Ordering::Less, true),
                    ];
                    for (index, (bound, side, exclusive)) in bounds.into_iter().enumerate() {
                        let Some(bound) = bound else { continue };
                        let order = compare_numbers(number, bound);
                        let broken = if exclusive {
                            order != side
                        } else {
                            order == side
                        };
                        if broken {
                            sink.report(
                                match index {
                                    0 => ViolationKind::Minimum(bound),
                                    1 => ViolationKind::Maximum(bound),
                                    2 => ViolationKind::ExclusiveMinimum(bound),
                                    _ => ViolationKind::ExclusiveMaximum(bound),
                                },
                                value,
                            );
                            fail!(valid);
                        }
                    }
                    if let Some(factor) = &keywords.multiple_of
                        && !is_multiple_of(number, factor)
                    {
                        sink.report(ViolationKind::MultipleOf(factor), value);
                        fail!(valid);
                    }
                }
            }
            Value::String(text) => {
                if let Some(keywords) = &rules.strings {
                    if let Some(min) = keywords.min_length
                        && !has_at_least_code_points(text, min)
                    {
                        sink.report(ViolationKind::MinLength(min), value);
                        fail!(valid);
                    }
                    if let Some(max) = keywords.max_length
                        && !has_at_most_code_points(text, max)
                    {
                        sink.report(ViolationKind::MaxLength(max), value);
                        fail!(valid);
                    }
                    if let Some(pattern) = &keywords.pattern
                        && !pattern.is_match(text)
                    {
                        sink.report(ViolationKind::Pattern(pattern.as_str()), value);
                        fail!(valid);
                    }
                    if let Some(format) = &keywords.format
                        && !format.matches(text)
                    {
                        sink.report(ViolationKind::Format(format), value);
                        fail!(valid);
                    }
                }
            }
            Value::Array(items) => {
                if let Some(keywords) = &rules.arrays
                    && !self.array(keywords, value, items, sink, &mut marks)
                {
                    fail!(valid);
                }
            }
            Value::Object(map) => {
                if let Some(keywords) = &rules.objects
                    && !self.object(keywords, value, map, sink, &mut marks)
                {
                    fail!(valid);
                }
            }
            Value::Bool(_) | Value::Null => {}
        }
        if !self.applicators(rules, value, sink, &mut marks) {
            fail!(valid);
        }
        if !self.unevaluated(rules, value, sink, &mut marks) {
            fail!(valid);
        }
        valid
    }

    fn array<'v, S: Sink<'v>>(
        &mut self,
        keywords: &ArrayKeywords,
        value: &'v Value,
        items: &'v [Value],
        sink: &mut S,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        let mut valid = true;
        let count = items.len() as u64;
        if let Some(min) = keywords.min_items
            && count < min
        {
            sink.report(ViolationKind::MinItems(min), value);
            fail!(valid);
        }
        if let Some(max) = keywords.max_items
            && count > max
        {
            sink.report(ViolationKind::MaxItems(max), value);
            fail!(valid);
        }
        if keywords.unique_items
            && let Some((first, second)) = first_repeat(items)
        {
            sink.report(ViolationKind::UniqueItems { first, second }, value);
            fail!(valid);
        }
        for (index, item) in items.iter().enumerate() {
            let (node, refusal) = match keywords.prefix_items.get(index) {
                Some(&node) => (node, "prefixItems: false"),
                None => match keywords.items {
                    Some(node) => (node, "items: false"),
                    None => continue,
                },
            };
            mark_item(marks, index);
            sink.push_index(index);
            let item_valid = self.node(node, item, sink, None, refusal);
            sink.pop();
            if !item_valid {
                fail!(valid);
            }
        }
        if let Some(contains) = keywords.contains {
            let mut found = 0usize;
            for (index, item) in items.iter().enumerate() {
                let mut silent = Silent {
                    depth: sink.depth() + 1,
                };
                if self.node(contains, item, &mut silent, None, "contains: false") {
                    found += 1;
                    mark_item(marks, index);
                }
            }
            let min = keywords.min_contains.unwrap_or(1);
            if (found as u64) < min {
                sink.report(ViolationKind::MinContains { min, found }, value);
                fail!(valid);
            }
            if let Some(max) = keywords.max_contains
                && found as u64 > max
            {
                sink.report(ViolationKind::MaxContains { max, found }, value);
                fail!(valid);
            }
        }
        valid
    }

    fn object<'v, S: Sink<'v>>(
        &mut self,
        keywords: &ObjectKeywords,
        value: &'v Value,
        map: &'v Map<String, Value>,
        sink: &mut S,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        let mut valid = true;
        for name in &keywords.required {
            if !map.contains_key(name) {
                sink.missing(name);
                fail!(valid);
            }
        }
        for (name, needed) in &keywords.dependent_required {
            if map.contains_key(name) {
                for other in needed {
                    if !map.contains_key(other) {
                        sink.missing_dependency(other, name);
                        fail!(valid);
                    }
                }
            }
        }
        let count = map.len() as u64;
        if let Some(min) = keywords.min_properties
            && count < min
        {
            sink.report(ViolationKind::MinProperties(min), value);
            fail!(valid);
        }
        if let Some(max) = keywords.max_properties
            && count > max
        {
            sink.report(ViolationKind::MaxProperties(max), value);
            fail!(valid);
        }
        for (position, (key, item)) in map.iter().enumerate() {
            let mut matched = false;
            if let Some(&(_, node)) = keywords.properties.iter().find(|(name, _)| name == key) {
                matched = true;
                mark_property(marks, position);
                if !self.child_property(node, key, item, sink) {
                    fail!(valid);
                }
            }
            for (pattern, node) in &keywords.pattern_properties {
                if pattern.is_match(key) {
                    matched = true;
                    mark_property(marks, position);
                    if !self.child_property(*node, key, item, sink) {
                        fail!(valid);
                    }
                }
            }
            if !matched && let Some(node) = keywords.additional_properties {
                mark_property(marks, position);
                let allowed = if matches!(self.arena.nodes[node as usize], Node::Nothing) {
                    sink.undeclared(key, item);
                    false
                } else {
                    self.child_property(node, key, item, sink)
                };
                if !allowed {
                    fail!(valid);
                }
            }
            if let Some(names) = keywords.property_names {
                let name = Value::String(key.clone());
                let mut silent = Silent {
                    depth: sink.depth() + 1,
                };
                if !self.node(names, &name, &mut silent, None, "propertyNames: false") {
                    sink.property_name(key);
                    fail!(valid);
                }
            }
        }
        valid
    }

    fn child_property<'v, S: Sink<'v>>(
        &mut self,
        node: NodeId,
        key: &'v str,
        item: &'v Value,
        sink: &mut S,
    ) -> bool {
        sink.push_key(key);
        let valid = self.node(node, item, sink, None, "schema false");
        sink.pop();
        valid
    }

    fn applicators<'v, S: Sink<'v>>(
        &mut self,
        rules: &Rules,
        value: &'v Value,
        sink: &mut S,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        let mut valid = true;
        if let (Some(keywords), Value::Object(map)) = (&rules.objects, value) {
            for (name, node) in &keywords.dependent_schemas {
                if map.contains_key(name) && !self.in_place(*node, value, sink, marks) {
                    fail!(valid);
                }
            }
        }
        for &branch in &rules.all_of {
            if !self.in_place(branch, value, sink, marks) {
                fail!(valid);
            }
        }
        if !rules.any_of.is_empty() {
            let mut matched = false;
            for &branch in &rules.any_of {
                if self.holds(branch, value, sink, marks) {
                    matched = true;
                    // Every matching branch's marks count, so with marks all are tried.
                    if marks.is_none() {
                        break;
                    }
                }
            }
            if !matched {
                if S::REPORTS {
                    let closest = self.closest(&rules.any_of, value, sink.depth());
                    self.in_place(closest, value, sink, &mut None);
                }
                fail!(valid);
            }
        }
        if !rules.one_of.is_empty() {
            let mut matched = 0usize;
            let mut matched_marks = None;
            for &branch in &rules.one_of {
                let mut own = marks.as_ref().map(|_| Marks::for_value(value));
                let mut own_ref = own.as_mut();
                if self.holds(branch, value, sink, &mut own_ref) {
                    matched += 1;
                    matched_marks = own;
                    if matched > 1 && !S::REPORTS {
                        break;
                    }
                }
            }
            match matched {
                1 => {
                    if let (Some(parent), Some(own)) = (marks.as_deref_mut(), &matched_marks) {
                        parent.merge(own);
                    }
                }
                0 => {
                    if S::REPORTS {
                        let closest = self.closest(&rules.one_of, value, sink.depth());
                        self.in_place(closest, value, sink, &mut None);
                    }
                    fail!(valid);
                }
                _ => {
                    sink.report(ViolationKind::OneOf { matched }, value);
                    fail!(valid);
                }
            }
        }
        if let Some(not) = rules.not
            && self.holds(not, value, sink, &mut None)
        {
            sink.report(ViolationKind::Not, value);
            fail!(valid);
        }
        if let Some(condition) = &rules.condition
            && let Some(test) = condition.test
        {
            let branch = if self.holds(test, value, sink, marks) {
                condition.then
            } else {
                condition.otherwise
            };
            if let Some(branch) = branch
                && !self.in_place(branch, value, sink, marks)
            {
                fail!(valid);
            }
        }
        if let Some(target) = rules.reference
            && !self.follow(target, value, sink, marks)
        {
            fail!(valid);
        }
        if let Some(reference) = &rules.dynamic_reference {
            let target = match &reference.anchor {
                Some(name) => self
                    .scope
                    .iter()
                    .find_map(|&resource| {
                        self.arena.resources[resource as usize].dynamic_anchor(name)
                    })
                    .unwrap_or(reference.target),
                None => reference.target,
            };
            if !self.follow(target, value, sink, marks) {
                fail!(valid);
            }
        }
        valid
    }

    /// Follows a reference: the target applies in place, one level deeper (so a reference
    /// cycle that consumes nothing stops at the depth cap).
    fn follow<'v, S: Sink<'v>>(
        &mut self,
        target: NodeId,
        value: &'v Value,
        sink: &mut S,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        if sink.depth() >= MAX_VALIDATION_DEPTH {
            sink.report(ViolationKind::TooDeep(MAX_VALIDATION_DEPTH), value);
            return false;
        }
        sink.descend();
        let valid = self.in_place(target, value, sink, marks);
        sink.ascend();
        valid
    }

    fn unevaluated<'v, S: Sink<'v>>(
        &mut self,
        rules: &Rules,
        value: &'v Value,
        sink: &mut S,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        let mut valid = true;
        match value {
            Value::Array(items) => {
                let Some(node) = rules.arrays.as_ref().and_then(|k| k.unevaluated_items) else {
                    return true;
                };
                for (index, item) in items.iter().enumerate() {
                    let evaluated = marks
                        .as_ref()
                        .and_then(|marks| marks.items.get(index).copied())
                        .unwrap_or(false);
                    if evaluated {
                        continue;
                    }
                    sink.push_index(index);
                    let item_valid = self.node(node, item, sink, None, "unevaluatedItems: false");
                    sink.pop();
                    if !item_valid {
                        fail!(valid);
                    }
                }
                if let Some(marks) = marks {
                    marks.items.fill(true);
                }
            }
            Value::Object(map) => {
                let Some(node) = rules
                    .objects
                    .as_ref()
                    .and_then(|k| k.unevaluated_properties)
                else {
                    return true;
                };
                let refuses = matches!(self.arena.nodes[node as usize], Node::Nothing);
                for (position, (key, item)) in map.iter().enumerate() {
                    let evaluated = marks
                        .as_ref()
                        .and_then(|marks| marks.properties.get(position).copied())
                        .unwrap_or(false);
                    if evaluated {
                        continue;
                    }
                    let allowed = if refuses {
                        sink.unevaluated(key, item);
                        false
                    } else {
                        self.child_property(node, key, item, sink)
                    };
                    if !allowed {
                        fail!(valid);
                    }
                }
                if let Some(marks) = marks {
                    marks.properties.fill(true);
                }
            }
            _ => {}
        }
        valid
    }

    /// The branch that comes closest to matching `value`: of its type, with the fewest
    /// problems; the first of equals.
    fn closest(&mut self, branches: &[NodeId], value: &Value, depth: usize) -> NodeId {
        let mut best: Option<((bool, usize), NodeId)> = None;
        for &branch in branches {
            let mut counting = Counting::new(depth);
            self.node(branch, value, &mut counting, None, "schema false");
            let distance = counting.distance();
            if best.is_none_or(|(current, _)| distance < current) {
                best = Some((distance, branch));
            }
        }
        best.map_or(branches[0], |(_, branch)| branch)
    }
}

fn has_type(value: &Value, wanted: JsonType) -> bool {
    match (wanted, value) {
        (JsonType::Integer, Value::Number(number)) => is_integral(number),
        (JsonType::Integer, _) => false,
        _ => JsonType::of(value) == wanted,
    }
}

/// The violation of a `type` keyword that none of `types` holds.
fn type_violation(types: &[JsonType]) -> ViolationKind<'_> {
    match types {
        [JsonType::Integer] => ViolationKind::NotInteger,
        [only] => ViolationKind::Type {
            expected: *only,
            nullable: false,
        },
        [JsonType::Null, other] | [other, JsonType::Null] => ViolationKind::Type {
            expected: *other,
            nullable: true,
        },
        _ => ViolationKind::Types(types),
    }
}

/// The first two equal items (by JSON equality, numbers by value), by index.
fn first_repeat(items: &[Value]) -> Option<(usize, usize)> {
    for second in 1..items.len() {
        for first in 0..second {
            if json_equal(&items[first], &items[second]) {
                return Some((first, second));
            }
        }
    }
    None
}
