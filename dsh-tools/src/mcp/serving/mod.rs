//! The serving side of MCP: a registry's tools served to any MCP client, each call through the
//! registry's whole pipeline. Nothing here knows the importing side: the two share only the
//! vocabulary one level up (`convert.rs`, `error.rs`, `task_support.rs`).
//!
//! | file | owns |
//! |---|---|
//! | `server.rs` | [`McpServer`](crate::mcp::McpServer): configuration and how a connection starts |
//! | `session.rs` | [`McpHandler`](crate::mcp::McpHandler), one served connection: list, call, cancel, progress, list-changed |
//! | `call_id.rs` | a served call's id: its JSON-RPC id as text, small numbers' texts static |
//! | `call_key.rs` | a served call's idempotency key on a call store (feature `durable`): its client's key bound to the call, else its request |
//! | `connection.rs` | starting an [`McpServer`](crate::mcp::McpServer) over any rmcp transport or stdio, and the [`McpConnection`](crate::mcp::McpConnection) that keeps it running |
//! | `stdio_transport.rs` | the stdio transport: line framing as rmcp's, replies one per line, what a line that is no message does |
//! | `request_parse.rs` | one line read into rmcp's message: a session's usual messages directly, the rest by rmcp's codec |
//! | `client_approval.rs` | a served call's `ask` answered by the client's user (elicitation) |
//! | `round_trip_approval.rs` | the same over multi-round-trip requests (2026-07-28): the `InputRequiredResult`, the answer a retry carries |
//! | `request_state.rs` | the `requestState` binding such an answer to its call: a keyed digest under the server's secret |
//! | `listing.rs` | what `tools/list` shows, cached per registry snapshot, paged |
//! | `revision.rs` | which protocol revision a served request speaks, and what its client declared |
//! | `tasks.rs` | served calls as tasks: when a call is one, running it, `tasks/*`, expiry |
//! | `task_life.rs` | how a served task lives and ends: its settings, its progress as its status, how its call settled |
//! | `task_book.rs` | served tasks on the registry's call store (feature `durable`): recorded, heartbeat, progress shown, questions answered, polled and cancelled through any replica, a dead owner's task settled `failed` |
//! | `task_approval.rs` | a served task's `ask` over the per-request protocol: `input_required`, answered by `tasks/update` |
//! | `http_server.rs` | streamable HTTP hosting: origin and host checks, bearer token, body cap, sockets without Nagle's delay |
//! | `host_check.rs` | that hosting's `Host` check, against the allowed hosts read once |

pub(super) mod call_id;
#[cfg(feature = "durable")]
pub(super) mod call_key;
pub(super) mod client_approval;
pub(super) mod connection;
#[cfg(feature = "mcp-http")]
pub(super) mod host_check;
#[cfg(feature = "mcp-http")]
pub(super) mod http_server;
pub(super) mod listing;
pub(crate) mod request_parse;
pub(super) mod request_state;
pub(super) mod revision;
pub(super) mod round_trip_approval;
pub(super) mod server;
pub(super) mod session;
pub(super) mod stdio_transport;
pub(super) mod task_approval;
#[cfg(feature = "durable")]
pub(super) mod task_book;
pub(super) mod task_life;
pub(super) mod tasks;
