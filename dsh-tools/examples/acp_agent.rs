//! A minimal Agent Client Protocol agent over stdio whose prompt turns run a scripted set of tool
//! calls, so an editor (Zed, or any ACP client) shows them as tool call cards.
//!
//! The tools are the quickstart's (`coding_tools/`): they work in a scratch workspace the agent
//! creates at start, which is also the working directory its cards are shown against. Each
//! session gets an agent scope of the registry; one `observe` call wires the scope to the
//! session, and every call made through the scope then appears in the editor: a read, a search
//! that reports progress, an edit (a diff card), a command (a terminal card, or a console block
//! when the client shows no terminals), a call with three argument mistakes and a tool that
//! panics. `session/cancel` cancels the turn's calls through their signal.
//!
//! Run with `cargo run -p dsh-tools --example acp_agent --features acp`, as the command of an
//! ACP client (it speaks JSON-RPC on stdin/stdout; logs go to stderr).

pub mod coding_tools;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use dsh_tools::acp::protocol::v1::ConnectionTo;
use dsh_tools::acp::protocol::v1::schema::{
    AgentCapabilities, CancelNotification, ClientCapabilities, ContentBlock, ContentChunk,
    Implementation, InitializeRequest, InitializeResponse, NewSessionRequest, NewSessionResponse,
    PromptRequest, PromptResponse, SessionId, SessionNotification, SessionUpdate, StopReason,
    TextContent,
};
use dsh_tools::acp::protocol::{self, Agent, Client, Responder, V1};
use dsh_tools::acp::{AcpCards, AcpToolCalls};
use dsh_tools::{AgentId, ToolExecutionInput, ToolRegistry, call::CancellationToken};

use coding_tools::{Workspace, create_workspace};

