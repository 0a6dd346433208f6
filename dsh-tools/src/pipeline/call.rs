//! [`CallContext`]: what the pipeline keeps about one call while it runs — the shared run state,
//! the registry core, and the definition that was visible when the call started.

use std::sync::Arc;

use crate::definition::ToolDefinition;
use crate::execution::ToolExecution;
use crate::registry::core::Core;
use crate::run::ToolRun;

/// One call in flight. Cheap to clone (three reference counts).
#[derive(Clone)]
pub(crate) struct CallContext {
    /// The body's run context with the caller's token: what dispatch hands the body unless a
    /// layer replaced the token, so the common path makes no per-dispatch copy.
    pub(crate) run: ToolRun,
    pub(crate) core: Arc<Core>,
    /// The definition visible to the caller when the call started: its finalizer is the one that
    /// runs, and wrappers read its budget from it.
    pub(crate) definition: Option<Arc<dyn ToolDefinition>>,
    /// The registry generation `definition` was resolved in.
    pub(crate) generation: u64,
}

impl CallContext {
    pub(crate) fn execution(&self) -> &ToolExecution {
        self.run.execution()
    }

    /// The definition the call's name resolves to now: the one captured at the start when
    /// nothing changed since, otherwise a fresh lookup (a tool disposed meanwhile is gone).
    pub(crate) fn resolve_now(&self) -> Option<Arc<dyn ToolDefinition>> {
        if self.core.generation() == self.generation {
            return self.definition.clone();
        }
        let execution = self.execution();
        self.core.resolve(execution.name(), execution.agent())
    }
}
