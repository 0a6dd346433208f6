//! [`McpClient`]: a connection to an MCP server whose tools are imported into a registry or a
//! scope and run through its pipeline like any other tool.
//!
//! The client owns the connection and everything imported through it: [`close`](McpClient::close)
//! (or dropping the client) disposes every imported tool and ends the connection; a server started
//! as a child process is terminated with it (its whole process group), so none is left behind.
//! When the server says its tool list changed, every import re-syncs: removed tools are disposed,
//! and new and changed ones are handled by the import's pins and policies (`pins.rs`): by
//! default a new tool is registered and a changed one keeps its pinned definition while the
//! change is held for the user (the registry's change events fire for each decision and change).
//! A server's elicitation requests go to the client's handler (`elicitation.rs`), whether it
//! sends them as requests of its own or, on multi-round-trip requests, as the `inputRequests`
//! of an `InputRequiredResult` (`input_required.rs`).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::handler::client::ClientHandler;
use rmcp::model as mcp;
use rmcp::service::{
    ClientLifecycleMode, NotificationContext, RequestContext, RoleClient, RunningService,
    Subscription, serve_client_with_lifecycle,
};
use rmcp::transport::IntoTransport;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::call::definition::ToolDefinition;
use crate::mcp::error::{McpError, McpErrorKind};
use crate::mcp::importing::elicitation::{ElicitationHandler, ElicitationSlot};
use crate::mcp::importing::imported::{Connection, ImportedTool};
use crate::mcp::importing::names::{assign_names, sanitize_prefix};
use crate::mcp::importing::pins::{
    ChangedToolPolicy, HeldChange, NewToolPolicy, PinBook, Pins, log_decision,
};
use crate::mcp::importing::progress_in_order::ProgressInOrder;
use crate::mcp::importing::progress_routes::ProgressRoutes;
use crate::registry::{Registration, RegistryError, ToolScope};
use crate::store::event::{DefinitionChange, DefinitionDecision, RegistryEvent};

/// How an import names and runs a server's tools. Set the fields that differ from the
/// defaults (tools named `<server>__<tool>` after the server's own name, a 60 s budget per
/// call, every call exclusive in a batch, no argument checks, listed at once, changes held):
///
/// ```
/// use dsh_tools::mcp::ImportOptions;
/// let options = ImportOptions {
///     prefix: Some("weather".to_owned()),
///     timeout_ms: Some(30_000),
///     ..ImportOptions::default()
/// };
/// # let _ = options;
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportOptions {
    /// Names tools `<prefix>__<tool>` instead of after the server's name (`None`, the
    /// default); an empty prefix imports them under their own names. Characters outside
    /// `[A-Za-z0-9_-]` become `_`.
    pub prefix: Option<String>,
    /// The time budget of each call, in milliseconds (the tools' `timeout_ms`), which the
    /// registry enforces (`TOOL_TIMEOUT`, and the server is told to stop); one minute by
    /// default, `None` leaves calls without one. With the registry's timeouts turned off, a
    /// call still gives up on a server that has not answered two seconds after the budget
    /// (`MCP_TRANSPORT`). Zero is treated as one.
    pub timeout_ms: Option<u64>,
    /// Lets calls of these tools run concurrently with other concurrency-safe calls of a batch
    /// (off by default). Only say so when the server handles concurrent calls.
    pub concurrency_safe: bool,
    /// Checks each call's arguments against the server's `inputSchema` before the call is
    /// sent, so the model reads every violation at once (`INVALID_ARGS`, in the project's
    /// wording) without a round trip. Off by default: a server validates its own input. A tool
    /// whose schema the engine cannot enforce (a remote `$ref`, a look-around pattern) is
    /// called unchecked, and the import logs a warning naming it and why.
    pub validate_arguments: bool,
    /// Registers every tool of the server deferred: callable, but listed for the model only
    /// once a tool search loads it (see [`ToolOptions::defer_loading`](crate::call::ToolOptions::defer_loading)). Off by default; a
    /// server with many tools is the case for it.
    pub defer_loading: bool,
    /// What a re-sync does with a known tool whose definition differs from its pin (see
    /// [`ChangedToolPolicy`]); by default it holds the change and keeps serving the pinned
    /// definition.
    pub changed_tools: ChangedToolPolicy,
    /// What a re-sync does with a tool it has no pin for (see [`NewToolPolicy`]); by default
    /// it registers and pins it. A first import without saved pins trusts every tool it lists.
    pub new_tools: NewToolPolicy,
    /// Saved pins to start from (see [`McpClient::pins`]; none by default): already at the
    /// first import, a tool whose definition differs from its pin follows
    /// [`changed_tools`](Self::changed_tools) and a tool without a pin follows
    /// [`new_tools`](Self::new_tools).
    pub pins: Option<Pins>,
}

