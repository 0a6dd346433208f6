//! One client connection of an [`McpServer`]: the rmcp `ServerHandler` that answers
//! `tools/list` and `tools/call`, forwards progress, and tells the client when the tool list
//! changed.
//!
//! - `tools/call` runs `execute` of the served registry or scope, with the JSON-RPC request id as
//!   the call id and the request's cancellation token as the call's signal:
//!   `notifications/cancelled` cancels the call, the pipeline yields `ABORTED`, and rmcp sends no
//!   reply for a cancelled request. Every outcome — unknown tool, invalid arguments, denial,
//!   timeout, a disposed scope — is a result with `isError`, never a JSON-RPC error, so the model
//!   reads the pipeline's text.
//! - A `tools/call` of a task-capable tool from a client that speaks tasks is answered with a
//!   task and runs in the background (`tasks.rs`); `tasks/get`, `tasks/update` and
//!   `tasks/cancel` are answered there too (from the registry's call store for a task another
//!   server runs: `task_book.rs`).
//! - A call's `ask` goes to the client when it declared form elicitation: as an
//!   `elicitation/create` request over a session (`client_approval.rs`), or, over the
//!   per-request protocol, as an `InputRequiredResult` the client answers by retrying the call
//!   (`round_trip_approval.rs`; a call run as a task is not asked this way); otherwise to the
//!   registry's approver.
//! - Progress a body reports goes out as `notifications/progress` when the request carried a
//!   progress token, in order and before the reply. A call run as a task also shows its latest
//!   report as the task's `statusMessage` (`task_life.rs` words it), which `tasks/get` answers
//!   through any replica sharing the call store once the task's owner records it.
//! - Registry changes become one `notifications/tools/list_changed` per tick, and only when what
//!   this connection lists actually changed: on the notification stream after `initialized`
//!   (sessions that started with `initialize`), or on a `subscriptions/listen` stream (the
//!   per-request protocol).

use std::borrow::Cow;
use std::future::Future;
use std::pin::pin;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::ErrorData;
use rmcp::handler::server::ServerHandler;
use rmcp::model as mcp;
use rmcp::service::{NotificationContext, Peer, RequestContext, RoleServer, SubscriptionContext};
use rmcp::task_manager::TaskContext;
use serde_json::Value;
use tokio::sync::{mpsc, watch};
use tokio_util::sync::{CancellationToken, DropGuard};

use crate::call::execution::{ToolExecution, ToolExecutionInput};
use crate::call::options::TaskSupport;
use crate::hooks::approval::Approver;
use crate::mcp::convert::{Structured, call_tool_result};
use crate::mcp::serving::call_id::call_id;
#[cfg(feature = "durable")]
use crate::mcp::serving::call_key::CallIdentity;
use crate::mcp::serving::client_approval::ClientApprover;
use crate::mcp::serving::listing::Listing;
use crate::mcp::serving::revision::RequestClient;
use crate::mcp::serving::round_trip_approval::RoundTripApproval;
use crate::mcp::serving::server::McpServer;
use crate::mcp::serving::task_approval::TaskApprover;
use crate::mcp::serving::task_life::progress_status;
use crate::mcp::serving::tasks::{
    CallMode, call_mode, cancel_task, get_task, start_task, update_task,
};
use crate::pipeline::resolved::ResolvedTool;
use crate::progress::ToolProgress;
use crate::result::ToolExecutionResult;

/// The rmcp [`ServerHandler`] of one client connection of an [`McpServer`], for hosting it on
/// an rmcp setup of your own (your own transport loop or HTTP stack); [`McpServer::serve`] and
/// `McpServer::serve_http` (feature `mcp-http`) make one per connection themselves. Make one per connection with [`McpServer::handler`]: it stops telling its client
/// about list changes when dropped.
pub struct McpHandler {
    /// Shared, and the session's part boxed: over stateless HTTP rmcp makes a handler per
    /// request and moves it, whole, into the task it spawns for the request (three copies of its
    /// bytes), so the handler is kept to a few words.
    server: Arc<McpServer>,
    /// What a session's list-changed forwarder starts from; `None` over a stateless transport,
    /// whose handlers answer one request each and never see `initialized`.
    session: Option<Box<SessionWatch>>,
    /// The same for a `subscriptions/listen` stream: taken when the subscription is accepted,
    /// before rmcp acknowledges it, so a change the client makes right after the acknowledgment
    /// is measured against what was listed before it.
    listen_from: Mutex<Option<(watch::Receiver<u64>, Arc<Listing>)>>,
    /// Whether the server may send requests to the client (elicitation): not over a stateless
    /// transport, where no request outside a response to the client's own could reach it.
    /// (Multi-round-trip requests need none: their question is the response.)
    client_requests: bool,
}

