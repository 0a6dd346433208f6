//! [`ToolRegistry`]: the registry's global layer, and the handle every call starts from.

use std::future::Future;
use std::sync::Arc;

use crate::call::definition::{ToolDefinition, ToolSchema};
use crate::call::execution::ToolExecutionInput;
use crate::hooks::approval::Approver;
use crate::ids::AgentId;
use crate::limits::CallLimits;
use crate::pipeline;
use crate::registry::layer_api::layer_api;
use crate::result::ToolExecutionResult;
use crate::state::SharedState;
use crate::store::core::Core;
use crate::store::event::RegistryEvent;
use crate::store::registration::Registration;
use crate::store::state::{AnyHook, Place};
use crate::store::view::View;

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
    ///
    /// The state is fixed from here on: a tool that needs a type of state `state` lacks (a
    /// `#[state]` parameter, see [`ToolDefinition::required_state`]) is refused when it is
    /// registered, in the global layer or in any scope, with an error naming the type.
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

    /// Whether a call (a listing, a lookup) naming an agent that has no live scope sees the
    /// global layer. Off by default: such a call is refused as `UNKNOWN_AGENT`, its listing is
    /// empty and its lookups find nothing, so a typo in an agent id or a scope disposed
    /// meanwhile never widens what an agent can reach. Turn it on where agent ids only label
    /// calls and the global layer is meant for all of them.
    pub fn set_unscoped_agents_see_global(&self, see_global: bool) {
        self.core
            .update(|state, changes| {
                if state.unscoped_agents_see_global != see_global {
                    state.unscoped_agents_see_global = see_global;
                    changes.changed = true;
                }
                Ok::<(), std::convert::Infallible>(())
            })
            .unwrap_or_else(|never| match never {});
    }

    /// The tool `name` resolves to for `agent` (`None`: the global layer); `None` too when
    /// `agent` has no live scope (unless unscoped agents see the global layer).
    pub fn get(&self, name: &str, agent: Option<&AgentId>) -> Option<Arc<dyn ToolDefinition>> {
        self.core.resolve(name, agent)
    }

    /// The model-facing schemas of the tools visible to `agent` (`None`: the global layer),
    /// sorted by name; none when `agent` has no live scope (unless unscoped agents see the global
    /// layer). Deferred tools are left out until loaded (then they follow the sorted list, in the
    /// order they were loaded) and `tool_search` is listed while any visible tool is deferred
    /// (see [`registry`](crate::registry#deferred-tools)). Cached until the registry changes, so
    /// repeated calls are cheap.
    pub fn schemas(&self, agent: Option<&AgentId>) -> Arc<[ToolSchema]> {
        let state = self.core.read();
        View::open(&state, agent, None).map_or_else(|_| Arc::from([]), |view| view.schemas())
    }

    /// Runs one call through the pipeline. Never fails and never panics: every outcome is a
    /// [`ToolExecutionResult`]. A call naming an agent with no live scope is refused as
    /// `UNKNOWN_AGENT` before any hook, unless
    /// [`set_unscoped_agents_see_global`](Self::set_unscoped_agents_see_global) says otherwise. The call is captured when this is called (its token minted, the
    /// visible definition and hooks taken from the registry as it is now); the future owns what
    /// it needs (`'static`), so it can be spawned.
    pub fn execute(
        &self,
        input: ToolExecutionInput,
    ) -> impl Future<Output = ToolExecutionResult> + Send + 'static + use<> {
        pipeline::execute(&self.core, input, None)
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

    fn place(&self) -> Place {
        Place::Global
    }

    fn resolve_call(&self, name: &str, agent: Option<&AgentId>) -> Option<Arc<dyn ToolDefinition>> {
        self.get(name, agent)
    }

    pub(crate) fn from_core(core: Arc<Core>) -> Self {
        Self { core }
    }

    pub(crate) fn core(&self) -> &Arc<Core> {
        &self.core
    }

    fn add_hook(&self, hook: AnyHook) -> Registration {
        self.core.add_global_hook(hook)
    }
}

layer_api!(
    ToolRegistry,
    hook_result: Registration,
    applies_to: "every call",
    register_doc: "Registers a tool in the global layer. A second tool of the same name in the global layer is refused (agent scopes may shadow it); so are an empty name, `timeout_ms == Some(0)`, `max_result_chars == Some(0)` and a tool that needs shared state this registry was not given (see [`with_state`](Self::with_state)). The tool's name, description and parameters are read now, once: they are what [`schemas`](Self::schemas) shows."
);