impl Default for ImportOptions {
    fn default() -> Self {
        Self {
            prefix: None,
            timeout_ms: Some(60_000),
            concurrency_safe: false,
            validate_arguments: false,
            defer_loading: false,
            changed_tools: ChangedToolPolicy::default(),
            new_tools: NewToolPolicy::default(),
            pins: None,
        }
    }
}

/// How [`McpClient`] starts a connection: the protocol's lifecycle and, over HTTP, the
/// bearer token. The default starts a session with `initialize` and sends no token.
///
/// ```no_run
/// # async fn run(command: tokio::process::Command) -> Result<(), dsh_tools::mcp::McpError> {
/// use dsh_tools::mcp::{ConnectOptions, McpClient};
/// use dsh_tools::mcp::rmcp::model::ProtocolVersion;
/// use dsh_tools::mcp::rmcp::service::ClientLifecycleMode;
///
/// let options = ConnectOptions {
///     lifecycle: ClientLifecycleMode::Auto {
///         preferred_versions: vec![ProtocolVersion::V_2026_07_28],
///         legacy_version: None,
///     },
///     ..ConnectOptions::default()
/// };
/// let client = McpClient::connect_stdio(command, options).await?;
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct ConnectOptions {
    /// How the connection starts: `Initialize` (the default: a session, protocol 2025-11-25 or
    /// the newest the server answers it with), `Discover` (the per-request protocol,
    /// 2026-07-28: `server/discover`, then every request carries what the handshake used to; a
    /// server that does not speak it is an error), or `Auto` (discover, falling back to
    /// `initialize` for a server that does not). On the per-request protocol a server may
    /// answer a call with an `InputRequiredResult`, whose elicitation requests go to the
    /// [elicitation handler](McpClient::set_elicitation_handler), and it tells the client about
    /// list changes on a `subscriptions/listen` stream, which the client opens so that imports
    /// re-sync as they do over a session; every request stands alone, so the client also
    /// works with stateless servers behind a load balancer. The per-request protocol is not
    /// the default: it forbids a server's own requests, so a server that still asks its user
    /// with an `elicitation/create` request (as most written before it do) fails that call on
    /// it.
    pub lifecycle: ClientLifecycleMode,
    /// Over HTTP, sends `Authorization: Bearer <token>` with every request (none by default;
    /// the other transports ignore it).
    pub bearer_token: Option<String>,
}

impl Default for ConnectOptions {
    fn default() -> Self {
        Self {
            lifecycle: ClientLifecycleMode::Initialize,
            bearer_token: None,
        }
    }
}

/// What the registry's change listeners hear about an import's decision on a tool definition.
fn review_event(
    name: &str,
    agent: Option<crate::ids::AgentId>,
    server: &str,
    changes: &[DefinitionChange],
    decision: DefinitionDecision,
) -> RegistryEvent {
    RegistryEvent::DefinitionReviewed {
        name: name.to_owned(),
        agent,
        server: server.to_owned(),
        changes: changes.to_vec(),
        decision,
    }
}

/// A connection to one MCP server.
///
/// ```no_run
/// # async fn run() -> Result<(), dsh_tools::mcp::McpError> {
/// use dsh_tools::ToolRegistry;
/// use dsh_tools::mcp::{ConnectOptions, ImportOptions, McpClient};
///
/// let registry = ToolRegistry::new();
/// let mut command = tokio::process::Command::new("python3");
/// command.arg("weather_server.py");
/// let client = McpClient::connect_stdio(command, ConnectOptions::default()).await?;
/// let names = client.import_into(&registry, ImportOptions::default()).await?;
/// // `names` are like "weather__get_forecast"; calls run through the registry's pipeline.
/// client.close().await; // disposes them and stops the server
/// # Ok(())
/// # }
/// ```
pub struct McpClient {
    /// The server's name, as it introduced itself (`mcp` when it did not).
    pub server_name: String,
    /// The protocol revision negotiated with the server (`"2025-11-25"` after `initialize`,
    /// `"2026-07-28"` on the per-request protocol).
    pub protocol_version: Option<String>,
    shared: Arc<ClientShared>,
    running: Option<RunningService<RoleClient, Events>>,
}

