//! Presentation on a layer: the cards of a call, made from the definition the call resolves to
//! there, with every fallback (`call/cards.rs`) — so a UI can show any call, known or
//! not, and never gets an error or a blank card.
//!
//! A call resolves as the layer would run it (see [`ToolScope::execute`]): in a scope, in that
//! scope; in the global layer, in the scope of the agent the call names, if any.

use std::sync::Arc;

use serde_json::Value;

use crate::call::definition::ToolDefinition;
use crate::present::{ToolCallRef, ToolCallView, ToolResultView};
use crate::progress::ToolProgress;
use crate::registry::scope::ToolScope;
use crate::result::ToolExecutionResult;
use crate::store::state::Place;
use crate::store::view::View;

impl ToolScope {
    /// The definition a call of `name` naming `agent` resolves to in this layer.
    fn resolve_call(
        &self,
        name: &str,
        agent: Option<&crate::ids::AgentId>,
    ) -> Option<Arc<dyn ToolDefinition>> {
        let state = self.core().read();
        let view = match self.place() {
            Place::Global => View::open(&state, agent, None),
            Place::Scope { agent, instance } => View::open(&state, Some(agent), Some(*instance)),
        };
        view.ok()?.resolve(name).cloned()
    }

    /// The pending card of `call` (a [`ToolExecutionInput`](crate::ToolExecutionInput) or the
    /// [`ToolExecution`](crate::call::ToolExecution) hooks see), resolved as this layer resolves
    /// it. Never fails: an unknown tool, a presenter that returns nothing or panics all give the
    /// generic card.
    pub fn present_call(&self, call: &(impl ToolCallRef + ?Sized)) -> ToolCallView {
        let definition = self.resolve_call(call.tool_name(), call.tool_agent());
        pending_card(definition.as_deref(), call)
    }

    /// The card of a call of `name` the model is still writing, from its `arguments` so far in
    /// the tool's own form (a stream's
    /// [`arguments_so_far`](crate::providers::stream::ToolCallStream::arguments_so_far)),
    /// resolved in this layer: the tool's partial presenter's card
    /// ([`ToolDefinition::present_partial_call`]), else the generic card with the raw input so
    /// far. Never fails. Once the call has finished, show [`present_call`](Self::present_call) of
    /// its input.
    pub fn present_partial_call(&self, name: &str, arguments: &Value) -> ToolCallView {
        let definition = self.resolve_call(name, None);
        ToolCallView::present_partial(definition.as_deref(), name, arguments)
    }

    /// The card of `call` while it runs, after it reported `progress`: its progress presenter's
    /// card, else its pending card.
    pub fn present_progress(
        &self,
        call: &(impl ToolCallRef + ?Sized),
        progress: &ToolProgress,
    ) -> ToolCallView {
        let definition = self.resolve_call(call.tool_name(), call.tool_agent());
        let pending = pending_card(definition.as_deref(), call);
        ToolCallView::present_progress(
            definition.as_deref(),
            call.tool_arguments(),
            &pending,
            progress,
        )
    }

    /// The card of `call`'s `result`. Never fails and never blank; a failure always shows its
    /// error text.
    pub fn present_result(
        &self,
        call: &(impl ToolCallRef + ?Sized),
        result: &ToolExecutionResult,
    ) -> ToolResultView {
        let definition = self.resolve_call(call.tool_name(), call.tool_agent());
        let pending = pending_card(definition.as_deref(), call);
        ToolResultView::present(
            definition.as_deref(),
            call.tool_arguments(),
            &pending,
            result,
        )
    }
}

fn pending_card(
    definition: Option<&dyn ToolDefinition>,
    call: &(impl ToolCallRef + ?Sized),
) -> ToolCallView {
    ToolCallView::present(definition, call.tool_name(), call.tool_arguments())
}
