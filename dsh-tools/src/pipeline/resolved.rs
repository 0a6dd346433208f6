//! A tool looked up before its call is made (feature `mcp`): a served `tools/call` reads what
//! the tool declares (whether it runs as a task, whether it has an output schema) before it
//! builds the call, and hands that lookup to the call's capture (`pipeline::execute_resolved`),
//! which uses it instead of resolving the name again while the registry has not changed since.

use std::sync::Arc;

use crate::call::definition::ToolDefinition;
use crate::call::execution::ToolExecution;
use crate::errors::tool_error::ToolError;
use crate::store::view::View;

/// What a name resolved to in one layer at one generation of the registry, for a call the
/// model makes (not a program's).
pub(crate) struct ResolvedTool {
    /// The definition the name resolves to, as `ToolScope::get` gives it.
    definition: Option<Arc<dyn ToolDefinition>>,
    /// Why a call of it is refused before any policy (Code Mode), if it is. Boxed: a refusal is
    /// rare, and the lookup travels with the call.
    refusal: Option<Box<ToolError>>,
    /// The registry's generation under the same read lock; `None` when the layer could not be
    /// opened (a disposed scope), so that the capture refuses the call as it would any.
    generation: Option<u64>,
}

impl ResolvedTool {
    /// Looks `name` up in `view`, for a call the model makes, at the registry's `generation`.
    pub(crate) fn look_up(view: &View<'_>, name: &str, generation: u64) -> Self {
        let (definition, refusal) = view.lookup_call(name, false);
        Self {
            definition: definition.cloned(),
            refusal: refusal.map(Box::new),
            generation: Some(generation),
        }
    }

    /// No lookup: the layer could not be opened. The capture resolves the name itself.
    pub(crate) fn missed() -> Self {
        Self {
            definition: None,
            refusal: None,
            generation: None,
        }
    }

    /// The definition the name resolved to.
    pub(crate) fn definition(&self) -> Option<&Arc<dyn ToolDefinition>> {
        self.definition.as_ref()
    }

    /// What the capture of `execution` in `view` at `generation` resolves to: this lookup while
    /// the registry is still at its generation (every change bumps it, a scope's disposal and a
    /// deferred tool's loading included), and the call is the model's, as the lookup was made
    /// for; otherwise the view's own lookup, as for any call.
    pub(crate) fn for_call(
        self,
        view: &View<'_>,
        execution: &ToolExecution,
        generation: u64,
    ) -> Result<Option<Arc<dyn ToolDefinition>>, ToolError> {
        if self.generation != Some(generation) || execution.is_program_call() {
            return view
                .resolve_call(execution.name(), execution.is_program_call())
                .map(Option::<&Arc<dyn ToolDefinition>>::cloned);
        }
        match self.refusal {
            Some(refusal) => Err(*refusal),
            None => Ok(self.definition),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::call::execution::ToolExecutionInput;
    use crate::registry::ToolScope;
    use crate::{FnTool, ToolRegistry, json};

    fn answering(name: &str, answer: &'static str) -> FnTool {
        FnTool::builder(name, "answers").handler(move |_, _| async move { Ok(json!(answer)) })
    }

    async fn call(scope: &ToolScope, resolved: super::ResolvedTool) -> (String, Option<String>) {
        let input = ToolExecutionInput::new("1", "echo", json!({}));
        let result = scope.execute_resolved(input, resolved).await;
        (result.text(), result.error_code().map(str::to_owned))
    }

    #[tokio::test]
    async fn an_unchanged_registry_runs_the_tool_looked_up() {
        let registry = ToolRegistry::new();
        let _echo = registry
            .register(answering("echo", "first"))
            .expect("registered");
        let resolved = registry.resolve_for_call("echo");
        assert!(resolved.definition().is_some());
        assert_eq!(call(&registry, resolved).await, ("first".to_owned(), None));
    }

    #[tokio::test]
    async fn a_change_after_the_lookup_is_seen_by_the_call() {
        let registry = ToolRegistry::new();
        let first = registry
            .register(answering("echo", "first"))
            .expect("registered");
        let resolved = registry.resolve_for_call("echo");
        assert!(first.dispose());
        let (_, code) = call(&registry, resolved).await;
        assert_eq!(code.as_deref(), Some("UNKNOWN_TOOL"));

        let first = registry
            .register(answering("echo", "first"))
            .expect("registered");
        let resolved = registry.resolve_for_call("echo");
        assert!(first.dispose());
        let _second = registry
            .register(answering("echo", "second"))
            .expect("registered");
        assert_eq!(call(&registry, resolved).await, ("second".to_owned(), None));
    }

    #[tokio::test]
    async fn a_global_call_naming_an_agent_resolves_in_the_agents_scope() {
        let registry = ToolRegistry::new();
        let _global = registry
            .register(answering("echo", "global"))
            .expect("registered");
        let scope = registry.create_scope("agent", None).expect("a scope");
        let _own = scope
            .register(answering("echo", "scoped"))
            .expect("registered");
        let resolved = registry.resolve_for_call("echo");
        let input = ToolExecutionInput::new("1", "echo", json!({})).with_agent("agent");
        let result = registry.execute_resolved(input, resolved).await;
        assert_eq!(result.text(), "scoped");
    }

    #[tokio::test]
    async fn a_scope_disposed_before_or_after_the_lookup_refuses_the_call() {
        let registry = ToolRegistry::new();
        let _echo = registry
            .register(answering("echo", "global"))
            .expect("registered");
        let scope = registry.create_scope("agent", None).expect("a scope");
        let resolved = scope.resolve_for_call("echo");
        assert!(resolved.definition().is_some());
        assert!(scope.dispose());
        let (_, code) = call(&scope, resolved).await;
        assert_eq!(code.as_deref(), Some("SCOPE_DISPOSED"));

        let missed = scope.resolve_for_call("echo");
        assert!(missed.definition().is_none());
        let (_, code) = call(&scope, missed).await;
        assert_eq!(code.as_deref(), Some("SCOPE_DISPOSED"));
    }
}
