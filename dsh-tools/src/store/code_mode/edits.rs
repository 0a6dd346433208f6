//! The edits of Code Mode's settings, when the feature is on: a scope's mode or the global
//! layer's, the bounds of every program, and the engines programs run on.

use crate::code_mode::{CodeLimits, CodeMode};
use crate::ids::AgentId;
use crate::store::code_mode::kept::Engines;
use crate::store::core::Core;
use crate::store::error::RegistryError;

impl Core {
    /// Sets the Code Mode of `agent`'s scope (`None`: the global layer's, where `None` as the
    /// mode means the default; for a scope it means inherit again).
    pub(crate) fn set_code_mode(
        &self,
        agent: Option<(&AgentId, u64)>,
        mode: Option<CodeMode>,
    ) -> Result<(), RegistryError> {
        self.update(|state, changes| {
            let changed = match agent {
                None => {
                    let mode = mode.unwrap_or_default();
                    std::mem::replace(&mut state.code.mode, mode) != mode
                }
                Some((agent, instance)) => {
                    let scope = state
                        .scope_mut(agent, instance)
                        .ok_or_else(|| RegistryError::scope_disposed(agent.as_str()))?;
                    std::mem::replace(&mut scope.code_mode, mode) != mode
                }
            };
            changes.changed |= changed;
            changes.searches(crate::store::search_cache::SearchChange::Kept);
            Ok(())
        })
    }

    /// Sets the bounds of every `run_code` program from now on.
    pub(crate) fn set_code_limits(&self, limits: CodeLimits) {
        let Ok(()) = self.update(|state, _changes| {
            state.code.limits = limits;
            Ok::<(), std::convert::Infallible>(())
        });
    }

    /// The engines programs of this registry run on.
    pub(crate) fn code_engines(&self) -> &Engines {
        &self.engines
    }
}
