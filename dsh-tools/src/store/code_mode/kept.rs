//! What the store keeps for Code Mode and the name it reserves for it, in every build: who may
//! call a tool, a scope's own mode, the registry-wide mode and bounds, the engines programs run
//! on. Without the feature each is `()` and nothing is reserved. Imports nothing of the store's
//! state, so the state can keep these.

use crate::call::definition::ToolDefinition;
use crate::store::error::{RegistryError, RegistryErrorKind};

/// Who may call a tool, read once at registration.
#[cfg(feature = "code-mode")]
pub(crate) type Callers = crate::callers::ToolCallers;
/// A scope's own Code Mode; `None`: as the parent scope (the global layer for a root scope).
#[cfg(feature = "code-mode")]
pub(crate) type ScopeMode = Option<crate::code_mode::CodeMode>;
/// The engines programs run on, kept warm between programs.
#[cfg(feature = "code-mode")]
pub(crate) type Engines = std::sync::Arc<crate::code_mode::pool::EnginePool>;

/// The registry-wide part of Code Mode: the global layer's mode and the bounds of every program.
#[cfg(feature = "code-mode")]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CodeState {
    pub(crate) mode: crate::code_mode::CodeMode,
    pub(crate) limits: crate::code_mode::CodeLimits,
}

/// What the store keeps for Code Mode without the feature: nothing.
#[cfg(not(feature = "code-mode"))]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Nothing;

/// Who may call a tool: nothing to keep without the feature, where only the model calls.
#[cfg(not(feature = "code-mode"))]
pub(crate) type Callers = Nothing;
/// A scope's own Code Mode: nothing to keep without the feature.
#[cfg(not(feature = "code-mode"))]
pub(crate) type ScopeMode = Nothing;
/// The engines programs run on: none without the feature.
#[cfg(not(feature = "code-mode"))]
pub(crate) type Engines = Nothing;
/// The registry-wide part of Code Mode: nothing to keep without the feature.
#[cfg(not(feature = "code-mode"))]
pub(crate) type CodeState = Nothing;

/// Who may call `definition`, read once at registration.
#[inline]
pub(crate) fn callers_of(definition: &dyn ToolDefinition) -> Callers {
    #[cfg(feature = "code-mode")]
    return definition.options().allowed_callers;
    #[cfg(not(feature = "code-mode"))]
    {
        let _ = definition;
        Nothing
    }
}

/// Whether `name` is `run_code`, Code Mode's own tool, which the view answers for itself.
#[inline]
pub(crate) fn is_run_code(name: &str) -> bool {
    #[cfg(feature = "code-mode")]
    return name == crate::call::run_code::RUN_CODE;
    #[cfg(not(feature = "code-mode"))]
    {
        let _ = name;
        false
    }
}

/// Why a tool may not be registered as `name`: `run_code`, refused whether or not Code Mode is
/// on, so that turning it on never shadows a tool. The text is the reference implementation's.
pub(crate) fn reserved(name: &str) -> Option<RegistryError> {
    is_run_code(name).then(|| {
        RegistryError::new(
            RegistryErrorKind::ReservedName,
            "tool name \"run_code\" is reserved for the Code Mode presentation transport and \
             cannot be registered or shadowed"
                .to_owned(),
        )
    })
}

/// Why a restriction naming `named` is refused: it may not name `run_code`.
pub(crate) fn restricted<'a>(mut named: impl Iterator<Item = &'a String>) -> Option<RegistryError> {
    named.any(|name| is_run_code(name)).then(|| {
        RegistryError::new(
            RegistryErrorKind::ReservedName,
            "tools.restrict() cannot name reserved Code Mode presentation transport \"run_code\"; \
             restrict end-capability tools instead"
                .to_owned(),
        )
    })
}
