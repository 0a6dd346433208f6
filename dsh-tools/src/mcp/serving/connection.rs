//! Starting an [`McpServer`]: the rmcp handler of one connection, serving one client over any
//! rmcp transport or stdio, and the [`McpConnection`] that keeps it running.

use std::sync::Arc;

use rmcp::service::{RoleServer, RunningService, serve_server};
use rmcp::transport::IntoTransport;

use crate::mcp::error::{McpError, McpErrorKind};
use crate::mcp::serving::server::McpServer;
use crate::mcp::serving::session::McpHandler;
use crate::mcp::serving::stdio_transport::StdioTransport;

impl McpServer {
    /// The rmcp handler of one new connection, for hosting the server on an rmcp setup of your
    /// own; `serve`, `serve_stdio` and `serve_http` need none.
    pub fn handler(&self) -> McpHandler {
        McpHandler::new(Arc::new(self.clone()))
    }

    /// Serves one client over `transport` (any rmcp transport: a pair of async streams, an
    /// in-process duplex, a child's stdio). Resolves once the client completed the handshake;
    /// the connection then runs in the background until the client leaves or
    /// [`McpConnection::close`] is called.
    pub async fn serve<T, E, A>(&self, transport: T) -> Result<McpConnection, McpError>
    where
        T: IntoTransport<RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let running = serve_server(McpHandler::new(Arc::new(self.clone())), transport)
            .await
            .map_err(|error| {
                McpError::new(
                    McpErrorKind::Handshake,
                    format!("MCP client did not complete the handshake: {error}"),
                )
            })?;
        Ok(McpConnection { running })
    }

    /// Serves one client over this process's stdin and stdout until the client closes stdin.
    /// Nothing else may write to stdout meanwhile (log to stderr).
    pub async fn serve_stdio(&self) -> Result<(), McpError> {
        let (stdin, stdout) = rmcp::transport::stdio();
        self.serve(StdioTransport::new(stdin, stdout))
            .await?
            .wait()
            .await
    }
}

/// One client connection of an [`McpServer`]. Dropping it closes the connection.
pub struct McpConnection {
    running: RunningService<RoleServer, McpHandler>,
}

impl std::fmt::Debug for McpConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpConnection")
            .field("closed", &self.running.is_closed())
            .finish()
    }
}

impl McpConnection {
    /// Waits until the client leaves (closes its end of the transport).
    pub async fn wait(self) -> Result<(), McpError> {
        self.running.waiting().await.map(drop).map_err(|error| {
            McpError::new(
                McpErrorKind::Closed,
                format!("MCP connection task failed: {error}"),
            )
        })
    }

    /// Closes the connection; calls still running are cancelled.
    pub async fn close(mut self) {
        let _ = self.running.close().await;
    }
}
