//! [`ToolScope`]: the handle of one agent scope.
//!
//! Everything registered through a scope lives in it: its tools are visible to calls of the scope
//! and its descendants (shadowing globals and ancestors' tools of the same name), its hooks and
//! guards apply to those calls only, and its restrictions mask the tools it inherits (the global
//! layer's and its ancestors' own) for them. Disposing the scope removes all of it, together with
//! every descendant scope.

use std::future::Future;
use std::sync::Arc;

use crate::call::definition::{ToolDefinition, ToolSchema};
use crate::error::ToolError;
use crate::call::execution::{ToolExecution, ToolExecutionInput};
use crate::ids::AgentId;
use crate::hooks::call_observer::CallObserver;
use crate::hooks::observer::ObserverReturn;
use crate::hooks::post_execute::{PostExecuteNext, PostToolDecision};
use crate::hooks::pre_execute::{PreExecuteNext, PreToolDecision};
use crate::hooks::wrapper::{DispatchRequest, ExecuteLayer, LayerResult, Next, layer_fn};
use crate::store::core::Core;
use crate::store::error::RegistryError;
use crate::store::registration::Registration;
use crate::store::restriction::ToolRestriction;
use crate::store::state::{AnyHook, Place};
use crate::store::view::View;
use crate::registry::{IntoToolDefinition, ToolRegistry};
use crate::result::ToolExecutionResult;

/// The handle of one agent scope. Cheap to clone. Operations on a disposed scope fail with
/// [`RegistryErrorKind::ScopeDisposed`](crate::registry::RegistryErrorKind::ScopeDisposed).
#[derive(Clone)]
pub struct ToolScope {
    core: Arc<Core>,
    agent: AgentId,
    instance: u64,
}

impl std::fmt::Debug for ToolScope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolScope")
            .field("agent", &self.agent)
            .field("active", &self.is_active())
            .finish_non_exhaustive()
    }
}

impl ToolScope {
    pub(crate) fn new(core: Arc<Core>, agent: AgentId, instance: u64) -> Self {
        Self {
            core,
            agent,
            instance,
        }
    }

    fn place(&self) -> Place {
        Place::Scope {
            agent: self.agent.clone(),
            instance: self.instance,
        }
    }

    /// The agent this scope belongs to.
    pub fn agent(&self) -> &AgentId {
        &self.agent
    }

    /// The parent scope's agent.
    pub fn parent(&self) -> Option<AgentId> {
        let state = self.core.read();
        let scope = state.scopes.get(&self.agent)?;
        (scope.instance == self.instance)
            .then(|| scope.parent().cloned())
            .flatten()
    }

    /// Whether the scope still exists.
    pub fn is_active(&self) -> bool {
        self.core.read().has_place(&self.place())
    }

    /// The registry this scope belongs to.
    pub fn registry(&self) -> ToolRegistry {
        ToolRegistry {
            core: Arc::clone(&self.core),
        }
    }

    /// Creates a child scope for `agent`.
    pub fn create_child(&self, agent: impl Into<AgentId>) -> Result<ToolScope, RegistryError> {
        self.registry().create_scope(agent, Some(&self.agent))
    }

    /// Disposes the scope, its descendants and everything registered through them; `true` if it
    /// still existed.
    pub fn dispose(&self) -> bool {
        self.core.dispose_scope(&self.agent, self.instance)
    }

    /// Registers a tool in this scope; it shadows a global or ancestor tool of the same name.
    pub fn register(&self, tool: impl IntoToolDefinition) -> Result<Registration, RegistryError> {
        self.core
            .register_tool(self.place(), tool.into_definition())
    }

    /// Registers several tools in this scope in one change, all or none (see
    /// [`ToolRegistry::register_all`]).
    pub fn register_all<I>(&self, tools: I) -> Result<Vec<Registration>, RegistryError>
    where
        I: IntoIterator,
        I::Item: IntoToolDefinition,
    {
        let definitions = tools.into_iter().map(IntoToolDefinition::into_definition);
        self.core
            .register_tools(self.place(), definitions.collect())
    }

