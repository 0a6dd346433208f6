//! MCP throughput over streamable HTTP on loopback: `McpServer::serve_http` against rmcp's own
//! streamable HTTP server (`StreamableHttpService`) serving the same tool, written with rmcp's
//! macros, at 1, 10 and 50 concurrent clients that each keep one connection (as the Python SDK's
//! httpx, undici and a pooled reqwest do), stateful (a session per client) and stateless.
//!
//! Each server runs in a process of its own (this binary, started again with
//! `DSH_MCP_HTTP_SERVER=ours|rmcp` and `DSH_MCP_HTTP_STATELESS=0|1`, on a two-worker tokio
//! runtime), so its CPU time (`/proc/<pid>/stat`) is its own; the clients run here, on one thread,
//! with the raw kept-connection client (`dsh_tools_tests::kept_http`), which costs little beside
//! what it measures. Every call is the shared workload's `search_files` (`suites/workload.rs`),
//! whose body returns the `path` argument; every response is checked to answer its own request
//! with that text, so no call is lost or answered twice.
//!
//! rmcp's server is given its best case: its tool router is built once and cloned into each
//! session's (or stateless request's) handler, where rmcp's documented examples build it per
//! handler. Both servers are hosted the same way: hyper's HTTP/1.1 server, `TCP_NODELAY` on every
//! accepted socket, rmcp's default configuration.
//!
//! `cargo bench -p dsh-tools-tests --bench mcp_http` runs every cell, interleaved, in several
//! rounds and prints the table of medians (figures in BENCHMARKS.md); `-- --seconds S --rounds
//! R` change the length. `-- --instructions [--calls N]` runs each server under callgrind
//! instead and prints the instructions its process executes per call, the figures of record.
//! Under `cargo test --benches` it makes a few checked calls of each server.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use dsh_tools_tests::kept_http::KeptConnection;
use serde_json::{Value, json};
use tokio::sync::Barrier;

#[path = "suites/workload.rs"]
mod workload;

const SERVER_ENV: &str = "DSH_MCP_HTTP_SERVER";
const STATELESS_ENV: &str = "DSH_MCP_HTTP_STATELESS";
const CONCURRENCY: [usize; 3] = [1, 10, 50];

fn main() {
    if let Ok(server) = std::env::var(SERVER_ENV) {
        let stateless = std::env::var(STATELESS_ENV).is_ok_and(|value| value == "1");
        serve::run(&server, stateless);
        return;
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|arg| arg == name)
            .and_then(|at| args.get(at + 1))
            .map(|value| value.parse::<f64>().expect("a number"))
    };
    if !args.iter().any(|arg| arg == "--bench") {
        smoke();
        return;
    }
    if args.iter().any(|arg| arg == "--instructions") {
        let calls = value("--calls").map_or(400, |calls| calls as u64);
        count(calls);
        return;
    }
    let seconds = value("--seconds").unwrap_or(1.5);
    let rounds = value("--rounds").map_or(5, |rounds| rounds as usize);
    measure(Duration::from_secs_f64(seconds), rounds);
}

/// The two servers under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Rmcp,
    Ours,
}

impl Side {
    fn name(self) -> &'static str {
        match self {
            Side::Rmcp => "rmcp",
            Side::Ours => "ours",
        }
    }
}

/// A server process and the address it serves on.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(side: Side, stateless: bool) -> Self {
        let exe = std::env::current_exe().expect("this binary");
        Self::start_with(Command::new(exe), side, stateless)
    }

    /// The server under callgrind, writing its profiles to `out` (`out.1`, `out.2`, … for each
    /// dump); nothing is counted until [`count_from_here`](Self::count_from_here).
    fn start_counted(side: Side, stateless: bool, out: &Path) -> Self {
        let mut valgrind = Command::new("valgrind");
        valgrind
            .arg("--tool=callgrind")
            .arg(format!("--callgrind-out-file={}", out.display()))
            .arg(std::env::current_exe().expect("this binary"))
            .stderr(Stdio::null());
        Self::start_with(valgrind, side, stateless)
    }

    fn start_with(mut command: Command, side: Side, stateless: bool) -> Self {
        let mut child = command
            .env(SERVER_ENV, side.name())
            .env(STATELESS_ENV, if stateless { "1" } else { "0" })
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("starts a server process");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("its stdout"))
            .read_line(&mut line)
            .expect("reads its address");
        let addr = line
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("the {} server printed its address: {line:?}", side.name()));
        Self { child, addr }
    }

    /// The CPU time the process has used, user and system, in clock ticks.
    fn cpu_ticks(&self) -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id()))
            .expect("reads /proc/<pid>/stat (Linux)");
        // Fields after the command name (which may hold spaces) start at its closing paren.
        let fields: Vec<&str> = stat[stat.rfind(')').expect("a stat line") + 2..]
            .split_whitespace()
            .collect();
        let field = |index: usize| fields[index].parse::<u64>().expect("a tick count");
        // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
        field(11) + field(12)
    }
}

