//! Which revision of MCP a served request speaks, where the bridge's behaviour depends on it.
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
