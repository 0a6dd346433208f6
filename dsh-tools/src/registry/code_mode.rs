//! Code Mode on the facade: how a scope's model calls tools ([`CodeMode`]) and the bounds of
//! every program ([`CodeLimits`]), for the global layer ([`ToolRegistry`]) and for a scope
//! ([`ToolScope`]).
//!
//! In `Code` and `Both` modes the view lists the built-in `run_code`
//! ([`RUN_CODE`](crate::registry::RUN_CODE)), whose description carries the TypeScript
//! declaration of the tools programs can call; its nested calls go through the whole pipeline.

use crate::code_mode::{CodeLimits, CodeMode};
use crate::registry::scope::ToolScope;
use crate::registry::tool_registry::ToolRegistry;
use crate::store::error::RegistryError;

impl ToolRegistry {
    /// Sets how the global layer's model calls tools; scopes inherit it unless they set their
    /// own. [`CodeMode::Native`] by default.
    pub fn set_code_mode(&self, mode: CodeMode) {
        // The global layer always exists.
        let _ = self.core().set_code_mode(None, Some(mode));
    }

    /// Sets the bounds of every `run_code` program started from now on.
    pub fn set_code_limits(&self, limits: CodeLimits) {
        self.core().set_code_limits(limits);
    }
}

impl ToolScope {
    /// Sets how this scope's model (and its descendants' that set none) calls tools; see
    /// [`ToolRegistry::set_code_mode`].
    pub fn set_code_mode(&self, mode: CodeMode) -> Result<(), RegistryError> {
        self.core()
            .set_code_mode(Some((self.agent(), self.instance())), Some(mode))
    }

    /// Makes this scope take its parent's Code Mode again (the global layer's for a root scope).
    pub fn inherit_code_mode(&self) -> Result<(), RegistryError> {
        self.core()
            .set_code_mode(Some((self.agent(), self.instance())), None)
    }
}