impl Server {
    /// Zeroes the server's callgrind counters.
    fn count_from_here(&self) {
        callgrind_control(&["-z", &self.child.id().to_string()]);
    }

    /// Dumps the server's callgrind counters; returns the instructions counted since the last
    /// zeroing, read from the newest profile beside `out`.
    fn instructions_so_far(&self, out: &Path) -> u64 {
        callgrind_control(&["-d", &self.child.id().to_string()]);
        let dir = out.parent().expect("a directory");
        let stem = out.file_name().expect("a file name").to_string_lossy();
        let newest = std::fs::read_dir(dir)
            .expect("reads the profile directory")
            .filter_map(Result::ok)
            .filter(|entry| {
                entry
                    .file_name()
                    .to_string_lossy()
                    .starts_with(&format!("{stem}."))
            })
            .max_by_key(|entry| entry.metadata().and_then(|meta| meta.modified()).ok())
            .expect("a dumped profile");
        let profile = std::fs::read_to_string(newest.path()).expect("reads the profile");
        profile
            .lines()
            .find_map(|line| {
                line.strip_prefix("summary:")
                    .or(line.strip_prefix("totals:"))
            })
            .and_then(|total| total.split_whitespace().next()?.parse().ok())
            .expect("a profile with its total")
    }
}

fn callgrind_control(args: &[&str]) {
    let status = Command::new("callgrind_control")
        .args(args)
        .stdout(Stdio::null())
        .status()
        .expect("callgrind_control runs (install valgrind)");
    assert!(status.success(), "callgrind_control {args:?}");
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What one run of one cell measured.
#[derive(Clone, Copy, Debug)]
struct Run {
    calls_per_second: f64,
    cpu_us_per_call: f64,
}

/// The arguments every call sends and the text every reply must carry.
fn call_params() -> (Value, String) {
    let workload: Value = serde_json::from_str(workload::WORKLOAD).expect("the workload");
    let arguments = workload["valid_args"].clone();
    let path = arguments["path"].as_str().expect("a path").to_owned();
    (
        json!({"name": "search_files", "arguments": arguments}),
        path,
    )
}

/// How long the clients call: for a time, or a number of calls each.
#[derive(Clone, Copy, Debug)]
enum Length {
    For(Duration),
    Calls(u64),
}

/// One client: opens its connection (and session), waits at `ready` for every other client and
/// then for the start, calls for `length`; returns its calls and its connection.
async fn client(addr: SocketAddr, ready: Arc<Barrier>, length: Length) -> (u64, KeptConnection) {
    let (params, path) = call_params();
    let mut connection = KeptConnection::open(addr, "/mcp").await;
    connection.initialize().await;
    ready.wait().await;
    ready.wait().await;
    let started = Instant::now();
    let mut calls = 0;
    loop {
        let done = match length {
            Length::For(length) => started.elapsed() >= length,
            Length::Calls(count) => calls >= count,
        };
        if done {
            break;
        }
        calls += 1;
        let response = connection.call(calls, "tools/call", params.clone()).await;
        let result = &response["result"];
        assert!(
            result["isError"] != json!(true) && result["content"][0]["text"] == json!(path),
            "the tool's answer: {response}"
        );
    }
    (calls, connection)
}

/// `clients` clients against `server` for `length`: `start` runs once every client has its
/// session and before any call, `end` after the last call and before the sessions end; returns
/// the calls made and the time between `start` and `end`.
fn run(
    server: &Server,
    clients: usize,
    length: Length,
    start: &mut dyn FnMut(),
    end: &mut dyn FnMut(),
) -> (u64, Duration) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let ready = Arc::new(Barrier::new(clients + 1));
        let mut tasks = tokio::task::JoinSet::new();
        for _ in 0..clients {
            tasks.spawn(client(server.addr, Arc::clone(&ready), length));
        }
        ready.wait().await;
        start();
        let started = Instant::now();
        ready.wait().await;
        let mut calls = 0;
        let mut connections = Vec::new();
        while let Some(done) = tasks.join_next().await {
            let (made, connection) = done.expect("a client finishes");
            calls += made;
            connections.push(connection);
        }
        let elapsed = started.elapsed();
        end();
        for mut connection in connections {
            if connection.session().is_some() {
                let deleted = connection.delete_session().await;
                assert!(deleted.status < 300, "the session ends: {deleted:?}");
            }
        }
        (calls, elapsed)
    })
}

