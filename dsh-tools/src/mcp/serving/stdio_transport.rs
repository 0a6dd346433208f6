//! The transport [`McpServer::serve_stdio`](crate::mcp::McpServer::serve_stdio) serves on: JSON-RPC
//! messages one per line over a reader and a writer, as rmcp's own stdio transport frames them,
//! with each line read by `request_parse.rs` (a session's usual messages directly, everything
//! else by rmcp's codec).
//!
//! What a line does is what it does on rmcp's transport: lines end at `\n` (a `\r` before it
//! dropped), blank lines are skipped, a line longer than rmcp's limit
//! ([`DEFAULT_MAX_LINE_LENGTH`]) is dropped whole and the connection stays open, input that is
//! not JSON is ignored (answering it could start an error storm with a peer that echoes), JSON
//! that is no message is answered once with an `Invalid request` error without an id, and the
//! connection ends at the reader's end or its first read error. Replies are written one per line,
//! `serde_json`'s compact text and a `\n`.
//!
//! rmcp's service loop polls `receive` inside a `select!`, dropping it whenever something else is
//! ready, and may drop a `send` too: a partly read line, a queued error reply and the unwritten
//! tail of a reply are kept on the transport, so a dropped future loses nothing.

use std::future::poll_fn;
use std::io;
use std::pin::Pin;
use std::sync::Arc;

use rmcp::model::{ErrorData, ServerJsonRpcMessage};
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;
use serde_json::error::Category;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, BufReader};
use tokio::sync::Mutex;

use crate::mcp::serving::request_parse::parse_client_line;

/// A server's end of a line-framed connection.
pub(crate) struct StdioTransport<R, W> {
    read: BufReader<R>,
    /// The line being read, kept across a dropped `receive`.
    line: Vec<u8>,
    /// Set while the rest of an oversized line is skipped.
    discarding: bool,
    /// Shared with `send`'s futures, which must not borrow the transport; `None` once closed.
    writer: Arc<Mutex<Option<LineWriter<W>>>>,
    /// The `Invalid request` reply owed for a line that was JSON but no message.
    error_reply: Option<ErrorReply>,
}

/// How far the owed error reply got.
enum ErrorReply {
    /// Not yet written into the writer's pending bytes.
    Owed,
    /// In the pending bytes, not yet all written out.
    Queued,
}

/// What reading a line came to.
enum LineRead {
    /// A whole line, with its `\n`, is in `line`.
    Whole,
    /// The line was longer than the limit; it was dropped.
    Oversized,
    /// The reader ended.
    End,
    Failed(io::Error),
}

impl<R, W> StdioTransport<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin,
{
    pub(crate) fn new(read: R, write: W) -> Self {
        Self {
            read: BufReader::new(read),
            line: Vec::new(),
            discarding: false,
            writer: Arc::new(Mutex::new(Some(LineWriter {
                io: write,
                pending: Vec::new(),
            }))),
            error_reply: None,
        }
    }

    /// Reads up to the next `\n` into `line`, never holding more than the limit. What the
    /// reader's buffer shows is copied and consumed with no await between, so a dropped call
    /// leaves the line's start in `line` for the next one.
    async fn read_line(&mut self) -> LineRead {
        loop {
            let available = match self.read.fill_buf().await {
                Ok(available) => available,
                Err(error) => return LineRead::Failed(error),
            };
            if available.is_empty() {
                // Bytes left in `line` are a last message without its `\n`: not delivered.
                return LineRead::End;
            }
            let newline = available.iter().position(|&byte| byte == b'\n');
            let taken = newline.map_or(available.len(), |at| at + 1);
            let outcome = if self.discarding {
                self.discarding = newline.is_none();
                None
            } else if self.line.len().saturating_add(taken) > DEFAULT_MAX_LINE_LENGTH {
                self.line.clear();
                self.discarding = newline.is_none();
                Some(LineRead::Oversized)
            } else {
                self.line.extend_from_slice(&available[..taken]);
                newline.map(|_| LineRead::Whole)
            };
            self.read.consume(taken);
            if let Some(outcome) = outcome {
                return outcome;
            }
        }
    }

