//! What Code Mode decides over the entries of a view, in every build: the mode in force, a call
//! refused before any policy, whether the model or a program may call a tool, `run_code`'s entry
//! and listing. Without the feature there is one mode, nothing is refused, only the model
//! calls and there is no `run_code`. The view (`view.rs`) asks, handing what it has.

use crate::call::definition::ToolSchema;
use crate::errors::tool_error::ToolError;
use crate::store::code_mode::kept::CodeState;
use crate::store::state::{ScopeState, ToolEntry};

/// The Code Mode of a view.
#[cfg(feature = "code-mode")]
pub(crate) type Mode = crate::code_mode::CodeMode;
/// The Code Mode of a view: the one there is without the feature.
#[cfg(not(feature = "code-mode"))]
pub(crate) type Mode = crate::store::code_mode::kept::Nothing;

/// The mode in force for `chain` (farthest ancestor first) under the registry's `global` state.
#[inline]
pub(crate) fn mode_of(chain: &[&ScopeState], global: &CodeState) -> Mode {
    #[cfg(feature = "code-mode")]
    return super::on::mode_of(chain, global.mode);
    #[cfg(not(feature = "code-mode"))]
    {
        let _ = chain;
        *global
    }
}

/// Why a call of `name` is refused before any policy (`nested`: it has a parent; `entry`: what
/// the name resolves to), if it is.
#[inline]
pub(crate) fn refusal(
    name: &str,
    nested: bool,
    mode: Mode,
    entry: Option<&ToolEntry>,
) -> Option<ToolError> {
    #[cfg(feature = "code-mode")]
    return super::on::refusal(name, nested, mode, entry);
    #[cfg(not(feature = "code-mode"))]
    {
        let _ = (name, nested, mode, entry);
        None
    }
}

/// Whether the model may call `entry` directly; a tool only programs call is in `run_code`'s
/// declaration instead of the model's schemas.
#[inline]
pub(crate) fn model_calls(entry: &ToolEntry) -> bool {
    #[cfg(feature = "code-mode")]
    return entry.callers.takes_model();
    #[cfg(not(feature = "code-mode"))]
    {
        let _ = entry;
        true
    }
}

/// Whether a program may call `entry`.
#[inline]
pub(crate) fn program_calls(entry: &ToolEntry) -> bool {
    #[cfg(feature = "code-mode")]
    return entry.callers.takes_program();
    #[cfg(not(feature = "code-mode"))]
    {
        let _ = entry;
        false
    }
}

/// `run_code`'s entry when `mode` has it.
#[inline]
pub(crate) fn run_code_entry(mode: Mode) -> Option<&'static ToolEntry> {
    #[cfg(feature = "code-mode")]
    return super::on::run_code_entry(mode);
    #[cfg(not(feature = "code-mode"))]
    {
        let _ = mode;
        None
    }
}

/// `run_code`'s schema (from its `entry`) declaring `callable`, and whether it is all the model
/// calls besides `tool_search` (`Code` mode).
pub(crate) fn run_code_listing(
    entry: &ToolEntry,
    callable: Vec<&ToolEntry>,
    mode: Mode,
) -> (ToolSchema, bool) {
    #[cfg(feature = "code-mode")]
    return (
        super::on::run_code_schema(entry, callable),
        mode == crate::code_mode::CodeMode::Code,
    );
    // Never reached: without the feature no view has a `run_code` entry to list.
    #[cfg(not(feature = "code-mode"))]
    {
        let _ = (callable, mode);
        (entry.schema.clone(), false)
    }
}
