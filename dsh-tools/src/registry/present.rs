//! Presentation on the registry: the cards of a call, made from the definition the call resolves
//! to (the registry's resolution for the call's agent, or a scope's own), with every fallback of
//! [`ToolCallView::present`] — so a UI can show any call, known or not, and never gets an error or
//! a blank card. The `present_*` methods of [`ToolRegistry`](crate::ToolRegistry) and
//! [`ToolScope`](crate::ToolScope) (`layer_api.rs`) call these.

use crate::call::definition::ToolDefinition;
use crate::present::{ToolCallRef, ToolCallView, ToolResultView};
use crate::progress::ToolProgress;
use crate::result::ToolExecutionResult;

pub(crate) fn pending_card(
    definition: Option<&dyn ToolDefinition>,
    call: &(impl ToolCallRef + ?Sized),
) -> ToolCallView {
    ToolCallView::present(definition, call.tool_name(), call.tool_arguments())
}

pub(crate) fn progress_card(
    definition: Option<&dyn ToolDefinition>,
    call: &(impl ToolCallRef + ?Sized),
    progress: &ToolProgress,
) -> ToolCallView {
    let pending = pending_card(definition, call);
    ToolCallView::present_progress(definition, call.tool_arguments(), &pending, progress)
}

pub(crate) fn result_card(
    definition: Option<&dyn ToolDefinition>,
    call: &(impl ToolCallRef + ?Sized),
    result: &ToolExecutionResult,
) -> ToolResultView {
    let pending = pending_card(definition, call);
    ToolResultView::present(definition, call.tool_arguments(), &pending, result)
}