    /// The tool `name` resolves to in this scope.
    pub fn get(&self, name: &str) -> Option<Arc<dyn ToolDefinition>> {
        self.core.resolve(name, Some(&self.agent))
    }

    /// The model-facing schemas of the tools visible in this scope, sorted by name.
    pub fn schemas(&self) -> Arc<[ToolSchema]> {
        let state = self.core.read();
        View::new(&state, Some(&self.agent)).schemas()
    }

    /// Runs `input` on behalf of this scope's agent.
    pub fn execute(
        &self,
        input: ToolExecutionInput,
    ) -> impl Future<Output = ToolExecutionResult> + Send + 'static + use<> {
        self.registry()
            .execute(input.with_agent(self.agent.clone()))
    }

    /// Masks inherited tools — the global layer's and every ancestor scope's own, never this
    /// scope's own — for this scope and its descendants. Every name must be an inherited tool
    /// (one the scope only has as its own is refused, as is an empty filter). Restrictions
    /// intersect with earlier ones and with ancestors'. See [`ToolRestriction`] for tools
    /// registered later and for shadowing.
    pub fn restrict(&self, restriction: ToolRestriction) -> Result<Registration, RegistryError> {
        self.core.restrict(&self.agent, self.instance, restriction)
    }

    /// Adds a `pre-execute` listener for calls of this scope and its descendants.
    pub fn on_pre_execute<F, Fut>(&self, hook: F) -> Result<Registration, RegistryError>
    where
        F: Fn(ToolExecution, PreExecuteNext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<PreToolDecision, ToolError>> + Send + 'static,
    {
        self.add(AnyHook::PreExecute(Arc::new(hook)))
    }

    /// Adds a guard for calls of this scope and its descendants.
    pub fn guard<F>(&self, guard: F) -> Result<Registration, RegistryError>
    where
        F: Fn(&ToolExecution) -> Option<String> + Send + Sync + 'static,
    {
        self.add(AnyHook::Guard(Arc::new(guard)))
    }

    /// Adds an `execute` layer for calls of this scope and its descendants.
    pub fn wrap(&self, layer: impl ExecuteLayer) -> Result<Registration, RegistryError> {
        self.add(AnyHook::Wrapper(Arc::new(layer)))
    }

    /// Adds an `execute` layer made from a closure.
    pub fn on_execute<F, Fut>(&self, layer: F) -> Result<Registration, RegistryError>
    where
        F: Fn(DispatchRequest, Next) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = LayerResult> + Send + 'static,
    {
        self.wrap(layer_fn(layer))
    }

    /// Adds a `post-execute` listener for calls of this scope and its descendants.
    pub fn on_post_execute<F, Fut>(&self, hook: F) -> Result<Registration, RegistryError>
    where
        F: Fn(ToolExecution, Arc<ToolExecutionResult>, PostExecuteNext) -> Fut
            + Send
            + Sync
            + 'static,
        Fut: Future<Output = Result<PostToolDecision, ToolError>> + Send + 'static,
    {
        self.add(AnyHook::PostExecute(Arc::new(hook)))
    }

    /// Adds a result observer for calls of this scope and its descendants.
    pub fn on_result<F, R>(&self, observer: F) -> Result<Registration, RegistryError>
    where
        F: Fn(&ToolExecution, &ToolExecutionResult) -> R + Send + Sync + 'static,
        R: ObserverReturn,
    {
        self.add(AnyHook::Observer(Arc::new(observer)))
    }

    /// Adds a call observer for calls of this scope and its descendants (see
    /// [`ToolRegistry::observe`]).
    pub fn observe(&self, observer: impl CallObserver) -> Result<Registration, RegistryError> {
        self.add(AnyHook::CallObserver(Arc::new(observer)))
    }

    fn add(&self, hook: AnyHook) -> Result<Registration, RegistryError> {
        self.core.add_hook(self.place(), hook)
    }
}
