//! What a bridge attaches to one call's input for its span: the remote parent the call continues
//! and the protocol's attributes, which go on the call's own span rather than on a second one.

use crate::telemetry::trace_context::TraceContext;

/// Telemetry a caller attaches to one call
/// ([`ToolExecutionInput::with_telemetry`](crate::ToolExecutionInput::with_telemetry)): the
/// remote span the call's span continues, and, for a call served over MCP, the MCP attributes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallTelemetry {
    parent: Option<TraceContext>,
    mcp_session_id: Option<String>,
    served_over_mcp: bool,
}

impl CallTelemetry {
    /// Nothing attached.
    pub fn new() -> Self {
        Self::default()
    }

    /// The call's span becomes a child of the remote span `parent` names (a malformed
    /// `traceparent` is ignored: the call's span stays where it would have been).
    #[must_use]
    pub fn with_parent(mut self, parent: TraceContext) -> Self {
        self.parent = Some(parent);
        self
    }

    /// The call is an MCP `tools/call` served in the session `session_id` (when the transport has
    /// one): its span gets `mcp.method.name = tools/call`, `mcp.session.id`, and
    /// `error.type = tool_error` when its result is an error (`isError`); the error code stays in
    /// `dsh_tools.error.code`.
    #[must_use]
    pub fn served_over_mcp(mut self, session_id: Option<String>) -> Self {
        self.served_over_mcp = true;
        self.mcp_session_id = session_id;
        self
    }

    /// The remote parent, if any.
    pub(crate) fn parent(&self) -> Option<&TraceContext> {
        self.parent.as_ref()
    }

    /// Whether the call is served over MCP.
    pub(crate) fn is_served_over_mcp(&self) -> bool {
        self.served_over_mcp
    }

    /// The MCP session the call is served in, if known.
    pub(crate) fn mcp_session_id(&self) -> Option<&str> {
        self.mcp_session_id.as_deref()
    }
}