/// What the client, its re-sync task and its notification handler share.
struct ClientShared {
    connection: Arc<Connection>,
    imports: Mutex<Vec<Import>>,
    /// Serializes re-syncs: one listing is applied at a time.
    resyncing: tokio::sync::Mutex<()>,
    closed: CancellationToken,
}

/// One `import_into`: where the tools went, how they are named, and what is registered.
struct Import {
    /// Where the tools are registered: the registry's global layer or a scope.
    target: ToolScope,
    options: ImportOptions,
    prefix: String,
    /// By the server's tool name.
    tools: HashMap<String, ImportedEntry>,
    /// The pins, held changes and policies.
    book: PinBook,
}

/// A decision of a review, to report: the registry name, what changed, what was decided.
type Decision = (String, Vec<DefinitionChange>, DefinitionDecision);

struct ImportedEntry {
    name: String,
    /// The definition served: the server's, or the pinned one while a change is held.
    source: mcp::Tool,
    registration: Registration,
    /// Shared with the registered tool: set while `source` is a pinned definition the server
    /// has changed.
    held: Arc<AtomicBool>,
}

/// The client's rmcp handler: asks for a re-sync when the server's tool list changed, and hands
/// elicitation requests to the installed handler. (Progress is routed by the transport,
/// [`ProgressInOrder`], to keep it ahead of the result.)
struct Events {
    list_changed: Arc<Notify>,
    elicitation: ElicitationSlot,
}

impl ClientHandler for Events {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.list_changed.notify_one();
    }

    async fn create_elicitation(
        &self,
        request: mcp::ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<mcp::ElicitResult, rmcp::ErrorData> {
        let info = context.peer.peer_info();
        let server = info
            .as_ref()
            .and_then(|info| info.server_info.as_ref())
            .map_or("mcp", |server| server.name.as_str());
        Ok(self.elicitation.answer(server, request).await)
    }

    fn get_info(&self) -> mcp::ClientConfig {
        // Form elicitation is always declared: without a handler, requests are declined.
        // Tasks, so a server may answer a long call with one (`task_client.rs` follows it).
        let mut capabilities = mcp::ClientCapabilities::builder().enable_tasks().build();
        capabilities.elicitation = Some(
            mcp::ElicitationCapability::new().with_form(mcp::FormElicitationCapability::new()),
        );
        mcp::ClientConfig::new(
            capabilities,
            mcp::Implementation::new("dsh-tools", env!("CARGO_PKG_VERSION")),
        )
    }
}

impl std::fmt::Debug for McpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpClient")
            .field("server", &self.shared.connection.server)
            .field("closed", &self.is_closed())
            .finish_non_exhaustive()
    }
}

impl McpClient {
    /// Starts `command` as a child process and talks MCP over its stdin and stdout (its stderr is
    /// inherited), starting the connection as `options` say. The child runs in its own process
    /// group, which is terminated when the client is closed or dropped.
    pub async fn connect_stdio(
        command: impl Into<tokio::process::Command>,
        options: ConnectOptions,
    ) -> Result<Self, McpError> {
        use process_wrap::tokio::{CommandWrap, KillOnDrop};
        let command: tokio::process::Command = command.into();
        let program = command
            .as_std()
            .get_program()
            .to_string_lossy()
            .into_owned();
        let mut wrapped = CommandWrap::from(command);
        #[cfg(unix)]
        wrapped.wrap(process_wrap::tokio::ProcessGroup::leader());
        wrapped.wrap(KillOnDrop);
        let (transport, _) = rmcp::transport::TokioChildProcess::builder(wrapped)
            .stderr(std::process::Stdio::inherit())
            .spawn()
            .map_err(|error| {
                McpError::new(
                    McpErrorKind::Transport,
                    format!("could not start MCP server `{program}`: {error}"),
                )
            })?;
        Self::connect(transport, options).await
    }

