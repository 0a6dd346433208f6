//! [`ToolRegistry`]: where tools, hooks and policies are registered, and where calls run.
//!
//! The registry has a global layer and any number of agent scopes ([`ToolScope`]), each with an
//! optional parent. A call made on behalf of an agent resolves tools through the agent's scope
//! chain (its own tools shadow its ancestors', which shadow the global ones), sees the inherited
//! tools its chain's restrictions admit ([`ToolRestriction`]), and runs the hooks of the global
//! layer and of every scope of its chain.
//!
//! # Cost of a change
//! Registering or disposing a tool, a hook or a restriction, and creating a scope, cost the same
//! however many tools the registry holds (disposing a scope costs what it and its descendants
//! hold): changes edit the registry in place under a lock, and a call reads everything it needs
//! under that lock at once, so it sees the registry as it was at one moment.
//!
//! # Hook order
//! Hooks of each kind run in this order: the global layer's, then each scope's from the farthest
//! ancestor to the call's own scope; within one layer, in registration order. For `execute`
//! layers, first means outermost.
//!
//! # Schema order
//! [`schemas`](ToolRegistry::schemas) lists the visible tools sorted by name (byte order), so the
//! model-facing prefix of a request does not depend on registration timing.

mod batch;
mod present;
mod scope;

use std::future::Future;
use std::sync::Arc;

pub use self::batch::{BatchOutcome, ExecutionMode};
pub use self::scope::ToolScope;
pub use crate::store::error::{RegistryError, RegistryErrorKind};
pub use crate::store::event::RegistryEvent;
pub use crate::store::registration::Registration;
pub use crate::store::restriction::ToolRestriction;

use crate::store::core::Core;
use crate::store::state::{AnyHook, Place};
use crate::store::view::View;
use crate::call::definition::{ToolDefinition, ToolSchema};
use crate::error::ToolError;
use crate::call::execution::{ToolExecution, ToolExecutionInput};
use crate::ids::AgentId;
use crate::limits::CallLimits;
use crate::pipeline;
use crate::hooks::call_observer::CallObserver;
use crate::hooks::observer::ObserverReturn;
use crate::hooks::post_execute::{PostExecuteNext, PostToolDecision};
use crate::hooks::pre_execute::{PreExecuteNext, PreToolDecision};
use crate::hooks::wrapper::{DispatchRequest, ExecuteLayer, LayerResult, Next, layer_fn};
use crate::hooks::approval::Approver;
use crate::result::ToolExecutionResult;
use crate::state::SharedState;

/// Anything [`ToolRegistry::register`] accepts: a definition by value, or one already shared.
pub trait IntoToolDefinition {
    /// The shared definition.
    fn into_definition(self) -> Arc<dyn ToolDefinition>;
}

impl<T: ToolDefinition> IntoToolDefinition for T {
    fn into_definition(self) -> Arc<dyn ToolDefinition> {
        Arc::new(self)
    }
}

impl IntoToolDefinition for Arc<dyn ToolDefinition> {
    fn into_definition(self) -> Arc<dyn ToolDefinition> {
        self
    }
}

impl IntoToolDefinition for Box<dyn ToolDefinition> {
    fn into_definition(self) -> Arc<dyn ToolDefinition> {
        Arc::from(self)
    }
}

/// The tool registry. Cheap to clone: clones share everything.
#[derive(Clone)]
pub struct ToolRegistry {
    core: Arc<Core>,
}

impl Default for ToolRegistry {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for ToolRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.core.read();
        f.debug_struct("ToolRegistry")
            .field("global_tools", &state.global.sorted_names())
            .field("scopes", &state.scopes.len())
            .finish_non_exhaustive()
    }
}

impl ToolRegistry {
    /// An empty registry with no shared state.
    pub fn new() -> Self {
        Self::with_state(SharedState::new())
    }

    /// An empty registry whose tools reach `state` through [`ToolRun::state`](crate::ToolRun::state).
    pub fn with_state(state: SharedState) -> Self {
        Self {
            core: Arc::new(Core::new(state)),
        }
    }

    /// The shared state tools reach through [`ToolRun::state`](crate::ToolRun::state).
    pub fn state(&self) -> &SharedState {
        self.core.state()
    }

    /// Sets the bounds every call runs under: whether declared time budgets are enforced and
    /// with what grace, a budget for tools that declare none, and the result budget (see
    /// [`CallLimits`]; the defaults enforce budgets with a one-second grace and cut results at
    /// 50,000 characters). Calls dispatched from now on use them.
    pub fn set_limits(&self, limits: CallLimits) {
        self.core.limits().set(limits);
    }

    /// The bounds every call runs under.
    pub fn limits(&self) -> CallLimits {
        self.core.limits().get()
    }

    /// Registers a tool in the global layer. A second tool of the same name in the global layer
    /// is refused (agent scopes may shadow it); so are an empty name and `timeout_ms == Some(0)`.
    /// The tool's name, description and parameters are read now, once: they are what
    /// [`schemas`](Self::schemas) shows.
    pub fn register(&self, tool: impl IntoToolDefinition) -> Result<Registration, RegistryError> {
        self.core
            .register_tool(Place::Global, tool.into_definition())
    }

