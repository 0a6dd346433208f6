//! An imported MCP tool: a raw [`ToolDefinition`] whose `execute` calls the server, and the
//! connection state its calls share (the peer, progress routing).
//!
//! The server's `inputSchema` is shown to the model unchanged and, unless the import asks for
//! it ([`ImportOptions::validate_arguments`](crate::mcp::ImportOptions::validate_arguments)),
//! not validated here — the server validates its own input. A call maps back the way it came: `isError` becomes an error
//! result with the server's text, and with the `{name, code}` the server put in the result's
//! `_meta` (a dsh-tools server does; see [`ERROR_META_KEY`](crate::mcp::ERROR_META_KEY)), else
//! the registry's `TOOL_ERROR`; otherwise `structuredContent` (or, without it, the text of the
//! content) is the value, and the server's content blocks reach the model as they are. A tool
//! the server lists with an `outputSchema` (of any JSON type since 2026-07-28) declares it as its
//! [`output_schema`](crate::ToolDefinition::output_schema), so the pipeline checks the value
//! against it (`INVALID_TOOL_OUTPUT`), as MCP asks of clients, and Code Mode's declaration types
//! its result. The call's
//! signal sends `notifications/cancelled`; a call the server answers with a task is followed to
//! its end (`task_client.rs`), the same to our caller; a server that answers with an
//! `InputRequiredResult` (multi-round-trip requests) has its elicitation requests answered by the
//! client's handler and the call sent again with the answers and its `requestState`, at most
//! [`MAX_INPUT_ROUNDS`] times (`input_required.rs`); a server that died, hung or broke the
//! protocol, asked for input this client does not give, or kept asking is an `MCP_TRANSPORT`
//! error result that says what happened.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use rmcp::model as mcp;
use rmcp::service::{Peer, PeerRequestOptions, RoleClient, ServiceError};
use serde_json::Value;

use crate::call::definition::ToolDefinition;
use crate::call::options::ToolOptions;
use crate::call::options::ToolOrigin;
use crate::call::run::ToolRun;
use crate::content::{ContentBlock, joined_text};
use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::mcp::convert::{
    annotations_from_mcp, content_from_mcp, error_info_from_meta, icon_from_mcp,
};
use crate::mcp::importing::elicitation::ElicitationSlot;
use crate::mcp::importing::input_required::{
    FIRST_STATE_ONLY_WAIT, LONGEST_STATE_ONLY_WAIT, MAX_INPUT_ROUNDS, answer_input_requests,
    too_many_rounds,
};
use crate::mcp::importing::progress_routes::ProgressRoutes;
use crate::mcp::importing::task_client::follow_task;
use crate::mcp::task_support::task_support_of;
use dsh_tools_schema::{CompiledSchema, Schema};

/// How long after its budget an imported call gives up on its own when the registry did not end
/// it first (the registry's `TOOL_TIMEOUT` wins; this only keeps a hung server from hanging a
/// call whose registry runs with timeouts turned off).
const OWN_DEADLINE_SLACK: Duration = Duration::from_secs(2);

/// What the imported tools of one connection share.
pub(crate) struct Connection {
    /// The server's name, for messages.
    pub(crate) server: String,
    pub(crate) peer: Peer<RoleClient>,
    pub(crate) progress: Arc<ProgressRoutes>,
    /// The handler that answers the server's requests for input.
    pub(crate) elicitation: ElicitationSlot,
}

/// Sends `notifications/cancelled` for a request unless disarmed: a call that was cancelled, or
/// whose future was dropped (a timeout layer's grace ran out), tells the server to stop.
struct CancelOnDrop {
    peer: Peer<RoleClient>,
    request: Option<mcp::RequestId>,
    reason: &'static str,
}