    /// Connects to a streamable HTTP MCP server at `url` (for example
    /// `http://127.0.0.1:8765/mcp`), starting the connection as `options` say and sending their
    /// bearer token. `https://` needs a TLS feature of `reqwest` enabled in the build (for
    /// example `reqwest = { version = "0.13", features = ["rustls"] }`).
    #[cfg(feature = "mcp-http")]
    pub async fn connect_http(url: &str, options: ConnectOptions) -> Result<Self, McpError> {
        use rmcp::transport::StreamableHttpClientTransport;
        use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
        let mut config = StreamableHttpClientTransportConfig::with_uri(url);
        if let Some(token) = &options.bearer_token {
            config = config.auth_header(token);
        }
        Self::connect(StreamableHttpClientTransport::from_config(config), options).await
    }

    /// Talks MCP over any rmcp client transport and completes the handshake as `options` say
    /// (by default `initialize`, protocol 2025-11-25 or the newest the server answers it with;
    /// see [`ConnectOptions::lifecycle`]).
    ///
    /// ```no_run
    /// # async fn run(command: tokio::process::Command) -> Result<(), Box<dyn std::error::Error>> {
    /// use dsh_tools::mcp::{ConnectOptions, McpClient};
    /// use dsh_tools::mcp::rmcp::transport::TokioChildProcess;
    ///
    /// let transport = TokioChildProcess::new(command)?;
    /// let client = McpClient::connect(transport, ConnectOptions::default()).await?;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn connect<T, E, A>(transport: T, options: ConnectOptions) -> Result<Self, McpError>
    where
        T: IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let lifecycle = options.lifecycle;
        let progress = Arc::new(ProgressRoutes::default());
        let list_changed = Arc::new(Notify::new());
        let elicitation = ElicitationSlot::default();
        let events = Events {
            list_changed: Arc::clone(&list_changed),
            elicitation: elicitation.clone(),
        };
        let transport = ProgressInOrder::new(transport.into_transport(), Arc::clone(&progress));
        let running = serve_client_with_lifecycle(events, transport, lifecycle)
            .await
            .map_err(|error| {
                McpError::new(
                    McpErrorKind::Handshake,
                    format!("MCP server did not complete the handshake: {error}"),
                )
            })?;
        let peer = running.peer().clone();
        let protocol_version = peer
            .peer_info()
            .map(|info| info.protocol_version.to_string());
        // A server that does not introduce itself is named after the protocol.
        let server = peer
            .peer_info()
            .and_then(|info| info.server_info.as_ref().map(|server| server.name.clone()))
            .filter(|name| !name.is_empty())
            .unwrap_or_else(|| "mcp".to_owned());
        let shared = Arc::new(ClientShared {
            connection: Arc::new(Connection {
                server: server.clone(),
                peer,
                progress,
                elicitation,
            }),
            imports: Mutex::new(Vec::new()),
            resyncing: tokio::sync::Mutex::new(()),
            closed: CancellationToken::new(),
        });
        // Open before the client is handed out, so no change made after connecting is missed.
        if let Some(subscription) = subscribe_to_list_changes(&shared.connection).await {
            tokio::spawn(forward_list_changes(
                Arc::clone(&shared),
                subscription,
                Arc::clone(&list_changed),
            ));
        }
        tokio::spawn(resync_on_changes(Arc::clone(&shared), list_changed));
        Ok(Self {
            server_name: server,
            protocol_version,
            shared,
            running: Some(running),
        })
    }

    /// Answers the server's elicitation requests (a tool asking its user for input mid-call:
    /// an `elicitation/create` request, an elicitation in the `inputRequests` of an
    /// `InputRequiredResult` or of a task waiting for input) with `handler`, replacing any
    /// earlier one. Without a handler every request is declined, with a log line; to decline
    /// them again after installing one, install one that answers
    /// [`ElicitationAnswer::Decline`](crate::mcp::ElicitationAnswer::Decline).
    pub fn set_elicitation_handler(&self, handler: impl ElicitationHandler) {
        self.shared
            .connection
            .elicitation
            .set(Some(Arc::new(handler)));
    }

    /// Whether the connection has ended (closed, or the server went away).
    fn is_closed(&self) -> bool {
        self.running.as_ref().is_none_or(RunningService::is_closed)
    }

    /// The server's tools, every page of `tools/list`.
    pub async fn list_tools(&self) -> Result<Vec<mcp::Tool>, McpError> {
        self.shared.list_tools().await
    }

    /// Registers every tool of the server into `target` (a [`ToolScope`], or a registry's global
    /// layer: `&registry` coerces)
    /// and returns their registry names, sorted. Names are `<prefix>__<tool>` (see
    /// [`imported_name`](crate::mcp::imported_name)); the server's `inputSchema` is what the model
    /// sees, unchanged and not validated here. If one tool cannot be registered (its name is
    /// taken), none of this import's tools stay registered.
    pub async fn import_into(
        &self,
        target: &ToolScope,
        mut options: ImportOptions,
    ) -> Result<Vec<String>, McpError> {
        // A zero budget would time every call out before it is sent.
        options.timeout_ms = options.timeout_ms.map(|budget| budget.max(1));
        let target = target.clone();
        let _resyncing = self.shared.resyncing.lock().await;
        let tools = self.shared.list_tools().await?;
        let prefix = sanitize_prefix(
            options
                .prefix
                .as_deref()
                .unwrap_or(&self.shared.connection.server),
        );
        let book = PinBook::new(
            options.pins.clone(),
            options.changed_tools,
            options.new_tools,
        );
        let mut import = Import {
            target,
            options,
            prefix,
            tools: HashMap::new(),
            book,
        };
        let names = assign_names(
            &import.prefix,
            tools.iter().map(|tool| &*tool.name),
            &HashMap::new(),
        );
        // A server listing one name twice: the first listing stands.
        let mut seen = HashSet::new();
        let mut batch = Vec::new();
        let mut decisions = Vec::new();
        for tool in tools.iter().filter(|tool| seen.insert(&*tool.name)) {
            let name = &names[&*tool.name];
            if let Some(served) = import.review(tool, name, &self.shared.connection, &mut decisions)
            {
                batch.push(served);
            }
        }
        import.book.settle();
        import.register_batch(&self.shared.connection, batch)?;
        import.report_all(&self.shared.connection, decisions);
        let mut imported: Vec<String> = import
            .tools
            .values()
            .map(|entry| entry.name.clone())
            .collect();
        imported.sort();
        self.shared
            .imports
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(import);
        Ok(imported)
    }

    /// Lists the server's tools again and brings every import up to date: removed tools
    /// disposed, new and changed ones handled by the import's policies
    /// ([`ImportOptions::new_tools`], [`ImportOptions::changed_tools`]). Runs by itself when the
    /// server sends `notifications/tools/list_changed`.
    pub async fn resync(&self) -> Result<(), McpError> {
        self.shared.resync().await
    }

    /// The fingerprints and definitions every import of this client has pinned (where two
    /// imports pin the same tool differently, the earlier import's), to save and hand to
    /// [`ImportOptions::pins`] after a restart.
    pub fn pins(&self) -> Pins {
        let imports = self.shared.lock_imports();
        let mut pins = Pins::default();
        for import in imports.iter() {
            pins.merge_missing(import.book.pins());
        }
        pins
    }

    /// The changes the imports hold for the user, sorted by registry name: known tools whose new
    /// definition is held or disabled, and new tools held back.
    pub fn held_changes(&self) -> Vec<HeldChange> {
        let imports = self.shared.lock_imports();
        let mut held: Vec<HeldChange> = imports
            .iter()
            .flat_map(|import| import.book.held_changes().cloned())
            .collect();
        held.sort_by(|a, b| a.name.cmp(&b.name));
        held
    }

    /// Settles the change held for the tool registered (or to be registered) as `name`.
    ///
    /// Accepting (`accept: true`) pins and serves its new definition (a new tool is
    /// registered); the registry announces the replacement, then
    /// [`DefinitionDecision::Accepted`]. Rejecting keeps the pinned definition served (a disabled
    /// or new tool stays out of the registry), and the same definition is not raised again;
    /// another change of it is; the registry announces [`DefinitionDecision::Rejected`]. Fails
    /// (`NotHeld`) when no change is held under that name, or, accepting, (`Registry`) when the
    /// registry refuses the tool.
    pub fn decide_change(&self, name: &str, accept: bool) -> Result<(), McpError> {
        let decision = if accept {
            DefinitionDecision::Accepted
        } else {
            DefinitionDecision::Rejected
        };
        self.shared.settle_held(name, decision)
    }

    /// Disposes every imported tool and ends the connection, terminating a child-process server.
    pub async fn close(mut self) {
        self.shared.shut_down();
        if let Some(mut running) = self.running.take() {
            let _ = running.close().await;
        }
    }
}

