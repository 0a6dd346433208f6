//! [`CallContext`]: what the pipeline keeps about one call while it runs — the body's run
//! context (which carries the execution and its registry) and the definition that was visible
//! when the call started.

use std::borrow::Cow;
use std::sync::Arc;

use crate::call::definition::ToolDefinition;
use crate::call::execution::ToolExecution;
use crate::call::run::ToolRun;
use crate::ids::AgentId;

/// One call in flight. Cheap to clone (three reference counts).
#[derive(Clone)]
pub(crate) struct CallContext {
    /// The body's run context with the caller's token: what dispatch hands the body unless a
    /// layer replaced the token, so the common path makes no per-dispatch copy.
    pub(crate) run: ToolRun,
    /// The definition visible to the caller when the call started: its finalizer is the one that
    /// runs and its result budget the one that applies (layers may read anything else from it).
    pub(crate) definition: Option<Arc<dyn ToolDefinition>>,
    /// The registry generation `definition` was resolved in.
    pub(crate) generation: u64,
    /// Where the call's name is resolved again when the registry changed since.
    pub(crate) tools: Arc<dyn ToolLookup>,
    /// The registry's call store and journal, when it has one.
    #[cfg(feature = "durable")]
    pub(crate) durability: Option<Arc<crate::durable::journal::Durability>>,
}

/// How dispatch finds a call's tool again: the registry's tool lookup, as a call sees it.
pub(crate) trait ToolLookup: Send + Sync + 'static {
    /// A counter that changes whenever a tool, hook, scope or restriction does.
    fn generation(&self) -> u64;

    /// The definition `name` resolves to for `agent` right now.
    fn resolve(&self, name: &str, agent: Option<&AgentId>) -> Option<Arc<dyn ToolDefinition>>;
}

impl CallContext {
    #[inline]
    pub(crate) fn execution(&self) -> &ToolExecution {
        self.run.execution()
    }

    /// The definition the call's name resolves to now: the one captured at the start when
    /// nothing changed since (borrowed), otherwise a fresh lookup (a tool disposed meanwhile is
    /// gone).
    #[inline]
    pub(crate) fn resolve_now(&self) -> Option<Cow<'_, Arc<dyn ToolDefinition>>> {
        let execution = self.execution();
        if self.tools.generation() == self.generation {
            return self.definition.as_ref().map(Cow::Borrowed);
        }
        self.tools
            .resolve(execution.name(), execution.agent())
            .map(Cow::Owned)
    }
}