impl CancelOnDrop {
    fn disarm(mut self) {
        self.request = None;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let Some(request) = self.request.take() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let peer = self.peer.clone();
        let params =
            mcp::CancelledNotificationParam::new(Some(request), Some(self.reason.to_owned()));
        runtime.spawn(async move {
            let notification = mcp::CancelledNotification::new(params);
            // A server that is gone needs no cancellation.
            let _ = peer.send_notification(notification.into()).await;
        });
    }
}

/// `schema` (what a server listed as `what` of `tool`) compiled, when the engine can enforce it;
/// otherwise `None`, with a warning that the values it describes go unchecked.
fn enforceable(schema: &Value, server: &str, tool: &str, what: &str) -> Option<CompiledSchema> {
    match Schema::from_json_schema(schema) {
        Ok(schema) => Some(CompiledSchema::from(schema)),
        Err(error) => {
            tracing::warn!(
                server,
                tool,
                "{what} cannot be enforced here, so what it describes goes unchecked: {error}"
            );
            None
        }
    }
}

/// One tool of an MCP server, registered under its registry name.
pub(crate) struct ImportedTool {
    name: String,
    /// The tool as the server listed it: its own name (what calls use) and everything a re-sync
    /// compares.
    source: mcp::Tool,
    description: String,
    /// The server's `inputSchema`, shared with the registry's [`ToolSchema`](crate::ToolSchema).
    parameters: Arc<Value>,
    /// The budget, the annotations and icons as the server listed them, the task support and
    /// whether the import defers the tool: made once, when the tool is imported.
    options: ToolOptions,
    concurrency_safe: bool,
    /// The `inputSchema`, compiled, when the import checks arguments before sending them.
    arguments: Option<CompiledSchema>,
    /// The `outputSchema`, compiled, when the server listed one the engine can enforce.
    output: Option<CompiledSchema>,
    connection: Arc<Connection>,
    /// Set while this is a pinned definition the server has changed (a held change): calls are
    /// then checked against this `inputSchema` before they are sent, whatever the import's
    /// `validate_arguments`, so the server never receives what the pinned schema forbids.
    held: Arc<AtomicBool>,
    held_arguments: OnceLock<Option<CompiledSchema>>,
}

impl ImportedTool {
    pub(crate) fn new(
        name: String,
        source: mcp::Tool,
        timeout_ms: Option<u64>,
        concurrency_safe: bool,
        validate_arguments: bool,
        defer_loading: bool,
        connection: Arc<Connection>,
    ) -> Self {
        let description = source
            .description
            .as_deref()
            .or(source.title.as_deref())
            .unwrap_or_default()
            .to_owned();
        let parameters = Arc::new(Value::Object((*source.input_schema).clone()));
        // The title comes with the annotations.
        let options = ToolOptions {
            timeout_ms,
            annotations: annotations_from_mcp(&source),
            icons: source.icons.iter().flatten().map(icon_from_mcp).collect(),
            defer_loading,
            task_support: task_support_of(&source),
            origin: ToolOrigin::Mcp,
            ..ToolOptions::default()
        };
        let arguments = validate_arguments
            .then(|| enforceable(&parameters, &connection.server, &name, "the inputSchema"))
            .flatten();
        let output = source.output_schema.as_ref().and_then(|output| {
            let output = Value::Object((**output).clone());
            enforceable(&output, &connection.server, &name, "the outputSchema")
        });
        Self {
            name,
            source,
            description,
            parameters,
            options,
            concurrency_safe,
            arguments,
            output,
            connection,
            held: Arc::new(AtomicBool::new(false)),
            held_arguments: OnceLock::new(),
        }
    }

    /// Shares `held` with the import, which sets it while a change of this tool is held.
    pub(crate) fn with_held_flag(mut self, held: Arc<AtomicBool>) -> Self {
        self.held = held;
        self
    }