/// What the list-changed forwarder of a session starts from, and what stops it.
struct SessionWatch {
    /// The registry's changes since the session started, with what was listed then; taken by
    /// the list-changed forwarder once the client is initialized, so no change in between is
    /// missed.
    watch: Mutex<Option<(watch::Receiver<u64>, Arc<Listing>)>>,
    closed: CancellationToken,
    /// Stops the forwarder when the handler (the session) goes.
    _closing: DropGuard,
}

impl std::fmt::Debug for McpHandler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpHandler")
            .field("server", &self.server)
            .finish_non_exhaustive()
    }
}

impl McpHandler {
    pub(crate) fn new(server: Arc<McpServer>) -> Self {
        let closed = CancellationToken::new();
        let watch = (server.changes(), server.listing());
        Self {
            server,
            session: Some(Box::new(SessionWatch {
                watch: Mutex::new(Some(watch)),
                _closing: closed.clone().drop_guard(),
                closed,
            })),
            listen_from: Mutex::new(None),
            client_requests: true,
        }
    }

    /// The handler of one request over a stateless transport. It never sends the client a
    /// request: a call's `ask` goes to the registry's approver, as for a client without
    /// elicitation, unless the client is asked through multi-round-trip requests, which need no
    /// request of the server's. It watches no changes for a session: a stateless transport
    /// delivers no `initialized` to it (a `subscriptions/listen` stream still is answered).
    #[cfg(feature = "mcp-http")]
    pub(crate) fn stateless(server: Arc<McpServer>) -> Self {
        Self {
            server,
            session: None,
            listen_from: Mutex::new(None),
            client_requests: false,
        }
    }
}

/// Where a served call's progress reports go.
struct ServedProgress {
    /// The client and the request's progress token, when the request carried one: each report
    /// goes out as `notifications/progress`.
    client: Option<(Peer<RoleServer>, mcp::ProgressToken)>,
    /// The task the call runs as: each report becomes its status message, which `tasks/get`
    /// shows through this server and, once its owner records it, any replica (`task_book.rs`).
    task: Option<Box<TaskContext>>,
}

impl ServedProgress {
    /// Reports of a plain call: to the client, when the request carried a progress token.
    fn plain(client: Option<(Peer<RoleServer>, mcp::ProgressToken)>) -> Self {
        Self { client, task: None }
    }
}

