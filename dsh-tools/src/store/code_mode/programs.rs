//! The store's [`Core`] as a `run_code` program's host: the tools its nested calls resolve to,
//! the bounds and engines of its programs, and its journal.

use std::sync::Arc;

use serde_json::Value;

use crate::call::definition::ToolDefinition;
use crate::call::run_code::host::{ConcurrencyCheck, ProgramHost};
use crate::code_mode::CodeLimits;
use crate::code_mode::pool::EnginePool;
use crate::ids::AgentId;
use crate::store::core::Core;

impl ProgramHost for Core {
    fn program_tool(
        &self,
        agent: Option<&AgentId>,
        name: &str,
    ) -> (u64, Option<Arc<dyn ConcurrencyCheck>>) {
        // Read before the tool: a change in between leaves a generation that is already old,
        // so the tool is resolved again rather than kept past the change.
        let generation = Core::generation(self);
        let tool = Core::resolve(self, name, agent);
        (
            generation,
            tool.map(|tool| Arc::new(Scheduled(tool)) as Arc<dyn ConcurrencyCheck>),
        )
    }

    fn generation(&self) -> u64 {
        Core::generation(self)
    }

    fn code_limits(&self) -> CodeLimits {
        self.read().code.limits
    }

    fn code_engines(&self) -> &Arc<EnginePool> {
        Core::code_engines(self)
    }

    #[cfg(feature = "durable")]
    fn durability(&self) -> Option<Arc<crate::durable::journal::Durability>> {
        self.read().durability.clone()
    }
}

/// A resolved tool as a program's scheduler keeps it between calls of the same name.
struct Scheduled(Arc<dyn ToolDefinition>);

impl ConcurrencyCheck for Scheduled {
    fn is_concurrency_safe(&self, arguments: &Value) -> bool {
        self.0.is_concurrency_safe(arguments)
    }
}
