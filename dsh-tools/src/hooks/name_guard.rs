//! Name guards: guards that decide on a tool's name alone.
//!
//! A general guard (`guard.rs`) sees the whole call, so nothing but a call can ask it; a name
//! guard sees only the name, so the registry can also ask it without a call. At call time it is
//! one more guard, run in the guards' waterfall with the others (same place, same order, same
//! denial). Outside a call the view asks it too (`store/view.rs`), so that listings, searches and
//! loads never offer a tool the guard would always deny there: a model is not shown what it
//! cannot call.

use std::sync::Arc;

use crate::call::execution::ToolExecution;
use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::hooks::guard::decided;
use crate::hooks::pre_execute::{PreExecuteHook, PreExecuteNext, PreToolDecision};

/// The closure of a name guard: `Some(reason)` denies every call of the named tool.
pub(crate) type NameGuardFn = dyn Fn(&str) -> Option<String> + Send + Sync;

/// A name guard, kept both in a layer's guards (it runs with them) and in its name guards (the
/// view asks them without a call).
pub(crate) struct NameGuard(pub(crate) Arc<NameGuardFn>);

impl NameGuard {
    /// Whether the guard denies `name`, asked without a call. A guard that panics hides the
    /// tool: a listing fails closed rather than offering what a call may be refused.
    pub(crate) fn hides(&self, name: &str) -> bool {
        crate::future::catch_panic(|| (self.0)(name).is_some()).unwrap_or(true)
    }
}

impl PreExecuteHook for NameGuard {
    fn call(
        &self,
        execution: ToolExecution,
        next: PreExecuteNext,
    ) -> BoxFuture<'static, Result<PreToolDecision, ToolError>> {
        decided((self.0)(execution.name()), next)
    }
}
