//! The idempotency key of a served `tools/call` on a registry with a call store (feature
//! `durable`): what the journal knows the call by.
//!
//! A served call's id is its JSON-RPC id (`call_id.rs`), and a JSON-RPC id names a request only
//! within its session: every client numbers its requests from 0 or 1, a stateless HTTP replica
//! serves every client's, and a client's retry is a new request with a new id. Keyed by it as
//! any call is by its id ([`ToolExecution::idempotency_key`]), the first calls of two sessions
//! with the same arguments would be one call to the journal — the second replayed the first's
//! result and never ran — while a real retry would never be recognised. So a served call is
//! keyed by what names it across its attempts: the idempotency key its client sent in the
//! request's `_meta` (`io.dsh-tools/idempotency-key`, which an imported tool sends on every
//! attempt), bound to the tool, the agent and the arguments served here, so that a key sent with
//! another call never answers this one; without such a key, by the request alone (this server's
//! random instance id and the request's number), so the call is one of its own, and a retry,
//! which nothing tells apart from a new call, runs as one.
//!
//! [`ToolExecution::idempotency_key`]: crate::call::ToolExecution::idempotency_key

use std::sync::atomic::Ordering;

use serde_json::{Map, Value};

use crate::call::execution::ToolExecutionInput;
use crate::mcp::convert::IDEMPOTENCY_META_KEY;
use crate::mcp::serving::server::McpServer;

/// The idempotency key a request's client sent in its `_meta`, if it sent one.
pub(crate) fn client_key(meta: &Map<String, Value>) -> Option<String> {
    meta.get(IDEMPOTENCY_META_KEY)
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// `input`, a call served by `server` whose client sent `client_key`, under the key the journal
/// knows it by when the served registry has a call store (unchanged without one).
pub(crate) fn keyed(
    server: &McpServer,
    input: ToolExecutionInput,
    client_key: Option<String>,
) -> ToolExecutionInput {
    if !server.has_call_store() {
        return input;
    }
    // The two forms of the call's identity cannot meet: one starts `client `, the other
    // `request `.
    let identity = match client_key {
        Some(key) => format!("client {key}"),
        None => format!(
            "request {} {}",
            server.instance(),
            server.requests().fetch_add(1, Ordering::Relaxed)
        ),
    };
    let key = crate::idempotency::idempotency_key(
        &identity,
        &input.name,
        server.agent(),
        &input.arguments,
    );
    input.with_idempotency_key(key)
}
