//! A round-robin HTTP/1.1 proxy on loopback, as a load balancer in front of several server
//! processes: each client connection goes to the next backend in turn, and is made to carry one
//! request only (`Connection: close` replaces the client's own), so a client that reuses its
//! connections still alternates between the backends, request by request.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// Request heads larger than this are refused (the connection is dropped).
const MAX_HEAD: usize = 64 * 1024;

/// A running proxy; dropping it stops accepting connections.
pub struct RoundRobin {
    addr: SocketAddr,
    served: Arc<Vec<AtomicUsize>>,
    task: JoinHandle<()>,
}

impl RoundRobin {
    /// Listens on a free loopback port and forwards to `backends` in turn.
    pub async fn start(backends: Vec<SocketAddr>) -> Self {
        assert!(!backends.is_empty(), "a proxy needs a backend");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
        let addr = listener.local_addr().expect("an address");
        let served: Arc<Vec<AtomicUsize>> =
            Arc::new(backends.iter().map(|_| AtomicUsize::new(0)).collect());
        let counts = Arc::clone(&served);
        let task = tokio::spawn(async move {
            let mut next = 0usize;
            while let Ok((client, _)) = listener.accept().await {
                let index = next % backends.len();
                next += 1;
                let backend = backends[index];
                let counts = Arc::clone(&counts);
                tokio::spawn(async move {
                    if forward(client, backend).await {
                        counts[index].fetch_add(1, Ordering::SeqCst);
                    }
                });
            }
        });
        Self { addr, served, task }
    }

    /// The address clients connect to.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// How many requests each backend was given, in the order of the backends.
    pub fn served(&self) -> Vec<usize> {
        self.served
            .iter()
            .map(|count| count.load(Ordering::SeqCst))
            .collect()
    }
}

impl Drop for RoundRobin {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Forwards one request of `client` to `backend` and its response back; whether a request was
/// forwarded.
async fn forward(mut client: TcpStream, backend: SocketAddr) -> bool {
    let mut head = Vec::new();
    let mut buffer = [0u8; 8192];
    let end = loop {
        if let Some(end) = find(&head, b"\r\n\r\n") {
            break end;
        }
        if head.len() > MAX_HEAD {
            return false;
        }
        match client.read(&mut buffer).await {
            Ok(0) | Err(_) => return false,
            Ok(read) => head.extend_from_slice(&buffer[..read]),
        }
    };
    let (request_head, rest) = head.split_at(end + 4);
    let text = String::from_utf8_lossy(&request_head[..end]);
    let mut rewritten: String = text
        .split("\r\n")
        .filter(|line| {
            !line
                .get(..11)
                .is_some_and(|name| name.eq_ignore_ascii_case("connection:"))
        })
        .map(|line| format!("{line}\r\n"))
        .collect();
    rewritten.push_str("Connection: close\r\n\r\n");
    let Ok(mut upstream) = TcpStream::connect(backend).await else {
        return false;
    };
    if upstream.write_all(rewritten.as_bytes()).await.is_err()
        || upstream.write_all(rest).await.is_err()
    {
        return false;
    }
    // The rest of the body, and the response until the backend closes.
    let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
    true
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}
