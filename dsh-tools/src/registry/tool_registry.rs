//! [`ToolRegistry`]: the handle every call starts from, what the whole registry shares (shared
//! state, limits, the approver, change listeners), and its global layer, which it dereferences
//! to. Its scopes are `scope_tree.rs`.

use std::ops::Deref;
use std::sync::Arc;

use crate::hooks::approval::Approver;
use crate::limits::CallLimits;
use crate::registry::scope::ToolScope;
use crate::state::SharedState;
use crate::store::core::Core;
use crate::store::event::RegistryEvent;
use crate::store::registration::Registration;
use crate::store::state::Place;

/// The tool registry. Cheap to clone: clones share everything.
///
/// A registry is its global layer: it dereferences to that layer's [`ToolScope`], so
/// `registry.register(tool)`, `registry.on_pre_execute(..)`, `registry.schemas()` and
/// `registry.execute(input)` are the global layer's (`&*registry` is that layer). What belongs
/// to the whole registry — its shared state, limits, approver, change listeners and scopes — is
/// here.
///
/// ```
/// use dsh_tools::{AgentId, FnTool, ToolExecutionInput, ToolRegistry};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), dsh_tools::registry::RegistryError> {
/// let registry = ToolRegistry::new();
/// let _ = registry.register(FnTool::builder("ping", "Answers pong.").handler(|_, _| async { Ok("pong") }))?;
/// let researcher = registry.create_child("researcher")?;
/// let _ = researcher.register(FnTool::builder("search", "Searches.").handler(|_, _| async { Ok("found") }))?;
///
/// assert_eq!(registry.schemas().len(), 1); // the global layer: `ping`
/// assert_eq!(researcher.schemas().len(), 2); // its own `search` and the global `ping`
///
/// // A call naming an agent runs in that agent's scope.
/// let input = ToolExecutionInput::from_raw("c1", "search", "{}").with_agent("researcher");
/// assert_eq!(registry.execute(input).await.text(), "found");
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct ToolRegistry {
    global: ToolScope,
}

impl Default for ToolRegistry {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for ToolRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.core().read();
        f.debug_struct("ToolRegistry")
            .field("global_tools", &state.global.sorted_names())
            .field("scopes", &state.scopes.len())
            .finish_non_exhaustive()
    }
}

/// The global layer's methods ([`ToolScope`]'s) are the registry's.
impl Deref for ToolRegistry {
    type Target = ToolScope;

    #[inline]
    fn deref(&self) -> &ToolScope {
        &self.global
    }
}

impl ToolRegistry {
    /// An empty registry with no shared state.
    pub fn new() -> Self {
        Self::with_state(SharedState::default())
    }

    /// An empty registry whose tools reach `state` through [`ToolRun::state`](crate::ToolRun::state).
    ///
    /// The state is fixed from here on: a tool that needs a type of state `state` lacks (a
    /// `#[state]` parameter, see
    /// [`ToolDefinition::required_state`](crate::ToolDefinition::required_state)) is refused when
    /// it is registered, in the global layer or in any scope, with an error naming the type.
    /// Only tools read it: code outside them keeps its own handle on what it put in (an `Arc`
    /// of a value shares it).
    pub fn with_state(state: SharedState) -> Self {
        Self::from_core(Arc::new(Core::new(state)))
    }

    pub(crate) fn from_core(core: Arc<Core>) -> Self {
        Self {
            global: ToolScope::new(core, Place::Global),
        }
    }

    /// The global layer: what calls naming no agent see, and what every scope inherits. Users
    /// reach it through the registry's `Deref` (`&registry` is a `&ToolScope`).
    pub(crate) fn global(&self) -> &ToolScope {
        &self.global
    }

    /// Sets the bounds every call runs under: whether declared time budgets are enforced and
    /// with what grace, a budget for tools that declare none, and the result budget (see
    /// [`CallLimits`]; the defaults enforce budgets with a one-second grace and cut results at
    /// 50,000 characters). Calls dispatched from now on use them.
    pub fn set_limits(&self, limits: CallLimits) {
        self.core().limits().set(limits);
    }

    /// Sets what calls record beyond their span (feature `otel`): their arguments and results
    /// (opt-in, bounded, redacted) and metrics; see [`Telemetry`](crate::telemetry::Telemetry).
    /// Calls made from now on use it.
    #[cfg(feature = "otel")]
    pub fn set_telemetry(&self, telemetry: crate::telemetry::Telemetry) {
        self.core().set_telemetry(telemetry);
    }

    /// The bounds every call runs under.
    pub fn limits(&self) -> CallLimits {
        self.core().limits().get()
    }

    /// Whether a call (a listing, a lookup) naming an agent that has no live scope sees the
    /// global layer. Off by default: such a call is refused as `UNKNOWN_AGENT`, and
    /// [`layer_for`](Self::layer_for) gives no layer to list or look up in, so a typo in an agent
    /// id or a scope disposed meanwhile never widens what an agent can reach. Turn it on where
    /// agent ids only label calls and the global layer is meant for all of them.
    pub fn set_unscoped_agents_see_global(&self, see_global: bool) {
        self.core()
            .update(|state, changes| {
                if state.unscoped_agents_see_global != see_global {
                    state.unscoped_agents_see_global = see_global;
                    changes.changed = true;
                    // An agent without a scope sees the global layer's view, index and all.
                    changes.searches(crate::store::search_cache::SearchChange::Kept);
                }
                Ok::<(), std::convert::Infallible>(())
            })
            .unwrap_or_else(|never| match never {});
    }

    /// Ranks keyword searches of deferred tools by meaning too: `Some` fuses the keyword
    /// ranking with the embedding model's (see [`ToolEmbedder`](crate::search::ToolEmbedder)),
    /// `None` goes back to keywords alone. Replacing the model forgets the vectors of the old one.
    /// Regular-expression and exact-name searches are unchanged.
    pub fn set_tool_embedder(&self, hybrid: Option<crate::search::HybridSearch>) {
        self.core().embeddings.set(hybrid);
    }

    /// Installs the approver that answers `ask` decisions, replacing any earlier one. Disposing
    /// the returned handle removes it (`ask` decisions become denials again), unless another
    /// approver replaced it since.
    pub fn set_approver(&self, approver: impl Approver) -> Registration {
        self.core().set_approver(Arc::new(approver))
    }

    /// Calls `listener` after every change of the registry's tools, once the change is visible
    /// to new calls. Listeners run on the thread that made the change, outside any lock (they may
    /// use the registry); events of changes made concurrently on several threads may interleave.
    pub fn on_change<F>(&self, listener: F) -> Registration
    where
        F: Fn(&RegistryEvent) + Send + Sync + 'static,
    {
        self.core().add_listener_registration(Arc::new(listener))
    }
}
