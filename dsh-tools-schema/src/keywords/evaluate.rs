//! The report walk over a compiled document: every keyword of a schema against a value, each
//! problem found, with the properties and items each schema evaluated passed up for
//! `unevaluatedProperties` and `unevaluatedItems`.
//!
//! It serves two callers through its [`Sink`]: a count of the problems of a branch, to find
//! the closest one ([`Counting`]), and the report into a [`ValidationContext`] ([`Report`]),
//! which only runs once the yes/no walk (`valid.rs`) said "invalid". Branches that are tried
//! rather than applied (`anyOf`, `oneOf`, `not`, `if`, `contains`, `propertyNames`) are
//! checked by the yes/no walk; the report then gives what the model can fix: the closest
//! branch of a union, the branch of a condition that applied, one sentence for `not`.

use serde_json::{Map, Number, Value};

use super::super::limits::MAX_VALIDATION_DEPTH;
use super::super::rules::numbers::NumberRules;
use super::super::rules::{members, objects};
use super::super::violation::{JsonType, ValidationContext, ViolationKind};
use super::marks::Marks;
use super::node::{
    Applicator, ArrayKeywords, Checks, Node, NodeId, ObjectKeywords, StringKeywords,
};
use super::scope::Evaluator;
use super::valid::{compound, has_key, has_type};

/// Where a walk's findings go.
pub(crate) trait Sink<'v> {
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

/// Records a failure: the walk goes on, to report every problem.
macro_rules! fail {
    ($valid:ident) => {{
        $valid = false;
    }};
}

impl Evaluator<'_, '_> {
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
        let node = &arena.nodes[id as usize];
        match node.checks() {
            Some(checks) => {
                let entered = self.enter(checks.resource);
                let valid = self.checks(checks, value, sink, marks);
                self.leave(entered);
                valid
            }
            None if matches!(node, Node::Nothing) => {
                sink.report(ViolationKind::NotAllowed(refusal), value);
                false
            }
            // `true`
            None => true,
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
        self.valid_in_place(id, value, sink.depth(), marks.as_deref_mut())
    }

