//! Streamable HTTP hosting of an [`McpServer`] (feature `mcp-http`): rmcp's streamable HTTP
//! service on a hyper HTTP/1.1 server, behind the checks the MCP specification asks of a local
//! server.
//!
//! - It binds exactly where told (use `127.0.0.1` for a local server).
//! - `Host` must be one of the allowed hosts (loopback names by default; checked here,
//!   `host_check.rs`) and a request carrying an `Origin` must come from an allowed origin (none
//!   by default; checked by rmcp): the DNS-rebinding defence. Both are refused with 403.
//! - With a bearer token set, every request must carry `Authorization: Bearer <token>`, compared
//!   in constant time; otherwise 401.
//! - A request body over the cap is refused with 413 while it streams in.
//! - Every accepted socket has `TCP_NODELAY`, so a client that keeps its connection gets each
//!   response as soon as it is written; a session's `DELETE` is answered 200.
//! - Stateless mode keeps no session between requests, so several server processes can sit behind
//!   any load balancer (tested with two processes behind a round robin). What needs a session
//!   does not happen there: nothing reaches the client outside the response to its own request,
//!   so `notifications/tools/list_changed` is not sent (a client re-lists when it wants to) and
//!   the server makes no requests of the client (an `ask` is answered by the registry's own
//!   approver, or denied, as for a client without elicitation, except for a client on
//!   multi-round-trip requests, which is asked in the response itself, an `InputRequiredResult`:
//!   give every process the same [`ServerOptions::request_state_key`](crate::mcp::ServerOptions::request_state_key) so that a retry answered
//!   by another process counts); progress of a call travels on that call's own response stream.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::{Pin, pin};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::{TcpListener, ToSocketAddrs};
use tokio::task::JoinHandle;
use tokio_util::sync::{CancellationToken, DropGuard};

use crate::mcp::error::{McpError, McpErrorKind};
use crate::mcp::serving::host_check::{AllowedHosts, LOOPBACK_HOSTS};
use crate::mcp::serving::server::McpServer;
use crate::mcp::serving::session::McpHandler;

/// How long open connections get to finish when the server shuts down.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// How the HTTP server is exposed. Set the fields that differ from the defaults (path `/mcp`,
/// loopback hosts only, no browser origin, no token, 4 MiB bodies, sessions):
///
/// ```
/// use dsh_tools::mcp::HttpOptions;
/// let options = HttpOptions {
///     bearer_token: Some("secret".to_owned()),
///     allowed_hosts: vec!["tools.example.com".to_owned()],
///     ..HttpOptions::default()
/// };
/// # let _ = options;
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpOptions {
    /// Where MCP is served (default `/mcp`; a path without a leading `/` gets one); other paths
    /// answer 404.
    pub path: String,
    /// The `Origin`s accepted (`scheme://host[:port]`, `:*` for any port; none by default).
    /// Requests without an `Origin` (not from a browser) are accepted either way.
    pub allowed_origins: Vec<String>,
    /// The `Host`s accepted besides the loopback names (a name, or `host:port`); needed when
    /// the server is reached by a public name.
    pub allowed_hosts: Vec<String>,
    /// Accepts any `Host` (behind a proxy that checks it; not for a server on a workstation).
    /// Off by default.
    pub allow_any_host: bool,
    /// Requires `Authorization: Bearer <token>` on every request (none by default).
    pub bearer_token: Option<String>,
    /// Refuses request bodies over this many bytes with 413 (default 4 MiB).
    pub max_body_bytes: usize,
    /// Keeps no session between requests (no `Mcp-Session-Id`): any server process can answer
    /// any request. Server-initiated notifications then only travel on a request's own stream.
    /// Off by default.
    pub stateless: bool,
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            path: "/mcp".to_owned(),
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            allow_any_host: false,
            bearer_token: None,
            max_body_bytes: 4 * 1024 * 1024,
            stateless: false,
        }
    }
}

impl HttpOptions {
    /// The path served, with its leading `/`.
    fn served_path(&self) -> String {
        if self.path.starts_with('/') {
            self.path.clone()
        } else {
            format!("/{}", self.path)
        }
    }

