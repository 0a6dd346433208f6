//! One evaluation of a compiled document: the arena walked, and the dynamic scope — the schema
//! resources entered, outermost first — that a `$dynamicRef` is resolved through.
//!
//! Both walks (`valid.rs`, `evaluate.rs`) are methods of [`Evaluator`]; this file owns only
//! the state they share and how the scope is kept.

use super::node::{Arena, DynamicReference, NodeId};

/// One evaluation of a document.
pub(crate) struct Evaluator<'d> {
    pub(super) arena: &'d Arena,
    /// The resources entered, outermost first (kept only when a `$dynamicRef` can use it).
    scope: Vec<u32>,
}

impl<'d> Evaluator<'d> {
    pub(crate) fn new(arena: &'d Arena) -> Self {
        Self {
            arena,
            scope: Vec::new(),
        }
    }

    /// Enters `resource` for a schema of it about to be evaluated; returns whether the scope
    /// grew, for [`leave`](Self::leave). A document without dynamic references keeps no scope.
    #[inline(always)]
    pub(super) fn enter(&mut self, resource: u32) -> bool {
        let entered = self.arena.dynamic && self.scope.last() != Some(&resource);
        if entered {
            self.scope.push(resource);
        }
        entered
    }

    /// Leaves what [`enter`](Self::enter) entered.
    #[inline(always)]
    pub(super) fn leave(&mut self, entered: bool) {
        if entered {
            self.scope.pop();
        }
    }

    /// Where `reference` leads from here: the outermost resource in scope with its dynamic
    /// anchor, else its own target.
    pub(super) fn dynamic_target(&self, reference: &DynamicReference) -> NodeId {
        match &reference.anchor {
            Some(name) => self
                .scope
                .iter()
                .find_map(|&resource| self.arena.resources[resource as usize].dynamic_anchor(name))
                .unwrap_or(reference.target),
            None => reference.target,
        }
    }
}
