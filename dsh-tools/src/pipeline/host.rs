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
    fn programs(&self) -> Option<&dyn crate::call::run_code::host::ProgramHost> {
        Some(self)
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