impl Drop for McpClient {
    fn drop(&mut self) {
        self.shared.shut_down();
        // Ends the connection's task, which closes the transport: a child process is asked to
        // exit, then terminated.
        if let Some(running) = &self.running {
            running.cancellation_token().cancel();
        }
    }
}

impl ClientShared {
    async fn list_tools(&self) -> Result<Vec<mcp::Tool>, McpError> {
        self.connection
            .peer
            .list_all_tools()
            .await
            .map_err(|error| {
                McpError::new(
                    McpErrorKind::Protocol,
                    format!(
                        "could not list the tools of MCP server \"{}\": {error}",
                        self.connection.server
                    ),
                )
            })
    }

    async fn resync(&self) -> Result<(), McpError> {
        let _resyncing = self.resyncing.lock().await;
        if self.closed.is_cancelled() {
            return Err(McpError::new(
                McpErrorKind::Closed,
                "the MCP client is closed",
            ));
        }
        let tools = self.list_tools().await?;
        let mut imports = self.imports.lock().unwrap_or_else(PoisonError::into_inner);
        for import in imports.iter_mut() {
            import.apply(&self.connection, &tools);
        }
        Ok(())
    }

    fn lock_imports(&self) -> std::sync::MutexGuard<'_, Vec<Import>> {
        self.imports.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Accepts or rejects the change held under registry name `name`, in every import holding
    /// one.
    fn settle_held(&self, name: &str, decision: DefinitionDecision) -> Result<(), McpError> {
        let mut imports = self.lock_imports();
        let mut found = false;
        for import in imports.iter_mut() {
            let Some(remote) = import.book.held_under(name) else {
                continue;
            };
            found = true;
            let settled = if decision == DefinitionDecision::Accepted {
                import.book.accept(&remote)
            } else {
                import.book.reject(&remote)
            };
            let Some(change) = settled else { continue };
            if decision == DefinitionDecision::Accepted {
                if let Some(entry) = import.tools.remove(&remote) {
                    entry.registration.dispose();
                }
                import.register(&self.connection, change.name.clone(), change.offered, false)?;
            }
            import.report(&self.connection, &change.name, &change.changes, decision);
        }
        if found {
            Ok(())
        } else {
            Err(McpError::new(
                McpErrorKind::NotHeld,
                format!(
                    "no change of tool \"{name}\" of MCP server \"{}\" is held",
                    self.connection.server
                ),
            ))
        }
    }

