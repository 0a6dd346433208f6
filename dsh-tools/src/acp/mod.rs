//! The Agent Client Protocol bridge (feature `acp`): a registry's calls as ACP tool-call cards in
//! an editor.
//!
//! An ACP agent (an editor's coding agent, spoken to over stdio) reports each tool call of a
//! prompt turn to the client with `session/update` notifications: `tool_call` when the call
//! starts, `tool_call_update` while it runs and when it ends. This module builds them from the
//! cards of [`ObservedCall::present_call`](crate::hooks::ObservedCall::present_call) — a diff card becomes diff content, a
//! terminal card a client terminal (or a fenced console block), file paths are made absolute
//! and titles relative to the session's working directory — and sends them as calls run:
//!
//! - [`AcpCards`]: one session's settings for the mapping (its working directory, whether its
//!   client shows terminals);
//! - [`AcpToolCalls`]: a [`CallObserver`](crate::hooks::CallObserver) that sends one session the cards
//!   of every call it observes;
//! - [`stdio`]: the agent's side of a stdio connection on the tokio runtime;
//! - [`protocol`]: the `agent-client-protocol` crate this bridge is built on, so an agent names
//!   the same version of its types.
//!
//! The `acp_agent` example is a complete agent:
//! `cargo run -p dsh-tools --example acp_agent --features acp`.

mod bridge;
mod cards;
mod paths;
mod transport;

pub use agent_client_protocol as protocol;

pub use self::bridge::AcpToolCalls;
pub use self::cards::AcpCards;
pub use self::transport::stdio;