    fn checks<'v, S: Sink<'v>>(
        &mut self,
        checks: &Checks,
        value: &'v Value,
        sink: &mut S,
        marks: Option<&mut Marks>,
    ) -> bool {
        if (checks.in_place || compound(value) && checks.descends)
            && sink.depth() >= MAX_VALIDATION_DEPTH
        {
            sink.report(ViolationKind::TooDeep(MAX_VALIDATION_DEPTH), value);
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
        if !has_type(checks.types, value) {
            // The value's other constraints are noise beside its type being wrong.
            sink.report(type_violation(&checks.type_names), value);
            return false;
        }
        let mut valid = true;
        if let Some(kind) = checks
            .enumeration
            .as_deref()
            .and_then(|listed| members::enum_violation(listed, value))
        {
            sink.report(kind, value);
            fail!(valid);
        }
        if let Some(kind) = checks
            .constant
            .as_deref()
            .and_then(|constant| members::const_violation(constant, value))
        {
            sink.report(kind, value);
            fail!(valid);
        }
        let own_type = match value {
            Value::Number(number) => checks
                .numbers
                .as_deref()
                .is_none_or(|keywords| number_report(keywords, value, number, sink)),
            Value::String(text) => checks
                .strings
                .as_deref()
                .is_none_or(|keywords| string_report(keywords, value, text, sink)),
            Value::Array(items) => checks
                .arrays
                .as_deref()
                .is_none_or(|keywords| self.array(keywords, value, items, sink, &mut marks)),
            Value::Object(map) => checks
                .objects
                .as_deref()
                .is_none_or(|keywords| self.object(keywords, value, map, sink, &mut marks)),
            _ => true,
        };
        if !own_type {
            fail!(valid);
        }
        for applicator in &checks.applicators {
            if !self.applicator(applicator, value, sink, &mut marks) {
                fail!(valid);
            }
        }
        let unevaluated = match value {
            Value::Array(items) => checks
                .unevaluated_items
                .is_none_or(|node| self.unevaluated_items(node, items, sink, &mut marks)),
            Value::Object(map) => checks
                .unevaluated_properties
                .is_none_or(|node| self.unevaluated_properties(node, map, sink, &mut marks)),
            _ => true,
        };
        if !unevaluated {
            fail!(valid);
        }
        valid
    }

    /// One in-place applicator; `true` when it holds.
    fn applicator<'v, S: Sink<'v>>(
        &mut self,
        applicator: &Applicator,
        value: &'v Value,
        sink: &mut S,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        match applicator {
            Applicator::DependentSchemas(dependents) => {
                let Value::Object(map) = value else {
                    return true;
                };
                let mut valid = true;
                for (name, node) in dependents.iter() {
                    if has_key(map, name) && !self.in_place(*node, value, sink, marks) {
                        fail!(valid);
                    }
                }
                valid
            }
            Applicator::AllOf(branches) => {
                let mut valid = true;
                for &branch in branches.iter() {
                    if !self.in_place(branch, value, sink, marks) {
                        fail!(valid);
                    }
                }
                valid
            }
            Applicator::AnyOf(branches) => self.any_of(branches, value, sink, marks),
            Applicator::OneOf(branches) => self.one_of(branches, value, sink, marks),
            Applicator::Not(not) => {
                if self.holds(*not, value, sink, &mut None) {
                    sink.report(ViolationKind::Not, value);
                    false
                } else {
                    true
                }
            }
            Applicator::Condition(condition) => {
                let Some(test) = condition.test else {
                    return true;
                };
                let branch = if self.holds(test, value, sink, marks) {
                    condition.then
                } else {
                    condition.otherwise
                };
                branch.is_none_or(|branch| self.in_place(branch, value, sink, marks))
            }
            Applicator::Ref(target) => self.follow(*target, value, sink, marks),
            Applicator::DynamicRef(reference) => {
                let target = self.dynamic_target(reference);
                self.follow(target, value, sink, marks)
            }
        }
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
        keywords.constraints.each_violation(items, |kind| {
            sink.report(kind, value);
            fail!(valid);
        });
        for (index, item) in items.iter().enumerate() {
            let (node, refusal) = match keywords.prefix_items.get(index) {
                Some(&node) => (node, "prefixItems: false"),
                None => match keywords.items {
                    Some(node) => (node, "items: false"),
                    None => continue,
                },
            };
            if let Some(marks) = marks {
                marks.mark(index);
            }
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
                if self.valid(contains, item, sink.depth() + 1, None) {
                    found += 1;
                    if let Some(marks) = marks {
                        marks.mark(index);
                    }
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
            if !has_key(map, name) {
                sink.missing(name.as_str());
                fail!(valid);
            }
        }
        for (name, needed) in &keywords.dependent_required {
            if has_key(map, name) {
                for other in needed {
                    if !has_key(map, other) {
                        sink.missing_dependency(other.as_str(), name.as_str());
                        fail!(valid);
                    }
                }
            }
        }
        objects::each_count_violation(keywords.property_counts, map.len(), |kind| {
            sink.report(kind, value);
            fail!(valid);
        });
        for (position, (key, item)) in map.iter().enumerate() {
            let mut matched = false;
            if let Some(node) = keywords
                .properties
                .iter()
                .find(|property| property.name.matches(key))
                .map(|property| property.node)
            {
                matched = true;
                if let Some(marks) = marks {
                    marks.mark(position);
                }
                if !self.child_property(node, key, item, sink) {
                    fail!(valid);
                }
            }
            for (pattern, node) in &keywords.pattern_properties {
                if pattern.is_match(key) {
                    matched = true;
                    if let Some(marks) = marks {
                        marks.mark(position);
                    }
                    if !self.child_property(*node, key, item, sink) {
                        fail!(valid);
                    }
                }
            }
            if !matched && let Some(node) = keywords.additional_properties {
                if let Some(marks) = marks {
                    marks.mark(position);
                }
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
            if let Some(names) = keywords.property_names
                && !self.valid_name(names, key, sink.depth() + 1)
            {
                sink.property_name(key);
                fail!(valid);
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

    fn any_of<'v, S: Sink<'v>>(
        &mut self,
        branches: &[NodeId],
        value: &'v Value,
        sink: &mut S,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        let mut matched = false;
        for &branch in branches {
            if self.holds(branch, value, sink, marks) {
                matched = true;
                // Every matching branch's marks count, so with marks all are tried.
                if marks.is_none() {
                    break;
                }
            }
        }
        if !matched {
            let closest = self.closest(branches, value, sink.depth());
            self.in_place(closest, value, sink, &mut None);
        }
        matched
    }

    fn one_of<'v, S: Sink<'v>>(
        &mut self,
        branches: &[NodeId],
        value: &'v Value,
        sink: &mut S,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        let mut matched = 0usize;
        let mut matched_marks = None;
        for &branch in branches {
            let mut own = marks.as_ref().map(|_| Marks::for_value(value));
            let mut own_ref = own.as_mut();
            if self.holds(branch, value, sink, &mut own_ref) {
                matched += 1;
                matched_marks = own;
            }
        }
        match matched {
            1 => {
                if let (Some(parent), Some(own)) = (marks.as_deref_mut(), &matched_marks) {
                    parent.merge(own);
                }
                true
            }
            0 => {
                let closest = self.closest(branches, value, sink.depth());
                self.in_place(closest, value, sink, &mut None);
                false
            }
            _ => {
                sink.report(ViolationKind::OneOf { matched }, value);
                false
            }
        }
    }

    /// Follows a reference: the target applies in place, one level deeper where it counts as
    /// one (so a reference cycle that consumes nothing stops at the depth cap).
    fn follow<'v, S: Sink<'v>>(
        &mut self,
        target: NodeId,
        value: &'v Value,
        sink: &mut S,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        if !self.arena.reference_counts(target) {
            return self.in_place(target, value, sink, marks);
        }
        if sink.depth() >= MAX_VALIDATION_DEPTH {
            sink.report(ViolationKind::TooDeep(MAX_VALIDATION_DEPTH), value);
            return false;
        }
        sink.descend();
        let valid = self.in_place(target, value, sink, marks);
        sink.ascend();
        valid
    }

    fn unevaluated_items<'v, S: Sink<'v>>(
        &mut self,
        node: NodeId,
        items: &'v [Value],
        sink: &mut S,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        let mut valid = true;
        for (index, item) in items.iter().enumerate() {
            let evaluated = marks.as_ref().is_some_and(|marks| marks.is_marked(index));
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
            marks.mark_all();
        }
        valid
    }

    fn unevaluated_properties<'v, S: Sink<'v>>(
        &mut self,
        node: NodeId,
        map: &'v Map<String, Value>,
        sink: &mut S,
        marks: &mut Option<&mut Marks>,
    ) -> bool {
        let mut valid = true;
        let refuses = matches!(self.arena.nodes[node as usize], Node::Nothing);
        for (position, (key, item)) in map.iter().enumerate() {
            let evaluated = marks
                .as_ref()
                .is_some_and(|marks| marks.is_marked(position));
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
            marks.mark_all();
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

/// The number keywords (`rules/numbers.rs`), each problem reported.
fn number_report<'v, S: Sink<'v>>(
    keywords: &NumberRules,
    value: &Value,
    number: &Number,
    sink: &mut S,
) -> bool {
    let mut valid = true;
    keywords.each_violation(number, |kind| {
        sink.report(kind, value);
        valid = false;
    });
    valid
}

/// The string keywords (`rules/lengths.rs`, `rules/matching.rs`), each problem reported.
fn string_report<'v, S: Sink<'v>>(
    keywords: &StringKeywords,
    value: &Value,
    text: &str,
    sink: &mut S,
) -> bool {
    let mut valid = true;
    let mut broken = |kind| {
        sink.report(kind, value);
        valid = false;
    };
    keywords.lengths.each_violation(text, &mut broken);
    keywords.matching.each_violation(text, &mut broken);
    valid
}
