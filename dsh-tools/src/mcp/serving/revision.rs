//! Which revision of MCP a served request speaks, and what its client declared, where the
//! bridge's behaviour depends on it.
//!
//! 2026-07-28 is per request (`server/discover`, no `initialize`): a server sends its client no
//! requests of its own (it asks through multi-round-trip results), and a tool's output and its
//! `structuredContent` may be any JSON value. Before it, the session's handshake decided, a
//! server could send requests, and structured output was an object.

use rmcp::model as mcp;
use rmcp::service::{RequestContext, RoleServer};

/// What the client of one served request speaks and declared, read once per request.
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
    /// The client of the request of `context`: what the request's own `_meta` says (the
    /// per-request protocol), else what the session's handshake said, as rmcp's
    /// `RequestContext::protocol_version` and `client_capabilities` read them. The handshake is
    /// read once and by reference: each of those readings takes the session's lock again and
    /// clones what it returns (the whole of the client's capabilities). A session opened
    /// inline on the per-request protocol stores no handshake, so there only the request's
    /// `_meta` counts, as rmcp has it.
    pub(crate) fn of(context: &RequestContext<RoleServer>) -> Self {
        let version = context.meta.protocol_version();
        let declared = context.meta.client_capabilities();
        let handshake = if version.is_none() || declared.is_none() {
            context.peer.peer_info()
        } else {
            None
        };
        let per_request = match &version {
            Some(version) => is_per_request_version(version),
            None => handshake
                .as_deref()
                .is_some_and(|info| is_per_request_version(&info.protocol_version)),
        };
        let capabilities = declared
            .as_ref()
            .or_else(|| handshake.as_deref().map(|info| &info.capabilities));
        Self {
            per_request,
            answers_forms: capabilities.is_some_and(answers_forms),
            speaks_tasks: capabilities.is_some_and(mcp::ClientCapabilities::supports_tasks),
        }
    }
}

/// Whether `version` is 2026-07-28 or later.
fn is_per_request_version(version: &mcp::ProtocolVersion) -> bool {
    *version >= mcp::ProtocolVersion::V_2026_07_28
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
