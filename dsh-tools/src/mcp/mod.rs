//! MCP both ways, on the [`rmcp`] crate (feature `mcp`; streamable HTTP with `mcp-http`).
//!
//! - **Serve** ([`McpServer`]): any MCP client lists a registry's tools (or one scope's) and calls
//!   them; every call runs through the registry's whole pipeline — hooks, guards, layers,
//!   validation, output checks — and every outcome is a `tools/call` result the client's model
//!   reads, with progress, cancellation and list-changed notifications.
//! - **Import** ([`McpClient`]): an MCP server's tools register as raw tools of a registry or a
//!   scope and run through the same pipeline as any other tool.
//!
//! | file | owns |
//! |---|---|
//! | `server.rs` | [`McpServer`]: configuration and how a connection starts |
//! | `session.rs` | [`McpHandler`], one served connection: list, call, cancel, progress, list-changed |
//! | `client_approval.rs` | a served call's `ask` answered by the client's user (elicitation) |
//! | `listing.rs` | what `tools/list` shows, cached per registry snapshot, paged |
//! | `http_server.rs` | streamable HTTP hosting: origin and host checks, bearer token, body cap |
//! | `client.rs` | [`McpClient`]: connecting and importing |
//! | `elicitation.rs` | an imported server's elicitation requests and the handler that answers them |
//! | `imported.rs` | an imported tool ([`ToolDefinition`](crate::ToolDefinition)) and its calls |
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
mod listing;
mod names;
mod progress_in_order;
mod serve;
mod server;
mod session;

pub use client::{ImportOptions, ImportTarget, McpClient};
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
pub use serve::McpConnection;
pub use server::{DEFAULT_PAGE_SIZE, McpServer};
pub use session::McpHandler;

/// The `rmcp` crate this bridge is built on, for its transports and model types.
pub use rmcp;
