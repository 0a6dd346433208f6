//! [`McpServer`]: a registry, or one scope of it, served to any MCP client.
//!
//! This file owns the server's configuration, what its connections share, and what is served: a
//! scope is served through its [`ToolScope`] handle, not its agent id, so that once the scope is
//! disposed its connections list nothing and every call is refused as `SCOPE_DISPOSED` — never
//! answered by another scope of the same agent, or by the global layer. How it is started
//! is `serve.rs` (any rmcp transport, stdio) and — with `mcp-http` — `http_server.rs`; what
//! happens inside one connection (listing, calls, cancellation, progress, list-changed
//! notifications) is `session.rs`; what `tools/list` shows is `listing.rs`; calls run as tasks
//! are `tasks.rs` (on the registry's call store, when it has one: `task_book.rs`); the secret behind the state of approvals asked through multi-round-trip
//! requests is `request_state.rs`.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model as mcp;
use rmcp::task_manager::TaskManager;
use tokio::sync::watch;

use crate::call::definition::{ToolDefinition, ToolSchema};
use crate::call::execution::ToolExecutionInput;
use crate::ids::AgentId;
use crate::mcp::serving::listing::{Listing, ListingCache};
use crate::mcp::serving::request_state::RequestStateKey;
use crate::mcp::serving::task_life::TaskSettings;
use crate::mcp::serving::tasks::task_store;
use crate::pipeline::resolved::ResolvedTool;
use crate::registry::{Registration, ToolScope};
use crate::result::ToolExecutionResult;

/// How many tools one `tools/list` page holds unless changed.
const DEFAULT_PAGE_SIZE: usize = 100;

/// How an [`McpServer`] introduces itself and serves: set the fields that differ from the
/// defaults and hand them to [`McpServer::with_options`].
///
/// ```
/// use dsh_tools::mcp::ServerOptions;
/// let options = ServerOptions {
///     name: "coding-tools".to_owned(),
///     instructions: Some("Tools over one workspace.".to_owned()),
///     ..ServerOptions::default()
/// };
/// # let _ = options;
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerOptions {
    /// The name clients see (`serverInfo.name`; default `dsh-tools`).
    pub name: String,
    /// The version clients see (`serverInfo.version`; default this crate's version).
    pub version: String,
    /// The human-readable title clients may show (`serverInfo.title`; none by default).
    pub title: Option<String>,
    /// The instructions sent with the handshake, for the client's model (none by default).
    pub instructions: Option<String>,
    /// How many tools one `tools/list` page holds (default 100; at least one is used).
    pub page_size: usize,
    /// How long a call served as a task lives from its creation (`None`: as long as the server;
    /// default five minutes). A call still running then is stopped and its task fails as
    /// expired; a finished task stays readable for one more such time.
    pub task_ttl: Option<Duration>,
    /// How often clients are asked to poll a served task (default one second).
    pub task_poll_interval: Duration,
    /// How long the server running a task may go without renewing its heartbeat on the call
    /// store before the other servers sharing the store report the task `failed`, saying the
    /// process running it stopped (`None`, the default: five of the task's poll intervals, at
    /// least one second). Only tasks on a call store have one: a server keeps its tasks on its
    /// registry's call store whenever the registry has one (`ToolRegistry::set_durability`,
    /// feature `durable`; see `docs/durable.md`). The owner renews its heartbeat every poll
    /// interval, or four times within this bound when that is shorter.
    pub task_owner_timeout: Option<Duration>,
    /// The secret the server binds an approval asked through multi-round-trip requests to its
    /// call with (the `requestState` it sends is a keyed digest of the tool, the agent and the
    /// arguments; a retry whose state does not match its own call carries no answer). `None`,
    /// the default: random per server. Give every replica behind one load balancer the same
    /// secret, so that a retry answered by another process than the one that asked is
    /// recognized. Keep it out of clients' reach, and make it random (32 bytes from a
    /// cryptographic source).
    pub request_state_key: Option<[u8; 32]>,
}

impl Default for ServerOptions {
    fn default() -> Self {
        let tasks = TaskSettings::default();
        Self {
            name: "dsh-tools".to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            title: None,
            instructions: None,
            page_size: DEFAULT_PAGE_SIZE,
            task_ttl: tasks.ttl,
            task_poll_interval: tasks.poll_interval,
            task_owner_timeout: tasks.owner_timeout,
            request_state_key: None,
        }
    }
}

