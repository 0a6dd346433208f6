//! Which revision of MCP a served request speaks, and what its client declared, where the
//! bridge's behaviour depends on it.
//!
//! 2026-07-28 is per request (`server/discover`, no `initialize`): a server sends its client no
//! requests of its own (it asks through multi-round-trip results), and a tool's output and its
//! `structuredContent` may be any JSON value. Before it, the session's handshake decided, a
//! server could send requests, and structured output was an object.

use rmcp::model as mcp;
use rmcp::service::{RequestContext, RoleServer};

/// Whether the request of `context` speaks 2026-07-28 or later.
pub(crate) fn is_per_request(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| version >= mcp::ProtocolVersion::V_2026_07_28)
}

/// What the client of one served request speaks and declared, read once per request: each of
/// rmcp's readings looks the session's handshake up again and clones the client's capabilities.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RequestClient {
    /// The request speaks 2026-07-28 or later.
    pub(crate) per_request: bool,
    /// The client declared form elicitation.
    pub(crate) answers_forms: bool,
    /// The client declared the tasks extension.
    pub(crate) speaks_tasks: bool,
}

impl RequestClient {
    /// The client of the request of `context`.
    pub(crate) fn of(context: &RequestContext<RoleServer>) -> Self {
        let capabilities = context.client_capabilities();
        Self {
            per_request: is_per_request(context),
            answers_forms: capabilities.as_ref().is_some_and(answers_forms),
            speaks_tasks: capabilities
                .as_ref()
                .is_some_and(mcp::ClientCapabilities::supports_tasks),
        }
    }
}

/// Whether a client with `capabilities` declared form elicitation.
fn answers_forms(capabilities: &mcp::ClientCapabilities) -> bool {
    capabilities.elicitation.as_ref().is_some_and(supports_form)
}

/// Whether the capability includes form mode (a capability naming no mode means form, as in
/// 2025-06-18, where form was the only one).
fn supports_form(capability: &mcp::ElicitationCapability) -> bool {
    capability.form.is_some() || capability.url.is_none()
}