/// Runs one `tools/call` through the pipeline of `server` as `call_id`, cancelled by `signal`,
/// sending its progress where `progress` says, its `ask`s answered by `approver` (the client)
/// when there is one, its value as `structuredContent` as `structured` says (the tool declares an output; of any JSON
/// type when the client speaks 2026-07-28 or later), its tool as `resolved` found it (the
/// pipeline does not look the name up again while the registry is unchanged). A plain call and
/// a task (started by `tasks.rs`) both run this way.
#[expect(
    clippy::too_many_arguments,
    reason = "each is one thing the request brought; a struct would only name them again"
)]
async fn run_call(
    server: &McpServer,
    request: mcp::CallToolRequestParams,
    call_id: Cow<'static, str>,
    identity: CallIdentity,
    signal: CancellationToken,
    progress: ServedProgress,
    approver: Option<Arc<dyn Approver>>,
    structured: Structured,
    served: Option<Served>,
    resolved: ResolvedTool,
) -> mcp::CallToolResult {
    let arguments = Value::Object(request.arguments.unwrap_or_default());
    // The served scope's agent is set by the scope's handle.
    let mut input =
        ToolExecutionInput::new(call_id, request.name.into_owned(), arguments).with_signal(signal);
    // On a call store, the journal knows the call by its client's key, or else by its request,
    // never by its JSON-RPC id alone (`call_key.rs`).
    #[cfg(feature = "durable")]
    {
        input = crate::mcp::serving::call_key::keyed(server, input, identity);
    }
    #[cfg(not(feature = "durable"))]
    let CallIdentity = identity;
    // A client that can ask its user answers the call's `ask`s (client_approval.rs,
    // round_trip_approval.rs).
    if let Some(approver) = approver {
        input = input.with_shared_approver(approver);
    }
    #[cfg(feature = "otel")]
    if let Some(served) = served {
        input = input.with_telemetry(served);
    }
    #[cfg(not(feature = "otel"))]
    let _: Option<Served> = served;
    let ServedProgress { client, task } = progress;
    let result = match (client, task) {
        (None, None) => server.execute(input, resolved).await,
        (None, Some(task)) => {
            // Nobody to notify: each report only sets the task's status.
            let input = input.with_progress(move |_: &ToolExecution, report: ToolProgress| {
                task.set_status_message(progress_status(&report));
            });
            server.execute(input, resolved).await
        }
        (Some((peer, token)), task) => {
            let (sender, reports) = mpsc::unbounded_channel();
            let input = input.with_progress(move |_: &ToolExecution, report: ToolProgress| {
                // The receiver outlives the call; a send can only fail after it returned.
                let _ = sender.send(report);
            });
            let call = server.execute(input, resolved);
            forwarding_progress(call, reports, &peer, token, task.as_deref()).await
        }
    };
    call_tool_result(result, structured)
}

/// Nothing names a served call beyond its id without feature `durable`: there is no journal.
#[cfg(not(feature = "durable"))]
#[derive(Clone, Copy)]
struct CallIdentity;

/// What a served call's span continues and carries (feature `otel`; nothing without).
#[cfg(feature = "otel")]
type Served = crate::telemetry::CallTelemetry;
/// What a served call's span continues and carries (feature `otel`; nothing without).
#[cfg(not(feature = "otel"))]
#[derive(Clone, Copy)]
struct Served;

/// The client's trace context in the request's `_meta` (SEP-414), which the call's span
/// continues, and the MCP attributes that go on that span.
#[cfg(feature = "otel")]
fn served_over_mcp(context: &RequestContext<RoleServer>) -> Served {
    crate::telemetry::CallTelemetry {
        parent: crate::telemetry::TraceContext::from_meta(&context.meta),
        served_over_mcp: true,
        mcp_session_id: None,
    }
}

/// Nothing to carry without feature `otel`.
#[cfg(not(feature = "otel"))]
fn served_over_mcp(_context: &RequestContext<RoleServer>) -> Served {
    Served
}

/// What a call run right here (on this thread, in this poll) carries: nothing when this thread
/// has no subscriber or the `INFO` level is off. That is the test the pipeline makes before it
/// makes the call's span (`pipeline/trace.rs`), and it reads what a call carries only onto a
/// span it records: attached then, it would be read by nobody and cost the call an allocation.
/// (A call run as a task runs on another task, maybe another thread: it carries it always.)
#[cfg(feature = "otel")]
fn served_here(context: &RequestContext<RoleServer>) -> Option<Served> {
    let recorded = tracing::level_enabled!(tracing::Level::INFO)
        && crate::future::thread_subscriber().is_some();
    recorded.then(|| served_over_mcp(context))
}

/// Nothing to carry without feature `otel`.
#[cfg(not(feature = "otel"))]
fn served_here(_context: &RequestContext<RoleServer>) -> Option<Served> {
    None
}

/// Awaits `call` while sending each progress report it makes as `notifications/progress` (and,
/// for a call run as `task`, making it the task's status once sent), then sends the reports
/// still queued: every report goes out, in order, before the reply.
async fn forwarding_progress(
    call: impl Future<Output = ToolExecutionResult>,
    mut reports: mpsc::UnboundedReceiver<ToolProgress>,
    peer: &Peer<RoleServer>,
    token: mcp::ProgressToken,
    task: Option<&TaskContext>,
) -> ToolExecutionResult {
    let mut call = pin!(call);
    let result = loop {
        tokio::select! {
            biased;
            result = &mut call => break result,
            Some(report) = reports.recv() => notify_progress(peer, &token, report, task).await,
        }
    };
    while let Ok(report) = reports.try_recv() {
        notify_progress(peer, &token, report, task).await;
    }
    result
}