    /// rmcp's configuration: it checks the origin; the host is checked before it
    /// ([`allowed_hosts`](Self::allowed_hosts)), so it is given none.
    fn rmcp_config(&self, shutdown: &CancellationToken) -> StreamableHttpServerConfig {
        StreamableHttpServerConfig::default()
            .with_allowed_origins(self.allowed_origins.clone())
            .enforce_origin_validation()
            .with_max_request_body_bytes(self.max_body_bytes)
            .with_legacy_session_mode(!self.stateless)
            .with_cancellation_token(shutdown.child_token())
            .disable_allowed_hosts()
    }

    /// The hosts requests may name: any with `allow_any_host` (an empty list admits every
    /// host), else the loopback names and those allowed.
    fn hosts(&self) -> AllowedHosts {
        if self.allow_any_host {
            return AllowedHosts::new(&[]);
        }
        let mut hosts = LOOPBACK_HOSTS.map(str::to_owned).to_vec();
        hosts.extend(self.allowed_hosts.iter().cloned());
        AllowedHosts::new(&hosts)
    }
}

/// A running HTTP server, read from its fields. It serves until [`shutdown`](Self::shutdown) (a
/// process serving until it is stopped holds it: `tokio::signal::ctrl_c().await?;
/// server.shutdown().await;`). Dropping it stops the server.
///
/// `#[non_exhaustive]`: made by [`McpServer::serve_http`]; its fields are read.
#[derive(Debug)]
#[non_exhaustive]
pub struct McpHttpServer {
    /// The address the server is bound to (with the real port when port 0 was asked for).
    pub local_addr: SocketAddr,
    /// The URL clients connect to, e.g. `http://127.0.0.1:8765/mcp`.
    pub url: String,
    shutdown: CancellationToken,
    task: Option<JoinHandle<()>>,
}

