//! What a bridge attaches to one call's input for its span: the remote parent the call continues
//! and the protocol's attributes, which go on the call's own span rather than on a second one.

use crate::telemetry::trace_context::TraceContext;

/// Telemetry a caller attaches to one call
/// ([`ToolExecutionInput::with_telemetry`](crate::ToolExecutionInput::with_telemetry)): the
/// remote span the call's span continues, and, for a call served over MCP, the MCP attributes.
/// Nothing by default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallTelemetry {
    /// The remote span the call's span becomes a child of (a malformed `traceparent` is
    /// ignored: the call's span stays where it would have been).
    pub parent: Option<TraceContext>,
    /// The call is an MCP `tools/call`: its span gets `mcp.method.name = tools/call`,
    /// `mcp.session.id` (the `mcp_session_id` field), and
    /// `error.type = tool_error` when its result is an error (`isError`); the error code stays
    /// in `dsh_tools.error.code`.
    pub served_over_mcp: bool,
    /// The MCP session the call is served in, when it is served over MCP and the transport has
    /// one.
    pub mcp_session_id: Option<String>,
}

// The pipeline reads the call's telemetry through these when it opens the call's span.
impl CallTelemetry {
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
