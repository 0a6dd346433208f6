//! One evaluation of a compiled document: the arena walked, and the dynamic scope — the schema
//! resources entered, outermost first — that a `$dynamicRef` is resolved through.
//!
//! Both walks (`valid.rs`, `evaluate.rs`) are methods of [`Evaluator`]; this file owns only
//! the state they share and how the scope is kept.

use super::node::{Arena, DynamicReference, NodeId};

/// How many resources the scope holds before it allocates: a document's nesting of
/// resources is rarely deeper, and `is_valid` should not allocate.
const INLINE_SCOPE: usize = 8;

/// One evaluation of a document.
pub(crate) struct Evaluator<'d> {
    pub(super) arena: &'d Arena,
    /// The resources entered, outermost first (kept only when a `$dynamicRef` can use it):
    /// the first [`INLINE_SCOPE`] here, the rest in `deeper`.
    scope: [u32; INLINE_SCOPE],
    entered: usize,
    deeper: Vec<u32>,
}

impl<'d> Evaluator<'d> {
    pub(crate) fn new(arena: &'d Arena) -> Self {
        Self {
            arena,
            scope: [0; INLINE_SCOPE],
            entered: 0,
            deeper: Vec::new(),
        }
    }

    /// The innermost resource entered.
    fn innermost(&self) -> Option<u32> {
        match self.entered {
            0 => None,
            inline @ 1..=INLINE_SCOPE => Some(self.scope[inline - 1]),
            _ => self.deeper.last().copied(),
        }
    }

    /// Enters `resource` for a schema of it about to be evaluated; returns whether the scope
    /// grew, for [`leave`](Self::leave). A document without dynamic references keeps no scope.
    #[inline(always)]
    pub(super) fn enter(&mut self, resource: u32) -> bool {
        let entered = self.arena.dynamic && self.innermost() != Some(resource);
        if entered {
            match self.scope.get_mut(self.entered) {
                Some(slot) => *slot = resource,
                None => self.deeper.push(resource),
            }
            self.entered += 1;
        }
        entered
    }

    /// Leaves what [`enter`](Self::enter) entered.
    #[inline(always)]
    pub(super) fn leave(&mut self, entered: bool) {
        if entered {
            self.entered -= 1;
            if self.entered >= INLINE_SCOPE {
                self.deeper.pop();
            }
        }
    }

    /// Where `reference` leads from here: the outermost resource in scope with its dynamic
    /// anchor, else its own target.
    pub(super) fn dynamic_target(&self, reference: &DynamicReference) -> NodeId {
        match reference.anchor {
            Some(name) => self.scope[..self.entered.min(INLINE_SCOPE)]
                .iter()
                .chain(&self.deeper)
                .find_map(|&resource| self.arena.resources[resource as usize].dynamic_anchor(name))
                .unwrap_or(reference.target),
            None => reference.target,
        }
    }
}
