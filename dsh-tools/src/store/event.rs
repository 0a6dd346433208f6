//! [`RegistryEvent`]: what change listeners are told (a tool became visible or went away).

use crate::ids::AgentId;

/// A change of the registry's tools, delivered to listeners registered with
/// [`ToolRegistry::on_change`](crate::ToolRegistry::on_change) after the change is visible.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegistryEvent {
    /// A tool was registered.
    ToolRegistered {
        /// The tool name.
        name: String,
        /// The scope it was registered in; `None` for the global layer.
        agent: Option<AgentId>,
    },
    /// Deferred tools were loaded into a scope's tool list (by a `tool_search` call, a
    /// provider's native search read back, or
    /// [`load_tools`](crate::ToolRegistry::load_tools)).
    ToolsLoaded {
        /// The tools loaded, in the order they were added to the list.
        names: Vec<String>,
        /// The scope whose list they joined; `None` for the global layer.
        agent: Option<AgentId>,
    },
    /// A tool was disposed, directly or with its scope.
    ToolDisposed {
        /// The tool name.
        name: String,
        /// The scope it was registered in; `None` for the global layer.
        agent: Option<AgentId>,
    },
}