    /// The schema calls are checked against before they are sent, if any.
    fn argument_check(&self) -> Option<&CompiledSchema> {
        if self.arguments.is_some() || !self.held.load(Ordering::Acquire) {
            return self.arguments.as_ref();
        }
        self.held_arguments
            .get_or_init(|| {
                let server = &self.connection.server;
                enforceable(
                    &self.parameters,
                    server,
                    &self.name,
                    "the pinned inputSchema",
                )
            })
            .as_ref()
    }

    async fn call(&self, arguments: &Value, run: &ToolRun) -> Result<Value, ToolError> {
        if let Some(schema) = self.argument_check()
            && let Err(violations) = schema.validate(arguments)
        {
            return Err(ToolError::invalid_arguments(&violations));
        }
        let Value::Object(arguments) = arguments else {
            return Err(ToolError::invalid_arguments_text(
                "MCP tools take a JSON object",
            ));
        };
        let connection = &self.connection;
        let mut params = mcp::CallToolRequestParams::new(self.source.name.clone())
            .with_arguments(arguments.clone());
        // The same key on every attempt of this call, so a server can drop a repeated effect.
        let mut meta = mcp::RequestMetaObject::new();
        meta.insert(
            crate::mcp::convert::IDEMPOTENCY_META_KEY.to_owned(),
            Value::String(run.execution().idempotency_key()),
        );
        // The call's trace goes on at the server (SEP-414): its span is the current one here.
        #[cfg(feature = "otel")]
        if let Some(context) = crate::telemetry::TraceContext::current() {
            context.write_meta(&mut meta);
        }
        params.meta = Some(meta);
        let mut rounds = 0;
        let mut state_only_wait = FIRST_STATE_ONLY_WAIT;
        loop {
            let request =
                mcp::ClientRequest::CallToolRequest(mcp::CallToolRequest::new(params.clone()));
            let options = match self.options.timeout_ms {
                Some(budget) => PeerRequestOptions::with_timeout(
                    Duration::from_millis(budget) + OWN_DEADLINE_SLACK,
                ),
                None => PeerRequestOptions::no_options(),
            };
            let handle = connection
                .peer
                .send_request_with_option(request, options)
                .await
                .map_err(|error| self.failure(error))?;
            // Open while the request is, and while a task it became is followed.
            let route = run
                .wants_progress()
                .then(|| connection.progress.open(handle.progress_token.clone(), run));
            let cancel = CancelOnDrop {
                peer: connection.peer.clone(),
                request: Some(handle.id.clone()),
                reason: "the call was cancelled",
            };
            let response = tokio::select! {
                response = handle.await_response() => response,
                () = run.cancelled() => {
                    drop(cancel);
                    return Err(ToolError::aborted());
                }
            };
            // rmcp already told the server about its own timeout; nothing else needs cancelling.
            cancel.disarm();
            let input = match response {
                Ok(mcp::ServerResult::CallToolResult(result)) => return self.finish(result, run),
                // The server made the call a task (`task_client.rs`).
                Ok(mcp::ServerResult::CreateTaskResult(task)) => {
                    let result = follow_task(
                        &connection.peer,
                        &connection.server,
                        &connection.elicitation,
                        &self.source.name,
                        task,
                        run,
                        route.as_ref(),
                    )
                    .await?;
                    return self.finish(result, run);
                }
                // The server needs input first (multi-round-trip requests).
                Ok(mcp::ServerResult::InputRequiredResult(input)) => input,
                Ok(_) => {
                    return Err(ToolError::mcp_transport(format!(
                        "MCP server \"{}\" answered tools/call \"{}\" with something other than a tool result",
                        connection.server, self.source.name
                    )));
                }
                Err(error) => return Err(self.failure(error)),
            };
            rounds += 1;
            if rounds > MAX_INPUT_ROUNDS {
                return Err(too_many_rounds(&connection.server, &self.source.name));
            }
            let requests = input.input_requests.unwrap_or_default();
            let answering = async {
                if requests.is_empty() {
                    // Only a state: the server is not ready yet; wait a little before asking again.
                    tokio::time::sleep(state_only_wait).await;
                    state_only_wait = (state_only_wait * 2).min(LONGEST_STATE_ONLY_WAIT);
                } else {
                    state_only_wait = FIRST_STATE_ONLY_WAIT;
                }
                answer_input_requests(
                    &connection.elicitation,
                    &connection.server,
                    &self.source.name,
                    requests,
                )
                .await
            };
            let responses = tokio::select! {
                responses = answering => responses?,
                // Nothing waits on the server's side between rounds: there is nothing to cancel.
                () = run.cancelled() => return Err(ToolError::aborted()),
            };
            params.input_responses = (!responses.is_empty()).then_some(responses);
            params.request_state = input.request_state;
        }
    }