/// Calls per second and server CPU per call of `clients` clients against `server`.
fn timed_run(server: &Server, clients: usize, length: Duration) -> Run {
    let mut before = 0;
    let mut after = 0;
    let (calls, elapsed) = run(
        server,
        clients,
        Length::For(length),
        &mut || before = server.cpu_ticks(),
        &mut || after = server.cpu_ticks(),
    );
    let tick_us = 1e6 / clock_ticks_per_second();
    #[allow(clippy::cast_precision_loss)]
    Run {
        calls_per_second: calls as f64 / elapsed.as_secs_f64(),
        cpu_us_per_call: (after - before) as f64 * tick_us / calls.max(1) as f64,
    }
}

fn clock_ticks_per_second() -> f64 {
    let output = Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .expect("getconf runs");
    String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .expect("CLK_TCK is a number")
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    if values.len().is_multiple_of(2) {
        f64::midpoint(values[middle - 1], values[middle])
    } else {
        values[middle]
    }
}

/// A few calls of each server and mode, checked: the bench still works.
fn smoke() {
    for stateless in [false, true] {
        for side in [Side::Rmcp, Side::Ours] {
            let server = Server::start(side, stateless);
            let measured = timed_run(&server, 2, Duration::from_millis(100));
            assert!(measured.calls_per_second > 0.0, "{side:?} answers");
            eprintln!(
                "{} (stateless: {stateless}): answers every call",
                side.name()
            );
        }
    }
}

fn measure(length: Duration, rounds: usize) {
    let loadavg = || std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    eprintln!("load average before: {}", loadavg().trim());
    let modes = [false, true];
    let servers: Vec<(bool, Side, Server)> = modes
        .iter()
        .flat_map(|&stateless| {
            [Side::Rmcp, Side::Ours].map(|side| (stateless, side, Server::start(side, stateless)))
        })
        .collect();
    // runs[(stateless, concurrency, side)] over the rounds.
    let mut runs: Vec<((bool, usize, Side), Vec<Run>)> = Vec::new();
    for round in 0..rounds {
        for &clients in &CONCURRENCY {
            for &stateless in &modes {
                // Alternate which side goes first, round by round.
                let order = if round.is_multiple_of(2) {
                    [Side::Rmcp, Side::Ours]
                } else {
                    [Side::Ours, Side::Rmcp]
                };
                for side in order {
                    let (_, _, server) = servers
                        .iter()
                        .find(|(mode, which, _)| *mode == stateless && *which == side)
                        .expect("started");
                    let measured = timed_run(server, clients, length);
                    eprintln!(
                        "round {round}: {} {} clients={clients}: {:.0} calls/s, {:.1} µs CPU/call",
                        side.name(),
                        if stateless { "stateless" } else { "stateful" },
                        measured.calls_per_second,
                        measured.cpu_us_per_call
                    );
                    let key = (stateless, clients, side);
                    match runs.iter_mut().find(|(seen, _)| *seen == key) {
                        Some((_, list)) => list.push(measured),
                        None => runs.push((key, vec![measured])),
                    }
                }
            }
        }
    }
    eprintln!("load average after: {}", loadavg().trim());
    let cell = |key: (bool, usize, Side)| {
        let list = &runs.iter().find(|(seen, _)| *seen == key).expect("run").1;
        let mut rates: Vec<f64> = list.iter().map(|run| run.calls_per_second).collect();
        let mut cpu: Vec<f64> = list.iter().map(|run| run.cpu_us_per_call).collect();
        (median(&mut rates), median(&mut cpu))
    };
    println!(
        "| mode | clients | rmcp calls/s | ours calls/s | ratio | rmcp CPU µs/call | ours CPU µs/call | ratio (CPU) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for &stateless in &modes {
        for &clients in &CONCURRENCY {
            let (rmcp_rate, rmcp_cpu) = cell((stateless, clients, Side::Rmcp));
            let (ours_rate, ours_cpu) = cell((stateless, clients, Side::Ours));
            println!(
                "| {} | {clients} | {rmcp_rate:.0} | {ours_rate:.0} | {:.2} × | {rmcp_cpu:.0} | {ours_cpu:.0} | {:.2} × |",
                if stateless { "stateless" } else { "stateful" },
                ours_rate / rmcp_rate,
                ours_cpu / rmcp_cpu
            );
        }
    }
    drop(servers);
}