/// Serves the tools of a registry (its global layer) or of one scope to MCP clients: `tools/list`
/// shows exactly what [`schemas`](ToolScope::schemas) shows there, and every `tools/call` runs
/// through the registry's whole pipeline.
///
/// Calls served as tasks live in the server's memory; when the registry has a call store
/// (`ToolRegistry::set_durability`, feature `durable`), they are also recorded there, so that
/// every replica sharing the store answers `tasks/get`, `tasks/update` and `tasks/cancel` for them
/// (a task's questions and the answers to them go through the record) and a finished task's
/// result outlives a restart (see `docs/durable.md`).
///
/// Cheap to clone; clones serve the same tools. Configure it before serving:
///
/// ```no_run
/// # async fn run(registry: dsh_tools::ToolRegistry) -> Result<(), dsh_tools::mcp::McpError> {
/// use dsh_tools::mcp::{McpServer, ServerOptions};
///
/// McpServer::new(&registry)
///     .with_options(ServerOptions {
///         name: "coding-tools".to_owned(),
///         instructions: Some("Tools over one workspace.".to_owned()),
///         ..ServerOptions::default()
///     })
///     .serve_stdio()
///     .await
/// # }
/// ```
#[derive(Clone)]
pub struct McpServer {
    /// The served layer: the registry's global layer or a scope.
    layer: ToolScope,
    /// Shared: a stateless HTTP server clones the server for every request's handler.
    info: Arc<mcp::ServerConfig>,
    page_size: usize,
    tasks: TaskSettings,
    /// The secret of the `requestState` of approvals asked through multi-round-trip requests
    /// (`None`: no random source, so no client is asked that way).
    request_state: Option<RequestStateKey>,
    shared: Arc<Shared>,
}

/// What every connection of one server shares: the listing cache, the registry's change
/// signal and the served tasks.
struct Shared {
    listing: ListingCache,
    changes: watch::Sender<u64>,
    listener: Registration,
    tasks: TaskManager,
    /// This server among the servers sharing a call store: the owner its task records name.
    #[cfg_attr(not(feature = "durable"), allow(dead_code))]
    instance: String,
    /// How many calls this server keyed by their request (`call_key.rs`).
    #[cfg(feature = "durable")]
    requests: std::sync::atomic::AtomicU64,
}

impl Drop for Shared {
    fn drop(&mut self) {
        self.listener.dispose();
        // A task nobody can poll any more has no reason to keep running.
        self.tasks.shutdown();
    }
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer")
            .field("name", &self.info.server_info.name)
            .field("agent", &self.layer.agent())
            .finish_non_exhaustive()
    }
}

impl McpServer {
    /// Serves what `layer` sees: a registry's global layer (`McpServer::new(&registry)`, the
    /// registry dereferencing to it), or a scope — its own tools, its ancestors' and the global
    /// ones its restrictions admit, calls running on behalf of its agent. Once the scope (or an
    /// ancestor) is disposed, `tools/list` is empty and every call is refused as
    /// `SCOPE_DISPOSED`, even when a new scope of the same agent exists.
    pub fn new(layer: &ToolScope) -> Self {
        Self::serving(layer.clone())
    }

    fn serving(layer: ToolScope) -> Self {
        let (changes, _) = watch::channel(0u64);
        let notify = changes.clone();
        let listener = layer.registry().on_change(move |_| {
            notify.send_modify(|generation| *generation = generation.wrapping_add(1));
        });
        let capabilities = mcp::ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_tasks()
            .build();
        let info = mcp::ServerConfig::new(capabilities).with_server_info(mcp::Implementation::new(
            "dsh-tools",
            env!("CARGO_PKG_VERSION"),
        ));
        Self {
            layer,
            info: Arc::new(info),
            page_size: DEFAULT_PAGE_SIZE,
            tasks: TaskSettings::default(),
            request_state: RequestStateKey::random(),
            shared: Arc::new(Shared {
                listing: ListingCache::default(),
                changes,
                listener,
                tasks: task_store(),
                instance: instance_id(),
                #[cfg(feature = "durable")]
                requests: std::sync::atomic::AtomicU64::new(0),
            }),
        }
    }

