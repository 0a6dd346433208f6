//! The agent's side of a stdio connection, on tokio: ACP agents are started by their client and
//! speak newline-delimited JSON-RPC on standard input and output.

use agent_client_protocol::ByteStreams;
use tokio_util::compat::{Compat, TokioAsyncReadCompatExt, TokioAsyncWriteCompatExt};

/// This process's standard output (to the client) and standard input (from it), as a transport
/// for `Agent.v1().connect_to(..)`. Nothing else may write to standard output while it is in
/// use: log to standard error.
pub fn stdio() -> ByteStreams<Compat<tokio::io::Stdout>, Compat<tokio::io::Stdin>> {
    ByteStreams::new(
        tokio::io::stdout().compat_write(),
        tokio::io::stdin().compat(),
    )
}
