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
pub(crate) struct Evaluator<'d, 's> {
    pub(super) arena: &'d Arena,
    /// The dynamic scope, kept only when a `$dynamicRef` can use it
    /// ([`Arena::dynamic`]): every other evaluation starts with nothing to set up.
    scope: Option<&'s mut DynamicScope>,
}

/// The resources entered, outermost first: the first [`INLINE_SCOPE`] in place, the rest in
/// `deeper`.
#[derive(Default)]
pub(crate) struct DynamicScope {
    inline: [u32; INLINE_SCOPE],
    entered: usize,
    deeper: Vec<u32>,
}

impl DynamicScope {
    /// The innermost resource entered.
    fn innermost(&self) -> Option<u32> {
        match self.entered {
            0 => None,
            inline @ 1..=INLINE_SCOPE => Some(self.inline[inline - 1]),
            _ => self.deeper.last().copied(),
        }
    }
}

impl<'d, 's> Evaluator<'d, 's> {
    /// An evaluation of `arena`, keeping its dynamic scope in `scope` (needed only when
    /// [`Arena::dynamic`]).
    pub(crate) fn new(arena: &'d Arena, scope: Option<&'s mut DynamicScope>) -> Self {
        Self { arena, scope }
    }

    /// Enters `resource` for a schema of it about to be evaluated; returns whether the scope
    /// grew, for [`leave`](Self::leave). A document without dynamic references keeps no scope.
    #[inline(always)]
    pub(super) fn enter(&mut self, resource: u32) -> bool {
        let Some(scope) = self.scope.as_deref_mut() else {
            return false;
        };
        if scope.innermost() == Some(resource) {
            return false;
        }
        match scope.inline.get_mut(scope.entered) {
            Some(slot) => *slot = resource,
            None => scope.deeper.push(resource),
        }
        scope.entered += 1;
        true
    }

    /// Leaves what [`enter`](Self::enter) entered.
    #[inline(always)]
    pub(super) fn leave(&mut self, entered: bool) {
        if entered && let Some(scope) = self.scope.as_deref_mut() {
            scope.entered -= 1;
            if scope.entered >= INLINE_SCOPE {
                scope.deeper.pop();
            }
        }
    }

    /// Where `reference` leads from here: the outermost resource in scope with its dynamic
    /// anchor, else its own target.
    pub(super) fn dynamic_target(&self, reference: &DynamicReference) -> NodeId {
        match (reference.anchor, self.scope.as_deref()) {
            (Some(name), Some(scope)) => scope.inline[..scope.entered.min(INLINE_SCOPE)]
                .iter()
                .chain(&scope.deeper)
                .find_map(|&resource| self.arena.resources[resource as usize].dynamic_anchor(name))
                .unwrap_or(reference.target),
            _ => reference.target,
        }
    }
}
