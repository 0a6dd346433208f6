//! What compilation does once every node of a document is compiled: keywords that hold for
//! every value are dropped, and each node gets the kind ([`Node`]) whose path in the yes/no walk
//! decides it fastest.
//!
//! A subschema that allows everything (`true`, `{}`) never fails and never marks a property or
//! an item evaluated, so an `allOf` branch, a `$ref`, a `dependentSchemas` entry or a
//! `propertyNames` of it checks nothing. Keywords whose only effect is to mark (`items: true`,
//! `additionalProperties: true`, an `if` without `then` or `else`, `unevaluated*: true`, …)
//! check nothing either when no schema of the document reads marks. Nothing here changes what is
//! valid or what is reported; a schema left with nothing to check is no longer a level of the
//! depth cap, which only guards schemas that recurse.

use super::super::violation::JsonType;
use super::dynamic_refs::resolve_static_dynamic_references;
use super::node::{
    ANY_TYPE, Applicator, Arena, ArrayKeywords, Checks, Node, NodeId, ObjectKeywords, type_bit,
};

/// Drops what checks nothing, until nothing more can be dropped, then gives each node its kind.
pub(super) fn simplify(arena: &mut Arena) {
    let reads_marks = arena.nodes.iter().filter_map(Node::checks).any(|checks| {
        checks
            .unevaluated_items
            .into_iter()
            .chain(checks.unevaluated_properties)
            .any(|node| !matches!(arena.nodes[node as usize], Node::Anything))
    });
    loop {
        // A node reads the others as they were before this round (itself included).
        let anything: Vec<bool> = arena
            .nodes
            .iter()
            .map(|node| matches!(node, Node::Anything))
            .collect();
        let mut changed = false;
        for node in &mut arena.nodes {
            let Some(mut checks) = take_checks(node) else {
                continue;
            };
            if drop_unfailing(&mut checks, &anything, reads_marks) {
                changed = true;
            }
            *node = Node::of_checks(*checks);
        }
        if !changed {
            break;
        }
    }
    resolve_static_dynamic_references(arena);
    let enters = enters_a_resource(arena);
    for (node, enters) in arena.nodes.iter_mut().zip(enters) {
        if let Some(mut checks) = take_checks(node) {
            if let Some(objects) = &mut checks.objects {
                objects.settle();
            }
            if let Some(arrays) = &mut checks.arrays {
                arrays.settle();
            }
            *node = kind(*checks, arena.dynamic && enters);
        }
    }
}

/// Which nodes can be entered from another schema resource than their own: the root, the
/// roots of resources inside others (`$id`), and whatever a reference can lead to. Every other
/// node is only reached from its parent, in its own resource, so entering it changes no scope.
fn enters_a_resource(arena: &Arena) -> Vec<bool> {
    let mut enters = vec![false; arena.nodes.len()];
    enters[arena.root as usize] = true;
    let resource_of = |node: NodeId| arena.nodes[node as usize].checks().map(|c| c.resource);
    for checks in arena.nodes.iter().filter_map(Node::checks) {
        checks.each_subschema(|child, by_reference| {
            if by_reference || resource_of(child).is_some_and(|r| r != checks.resource) {
                enters[child as usize] = true;
            }
        });
    }
    for checks in arena.nodes.iter().filter_map(Node::checks) {
        for applicator in &checks.applicators {
            if let Applicator::DynamicRef(reference) = applicator {
                enters[reference.target as usize] = true;
            }
        }
    }
    for resource in &arena.resources {
        for &(_, bearer) in &resource.dynamic_anchors {
            enters[bearer as usize] = true;
        }
    }
    enters
}

/// The node's checks, leaving `Anything` in its place (`None`, and the node untouched, for
/// `true` and `false`).
fn take_checks(node: &mut Node) -> Option<Box<Checks>> {
    if matches!(node, Node::Anything | Node::Nothing) {
        return None;
    }
    std::mem::replace(node, Node::Anything).into_checks()
}

