//! [`RegistryEvent`]: what change listeners are told (a tool became visible or went away, or an
//! import decided what to do with a tool definition that is not the one it pinned).

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
    /// [`load_tools`](crate::ToolScope::load_tools)).
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
    /// An import met a tool definition that differs from the one it pinned (or a tool it had not
    /// pinned) and decided what to do with it; see
    /// [`ImportOptions::changed_tools`](crate::mcp::ImportOptions::changed_tools). Nothing in the
    /// registry changes by this event itself: a registration or disposal that follows from the
    /// decision has its own event, before this one (a listener hearing the decision finds the
    /// registry already showing its outcome).
    DefinitionReviewed {
        /// The tool's registry name (the one it has, or would have, in the registry).
        name: String,
        /// The scope the import registers into; `None` for the global layer.
        agent: Option<AgentId>,
        /// The name of the server the definition came from.
        server: String,
        /// What differs from the pinned definition, in [`DefinitionChange`] order; empty for a
        /// tool that was not pinned (a new tool).
        changes: Vec<DefinitionChange>,
        /// What was done with it.
        decision: DefinitionDecision,
    },
}

/// A part of a tool definition that differs from its pinned version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum DefinitionChange {
    /// The human-readable title.
    Title,
    /// The description the model reads.
    Description,
    /// The schema of the arguments.
    InputSchema,
    /// The schema of the output.
    OutputSchema,
    /// The behaviour hints (read-only, destructive, ...).
    Annotations,
    /// The icons.
    Icons,
    /// Any other part of the definition.
    Other,
}

// Only the import side logs them.
#[cfg(feature = "mcp")]
impl DefinitionChange {
    /// How log lines name it: `"title"`, `"description"`, `"input schema"`, `"output schema"`,
    /// `"annotations"`, `"icons"`, `"other fields"`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Title => "title",
            Self::Description => "description",
            Self::InputSchema => "input schema",
            Self::OutputSchema => "output schema",
            Self::Annotations => "annotations",
            Self::Icons => "icons",
            Self::Other => "other fields",
        }
    }
}

/// What an import did with a definition that differs from its pin, or with a new tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DefinitionDecision {
    /// The definition is served and pinned (by policy, or because the user accepted it).
    Accepted,
    /// The pinned definition stays served (a new tool stays unregistered) until the user accepts
    /// or rejects the change.
    Held,
    /// The tool is withdrawn from the registry until the user accepts the change.
    Disabled,
    /// A new tool the import's policy leaves out.
    Ignored,
    /// The user rejected a held change: the pinned definition stays (a disabled or new tool stays
    /// out of the registry).
    Rejected,
}

// Only the import side logs them.
#[cfg(feature = "mcp")]
impl DefinitionDecision {
    /// How log lines name it: `"accepted"`, `"held"`, `"disabled"`, `"ignored"`, `"rejected"`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Accepted => "accepted",
            Self::Held => "held",
            Self::Disabled => "disabled",
            Self::Ignored => "ignored",
            Self::Rejected => "rejected",
        }
    }
}
