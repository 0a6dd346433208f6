//! Presentation on the registry: the cards of a call, made from the definition the call resolves
//! to ([`ToolRegistry::get`] for the call's agent, or the scope's own resolution), with every
//! fallback of [`ToolCallView::present`] — so a UI can show any call, known or not, and never
//! gets an error or a blank card.

use crate::call::definition::ToolDefinition;
use crate::present::{ToolCallRef, ToolCallView, ToolResultView};
use crate::progress::ToolProgress;
use crate::registry::{ToolRegistry, ToolScope};
use crate::result::ToolExecutionResult;

impl ToolRegistry {
    /// The pending card of `call` (a [`ToolExecutionInput`](crate::ToolExecutionInput) or the
    /// [`ToolExecution`](crate::call::ToolExecution) hooks see), resolved for its agent. Never fails:
    /// an unknown tool, a presenter that returns nothing or panics all give the generic card.
    pub fn present_call(&self, call: &(impl ToolCallRef + ?Sized)) -> ToolCallView {
        let definition = self.get(call.tool_name(), call.tool_agent());
        pending_card(definition.as_deref(), call)
    }

    /// The card of `call` while it runs, after it reported `progress`: its progress presenter's
    /// card, else its pending card.
    pub fn present_progress(
        &self,
        call: &(impl ToolCallRef + ?Sized),
        progress: &ToolProgress,
    ) -> ToolCallView {
        let definition = self.get(call.tool_name(), call.tool_agent());
        progress_card(definition.as_deref(), call, progress)
    }

    /// The card of `call`'s `result`. Never fails and never blank; a failure always shows its
    /// error text (see [`ToolResultView::present`]).
    pub fn present_result(
        &self,
        call: &(impl ToolCallRef + ?Sized),
        result: &ToolExecutionResult,
    ) -> ToolResultView {
        let definition = self.get(call.tool_name(), call.tool_agent());
        result_card(definition.as_deref(), call, result)
    }
}

impl ToolScope {
    /// The pending card of `call` as this scope's agent sees it (see
    /// [`ToolRegistry::present_call`]).
    pub fn present_call(&self, call: &(impl ToolCallRef + ?Sized)) -> ToolCallView {
        let definition = self.get(call.tool_name());
        pending_card(definition.as_deref(), call)
    }

    /// The card of `call` while it runs in this scope (see
    /// [`ToolRegistry::present_progress`]).
    pub fn present_progress(
        &self,
        call: &(impl ToolCallRef + ?Sized),
        progress: &ToolProgress,
    ) -> ToolCallView {
        let definition = self.get(call.tool_name());
        progress_card(definition.as_deref(), call, progress)
    }

    /// The card of `call`'s `result` in this scope (see [`ToolRegistry::present_result`]).
    pub fn present_result(
        &self,
        call: &(impl ToolCallRef + ?Sized),
        result: &ToolExecutionResult,
    ) -> ToolResultView {
        let definition = self.get(call.tool_name());
        result_card(definition.as_deref(), call, result)
    }
}

// The registry and its scopes differ only in how they resolve the definition; the cards are
// made the same way from whatever they resolved.

fn pending_card(
    definition: Option<&dyn ToolDefinition>,
    call: &(impl ToolCallRef + ?Sized),
) -> ToolCallView {
    ToolCallView::present(definition, call.tool_name(), call.tool_arguments())
}

fn progress_card(
    definition: Option<&dyn ToolDefinition>,
    call: &(impl ToolCallRef + ?Sized),
    progress: &ToolProgress,
) -> ToolCallView {
    let pending = pending_card(definition, call);
    ToolCallView::present_progress(definition, call.tool_arguments(), &pending, progress)
}

fn result_card(
    definition: Option<&dyn ToolDefinition>,
    call: &(impl ToolCallRef + ?Sized),
    result: &ToolExecutionResult,
) -> ToolResultView {
    let pending = pending_card(definition, call);
    ToolResultView::present(definition, call.tool_arguments(), &pending, result)
}