async fn notify_progress(
    peer: &Peer<RoleServer>,
    token: &mcp::ProgressToken,
    report: ToolProgress,
    task: Option<&TaskContext>,
) {
    // The status only after the notification went out: a client that polls the task and also
    // hears its notifications (`task_client.rs`) then never sees a status before the
    // notification it stands for, and so never counts one report twice.
    let status = task.map(|_| progress_status(&report));
    let mut params = mcp::ProgressNotificationParam::new(token.clone(), report.progress);
    params.total = report.total;
    params.message = report.message;
    // A client that went away gets no progress; the call itself still ends normally.
    let _ = peer.notify_progress(params).await;
    if let (Some(task), Some(status)) = (task, status) {
        task.set_status_message(status);
    }
}

/// Waits for the next change of what `server` lists, coalescing the changes of one tick; `None`
/// once `stop` resolves or the server is gone.
async fn next_listing_change(
    server: &McpServer,
    changes: &mut watch::Receiver<u64>,
    shown: &Listing,
    stop: impl Future<Output = ()>,
) -> Option<Arc<Listing>> {
    let mut stop = pin!(stop);
    loop {
        tokio::select! {
            () = &mut stop => return None,
            changed = changes.changed() => changed.ok()?,
        }
        // Registrations made together (one loop, one batch) land within the same tick.
        tokio::task::yield_now().await;
        changes.borrow_and_update();
        let now = server.listing();
        if now.tools() != shown.tools() {
            return Some(now);
        }
    }
}

/// Sends `notifications/tools/list_changed` to a session-based client until its connection
/// ends.
async fn forward_list_changes(
    server: Arc<McpServer>,
    (mut changes, mut shown): (watch::Receiver<u64>, Arc<Listing>),
    peer: Peer<RoleServer>,
    closed: CancellationToken,
) {
    while let Some(now) =
        next_listing_change(&server, &mut changes, &shown, closed.cancelled()).await
    {
        shown = now;
        if peer.notify_tool_list_changed().await.is_err() {
            return;
        }
    }
}

impl McpHandler {
    /// The approver asking the client of `context` with `elicitation/create` requests, when the
    /// server may send it requests and it can be asked that way.
    fn elicitation_approver(
        &self,
        context: &RequestContext<RoleServer>,
        client: RequestClient,
    ) -> Option<Arc<dyn Approver>> {
        if !self.client_requests {
            return None;
        }
        let approver = ClientApprover::for_request(context, client)?;
        Some(Arc::new(approver))
    }
}

impl ServerHandler for McpHandler {
    fn get_info(&self) -> mcp::ServerConfig {
        self.server.info().clone()
    }

