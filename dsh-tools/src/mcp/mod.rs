//! MCP both ways, on the [`rmcp`] crate (feature `mcp`; streamable HTTP with `mcp-http`).
//!
//! - **Serve** ([`McpServer`]): any MCP client lists a registry's tools (or one scope's) and calls
//!   them; every call runs through the registry's whole pipeline — hooks, guards, layers,
//!   validation, output checks — and every outcome is a `tools/call` result the client's model
//!   reads, with progress, cancellation and list-changed notifications. A call whose
//!   `pre-execute` hook answers `ask` is approved by the client's user when the client declared
//!   form elicitation: with an `elicitation/create` request over a session (2025-11-25), with an
//!   `InputRequiredResult` the client answers by retrying the call on the per-request protocol
//!   (2026-07-28; its `requestState` binds the answer to the call, see
//!   [`McpServer::with_request_state_key`]). Calls run as tasks (MCP's tasks extension) are
//!   kept on the registry's call store when it has one, so any replica answers for them
//!   ([`McpServer::with_task_owner_timeout`], `docs/durable.md`).
//! - **Import** ([`McpClient`]): an MCP server's tools register as raw tools of a registry or a
//!   scope and run through the same pipeline as any other tool. What a server asks its user —
//!   `elicitation/create` requests, the elicitations of an `InputRequiredResult` or of a task
//!   waiting for input — goes to the [`ElicitationHandler`] installed on the client (none:
//!   declined, with a log line); [`McpClient::connect_with_lifecycle`] speaks the per-request
//!   protocol.
//! - **Pinned imports** ([`Pins`]): each imported tool's definition is fingerprinted
//!   ([`fingerprint`]). At a re-sync, a definition that differs from its pin follows the import's
//!   [`ChangedToolPolicy`] (default: hold the change and keep serving the pinned definition,
//!   whose input schema calls are checked against), a tool with no pin its [`NewToolPolicy`]
//!   (default: accept); held changes are listed and settled on the client
//!   ([`McpClient::held_changes`], [`accept_change`](McpClient::accept_change),
//!   [`reject_change`](McpClient::reject_change)). Each decision is a
//!   [`RegistryEvent::DefinitionReviewed`](crate::registry::RegistryEvent::DefinitionReviewed)
//!   and a log line. [`McpClient::pins`] and [`ImportOptions::pins`] save and restore them, so a
//!   restart does not trust a server that changed meanwhile.
//!
//! | file | owns |
//! |---|---|
//! | `server.rs` | [`McpServer`]: configuration and how a connection starts |
//! | `session.rs` | [`McpHandler`], one served connection: list, call, cancel, progress, list-changed |
//! | `client_approval.rs` | a served call's `ask` answered by the client's user (elicitation) |
//! | `round_trip_approval.rs` | the same over multi-round-trip requests (2026-07-28): the `InputRequiredResult`, the answer a retry carries |
//! | `request_state.rs` | the `requestState` binding such an answer to its call: a keyed digest under the server's secret |
//! | `listing.rs` | what `tools/list` shows, cached per registry snapshot, paged |
//! | `revision.rs` | which protocol revision a served request speaks, and what its client declared |
//! | `tasks.rs` | served calls as tasks: when a call is one, running it, `tasks/*`, expiry |
//! | `task_life.rs` | how a served task lives and ends: its settings, how its call settled |
//! | `task_book.rs` | served tasks on the registry's call store (feature `durable`): recorded, heartbeat, questions answered, polled and cancelled through any replica, a dead owner's task settled `failed` |
//! | `task_approval.rs` | a served task's `ask` over the per-request protocol: `input_required`, answered by `tasks/update` |
//! | `task_support.rs` | a tool's task support in a listing's `_meta`, both ways |
//! | `task_client.rs` | following a task an imported tool's server answered a call with |
//! | `http_server.rs` | streamable HTTP hosting: origin and host checks, bearer token, body cap, sockets without Nagle's delay |
//! | `client.rs` | [`McpClient`]: connecting and importing |
//! | `elicitation.rs` | an imported server's elicitation requests and the handler that answers them |
//! | `input_required.rs` | an imported server's requests for input (`InputRequiredResult`, a task's `input_required`): answered by that handler, bounded |
//! | `imported.rs` | an imported tool ([`ToolDefinition`](crate::ToolDefinition)) and its calls |
//! | `pins.rs` | pinned imports: fingerprints, saved [`Pins`], the policies for changed and new tools, held changes |
//! | `names.rs` | how server tool names become registry names |
//! | `convert.rs` | content, annotations, results and error codes (`_meta`) between the two vocabularies |

mod client;
mod client_approval;
mod convert;
mod elicitation;
mod error;
#[cfg(feature = "mcp-http")]
mod http_server;
mod imported;
mod input_required;
mod listing;
mod names;
mod pins;
mod progress_in_order;
mod request_state;
mod revision;
mod round_trip_approval;
mod serve;
mod server;
mod session;
mod task_approval;
#[cfg(feature = "durable")]
mod task_book;
mod task_client;
mod task_life;
mod task_support;
mod tasks;

pub use client::{ImportOptions, McpClient};
pub use client_approval::MAX_ARGUMENTS_EXCERPT_CHARS;
pub use convert::ERROR_META_KEY;
pub use elicitation::{
    ElicitationAnswer, ElicitationFn, ElicitationHandler, ElicitationRequest, elicitation_fn,
};
pub use error::{McpError, McpErrorKind};
#[cfg(feature = "mcp-http")]
pub use http_server::{HttpOptions, McpHttpServer};
pub use imported::IDEMPOTENCY_META_KEY;
pub use names::imported_name;
pub use pins::{ChangedToolPolicy, HeldChange, NewToolPolicy, Pins, fingerprint};
pub use serve::McpConnection;
pub use server::{DEFAULT_PAGE_SIZE, McpServer};
pub use session::McpHandler;
pub use task_life::{DEFAULT_TASK_POLL_INTERVAL, DEFAULT_TASK_TTL};

/// The `rmcp` crate this bridge is built on, for its transports and model types.
pub use rmcp;
