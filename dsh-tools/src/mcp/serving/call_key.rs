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

/// What names a served call across its attempts, read when its request arrives.
#[derive(Debug)]
pub(crate) enum CallIdentity {
    /// The served registry has no call store: the call keeps the key of its id.
    Unjournaled,
    /// The idempotency key its client sent in the request's `_meta`.
    Client(String),
    /// Nothing but the request: this server's `n`th call keyed so.
    Request(u64),
}

impl CallIdentity {
    /// The identity of a call `server` serves, whose request carries `meta`. Without a call
    /// store this reads nothing but whether there is one.
    pub(crate) fn of(server: &McpServer, meta: &Map<String, Value>) -> Self {
        if !server.has_call_store() {
            return Self::Unjournaled;
        }
        match meta.get(IDEMPOTENCY_META_KEY).and_then(Value::as_str) {
            Some(key) => Self::Client(key.to_owned()),
            None => Self::Request(server.requests().fetch_add(1, Ordering::Relaxed)),
        }
    }
}

/// `input`, a call served by `server` as `identity`, under the key the journal knows it by
/// (unchanged when the registry has no call store).
pub(crate) fn keyed(
    server: &McpServer,
    input: ToolExecutionInput,
    identity: CallIdentity,
) -> ToolExecutionInput {
    // The two forms of the call's identity cannot meet: one starts `client `, the other
    // `request `.
    let identity = match identity {
        CallIdentity::Unjournaled => return input,
        CallIdentity::Client(key) => format!("client {key}"),
        CallIdentity::Request(number) => format!("request {} {number}", server.instance()),
    };
    let key = crate::idempotency::idempotency_key(
        &identity,
        &input.name,
        server.agent(),
        &input.arguments,
    );
    input.with_idempotency_key(key)
}