/// Drops from `checks` what holds for every value; whether anything was dropped.
fn drop_unfailing(checks: &mut Checks, anything: &[bool], reads_marks: bool) -> bool {
    let anything = |node: NodeId| anything[node as usize];
    let before = fingerprint(checks);
    let mut applicators = std::mem::take(&mut checks.applicators).into_vec();
    applicators.retain_mut(|applicator| match applicator {
        Applicator::AllOf(branches) => {
            retain_nodes(branches, |branch| !anything(branch));
            !branches.is_empty()
        }
        Applicator::DependentSchemas(dependents) => {
            let mut kept = std::mem::take(dependents).into_vec();
            kept.retain(|(_, node)| !anything(*node));
            *dependents = kept.into_boxed_slice();
            !dependents.is_empty()
        }
        Applicator::Ref(target) => !anything(*target),
        // With marks read, every matching branch's marks count, so all are still tried.
        Applicator::AnyOf(branches) => reads_marks || !branches.iter().any(|&b| anything(b)),
        Applicator::Condition(condition) => {
            if condition.then.is_some_and(anything) {
                condition.then = None;
            }
            if condition.otherwise.is_some_and(anything) {
                condition.otherwise = None;
            }
            // The test's marks count when it holds, even without a branch.
            reads_marks || condition.then.is_some() || condition.otherwise.is_some()
        }
        Applicator::OneOf(_) | Applicator::Not(_) | Applicator::DynamicRef(_) => true,
    });
    checks.applicators = applicators.into_boxed_slice();
    if let Some(objects) = &mut checks.objects {
        drop_unfailing_properties(objects, anything, reads_marks);
        if !objects.any() {
            checks.objects = None;
        }
    }
    if let Some(arrays) = &mut checks.arrays {
        drop_unfailing_items(arrays, anything, reads_marks);
        if !arrays.any() {
            checks.arrays = None;
        }
    }
    if !reads_marks {
        checks.unevaluated_items = checks.unevaluated_items.filter(|&node| !anything(node));
        checks.unevaluated_properties = checks
            .unevaluated_properties
            .filter(|&node| !anything(node));
    }
    checks.refresh();
    fingerprint(checks) != before
}

fn drop_unfailing_properties(
    objects: &mut ObjectKeywords,
    anything: impl Fn(NodeId) -> bool,
    reads_marks: bool,
) {
    objects.property_names = objects.property_names.filter(|&node| !anything(node));
    if reads_marks {
        return;
    }
    objects.additional_properties = objects
        .additional_properties
        .filter(|&node| !anything(node));
    // Without `additionalProperties`, a property or pattern that allows everything exempts no
    // key from anything: it only marked.
    if objects.additional_properties.is_some() {
        return;
    }
    objects
        .pattern_properties
        .retain(|(_, node)| !anything(*node));
    let mut kept = Vec::with_capacity(objects.properties.len());
    for property in std::mem::take(&mut objects.properties) {
        if !anything(property.node) {
            kept.push(property);
        } else if property.required {
            // Still required: looked up rather than met in the walk.
            objects.required_properties -= 1;
            objects.required_elsewhere.push(property.name);
        }
    }
    objects.properties = kept;
}

fn drop_unfailing_items(
    arrays: &mut ArrayKeywords,
    anything: impl Fn(NodeId) -> bool,
    reads_marks: bool,
) {
    if reads_marks {
        return;
    }
    arrays.items = arrays.items.filter(|&node| !anything(node));
    if arrays.items.is_none() {
        while arrays
            .prefix_items
            .last()
            .is_some_and(|&node| anything(node))
        {
            arrays.prefix_items.pop();
        }
    }
}

/// Keeps the nodes of `nodes` that `keep` says.
fn retain_nodes(nodes: &mut Box<[NodeId]>, keep: impl Fn(NodeId) -> bool) {
    let mut kept = std::mem::take(nodes).into_vec();
    kept.retain(|&node| keep(node));
    *nodes = kept.into_boxed_slice();
}

