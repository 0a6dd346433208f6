//! Code Mode on the facade: how a layer's model calls tools ([`CodeMode`], per layer) and the
//! bounds of every program ([`CodeLimits`], for the whole registry).
//!
//! In `Code` and `Both` modes the view lists the built-in `run_code`
//! ([`RUN_CODE`](crate::registry::RUN_CODE)), whose description carries the TypeScript
//! declaration of the tools programs can call; its nested calls go through the whole pipeline.

use crate::code_mode::{CodeLimits, CodeMode};
use crate::registry::scope::ToolScope;
use crate::registry::tool_registry::ToolRegistry;
use crate::store::error::RegistryError;

impl ToolScope {
    /// Sets how this layer's model calls tools; scopes that set none take their parent's (root
    /// scopes the global layer's, which is [`CodeMode::Native`] by default). `None` makes this
    /// scope take its parent's Code Mode again (the global layer's for a root scope), and the
    /// global layer go back to [`CodeMode::Native`]. Fails only through a disposed scope.
    pub fn set_code_mode(&self, mode: impl Into<Option<CodeMode>>) -> Result<(), RegistryError> {
        self.core().set_code_mode(self.place().scope(), mode.into())
    }

    /// What a provider running the model's programs on its side is sent for this layer (the
    /// provider views' programmatic tool calling); `None` when programs may call no tool here.
    pub(crate) fn program_tools(
        &self,
    ) -> Option<crate::store::code_mode::programmatic::ProgramTools> {
        self.core()
            .program_tools(self.agent(), self.place().instance())
    }
}

impl ToolRegistry {
    /// Sets the bounds of every `run_code` program started from now on.
    pub fn set_code_limits(&self, limits: CodeLimits) {
        self.core().set_code_limits(limits);
    }
}