    /// The server's result as the call's outcome.
    fn finish(&self, result: mcp::CallToolResult, run: &ToolRun) -> Result<Value, ToolError> {
        let content: Vec<ContentBlock> = result.content.into_iter().map(content_from_mcp).collect();
        if result.is_error == Some(true) {
            let text = joined_text(&content);
            let error = if text.is_empty() {
                ToolError::new(format!(
                    "MCP tool \"{}\" failed without saying why",
                    self.source.name
                ))
            } else {
                // The model reads `Error: <message>`: a server whose text already says `Error: `
                // (a dsh-tools server does) is shown exactly as it wrote it.
                ToolError::new(text.strip_prefix("Error: ").unwrap_or(&text))
            };
            // The server's own code, so the importing side branches on it as the serving side
            // does; without one, the pipeline gives the failure `TOOL_ERROR`.
            return Err(match error_info_from_meta(result.meta.as_ref()) {
                Some(info) => error.with_info(info),
                None => error,
            });
        }
        let value = match result.structured_content {
            Some(value) => value,
            None => {
                let text = joined_text(&content);
                // A tool with an output schema whose server left `structuredContent` out (one on
                // an earlier revision does for a value that is not an object) wrote the value as
                // JSON text.
                match self.output.is_some().then(|| serde_json::from_str(&text)) {
                    Some(Ok(value)) => value,
                    _ => Value::String(text),
                }
            }
        };
        run.provide_content(content);
        Ok(value)
    }

    /// What a failed request becomes.
    fn failure(&self, error: ServiceError) -> ToolError {
        let server = &self.connection.server;
        let tool = &self.source.name;
        match error {
            ServiceError::McpError(error) => ToolError::new(format!(
                "MCP server \"{server}\" refused tools/call \"{tool}\": {} (JSON-RPC error {})",
                error.message, error.code.0
            )),
            ServiceError::Timeout { .. } => ToolError::mcp_transport(format!(
                "MCP server \"{server}\" did not answer tools/call \"{tool}\" within {} ms",
                self.options.timeout_ms.unwrap_or_default()
            )),
            ServiceError::TransportClosed | ServiceError::TransportSend(_) => {
                ToolError::mcp_transport(format!(
                    "the connection to MCP server \"{server}\" is closed: the server exited or the connection was lost during tools/call \"{tool}\""
                ))
            }
            other => ToolError::mcp_transport(format!(
                "MCP server \"{server}\" broke off tools/call \"{tool}\": {other}"
            )),
        }
    }
}

impl ToolDefinition for ImportedTool {
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn parameters(&self) -> &Value {
        &self.parameters
    }

    fn shared_parameters(&self) -> Arc<Value> {
        Arc::clone(&self.parameters)
    }

    fn options(&self) -> &ToolOptions {
        &self.options
    }

    fn output_schema(&self) -> Option<&CompiledSchema> {
        self.output.as_ref()
    }

    fn execute<'a>(
        &'a self,
        arguments: &'a Value,
        run: &'a ToolRun,
    ) -> BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(self.call(arguments, run))
    }

    fn is_concurrency_safe(&self, _arguments: &Value) -> bool {
        self.concurrency_safe
    }
}
