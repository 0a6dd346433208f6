//! Which `$dynamicRef`s resolve to one target whatever path evaluation takes to them: those
//! become `$ref`s, and a document left with none keeps no dynamic scope at all.
//!
//! A `$dynamicRef` to a dynamic anchor resolves to the bearer of that anchor in the outermost
//! resource in scope that has one, so its target depends on the resources entered on the way.
//! Evaluation enters resources only by following the schema's own structure and references, so
//! the scopes that can reach each schema are found by walking the document from its root, each
//! schema with the scope it is reached with: what matters of a scope is which resources it
//! holds, in the order they were first entered (the outermost first), since that alone decides
//! a resolution. When every scope that reaches a `$dynamicRef` resolves it alike, it is static.
//! Documents whose walk would visit too many (schema, scope) pairs keep their dynamic
//! references as they are.

use std::collections::{HashMap, HashSet};

use super::node::{Applicator, Arena, Node, NodeId};

/// How many (schema, scope) pairs the walk visits before it gives up.
const MAX_VISITS: usize = 4096;

/// Replaces every `$dynamicRef` that can resolve to one target only by a `$ref` to it, and
/// sets [`Arena::dynamic`] for what is left.
pub(super) fn resolve_static_dynamic_references(arena: &mut Arena) {
    let resolutions = if has_dynamic_references(arena) {
        resolutions(arena)
    } else {
        Some(HashMap::new())
    };
    let mut dynamic = false;
    for (id, node) in arena.nodes.iter_mut().enumerate() {
        let Node::Checks(checks) = node else {
            continue;
        };
        for (index, applicator) in checks.applicators.iter_mut().enumerate() {
            let Applicator::DynamicRef(reference) = applicator else {
                continue;
            };
            let target = match (&reference.anchor, &resolutions) {
                (None, _) => Some(reference.target),
                (Some(_), Some(resolutions)) => {
                    match resolutions
                        .get(&(id as NodeId, index))
                        .map(|t| t.as_slice())
                    {
                        Some([only]) => Some(*only),
                        // Never reached from the root: it never resolves at all.
                        None => Some(reference.target),
                        Some(_) => None,
                    }
                }
                (Some(_), None) => None,
            };
            match target {
                Some(target) => *applicator = Applicator::Ref(target),
                None => dynamic = true,
            }
        }
    }
    arena.dynamic = dynamic;
}

fn has_dynamic_references(arena: &Arena) -> bool {
    arena.nodes.iter().filter_map(Node::checks).any(|checks| {
        checks.applicators.iter().any(
            |applicator| matches!(applicator, Applicator::DynamicRef(reference) if reference.anchor.is_some()),
        )
    })
}

/// Every target each `$dynamicRef` with an anchor (by node and applicator index) resolves to
/// from some scope that reaches it; `None` when the walk gives up.
fn resolutions(arena: &Arena) -> Option<HashMap<(NodeId, usize), Vec<NodeId>>> {
    let mut found: HashMap<(NodeId, usize), Vec<NodeId>> = HashMap::new();
    let mut visited: HashSet<(NodeId, Vec<u32>)> = HashSet::new();
    let mut pending = vec![(arena.root, Vec::new())];
    while let Some((id, mut scope)) = pending.pop() {
        let Some(checks) = arena.nodes[id as usize].checks() else {
            continue;
        };
        if !scope.contains(&checks.resource) {
            scope.push(checks.resource);
        }
        if !visited.insert((id, scope.clone())) {
            continue;
        }
        if visited.len() > MAX_VISITS {
            return None;
        }
        checks.each_subschema(|child, _| pending.push((child, scope.clone())));
        for (index, applicator) in checks.applicators.iter().enumerate() {
            let Applicator::DynamicRef(reference) = applicator else {
                continue;
            };
            let target = reference
                .anchor
                .and_then(|name| {
                    scope.iter().find_map(|&resource| {
                        arena.resources[resource as usize].dynamic_anchor(name)
                    })
                })
                .unwrap_or(reference.target);
            if reference.anchor.is_some() {
                let targets = found.entry((id, index)).or_default();
                if !targets.contains(&target) {
                    targets.push(target);
                }
            }
            pending.push((target, scope.clone()));
        }
    }
    Some(found)
}