    /// Disposes every imported tool; later re-syncs do nothing.
    fn shut_down(&self) {
        self.closed.cancel();
        let imports =
            std::mem::take(&mut *self.imports.lock().unwrap_or_else(PoisonError::into_inner));
        for mut import in imports {
            import.dispose_all();
        }
    }
}

impl Import {
    fn register(
        &mut self,
        connection: &Arc<Connection>,
        name: String,
        source: mcp::Tool,
        held: bool,
    ) -> Result<(), McpError> {
        let remote = source.name.to_string();
        let held = Arc::new(AtomicBool::new(held));
        let tool = self.imported_tool(connection, &name, &source, &held);
        let registration = self
            .target
            .register(tool)
            .map_err(|error| {
                McpError::new(
                    McpErrorKind::Registry,
                    format!(
                        "could not register tool \"{remote}\" of MCP server \"{}\" as \"{name}\": {error}",
                        connection.server
                    ),
                )
            })?;
        self.tools.insert(
            remote,
            ImportedEntry {
                name,
                source,
                registration,
                held,
            },
        );
        Ok(())
    }

    /// Reviews the listed `tool` against its pin: what to serve as `name` (the definition, and
    /// whether it is a pinned one whose change is held), or `None` to keep it out of the
    /// registry. A decision taken now joins `decisions`, to be reported once the registry shows
    /// its outcome.
    fn review(
        &mut self,
        tool: &mcp::Tool,
        name: &str,
        connection: &Connection,
        decisions: &mut Vec<Decision>,
    ) -> Option<(String, mcp::Tool, bool)> {
        let review = self.book.review(tool, name, &connection.server);
        if let Some((changes, decision)) = review.decision {
            decisions.push((name.to_owned(), changes, decision));
        }
        review
            .serve
            .map(|source| (name.to_owned(), source, review.held))
    }

