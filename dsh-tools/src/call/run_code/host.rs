//! What a `run_code` program needs of the registry it runs in: the one seam through which a run
//! reaches its host's Code Mode side. A call's host ([`CallHost`](crate::call::execution::CallHost))
//! hands it out as [`programs`](crate::call::execution::CallHost::programs); a host that has none
//! (a call run outside a registry) runs programs with the default bounds, on an engine of their
//! own, with nothing resolving and nothing to resume from.

use std::sync::Arc;

use serde_json::Value;

use crate::code_mode::CodeLimits;
use crate::code_mode::pool::EnginePool;
use crate::ids::AgentId;

/// A tool as a program's scheduler sees it: whether a call with these arguments may run beside
/// the program's other calls. (The tool itself, a `ToolDefinition`, is named only above this
/// layer's call files, whose types its methods take.)
pub(crate) trait ConcurrencyCheck: Send + Sync {
    fn is_concurrency_safe(&self, arguments: &Value) -> bool;
}

/// The registry as a `run_code` program sees it.
pub(crate) trait ProgramHost: Send + Sync {
    /// The tool a call of `name` that `agent` would make resolves to (a program's nested calls
    /// are scheduled by whether it is concurrency-safe), with the generation it was resolved
    /// in: while [`generation`](Self::generation) stays the same, so does the tool.
    fn program_tool(
        &self,
        agent: Option<&AgentId>,
        name: &str,
    ) -> (u64, Option<Arc<dyn ConcurrencyCheck>>);

    /// The generation of the tools: it changes whenever what a name resolves to may have.
    fn generation(&self) -> u64;

    /// The bounds of a `run_code` program.
    fn code_limits(&self) -> CodeLimits;

    /// The engines this host keeps warm for `run_code` programs.
    fn code_engines(&self) -> &Arc<EnginePool>;

    /// The call store and journal of this host, if it has one: a `run_code` run keys its nested
    /// calls by their positions on it, so that it can resume.
    #[cfg(feature = "durable")]
    fn durability(&self) -> Option<Arc<crate::durable::journal::Durability>>;
}