    /// Writes the owed `Invalid request` reply; `false` when the writer is closed or failed.
    async fn write_error_reply(&mut self) -> bool {
        let mut writer = self.writer.lock().await;
        let Some(writer) = writer.as_mut() else {
            return false;
        };
        if matches!(self.error_reply, Some(ErrorReply::Owed)) {
            let reply = ServerJsonRpcMessage::error(
                ErrorData::invalid_request("Invalid request", None),
                None,
            );
            if writer.queue(&reply).is_err() {
                return false;
            }
            self.error_reply = Some(ErrorReply::Queued);
        }
        if writer.write_out().await.is_err() {
            return false;
        }
        self.error_reply = None;
        true
    }
}

impl<R, W> Transport<RoleServer> for StdioTransport<R, W>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        let writer = Arc::clone(&self.writer);
        async move {
            let mut writer = writer.lock().await;
            let Some(writer) = writer.as_mut() else {
                return Err(io::Error::new(
                    io::ErrorKind::NotConnected,
                    "Transport is closed",
                ));
            };
            writer.queue(&item)?;
            writer.write_out().await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if self.error_reply.is_some() && !self.write_error_reply().await {
                return None;
            }
            match self.read_line().await {
                LineRead::Whole => {}
                LineRead::Oversized => {
                    tracing::error!(
                        max_line_length = DEFAULT_MAX_LINE_LENGTH,
                        "incoming MCP message longer than the line limit, dropped"
                    );
                    continue;
                }
                LineRead::End => return None,
                LineRead::Failed(error) => {
                    tracing::error!("reading the MCP client's input failed: {error}");
                    return None;
                }
            }
            let parsed = {
                let line = self.line.strip_suffix(b"\n").unwrap_or(&self.line);
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                (!line.is_empty()).then(|| parse_client_line(line))
            };
            // Cleared only now that the line is read whole: its buffer is kept for the next.
            self.line.clear();
            match parsed {
                Some(Ok(Some(message))) => return Some(message),
                // A blank line, or a notification rmcp skips.
                None | Some(Ok(None)) => {}
                Some(Err(error)) => match error.classify() {
                    Category::Syntax | Category::Eof => {
                        tracing::debug!("ignoring an MCP line that is not JSON: {error}");
                    }
                    Category::Data | Category::Io => {
                        tracing::debug!("MCP line that is no JSON-RPC message: {error}");
                        self.error_reply = Some(ErrorReply::Owed);
                    }
                },
            }
        }
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        drop(self.writer.lock().await.take());
        Ok(())
    }
}

/// The writing end: replies are serialized into `pending` and written out from there, so the
/// tail of a reply whose write was dropped goes out before the next one.
struct LineWriter<W> {
    io: W,
    pending: Vec<u8>,
}

impl<W: AsyncWrite + Unpin> LineWriter<W> {
    /// Serializes `message` and its `\n` after what is pending; nothing when it does not
    /// serialize.
    fn queue(&mut self, message: &ServerJsonRpcMessage) -> Result<(), io::Error> {
        let start = self.pending.len();
        if let Err(error) = serde_json::to_writer(&mut self.pending, message) {
            self.pending.truncate(start);
            return Err(error.into());
        }
        self.pending.push(b'\n');
        Ok(())
    }

    /// Writes out everything pending and flushes.
    async fn write_out(&mut self) -> Result<(), io::Error> {
        while !self.pending.is_empty() {
            let written =
                poll_fn(|cx| Pin::new(&mut self.io).poll_write(cx, &self.pending)).await?;
            if written == 0 {
                return Err(io::ErrorKind::WriteZero.into());
            }
            self.pending.drain(..written);
        }
        poll_fn(|cx| Pin::new(&mut self.io).poll_flush(cx)).await
    }
}