    fn report_all(&self, connection: &Connection, decisions: Vec<Decision>) {
        for (name, changes, decision) in decisions {
            self.report(connection, &name, &changes, decision);
        }
    }

    fn report(
        &self,
        connection: &Connection,
        name: &str,
        changes: &[DefinitionChange],
        decision: DefinitionDecision,
    ) {
        log_decision(&connection.server, name, changes, decision);
        let agent = self.target.agent().cloned();
        self.target.core().announce(review_event(
            name,
            agent,
            &connection.server,
            changes,
            decision,
        ));
    }

    /// Brings this import up to date with the server's current `tools`: each listed tool is
    /// reviewed against its pin, tools no longer served are disposed and the ones to serve anew
    /// registered; then the decisions are announced, so a listener hearing one finds the registry
    /// already showing its outcome.
    fn apply(&mut self, connection: &Arc<Connection>, tools: &[mcp::Tool]) {
        let mut seen = HashSet::new();
        let listed: Vec<&mcp::Tool> = tools
            .iter()
            .filter(|tool| seen.insert(&*tool.name))
            .collect();
        // Tools that stay keep their names; new ones get theirs (a replaced tool maps to the same
        // name again).
        let kept: HashMap<String, String> = self
            .tools
            .iter()
            .filter(|(remote, _)| seen.contains(remote.as_str()))
            .map(|(remote, entry)| (remote.clone(), entry.name.clone()))
            .collect();
        let names = assign_names(&self.prefix, listed.iter().map(|tool| &*tool.name), &kept);
        let mut served = Vec::new();
        let mut decisions = Vec::new();
        for tool in &listed {
            if let Some(serve) = self.review(tool, &names[&*tool.name], connection, &mut decisions)
            {
                served.push(serve);
            }
        }
        self.book.retain_listed(&seen);
        let wanted: HashMap<&str, (&mcp::Tool, bool)> = served
            .iter()
            .map(|(_, source, held)| (&*source.name, (source, *held)))
            .collect();
        self.tools
            .retain(|remote, entry| match wanted.get(remote.as_str()) {
                Some((source, held)) if **source == entry.source => {
                    entry.held.store(*held, Ordering::Release);
                    true
                }
                _ => {
                    entry.registration.dispose();
                    false
                }
            });
        let batch: Vec<(String, mcp::Tool, bool)> = served
            .into_iter()
            .filter(|(_, source, _)| !self.tools.contains_key(&*source.name))
            .collect();
        if !batch.is_empty() && self.register_all_or_none(connection, &batch).is_err() {
            // Someone else holds a name: register what can be, one by one, saying what could not.
            for (name, tool, held) in batch {
                if let Err(error) = self.register(connection, name, tool, held) {
                    tracing::warn!("MCP re-sync: {error}");
                }
            }
        }
        self.report_all(connection, decisions);
    }

    /// Registers a first import's tools as one change; when the registry refuses the batch,
    /// registers them one by one to name the tool it refused, and leaves none registered.
    fn register_batch(
        &mut self,
        connection: &Arc<Connection>,
        batch: Vec<(String, mcp::Tool, bool)>,
    ) -> Result<(), McpError> {
        if self.register_all_or_none(connection, &batch).is_ok() {
            return Ok(());
        }
        for (name, tool, held) in batch {
            if let Err(error) = self.register(connection, name, tool, held) {
                self.dispose_all();
                return Err(error);
            }
        }
        // The batch was refused, yet each tool alone was taken: a name was freed meanwhile.
        Ok(())
    }

