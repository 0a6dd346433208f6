//! Presentation on the registry: the cards of a call, made from the definition the call resolves
//! to ([`ToolRegistry::get`] for the call's agent, or the scope's own resolution), with every
//! fallback of [`ToolCallView::present`] — so a UI can show any call, known or not, and never
//! gets an error or a blank card.

use crate::present::{ToolCallRef, ToolCallView, ToolResultView};
use crate::progress::ToolProgress;
use crate::registry::{ToolRegistry, ToolScope};
use crate::result::ToolExecutionResult;

impl ToolRegistry {
    /// The pending card of `call` (a [`ToolExecutionInput`](crate::ToolExecutionInput) or the
    /// [`ToolExecution`](crate::ToolExecution) hooks see), resolved for its agent. Never fails:
    /// an unknown tool, a presenter that returns nothing or panics all give the generic card.
    pub fn present_call(&self, call: &(impl ToolCallRef + ?Sized)) -> ToolCallView {
        let definition = self.get(call.tool_name(), call.tool_agent());
        ToolCallView::present(
            definition.as_deref(),
            call.tool_name(),
            call.tool_arguments(),
        )
    }

    /// The card of `call` while it runs, after it reported `progress`: its progress presenter's
    /// card, else its pending card.
    pub fn present_progress(
        &self,
        call: &(impl ToolCallRef + ?Sized),
        progress: &ToolProgress,
    ) -> ToolCallView {
        let definition = self.get(call.tool_name(), call.tool_agent());
        let pending = ToolCallView::present(
            definition.as_deref(),
            call.tool_name(),
            call.tool_arguments(),
        );
        ToolCallView::present_progress(
            definition.as_deref(),
            call.tool_arguments(),
            &pending,
            progress,
        )
    }

    /// The card of `call`'s `result`. Never fails and never blank; a failure always shows its
    /// error text (see [`ToolResultView::present`]).
    pub fn present_result(
        &self,
        call: &(impl ToolCallRef + ?Sized),
        result: &ToolExecutionResult,
    ) -> ToolResultView {
        let definition = self.get(call.tool_name(), call.tool_agent());
        let pending = ToolCallView::present(
            definition.as_deref(),
            call.tool_name(),
            call.tool_arguments(),
        );
        ToolResultView::present(
            definition.as_deref(),
            call.tool_arguments(),
            &pending,
            result,
        )
    }
}

impl ToolScope {
    /// The pending card of `call` as this scope's agent sees it (see
    /// [`ToolRegistry::present_call`]).
    pub fn present_call(&self, call: &(impl ToolCallRef + ?Sized)) -> ToolCallView {
        let definition = self.get(call.tool_name());
        ToolCallView::present(
            definition.as_deref(),
            call.tool_name(),
            call.tool_arguments(),
        )
    }

    /// The card of `call` while it runs in this scope (see
    /// [`ToolRegistry::present_progress`]).
    pub fn present_progress(
        &self,
        call: &(impl ToolCallRef + ?Sized),
        progress: &ToolProgress,
    ) -> ToolCallView {
        let definition = self.get(call.tool_name());
        let pending = ToolCallView::present(
            definition.as_deref(),
            call.tool_name(),
            call.tool_arguments(),
        );
        ToolCallView::present_progress(
            definition.as_deref(),
            call.tool_arguments(),
            &pending,
            progress,
        )
    }

    /// The card of `call`'s `result` in this scope (see [`ToolRegistry::present_result`]).
    pub fn present_result(
        &self,
        call: &(impl ToolCallRef + ?Sized),
        result: &ToolExecutionResult,
    ) -> ToolResultView {
        let definition = self.get(call.tool_name());
        let pending = ToolCallView::present(
            definition.as_deref(),
            call.tool_name(),
            call.tool_arguments(),
        );
        ToolResultView::present(
            definition.as_deref(),
            call.tool_arguments(),
            &pending,
            result,
        )
    }
}
