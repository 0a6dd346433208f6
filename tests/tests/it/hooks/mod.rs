//! The hooks a call runs through, in the pipeline's order.

/// The approval seam: where `ask` goes, its outcomes, failing approvers.
mod approval;
/// Call observers: a call's start, its progress and its final result.
mod call_observer;
/// The content finalizer and result observers.
mod finalize_observers;
/// Guards: synchronous, monotonic, in layer order.
mod guards;
/// The `post-execute` waterfall.
mod post_execute;
/// The `pre-execute` waterfall: allow, deny, ask, ordering, failures.
mod pre_execute;
/// `execute` layers: order, short-circuits, token replacement, re-resolution.
mod wrappers;