/// Each server under callgrind: the instructions it executes per call (every thread of its
/// process, from the last client's session opened to the last call answered), about `calls`
/// calls per cell, spread over the clients.
fn count(calls: u64) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("mcp_http_callgrind");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a profile directory");
    println!("| mode | clients | rmcp Ir/call | ours Ir/call | ratio (Ir) |");
    println!("|---|---:|---:|---:|---:|");
    for stateless in [false, true] {
        let mode = if stateless { "stateless" } else { "stateful" };
        let counted: Vec<(Side, PathBuf, Server)> = [Side::Rmcp, Side::Ours]
            .map(|side| {
                let out = dir.join(format!("{}.{mode}.out", side.name()));
                let server = Server::start_counted(side, stateless, &out);
                (side, out, server)
            })
            .into_iter()
            .collect();
        for clients in CONCURRENCY {
            let per_client = (calls / clients as u64).max(4);
            let mut per_call = Vec::new();
            for (_, out, server) in &counted {
                let mut instructions = 0;
                let (made, _) = run(
                    server,
                    clients,
                    Length::Calls(per_client),
                    &mut || server.count_from_here(),
                    &mut || instructions = server.instructions_so_far(out),
                );
                #[allow(clippy::cast_precision_loss)]
                per_call.push(instructions as f64 / made as f64);
            }
            println!(
                "| {mode} | {clients} | {:.0} | {:.0} | {:.2} × |",
                per_call[0],
                per_call[1],
                per_call[1] / per_call[0]
            );
        }
    }
}

/// The server processes.
mod serve {
    use std::convert::Infallible;
    use std::io::Read;
    use std::sync::Arc;

    use dsh_tools::ToolRegistry;
    use dsh_tools::mcp::{HttpOptions, McpServer};
    use hyper::Request;
    use hyper::body::Incoming;
    use hyper_util::rt::TokioIo;
    use rmcp::handler::server::router::tool::ToolRouter;
    use rmcp::handler::server::wrapper::Parameters;
    use rmcp::transport::streamable_http_server::session::SessionManager;
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
    use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
    use rmcp::{ServerHandler, tool, tool_handler, tool_router};
    use tokio::net::TcpListener;

    use super::workload::{ours, theirs::SearchArgs};

    /// The same tool with rmcp's macros, its router stored.
    #[derive(Clone)]
    struct RmcpServer {
        tool_router: ToolRouter<Self>,
    }

    #[tool_router]
    impl RmcpServer {
        fn new() -> Self {
            Self {
                tool_router: Self::tool_router(),
            }
        }

        /// Search files for a pattern.
        #[tool]
        async fn search_files(&self, Parameters(args): Parameters<SearchArgs>) -> String {
            args.path
        }
    }

    #[tool_handler(router = self.tool_router)]
    impl ServerHandler for RmcpServer {}

    /// Serves `server` (`ours` or `rmcp`), prints the address, and exits when standard input
    /// closes (when the bench that started it ends).
    pub(super) fn run(server: &str, stateless: bool) {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        let server = server.to_owned();
        runtime.spawn(async move {
            let addr = match server.as_str() {
                "ours" => {
                    let registry = ToolRegistry::new();
                    let _ = registry.register(ours::SearchFilesTool).expect("registers");
                    let served = McpServer::new(&registry)
                        .serve_http(
                            "127.0.0.1:0",
                            HttpOptions {
                                stateless,
                                ..HttpOptions::default()
                            },
                        )
                        .await
                        .expect("binds");
                    let addr = served.local_addr;
                    // Both live as long as the process.
                    std::mem::forget(served);
                    std::mem::forget(registry);
                    addr
                }
                "rmcp" => {
                    let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
                    let addr = listener.local_addr().expect("an address");
                    let config =
                        StreamableHttpServerConfig::default().with_legacy_session_mode(!stateless);
                    let handler = RmcpServer::new();
                    let factory = move || Ok(handler.clone());
                    if stateless {
                        let service = StreamableHttpService::new(
                            factory,
                            Arc::new(NeverSessionManager::default()),
                            config,
                        );
                        tokio::spawn(host(listener, service));
                    } else {
                        let service = StreamableHttpService::new(
                            factory,
                            Arc::new(LocalSessionManager::default()),
                            config,
                        );
                        tokio::spawn(host(listener, service));
                    }
                    addr
                }
                other => panic!("no server {other:?}"),
            };
            println!("{addr}");
        });
        // Standard input closes when the bench ends or is killed.
        let _ = std::io::stdin().read_to_end(&mut Vec::new());
        drop(runtime);
    }

    /// rmcp's service on hyper's HTTP/1.1 server, each connection on its own task.
    async fn host<M: SessionManager>(
        listener: TcpListener,
        service: StreamableHttpService<RmcpServer, M>,
    ) {
        while let Ok((stream, _)) = listener.accept().await {
            stream.set_nodelay(true).expect("sets TCP_NODELAY");
            let service = service.clone();
            tokio::spawn(async move {
                let handler = hyper::service::service_fn(move |request: Request<Incoming>| {
                    let service = service.clone();
                    async move { Ok::<_, Infallible>(service.handle(request).await) }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), handler)
                    .await;
            });
        }
    }
}