    /// Serves with `options` (what clients are told, listing pages, tasks, the secret of
    /// approvals asked through multi-round-trip requests) instead of the defaults.
    #[must_use]
    pub fn with_options(mut self, options: ServerOptions) -> Self {
        let info = Arc::make_mut(&mut self.info);
        info.server_info.name = options.name;
        info.server_info.version = options.version;
        info.server_info.title = options.title;
        info.instructions = options.instructions;
        self.page_size = options.page_size.max(1);
        self.tasks = TaskSettings {
            ttl: options.task_ttl,
            poll_interval: options.task_poll_interval,
            owner_timeout: options.task_owner_timeout,
        };
        if let Some(secret) = options.request_state_key {
            self.request_state = Some(RequestStateKey::new(secret));
        }
        self
    }

    /// The server's handshake answer.
    pub(crate) fn info(&self) -> &mcp::ServerConfig {
        &self.info
    }

    pub(crate) fn request_state_key(&self) -> Option<&RequestStateKey> {
        self.request_state.as_ref()
    }

    /// The agent of the served scope; `None` for the global layer.
    pub(crate) fn agent(&self) -> Option<&str> {
        self.layer.agent().map(AgentId::as_str)
    }

    pub(crate) fn page_size(&self) -> usize {
        self.page_size
    }

    pub(crate) fn task_settings(&self) -> TaskSettings {
        self.tasks
    }

    /// The tasks of every connection of this server.
    pub(crate) fn tasks(&self) -> &TaskManager {
        &self.shared.tasks
    }

    /// The call store the served tasks are recorded on: the served registry's, when it has one
    /// (feature `durable`; read at each request, so a store set later counts from then).
    #[cfg(feature = "durable")]
    pub(crate) fn task_book(&self) -> Option<crate::mcp::serving::task_book::TaskBook> {
        let durability = self.layer.registry().durability()?;
        let owner = format!("{} server {}", durability.place(), self.shared.instance);
        Some(crate::mcp::serving::task_book::TaskBook::new(
            Arc::clone(durability.store()),
            owner,
            self.tasks.owner_timeout,
        ))
    }

    /// Whether the served registry has a call store now.
    #[cfg(feature = "durable")]
    pub(crate) fn has_call_store(&self) -> bool {
        self.layer.registry().has_durability()
    }

    /// This server's random name among those sharing a call store.
    #[cfg(feature = "durable")]
    pub(crate) fn instance(&self) -> &str {
        &self.shared.instance
    }

    /// The count of this server's calls keyed by their request.
    #[cfg(feature = "durable")]
    pub(crate) fn requests(&self) -> &std::sync::atomic::AtomicU64 {
        &self.shared.requests
    }

    /// No call store without feature `durable`: served tasks live in this server's memory.
    #[cfg(not(feature = "durable"))]
    pub(crate) fn task_book(&self) -> Option<crate::mcp::serving::tasks::TaskBook> {
        None
    }

    /// The listing of the served tools now.
    pub(crate) fn listing(&self) -> Arc<Listing> {
        self.shared
            .listing
            .current(self.schemas(), |name| self.definition(name))
    }

    /// The schemas of the served tools (none once a served scope is gone).
    fn schemas(&self) -> Arc<[ToolSchema]> {
        self.layer.schemas()
    }

    /// The definition a call of `name` resolves to (none once a served scope is gone).
    pub(crate) fn definition(&self, name: &str) -> Option<Arc<dyn ToolDefinition>> {
        self.layer.get(name)
    }

    /// What a call of `name` resolves to where it is served, for [`execute`](Self::execute)
    /// (no definition once a served scope is gone).
    pub(crate) fn resolve(&self, name: &str) -> ResolvedTool {
        self.layer.resolve_for_call(name)
    }

    /// Runs `input`, a call of the name `resolved` was looked up for, where it is served:
    /// through the scope's handle, on behalf of its agent (a disposed scope refuses it as
    /// `SCOPE_DISPOSED`), or in the global layer. The pipeline takes the lookup rather than
    /// resolving the name again while the registry has not changed since.
    pub(crate) fn execute(
        &self,
        input: ToolExecutionInput,
        resolved: ResolvedTool,
    ) -> impl Future<Output = ToolExecutionResult> + Send + 'static + use<> {
        self.layer.execute_resolved(input, resolved)
    }

    /// A receiver that sees every change of the registry's tools.
    pub(crate) fn changes(&self) -> watch::Receiver<u64> {
        self.shared.changes.subscribe()
    }
}

/// A random name for one server among those sharing a call store (16 hex digits); without a
/// random source, the time this server was made, which is unique enough among replicas.
fn instance_id() -> String {
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_nanos());
        bytes = (nanos as u64).to_be_bytes();
    }
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}
