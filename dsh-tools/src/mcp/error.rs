//! [`McpError`]: why serving or connecting over MCP failed (the bridge's own failures; a tool
//! call that fails is a result, never this error).

use std::fmt;

/// What went wrong, for code that branches on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum McpErrorKind {
    /// The transport could not be set up: a child process that would not start, an address that
    /// could not be bound, a URL that could not be reached.
    Transport,
    /// The peer did not complete the MCP handshake.
    Handshake,
    /// The peer answered a request with an error or broke the protocol.
    Protocol,
    /// An imported tool could not be registered (a name taken by another tool, a closed scope).
    Registry,
    /// The connection is closed.
    Closed,
    /// No change of the named tool is held (see
    /// [`McpClient::decide_change`](crate::mcp::McpClient::decide_change)).
    NotHeld,
}

/// A failure of the MCP bridge itself: connecting, serving, listing, importing. Its `Display`
/// is the message.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct McpError {
    /// What went wrong.
    pub kind: McpErrorKind,
    message: String,
}

impl McpError {
    pub(crate) fn new(kind: McpErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for McpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for McpError {}