    /// Registers several tools in the global layer in one change, all or none: if any is refused
    /// (for the reasons [`register`](Self::register) gives, or a name given twice), nothing is
    /// registered. No call and no [`schemas`](Self::schemas) sees some of them without the
    /// others; listeners hear one event per tool, in the order given. The handles come back in
    /// the same order.
    pub fn register_all<I>(&self, tools: I) -> Result<Vec<Registration>, RegistryError>
    where
        I: IntoIterator,
        I::Item: IntoToolDefinition,
    {
        let definitions = tools.into_iter().map(IntoToolDefinition::into_definition);
        self.core
            .register_tools(Place::Global, definitions.collect())
    }

    /// The tool `name` resolves to for `agent` (`None`: the global layer).
    pub fn get(&self, name: &str, agent: Option<&AgentId>) -> Option<Arc<dyn ToolDefinition>> {
        self.core.resolve(name, agent)
    }

    /// The model-facing schemas of the tools visible to `agent` (`None`: the global layer),
    /// sorted by name. Cached until the registry changes, so repeated calls are cheap.
    pub fn schemas(&self, agent: Option<&AgentId>) -> Arc<[ToolSchema]> {
        let state = self.core.read();
        View::new(&state, agent).schemas()
    }

    /// Runs one call through the pipeline. Never fails and never panics: every outcome is a
    /// [`ToolExecutionResult`]. The call is captured when this is called (its token minted, the
    /// visible definition and hooks taken from the registry as it is now); the future owns what
    /// it needs (`'static`), so it can be spawned.
    pub fn execute(
        &self,
        input: ToolExecutionInput,
    ) -> impl Future<Output = ToolExecutionResult> + Send + 'static + use<> {
        pipeline::execute(&self.core, input)
    }

    /// Creates the scope of `agent`, inside `parent`'s scope when given. Fails when `agent`
    /// already has a scope or `parent` has none.
    pub fn create_scope(
        &self,
        agent: impl Into<AgentId>,
        parent: Option<&AgentId>,
    ) -> Result<ToolScope, RegistryError> {
        let agent = agent.into();
        let instance = self.core.create_scope(&agent, parent)?;
        Ok(ToolScope::new(Arc::clone(&self.core), agent, instance))
    }

    /// The existing scope of `agent`.
    pub fn scope(&self, agent: &AgentId) -> Option<ToolScope> {
        let instance = self.core.read().scopes.get(agent)?.instance;
        Some(ToolScope::new(
            Arc::clone(&self.core),
            agent.clone(),
            instance,
        ))
    }

    /// Installs the approver that answers `ask` decisions, replacing any earlier one.
    pub fn set_approver(&self, approver: impl Approver) {
        self.core.set_approver(Some(Arc::new(approver)));
    }

    /// Removes the approver: `ask` decisions become denials again.
    pub fn clear_approver(&self) {
        self.core.set_approver(None);
    }

    /// Calls `listener` after every change of the registry's tools, once the change is visible
    /// to new calls. Listeners run on the thread that made the change, outside any lock (they may
    /// use the registry); events of changes made concurrently on several threads may interleave.
    pub fn on_change<F>(&self, listener: F) -> Registration
    where
        F: Fn(&RegistryEvent) + Send + Sync + 'static,
    {
        self.core.add_listener_registration(Arc::new(listener))
    }

    /// Adds a `pre-execute` listener for every call (see the module docs for the order).
    pub fn on_pre_execute<F, Fut>(&self, hook: F) -> Registration
    where
        F: Fn(ToolExecution, PreExecuteNext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<PreToolDecision, ToolError>> + Send + 'static,
    {
        self.add_global(AnyHook::PreExecute(Arc::new(hook)))
    }

    /// Adds a guard for every call: `Some(reason)` denies it.
    pub fn guard<F>(&self, guard: F) -> Registration
    where
        F: Fn(&ToolExecution) -> Option<String> + Send + Sync + 'static,
    {
        self.add_global(AnyHook::Guard(Arc::new(guard)))
    }

    /// Adds an `execute` layer for every call.
    pub fn wrap(&self, layer: impl ExecuteLayer) -> Registration {
        self.add_global(AnyHook::Wrapper(Arc::new(layer)))
    }

    /// Adds an `execute` layer made from a closure (see [`layer_fn`]).
    pub fn on_execute<F, Fut>(&self, layer: F) -> Registration
    where
        F: Fn(DispatchRequest, Next) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = LayerResult> + Send + 'static,
    {
        self.wrap(layer_fn(layer))
    }

    /// Adds a `post-execute` listener for every call.
    pub fn on_post_execute<F, Fut>(&self, hook: F) -> Registration
    where
        F: Fn(ToolExecution, Arc<ToolExecutionResult>, PostExecuteNext) -> Fut
            + Send
            + Sync
            + 'static,
        Fut: Future<Output = Result<PostToolDecision, ToolError>> + Send + 'static,
    {
        self.add_global(AnyHook::PostExecute(Arc::new(hook)))
    }

    /// Adds a result observer for every call.
    pub fn on_result<F, R>(&self, observer: F) -> Registration
    where
        F: Fn(&ToolExecution, &ToolExecutionResult) -> R + Send + Sync + 'static,
        R: ObserverReturn,
    {
        self.add_global(AnyHook::Observer(Arc::new(observer)))
    }

    /// Adds a call observer for every call: it follows each call from its start through its
    /// progress reports to its result (see [`CallObserver`]), e.g. a UI or the ACP bridge.
    pub fn observe(&self, observer: impl CallObserver) -> Registration {
        self.add_global(AnyHook::CallObserver(Arc::new(observer)))
    }

    fn add_global(&self, hook: AnyHook) -> Registration {
        self.core.add_global_hook(hook)
    }
}
