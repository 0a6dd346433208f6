//! The registry as its calls see it: the store's [`Core`] as a call's [`CallHost`] (state, limits,
//! nested calls) and as dispatch's [`ToolLookup`].
//!
//! Here rather than in the store because starting a nested call runs the pipeline, which the
//! store must not know.

use std::sync::Arc;

use crate::call::context::ToolLookup;
use crate::call::definition::ToolDefinition;
use crate::call::execution::{CallHost, CallView, ToolExecutionInput};
use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::ids::AgentId;
use crate::limits::LimitsCell;
use crate::result::ToolExecutionResult;
use crate::search::{ToolSearchAnswer, ToolSearchQuery};
use crate::state::SharedState;
use crate::store::core::Core;

impl CallHost for Core {
    #[inline]
    fn state(&self) -> &SharedState {
        Core::state(self)
    }

    #[inline]
    fn limits(&self) -> &LimitsCell {
        Core::limits(self)
    }

    fn execute(
        self: Arc<Self>,
        input: ToolExecutionInput,
    ) -> BoxFuture<'static, ToolExecutionResult> {
        Box::pin(crate::pipeline::execute(&self, input, None))
    }

    fn search_tools(
        &self,
        agent: Option<&AgentId>,
        view: CallView,
        query: &ToolSearchQuery,
    ) -> Result<ToolSearchAnswer, ToolError> {
        match view {
            CallView::Unknown => self.search_and_load(agent, None, query),
            CallView::Global => self.search_and_load(None, None, query),
            CallView::Scope(instance) => self.search_and_load(agent, Some(instance), query),
        }
    }

    #[cfg(feature = "code-mode")]
    fn program_tool(
        &self,
        agent: Option<&AgentId>,
        name: &str,
    ) -> (
        u64,
        Option<Arc<dyn crate::call::execution::ConcurrencyCheck>>,
    ) {
        // Read before the tool: a change in between leaves a generation that is already old,
        // so the tool is resolved again rather than kept past the change.
        let generation = Core::generation(self);
        let tool = Core::resolve(self, name, agent);
        (
            generation,
            tool.map(|tool| {
                Arc::new(Scheduled(tool)) as Arc<dyn crate::call::execution::ConcurrencyCheck>
            }),
        )
    }

    #[cfg(feature = "code-mode")]
    fn generation(&self) -> u64 {
        Core::generation(self)
    }

    #[cfg(feature = "code-mode")]
    fn code_limits(&self) -> crate::code_mode::CodeLimits {
        self.with_snapshot(|state| state.code.limits)
    }

    #[cfg(feature = "code-mode")]
    fn code_engines(&self) -> Option<&Arc<crate::code_mode::pool::EnginePool>> {
        Some(Core::code_engines(self))
    }

    #[cfg(all(feature = "code-mode", feature = "durable"))]
    fn durability(&self) -> Option<Arc<crate::durable::journal::Durability>> {
        self.with_snapshot(|state| state.durability.clone())
    }
}

impl ToolLookup for Core {
    #[inline]
    fn generation(&self) -> u64 {
        Core::generation(self)
    }

    fn resolve(&self, name: &str, agent: Option<&AgentId>) -> Option<Arc<dyn ToolDefinition>> {
        Core::resolve(self, name, agent)
    }
}

/// A resolved tool as a program's scheduler keeps it between calls of the same name.
#[cfg(feature = "code-mode")]
struct Scheduled(Arc<dyn ToolDefinition>);

#[cfg(feature = "code-mode")]
impl crate::call::execution::ConcurrencyCheck for Scheduled {
    fn is_concurrency_safe(&self, arguments: &serde_json::Value) -> bool {
        self.0.is_concurrency_safe(arguments)
    }
}
