//! Guards: synchronous, monotonic checks that run after the `pre-execute` waterfall allowed a
//! call. A guard can only deny (by returning a reason); nothing that runs later can turn that
//! denial back into an allow, because nothing later runs for a denied call.

use crate::call::execution::ToolExecution;
use crate::hooks::chain::HookEntry;

/// A registered guard (closures implement it): `Some(reason)` denies the call.
pub(crate) trait ToolGuard: Send + Sync + 'static {
    fn check(&self, execution: &ToolExecution) -> Option<String>;
}

impl<F> ToolGuard for F
where
    F: Fn(&ToolExecution) -> Option<String> + Send + Sync + 'static,
{
    fn check(&self, execution: &ToolExecution) -> Option<String> {
        self(execution)
    }
}

/// The first reason any guard gives, in order; later guards are not evaluated.
pub(crate) fn first_denial(
    guards: &[HookEntry<dyn ToolGuard>],
    execution: &ToolExecution,
) -> Option<String> {
    guards.iter().find_map(|entry| entry.hook.check(execution))
}
