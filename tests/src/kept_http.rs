//! An MCP client over streamable HTTP that keeps one connection for all its requests, as the
//! Python SDK's httpx, undici and a pooled reqwest do (rmcp's own client opens a connection per
//! request). It speaks just enough HTTP/1.1 to read each response whole before it sends the next
//! request — a request with a `Content-Length`, a response framed by `Content-Length` or chunked —
//! and reads the JSON-RPC reply out of a JSON or an SSE body. Used by the tests of a kept
//! connection and by the throughput bench, whose clients must not cost more than the servers
//! they measure.

use std::net::SocketAddr;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// The protocol version the client asks for in `initialize`.
pub const PROTOCOL_VERSION: &str = "2025-06-18";

/// One HTTP response, read whole.
#[derive(Clone, Debug)]
pub struct HttpReply {
    /// The status code.
    pub status: u16,
    /// The header fields, names in lower case, in the order received.
    pub headers: Vec<(String, String)>,
    /// The body, de-chunked.
    pub body: Vec<u8>,
}

impl HttpReply {
    /// The first value of header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(field, _)| field.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The JSON-RPC response in the body: the body itself when it is JSON, else the SSE event
    /// whose data is a response (has `result` or `error`); `None` when there is none.
    pub fn response(&self) -> Option<Value> {
        let text = std::str::from_utf8(&self.body).ok()?;
        if self
            .header("content-type")
            .is_some_and(|kind| kind.starts_with("application/json"))
        {
            return serde_json::from_str(text).ok();
        }
        text.split("\n\n").find_map(|event| {
            let data: Vec<&str> = event
                .lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(|data| data.strip_prefix(' ').unwrap_or(data))
                .collect();
            let message: Value = serde_json::from_str(&data.join("\n")).ok()?;
            (message.get("result").is_some() || message.get("error").is_some()).then_some(message)
        })
    }
}

/// One kept connection to an MCP server at `path`, and the session it opened, if any.
#[derive(Debug)]
pub struct KeptConnection {
    stream: BufReader<TcpStream>,
    addr: SocketAddr,
    path: String,
    session: Option<String>,
    initialized: bool,
}

impl KeptConnection {
    /// Connects to `addr`; requests go to `path` (e.g. `/mcp`). `TCP_NODELAY` is set, as HTTP
    /// clients set it, so that what this client measures is the server's.
    pub async fn open(addr: SocketAddr, path: &str) -> Self {
        let stream = TcpStream::connect(addr)
            .await
            .unwrap_or_else(|error| panic!("connects to {addr}: {error}"));
        stream.set_nodelay(true).expect("sets TCP_NODELAY");
        Self {
            stream: BufReader::new(stream),
            addr,
            path: path.to_owned(),
            session: None,
            initialized: false,
        }
    }

    /// The session the server opened in `initialize` (`None` for a stateless server).
    pub fn session(&self) -> Option<&str> {
        self.session.as_deref()
    }