impl McpHttpServer {
    /// Stops accepting connections, ends every session and waits (up to a short grace) for open
    /// connections to finish.
    pub async fn shutdown(mut self) {
        self.shutdown.cancel();
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for McpHttpServer {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

impl McpServer {
    /// Serves streamable HTTP at `addr` (bind `127.0.0.1:<port>` for a local server; port 0 picks
    /// a free one, see [`McpHttpServer::local_addr`](McpHttpServer#structfield.local_addr)).
    pub async fn serve_http(
        &self,
        addr: impl ToSocketAddrs,
        options: HttpOptions,
    ) -> Result<McpHttpServer, McpError> {
        let listener = TcpListener::bind(addr).await.map_err(|error| {
            McpError::new(
                McpErrorKind::Transport,
                format!("could not bind the MCP HTTP server: {error}"),
            )
        })?;
        let local_addr = listener.local_addr().map_err(|error| {
            McpError::new(
                McpErrorKind::Transport,
                format!("no local address: {error}"),
            )
        })?;
        let shutdown = CancellationToken::new();
        let config = options.rmcp_config(&shutdown);
        let server = Arc::new(self.clone());
        let stateless = options.stateless;
        let factory = move || {
            // Nothing could carry a request to the client between its own requests.
            Ok(if stateless {
                McpHandler::stateless(Arc::clone(&server))
            } else {
                McpHandler::new(Arc::clone(&server))
            })
        };
        let path = options.served_path();
        let guard = Arc::new(Guard {
            path: path.clone(),
            bearer_token: options.bearer_token.clone(),
            hosts: options.hosts(),
        });
        let serving = Serving {
            listener,
            guard,
            shutdown: shutdown.clone(),
        };
        let task = if options.stateless {
            serving.spawn(NeverSessionManager::default(), factory, config)
        } else {
            serving.spawn(LocalSessionManager::default(), factory, config)
        };
        Ok(McpHttpServer {
            local_addr,
            url: format!("http://{local_addr}{path}"),
            shutdown,
            task: Some(task),
        })
    }
}

/// The checks made before rmcp sees a request: the path, the bearer token and the host.
struct Guard {
    path: String,
    bearer_token: Option<String>,
    hosts: AllowedHosts,
}

type HttpResponse = Response<BoxBody<Bytes, Infallible>>;

impl Guard {
    /// The refusal of `request`, if it is refused.
    fn refusal(&self, request: &Request<Incoming>) -> Option<HttpResponse> {
        if request.uri().path() != self.path {
            return Some(plain(StatusCode::NOT_FOUND, "Not Found"));
        }
        if let Some(refusal) = self.bearer_refusal(request) {
            return Some(refusal);
        }
        // After the token, as when rmcp checked the host: a request without the token learns
        // nothing about which hosts are served.
        if self.hosts.refuses(request.uri(), request.headers()) {
            return Some(plain(
                StatusCode::FORBIDDEN,
                "Forbidden: Host header is not allowed",
            ));
        }
        None
    }

    /// The refusal of `request` for its bearer token, when one is required.
    fn bearer_refusal(&self, request: &Request<Incoming>) -> Option<HttpResponse> {
        let expected = self.bearer_token.as_deref()?;
        let presented = request
            .headers()
            .get(hyper::header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.strip_prefix("Bearer "));
        if presented.is_some_and(|token| constant_time_eq(token.as_bytes(), expected.as_bytes())) {
            return None;
        }
        let mut response = plain(
            StatusCode::UNAUTHORIZED,
            "Unauthorized: a valid bearer token is required",
        );
        response.headers_mut().insert(
            hyper::header::WWW_AUTHENTICATE,
            hyper::header::HeaderValue::from_static("Bearer"),
        );
        Some(response)
    }
}

fn plain(status: StatusCode, text: &'static str) -> HttpResponse {
    let mut response = Response::new(Full::new(Bytes::from_static(text.as_bytes())).boxed());
    *response.status_mut() = status;
    response
}

/// Compares two byte strings in time that depends only on their lengths.
fn constant_time_eq(left: &[u8], right: &[u8]) -> bool {
    if left.len() != right.len() {
        return false;
    }
    let difference = left
        .iter()
        .zip(right)
        .fold(0u8, |difference, (a, b)| difference | (a ^ b));
    std::hint::black_box(difference) == 0
}

/// Accepts connections until shutdown; each is served on its own task. Every request shares the
/// one service: a clone of it copies its configuration (the allowed hosts and origins, a string
/// each), about a thousand instructions per request.
/// What the accept loop of a server serves with, whichever its sessions.
struct Serving {
    listener: TcpListener,
    guard: Arc<Guard>,
    shutdown: CancellationToken,
}

impl Serving {
    /// Serves with rmcp's service over `manager` (a session per client, or none), each
    /// session's handler made by `factory`; the service is shared by every connection.
    fn spawn<M: SessionManager>(
        self,
        manager: M,
        factory: impl Fn() -> Result<McpHandler, std::io::Error> + Send + Sync + 'static,
        config: StreamableHttpServerConfig,
    ) -> JoinHandle<()> {
        let service = StreamableHttpService::new(factory, Arc::new(manager), config);
        tokio::spawn(accept_loop(
            self.listener,
            Arc::new(service),
            self.guard,
            self.shutdown,
        ))
    }
}

async fn accept_loop<M: SessionManager>(
    listener: TcpListener,
    service: Arc<StreamableHttpService<McpHandler, M>>,
    guard: Arc<Guard>,
    shutdown: CancellationToken,
) {
    let mut connections = tokio::task::JoinSet::new();
    loop {
        let accepted = tokio::select! {
            () = shutdown.cancelled() => break,
            accepted = listener.accept() => accepted,
            Some(_) = connections.join_next(), if !connections.is_empty() => continue,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(error) => {
                tracing::warn!("MCP HTTP server could not accept a connection: {error}");
                continue;
            }
        };
        // A response goes out in pieces (the headers with the SSE priming event, the reply, the
        // end of the body). With Nagle's algorithm on, each piece after the first waits for the
        // client's delayed acknowledgement: ~40 ms per response on a connection the client keeps.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!("MCP HTTP server could not set TCP_NODELAY: {error}");
        }
        let service = Arc::clone(&service);
        let guard = Arc::clone(&guard);
        let stop = StopSignal::watching(&shutdown);
        connections.spawn(async move {
            let handler = hyper::service::service_fn(move |request: Request<Incoming>| {
                let service = Arc::clone(&service);
                let guard = Arc::clone(&guard);
                async move {
                    if let Some(refusal) = guard.refusal(&request) {
                        return Ok::<_, Infallible>(refusal);
                    }
                    let deleting = request.method() == hyper::Method::DELETE;
                    let mut response = service.handle(request).await;
                    // rmcp answers a session's end 202, which clients read as a failure (the
                    // Python SDK logs "Session termination failed: 202"); the reference servers
                    // answer 200.
                    if deleting && response.status() == StatusCode::ACCEPTED {
                        *response.status_mut() = StatusCode::OK;
                    }
                    Ok(response)
                }
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), handler);
            let mut connection = pin!(connection);
            // Once the server shuts down: no new request, and a grace to finish the current one.
            let mut grace: Option<Pin<Box<tokio::time::Sleep>>> = None;
            let mut waker_given = false;
            std::future::poll_fn(|cx| {
                if grace.is_none() && stop.poll_requested(cx, &mut waker_given) {
                    connection.as_mut().graceful_shutdown();
                    grace = Some(Box::pin(tokio::time::sleep(SHUTDOWN_GRACE)));
                }
                if connection.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(());
                }
                match &mut grace {
                    Some(grace) => grace.as_mut().poll(cx),
                    None => Poll::Pending,
                }
            })
            .await;
        });
    }
    drop(listener);
    while connections.join_next().await.is_some() {}
}

/// How one connection learns that the server shuts down: a watcher task waits for the shutdown
/// and wakes the connection's task, which only reads a flag when polled. Waiting on the shutdown
/// beside the connection (a `select!`) cost every request a few hundred instructions, since a
/// connection is polled several times per request.
///
/// The connection's task gives its waker once, at its first poll: the connection is the whole
/// future of its task, and tokio always polls a task with a waker that wakes that task.
#[derive(Default)]
struct StopSignal {
    requested: AtomicBool,
    /// The connection's task, to wake when the shutdown comes.
    waker: Mutex<Option<Waker>>,
    /// Ends the watcher when the connection ends first (dropped with the connection's task).
    _connection_ended: Option<DropGuard>,
}

impl StopSignal {
    /// The signal of a new connection, with its watcher of `shutdown` started.
    fn watching(shutdown: &CancellationToken) -> Arc<Self> {
        let ended = CancellationToken::new();
        let signal = Arc::new(Self {
            _connection_ended: Some(ended.clone().drop_guard()),
            ..Self::default()
        });
        let shutdown = shutdown.clone();
        // The watcher holds the signal weakly: the connection's end drops it.
        let watched = Arc::downgrade(&signal);
        tokio::spawn(async move {
            tokio::select! {
                () = shutdown.cancelled() => {
                    if let Some(signal) = watched.upgrade() {
                        signal.request();
                    }
                }
                () = ended.cancelled() => {}
            }
        });
        signal
    }

    fn request(&self) {
        self.requested.store(true, Ordering::Release);
        let waker = self
            .waker
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(waker) = waker {
            waker.wake();
        }
    }

    /// Whether the shutdown came; if not, the task of `cx` is woken when it does (its waker is
    /// given at the first poll, when `waker_given` is still false).
    fn poll_requested(&self, cx: &Context<'_>, waker_given: &mut bool) -> bool {
        if self.requested.load(Ordering::Acquire) {
            return true;
        }
        if *waker_given {
            return false;
        }
        *self.waker.lock().unwrap_or_else(PoisonError::into_inner) = Some(cx.waker().clone());
        *waker_given = true;
        // A shutdown that came before the waker was in place found none to wake.
        self.requested.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::constant_time_eq;

    #[test]
    fn tokens_compare_by_content_and_length() {
        assert!(constant_time_eq(b"secret", b"secret"));
        assert!(!constant_time_eq(b"secret", b"secreT"));
        assert!(!constant_time_eq(b"secret", b"secret2"));
        assert!(!constant_time_eq(b"", b"x"));
    }
}