    async fn list_tools(
        &self,
        request: Option<mcp::PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<mcp::ListToolsResult, ErrorData> {
        let cursor = request.as_ref().and_then(|params| params.cursor.as_deref());
        Ok(self.server.listing().page(cursor, self.server.page_size()))
    }

    async fn call_tool(
        &self,
        request: mcp::CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<mcp::CallToolResponse, ErrorData> {
        // The tool is looked up once, for what it declares here, the call's result and the
        // call itself, whose capture takes this lookup.
        let resolved = self.server.resolve(&request.name);
        let (support, declares_output) =
            resolved
                .definition()
                .map_or((TaskSupport::Forbidden, false), |definition| {
                    (
                        definition.options().task_support,
                        definition.output_schema().is_some(),
                    )
                });
        let client = RequestClient::of(&context);
        let progress = context
            .meta
            .get_progress_token()
            .map(|token| (context.peer.clone(), token));
        let call_id = call_id(&context.id);
        #[cfg(feature = "durable")]
        let identity = CallIdentity::of(&self.server, &context.meta);
        #[cfg(not(feature = "durable"))]
        let identity = CallIdentity;
        // Since 2026-07-28 a tool's output may be any JSON value.
        let structured = Structured::of(declares_output, client.per_request);
        if call_mode(support, client.speaks_tasks)? == CallMode::Task {
            let served = Some(served_over_mcp(&context));
            let server = self.server.clone();
            let session_approver = self.elicitation_approver(&context, client);
            let asks_in_task = client.per_request && client.answers_forms;
            // Boxed: rmcp moves the handler's future into the task it spawns for every request
            // (three copies of its bytes); inline, this rare branch, which holds the whole call,
            // would make every call's future larger.
            let task = Box::pin(start_task(
                self.server.tasks(),
                self.server.task_settings(),
                self.server.task_book(),
                |signal, task| {
                    let progress = ServedProgress {
                        client: progress,
                        task: Some(Box::new(task.clone())),
                    };
                    let approver = if asks_in_task {
                        Some(Arc::new(TaskApprover::new(task)) as Arc<dyn Approver>)
                    } else {
                        session_approver
                    };
                    async move {
                        run_call(
                            &server, request, call_id, identity, signal, progress, approver,
                            structured, served, resolved,
                        )
                        .await
                    }
                },
            ))
            .await?;
            return Ok(task.into());
        }
        let round_trip = RoundTripApproval::for_request(
            client,
            &request,
            self.server.request_state_key(),
            self.server.agent(),
        );
        let approver = match &round_trip {
            Some(round_trip) => Some(Arc::new(round_trip.approver()) as Arc<dyn Approver>),
            None => self.elicitation_approver(&context, client),
        };
        let served = served_here(&context);
        // The request's token itself, not a clone: nothing reads the context after this.
        let signal = context.ct;
        // Boxed: the pipeline's future is large, and rmcp moves the handler's future whole into
        // every task it spawns for a request (one per request over stateless HTTP); inline, the
        // copies cost more than the call itself.
        let result = Box::pin(run_call(
            &self.server,
            request,
            call_id,
            identity,
            signal,
            ServedProgress::plain(progress),
            approver,
            structured,
            served,
            resolved,
        ))
        .await;
        // An attempt whose `ask` waits for the client's user is answered with the question.
        if let Some(input_required) = round_trip.and_then(|round_trip| round_trip.input_required())
        {
            return Ok(input_required.into());
        }
        Ok(result.into())
    }

    async fn get_task(
        &self,
        request: mcp::GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<mcp::GetTaskResult, ErrorData> {
        get_task(
            self.server.tasks(),
            self.server.task_book().as_ref(),
            &request.task_id,
        )
        .await
    }

    async fn update_task(
        &self,
        request: mcp::UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        update_task(
            self.server.tasks(),
            self.server.task_book().as_ref(),
            request,
        )
        .await
    }

    async fn cancel_task(
        &self,
        request: mcp::CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        cancel_task(
            self.server.tasks(),
            self.server.task_book().as_ref(),
            &request.task_id,
        )
        .await
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let Some(session) = &self.session else {
            return;
        };
        let watch = session
            .watch
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(watch) = watch {
            tokio::spawn(forward_list_changes(
                self.server.clone(),
                watch,
                context.peer,
                session.closed.clone(),
            ));
        }
    }

    fn accepted_subscription_filter(
        &self,
        requested: &mcp::SubscriptionFilter,
    ) -> Option<mcp::SubscriptionFilter> {
        let _ = requested;
        *self
            .listen_from
            .lock()
            .unwrap_or_else(PoisonError::into_inner) =
            Some((self.server.changes(), self.server.listing()));
        Some(
            mcp::SubscriptionFilter::builder()
                .tools_list_changed()
                .build(),
        )
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        if context.accepted().tools_list_changed != Some(true) {
            context.cancelled().await;
            return Ok(());
        }
        let baseline = self
            .listen_from
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        let (mut changes, mut shown) =
            baseline.unwrap_or_else(|| (self.server.changes(), self.server.listing()));
        while let Some(now) =
            next_listing_change(&self.server, &mut changes, &shown, context.cancelled()).await
        {
            shown = now;
            if context.sink().notify_tool_list_changed().await.is_err() {
                break;
            }
        }
        Ok(())
    }
}