    /// `initialize` and `notifications/initialized`; keeps the session id the server gives.
    pub async fn initialize(&mut self) -> Value {
        let reply = self
            .send(
                "POST",
                Some(&json!({
                    "jsonrpc": "2.0", "id": 0, "method": "initialize",
                    "params": {
                        "protocolVersion": PROTOCOL_VERSION,
                        "capabilities": {},
                        "clientInfo": {"name": "kept-connection", "version": "0"}
                    }
                })),
            )
            .await;
        assert_eq!(reply.status, 200, "initialize: {reply:?}");
        self.session = reply.header("mcp-session-id").map(str::to_owned);
        let response = reply.response().expect("an initialize response");
        self.initialized = true;
        let acknowledged = self
            .send(
                "POST",
                Some(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"})),
            )
            .await;
        assert_eq!(acknowledged.status, 202, "initialized: {acknowledged:?}");
        response
    }

    /// The JSON-RPC request `method` with `params` and `id`; returns its response, checked to
    /// answer that id.
    pub async fn call(&mut self, id: u64, method: &str, params: Value) -> Value {
        let reply = self
            .send(
                "POST",
                Some(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})),
            )
            .await;
        assert_eq!(reply.status, 200, "{method}: {reply:?}");
        let response = reply
            .response()
            .unwrap_or_else(|| panic!("a JSON-RPC response to {method}: {reply:?}"));
        assert_eq!(
            response["id"],
            json!(id),
            "the response answers its request"
        );
        response
    }

    /// Ends the session with `DELETE`; returns the server's answer.
    pub async fn delete_session(&mut self) -> HttpReply {
        self.send("DELETE", None).await
    }

    /// Sends one request with the session's headers and reads its response whole.
    pub async fn send(&mut self, method: &str, body: Option<&Value>) -> HttpReply {
        let body = body.map_or_else(Vec::new, |body| {
            serde_json::to_vec(body).expect("serializes")
        });
        let mut head = format!(
            "{method} {} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAccept: application/json, \
             text/event-stream\r\nContent-Length: {}\r\n",
            self.path,
            self.addr.port(),
            body.len()
        );
        if !body.is_empty() {
            head.push_str("Content-Type: application/json\r\n");
        }
        if let Some(session) = &self.session {
            head.push_str(&format!("Mcp-Session-Id: {session}\r\n"));
        }
        if self.initialized {
            head.push_str(&format!("MCP-Protocol-Version: {PROTOCOL_VERSION}\r\n"));
        }
        head.push_str("\r\n");
        // One write, as a client with TCP_NODELAY makes it.
        let mut request = head.into_bytes();
        request.extend_from_slice(&body);
        self.stream
            .get_mut()
            .write_all(&request)
            .await
            .expect("writes the request");
        self.read_reply().await
    }

    async fn read_reply(&mut self) -> HttpReply {
        let status_line = self.line().await;
        let status = status_line
            .split_whitespace()
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or_else(|| panic!("an HTTP status line: {status_line:?}"));
        let mut headers = Vec::new();
        loop {
            let line = self.line().await;
            if line.is_empty() {
                break;
            }
            let (name, value) = line
                .split_once(':')
                .unwrap_or_else(|| panic!("a header field: {line:?}"));
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
        let mut reply = HttpReply {
            status,
            headers,
            body: Vec::new(),
        };
        if reply
            .header("transfer-encoding")
            .is_some_and(|coding| coding.eq_ignore_ascii_case("chunked"))
        {
            loop {
                let size_line = self.line().await;
                let size = usize::from_str_radix(size_line.split(';').next().unwrap_or(""), 16)
                    .unwrap_or_else(|_| panic!("a chunk size: {size_line:?}"));
                if size == 0 {
                    while !self.line().await.is_empty() {}
                    break;
                }
                let start = reply.body.len();
                reply.body.resize(start + size, 0);
                self.stream
                    .read_exact(&mut reply.body[start..])
                    .await
                    .expect("reads a chunk");
                assert!(self.line().await.is_empty(), "a chunk ends with CRLF");
            }
        } else if let Some(length) = reply.header("content-length") {
            let length: usize = length.parse().expect("a Content-Length");
            reply.body.resize(length, 0);
            self.stream
                .read_exact(&mut reply.body)
                .await
                .expect("reads the body");
        } else {
            assert!(
                matches!(status, 204 | 304) || (100..200).contains(&status),
                "a response this client can frame on a kept connection: {reply:?}"
            );
        }
        reply
    }

    /// One line without its CRLF.
    async fn line(&mut self) -> String {
        let mut line = String::new();
        let read = self
            .stream
            .read_line(&mut line)
            .await
            .expect("reads from the server");
        assert!(read > 0, "the server closed the connection");
        line.truncate(line.trim_end_matches(['\r', '\n']).len());
        line
    }
}