    /// Registers `batch` as one change, all or none.
    fn register_all_or_none(
        &mut self,
        connection: &Arc<Connection>,
        batch: &[(String, mcp::Tool, bool)],
    ) -> Result<(), RegistryError> {
        let flags: Vec<Arc<AtomicBool>> = batch
            .iter()
            .map(|(_, _, held)| Arc::new(AtomicBool::new(*held)))
            .collect();
        let definitions: Vec<Arc<dyn ToolDefinition>> = batch
            .iter()
            .zip(&flags)
            .map(|((name, source, _), held)| self.imported_tool(connection, name, source, held))
            .collect();
        let registrations = self.target.register_all(definitions)?;
        for (((name, source, _), registration), held) in batch.iter().zip(registrations).zip(flags)
        {
            self.tools.insert(
                source.name.to_string(),
                ImportedEntry {
                    name: name.clone(),
                    source: source.clone(),
                    registration,
                    held,
                },
            );
        }
        Ok(())
    }

    fn imported_tool(
        &self,
        connection: &Arc<Connection>,
        name: &str,
        source: &mcp::Tool,
        held: &Arc<AtomicBool>,
    ) -> Arc<dyn ToolDefinition> {
        Arc::new(
            ImportedTool::new(
                name.to_owned(),
                source.clone(),
                self.options.timeout_ms,
                self.options.concurrency_safe,
                self.options.validate_arguments,
                self.options.defer_loading,
                Arc::clone(connection),
            )
            .with_held_flag(Arc::clone(held)),
        )
    }

    fn dispose_all(&mut self) {
        for entry in self.tools.values() {
            entry.registration.dispose();
        }
        self.tools.clear();
    }
}

/// How long connecting waits for a server on the per-request protocol to acknowledge the
/// subscription to tool list changes before going on without it.
const SUBSCRIBE_DEADLINE: Duration = Duration::from_secs(10);

/// On a per-request connection (2026-07-28 or later), where list changes come only on a
/// `subscriptions/listen` stream, opens one for tool list changes; `None` on a session, or when
/// the server refuses or does not acknowledge it in time (logged: imports then re-sync only
/// when asked).
async fn subscribe_to_list_changes(connection: &Connection) -> Option<Subscription> {
    let per_request = connection
        .peer
        .peer_info()
        .is_some_and(|info| info.protocol_version >= mcp::ProtocolVersion::V_2026_07_28);
    if !per_request {
        return None;
    }
    let filter = mcp::SubscriptionFilter::builder()
        .tools_list_changed()
        .build();
    let refused =
        match tokio::time::timeout(SUBSCRIBE_DEADLINE, connection.peer.listen(filter)).await {
            Ok(Ok(subscription)) => return Some(subscription),
            Ok(Err(error)) => error.to_string(),
            Err(_) => format!(
                "no acknowledgment within {} s",
                SUBSCRIBE_DEADLINE.as_secs()
            ),
        };
    tracing::info!(
        server = connection.server.as_str(),
        "MCP server did not take a subscription to tool list changes ({refused}); imports \
         re-sync only when asked"
    );
    None
}

/// Hands each tool list change on `subscription` to the re-sync task, until the client closes
/// or the stream ends.
async fn forward_list_changes(
    shared: Arc<ClientShared>,
    mut subscription: Subscription,
    list_changed: Arc<Notify>,
) {
    loop {
        let next = tokio::select! {
            () = shared.closed.cancelled() => return,
            next = subscription.next() => next,
        };
        match next {
            Ok(Some(mcp::ServerNotification::ToolListChangedNotification(_))) => {
                list_changed.notify_one();
            }
            Ok(Some(_)) => {}
            Ok(None) => return,
            Err(error) => {
                tracing::info!(
                    server = shared.connection.server.as_str(),
                    "the subscription to tool list changes of an MCP server ended: {error}"
                );
                return;
            }
        }
    }
}

/// Re-syncs every import each time the server says its tool list changed, until the client
/// closes. Notifications that arrive during a re-sync are coalesced into one more.
async fn resync_on_changes(shared: Arc<ClientShared>, list_changed: Arc<Notify>) {
    loop {
        tokio::select! {
            () = shared.closed.cancelled() => return,
            () = list_changed.notified() => {}
        }
        if let Err(error) = shared.resync().await {
            if shared.closed.is_cancelled() {
                return;
            }
            tracing::warn!("MCP re-sync failed: {error}");
        }
    }
}