/// The scripted turn: what a model might call, in order (call id suffix, tool, arguments).
const TURN: &[(&str, &str, &str)] = &[
    ("read", "read_file", r#"{"path": "src/lib.rs"}"#),
    (
        "search",
        "search_files",
        r#"{"pattern": "greeting", "path": ".", "include": ["*.rs"]}"#,
    ),
    (
        "edit",
        "edit_file",
        r#"{"path": "src/lib.rs", "old_text": "Hello, world!", "new_text": "Hello, tools!"}"#,
    ),
    (
        "run",
        "run_command",
        r#"{"command": "grep -rn Hello src", "description": "Check the edit"}"#,
    ),
    // Three mistakes: `pattern` is missing, `max_results` is a string, `mode` is not a mode.
    (
        "mistakes",
        "search_files",
        r#"{"path": "/src", "max_results": "50", "mode": "fuzzy"}"#,
    ),
    ("bug", "word_count", r#"{"path": "src/lib.rs", "line": 4}"#),
];

/// What the agent keeps between requests.
struct AgentState {
    registry: ToolRegistry,
    workspace: PathBuf,
    client: Mutex<ClientCapabilities>,
    /// The cancellation of each session's running turn.
    running: Mutex<HashMap<SessionId, CancellationToken>>,
    sessions: Mutex<u64>,
    /// Turns started so far: call ids must stay unique within a session across its turns.
    turns: Mutex<u64>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl AgentState {
    /// A session: its own scope of the registry, shown to the client through the bridge.
    fn new_session(&self, connection: &ConnectionTo<Client>) -> Result<SessionId, protocol::Error> {
        let number = {
            let mut sessions = lock(&self.sessions);
            *sessions += 1;
            *sessions
        };
        let session_id = SessionId::new(format!("session-{number}"));
        let scope = self
            .registry
            .create_child(session_id.to_string())
            .map_err(|error| protocol::Error::internal_error().data(error.to_string()))?;
        let cards = AcpCards::new(&self.workspace, lock(&self.client).terminal);
        // The one line that shows the session its calls; it stays for the session's lifetime.
        let _shown = scope
            .observe(AcpToolCalls::new(
                connection.clone(),
                session_id.clone(),
                cards,
            ))
            .map_err(|error| protocol::Error::internal_error().data(error.to_string()))?;
        Ok(session_id)
    }

    /// Runs the scripted turn in the session's scope; ends early when the client cancels.
    async fn run_turn(
        &self,
        connection: &ConnectionTo<Client>,
        session_id: &SessionId,
        cancel: &CancellationToken,
    ) -> Result<StopReason, protocol::Error> {
        let scope = self
            .registry
            .scope(&AgentId::from(session_id.to_string()))
            .ok_or_else(|| protocol::Error::invalid_params().data("unknown session"))?;
        let turn = {
            let mut turns = lock(&self.turns);
            *turns += 1;
            *turns
        };
        say(
            connection,
            session_id,
            "Let me look at the workspace and make the edit.",
        )?;
        for (suffix, name, arguments) in TURN {
            if cancel.is_cancelled() {
                return Ok(StopReason::Cancelled);
            }
            let input =
                ToolExecutionInput::from_raw(format!("turn{turn}-{suffix}"), *name, arguments)
                    .with_signal(cancel.child_token());
            let result = scope.execute(input).await;
            eprintln!(
                "{name}: {}",
                result
                    .error_code()
                    .unwrap_or(if result.is_error() { "error" } else { "ok" })
            );
        }
        if cancel.is_cancelled() {
            return Ok(StopReason::Cancelled);
        }
        say(
            connection,
            session_id,
            "Done: the greeting now says hello to tools.",
        )?;
        Ok(StopReason::EndTurn)
    }
}

/// Sends a chunk of the agent's message.
fn say(
    connection: &ConnectionTo<Client>,
    session_id: &SessionId,
    text: &str,
) -> Result<(), protocol::Error> {
    connection.send_notification(SessionNotification::new(
        session_id.clone(),
        SessionUpdate::AgentMessageChunk(ContentChunk::new(ContentBlock::Text(TextContent::new(
            text,
        )))),
    ))
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The registry turns panics into results; keep the default hook from printing a backtrace.
    std::panic::set_hook(Box::new(|info| eprintln!("(a tool panicked: {info})")));
    let scratch = create_workspace()?;
    let workspace = scratch.root().to_path_buf();
    // Each tool's `timeout_ms` is enforced by the registry itself.
    let registry = coding_tools::registry(Workspace {
        root: workspace.clone(),
    })?;
    let state = Arc::new(AgentState {
        registry,
        workspace: workspace.clone(),
        client: Mutex::new(ClientCapabilities::new()),
        running: Mutex::new(HashMap::new()),
        sessions: Mutex::new(0),
        turns: Mutex::new(0),
    });

    let on_initialize = Arc::clone(&state);
    let on_new_session = Arc::clone(&state);
    let on_prompt = Arc::clone(&state);
    let on_cancel = Arc::clone(&state);
    let served = Agent
        .v1()
        .name("dsh-tools-acp-agent")
        .on_receive_request(
            async move |request: InitializeRequest,
                        responder: Responder<InitializeResponse, V1>,
                        _connection: ConnectionTo<Client>| {
                *lock(&on_initialize.client) = request.client_capabilities.clone();
                responder.respond(
                    InitializeResponse::new(request.protocol_version)
                        .agent_capabilities(AgentCapabilities::new())
                        .agent_info(Implementation::new(
                            "dsh-tools-acp-agent",
                            env!("CARGO_PKG_VERSION"),
                        )),
                )
            },
            protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |_request: NewSessionRequest,
                        responder: Responder<NewSessionResponse, V1>,
                        connection: ConnectionTo<Client>| {
                match on_new_session.new_session(&connection) {
                    Ok(session_id) => responder.respond(NewSessionResponse::new(session_id)),
                    Err(error) => responder.respond_with_error(error),
                }
            },
            protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |request: PromptRequest,
                        responder: Responder<PromptResponse, V1>,
                        connection: ConnectionTo<Client>| {
                let cancel = CancellationToken::new();
                lock(&on_prompt.running).insert(request.session_id.clone(), cancel.clone());
                let state = Arc::clone(&on_prompt);
                // The turn runs beside the dispatch loop, which stays free for `session/cancel`.
                connection.clone().spawn(async move {
                    let outcome = state
                        .run_turn(&connection, &request.session_id, &cancel)
                        .await;
                    lock(&state.running).remove(&request.session_id);
                    match outcome {
                        Ok(stop) => responder.respond(PromptResponse::new(stop)),
                        Err(error) => responder.respond_with_error(error),
                    }
                })
            },
            protocol::on_receive_request!(),
        )
        .on_receive_notification(
            async move |notification: CancelNotification, _connection: ConnectionTo<Client>| {
                if let Some(turn) = lock(&on_cancel.running).get(&notification.session_id) {
                    turn.cancel();
                }
                Ok(())
            },
            protocol::on_receive_notification!(),
        )
        .connect_to(dsh_tools::acp::stdio())
        .await;
    drop(scratch);
    served?;
    Ok(())
}