/// How many keywords and subschemas `checks` has: smaller after anything was dropped.
fn fingerprint(checks: &Checks) -> usize {
    let applicators: usize = checks
        .applicators
        .iter()
        .map(|applicator| match applicator {
            Applicator::AllOf(nodes) | Applicator::AnyOf(nodes) | Applicator::OneOf(nodes) => {
                1 + nodes.len()
            }
            Applicator::DependentSchemas(dependents) => 1 + dependents.len(),
            Applicator::Condition(condition) => {
                1 + usize::from(condition.then.is_some())
                    + usize::from(condition.otherwise.is_some())
            }
            Applicator::Not(_) | Applicator::Ref(_) | Applicator::DynamicRef(_) => 1,
        })
        .sum();
    let objects = checks.objects.as_deref().map_or(0, |objects| {
        1 + objects.properties.len()
            + objects.pattern_properties.len()
            + usize::from(objects.additional_properties.is_some())
            + usize::from(objects.property_names.is_some())
    });
    let arrays = checks.arrays.as_deref().map_or(0, |arrays| {
        1 + arrays.prefix_items.len() + usize::from(arrays.items.is_some())
    });
    applicators
        + objects
        + arrays
        + usize::from(checks.unevaluated_items.is_some())
        + usize::from(checks.unevaluated_properties.is_some())
}

/// The kind of a node with `checks`: a specialised one when the schema has only that shape and
/// no dynamic scope is kept (the specialised paths enter no resource).
fn kind(checks: Checks, dynamic: bool) -> Node {
    let node = Node::of_checks(checks);
    let checks = match node {
        Node::Leaf(checks) => return leaf_kind(checks),
        Node::Checks(checks) => checks,
        other => return other,
    };
    if dynamic || checks.needs_marks {
        return Node::Checks(checks);
    }
    let reads_value_only = checks.enumeration.is_none()
        && checks.constant.is_none()
        && checks.numbers.is_none()
        && checks.strings.is_none();
    let applies_in_place = !checks.applicators.is_empty();
    match (
        &*checks.applicators,
        checks.arrays.is_some(),
        checks.objects.is_some(),
    ) {
        ([Applicator::Ref(target)], false, false)
            if checks.types == ANY_TYPE && reads_value_only =>
        {
            Node::Reference(*target, checks)
        }
        (_, false, true)
            if !applies_in_place
                && reads_value_only
                && only_type(checks.types, JsonType::Object) =>
        {
            Node::Object(checks)
        }
        (_, true, false)
            if !applies_in_place
                && reads_value_only
                && only_type(checks.types, JsonType::Array) =>
        {
            Node::Array(checks)
        }
        (_, false, false) if checks.types == ANY_TYPE && reads_value_only => Node::InPlace(checks),
        _ => Node::Checks(checks),
    }
}

/// The kind of a leaf: `type` alone, or the keywords of one type of value alone, decided
/// without the leaf's general dispatch.
fn leaf_kind(checks: Box<Checks>) -> Node {
    let listed = checks.enumeration.is_some() || checks.constant.is_some();
    let reads_own_type = checks.numbers.is_some()
        || checks.strings.is_some()
        || checks.arrays.is_some()
        || checks.objects.is_some();
    if listed && !reads_own_type && checks.types == ANY_TYPE {
        return Node::Listed(checks);
    }
    if listed {
        return Node::Leaf(checks);
    }
    let groups = (
        checks.numbers.is_some(),
        checks.strings.is_some(),
        checks.arrays.is_some(),
        checks.objects.is_some(),
    );
    match groups {
        (false, false, false, false) => Node::Type(checks.types, checks),
        (true, false, false, false) if only_type(checks.types, JsonType::Number) => {
            Node::Numbers(checks)
        }
        (false, true, false, false) if only_type(checks.types, JsonType::String) => {
            Node::Strings(checks)
        }
        (false, false, true, false) if only_type(checks.types, JsonType::Array) => {
            Node::ArrayItself(checks)
        }
        (false, false, false, true) if only_type(checks.types, JsonType::Object) => {
            Node::ObjectItself(checks)
        }
        _ => Node::Leaf(checks),
    }
}

/// Whether `types` allows every value, or only values of `wanted`.
fn only_type(types: u8, wanted: JsonType) -> bool {
    types == ANY_TYPE || types == type_bit(wanted)
}
