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
//!   [`ServerOptions::request_state_key`]). Calls run as tasks (MCP's tasks extension) are
//!   kept on the registry's call store when it has one, so any replica answers for them
//!   ([`ServerOptions::task_owner_timeout`], `docs/durable.md`).
//! - **Import** ([`McpClient`]): an MCP server's tools register as raw tools of a registry or a
//!   scope and run through the same pipeline as any other tool. What a server asks its user —
//!   `elicitation/create` requests, the elicitations of an `InputRequiredResult` or of a task
//!   waiting for input — goes to the [`ElicitationHandler`] installed on the client (none:
//!   declined, with a log line); [`ConnectOptions::lifecycle`] chooses the per-request
//!   protocol.
//! - **Pinned imports** ([`Pins`]): each imported tool's definition is fingerprinted
//!   ([`fingerprint`]). At a re-sync, a definition that differs from its pin follows the import's
//!   [`ChangedToolPolicy`] (default: hold the change and keep serving the pinned definition,
//!   whose input schema calls are checked against), a tool with no pin its [`NewToolPolicy`]
//!   (default: accept); held changes are listed and settled on the client
//!   ([`McpClient::held_changes`], [`decide_change`](McpClient::decide_change)). Each decision
//!   is a
//!   [`RegistryEvent::DefinitionReviewed`](crate::registry::RegistryEvent::DefinitionReviewed)
//!   and a log line. [`McpClient::pins`] and [`ImportOptions::pins`] save and restore them, so a
//!   restart does not trust a server that changed meanwhile.
//!
//! | folder or file | owns |
//! |---|---|
//! | `serving/` | the serving side: [`McpServer`], its sessions, approvals asked of the client's user, listings, tasks, streamable HTTP hosting |
//! | `importing/` | the importing side: [`McpClient`], imported tools and their calls, elicitation, pins, names, tasks followed |
//! | `convert.rs` | content, annotations, results and error codes (`_meta`) between the two vocabularies |
//! | `error.rs` | [`McpError`]: what failed when connecting, serving or importing |
//! | `task_support.rs` | a tool's task support in a listing's `_meta`, both ways |

mod convert;
mod error;
mod importing;
pub(crate) mod serving;
mod task_support;

pub use convert::ERROR_META_KEY;
pub use error::{McpError, McpErrorKind};
pub use importing::client::{ConnectOptions, ImportOptions, McpClient};
pub use importing::elicitation::{ElicitationAnswer, ElicitationHandler, ElicitationRequest};
pub use importing::names::imported_name;
pub use importing::pins::{
    ChangedToolPolicy, HeldChange, NewToolPolicy, PinnedTool, Pins, fingerprint,
};
pub use serving::connection::McpConnection;
#[cfg(feature = "mcp-http")]
pub use serving::http_server::{HttpOptions, McpHttpServer};
pub use serving::server::{McpServer, ServerOptions};
pub use serving::session::McpHandler;

/// The `rmcp` crate this bridge is built on, for its transports and model types.
pub use rmcp;
