//! [`AcpToolCalls`]: a call observer that shows one ACP session every call of a registry (or of a
//! scope) as it runs: `tool_call` when it starts, `tool_call_update` for each progress report
//! and when it finishes.
//!
//! Wiring is one registration: `scope.observe(AcpToolCalls::new(connection, session_id, cards))`.
//! The cards come from the definition each call resolved to when it started
//! ([`ObservedCall`]), with every fallback of [`ToolCallView::present`]; [`AcpCards`] maps them.
//! Notifications are queued on the connection synchronously, in the order of the call's events,
//! so a client sees a call's `tool_call` before its updates.
//!
//! A nested call (a `run_code` program's `tools.x(..)`, a tool calling tools) names the call it
//! runs inside in its `tool_call`'s `_meta` (`"parentToolCallId"`), so a client can show the
//! nested cards under the program's.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{SessionId, SessionNotification, SessionUpdate};

use crate::acp::cards::AcpCards;
use crate::hooks::call_observer::{CallObserver, ObservedCall};
use crate::ids::ToolExecutionToken;
use crate::present::ToolCallView;
use crate::progress::ToolProgress;
use crate::result::ToolExecutionResult;

/// Where the bridge's notifications go.
type Sender = Arc<dyn Fn(SessionNotification) + Send + Sync>;

/// Shows calls to one ACP session. Register it with
/// [`ToolRegistry::observe`](crate::ToolRegistry::observe) (every call) or
/// [`ToolScope::observe`](crate::ToolScope::observe) (the calls of one agent, e.g. the session's
/// own scope).
///
/// ```no_run
/// # use dsh_tools::ToolRegistry;
/// # use dsh_tools::acp::{AcpCards, AcpToolCalls};
/// # use dsh_tools::acp::protocol::{Client, v1::ConnectionTo, v1::schema::ClientCapabilities};
/// # fn wire(registry: &ToolRegistry, connection: ConnectionTo<Client>, caps: &ClientCapabilities) {
/// let scope = registry.create_scope("session-1", None).unwrap();
/// let cards = AcpCards::for_client("/home/ada/project", caps);
/// let _shown = scope.observe(AcpToolCalls::new(connection, "session-1", cards)).unwrap();
/// // every `scope.execute(..)` now appears in the editor as a tool call card
/// # }
/// ```
#[derive(Clone)]
pub struct AcpToolCalls {
    session_id: SessionId,
    cards: AcpCards,
    send: Sender,
    /// The call ids of the calls shown and not finished yet, for their nested calls.
    running: Arc<Mutex<HashMap<ToolExecutionToken, String>>>,
}

/// The `_meta` key naming the call a nested call runs inside.
pub const PARENT_TOOL_CALL_META_KEY: &str = "parentToolCallId";

impl AcpToolCalls {
    /// A bridge sending `session/update` notifications of session `session_id` on `connection`.
    /// A notification that cannot be queued (the connection is closed) is logged and dropped:
    /// the call itself is never affected.
    pub fn new(
        connection: ConnectionTo<Client>,
        session_id: impl Into<SessionId>,
        cards: AcpCards,
    ) -> Self {
        Self::with_sender(session_id, cards, move |notification| {
            if let Err(error) = connection.send_notification(notification) {
                tracing::warn!("could not send an ACP tool call update: {error}");
            }
        })
    }

    /// A bridge handing its notifications to `send` (another transport, a test, a log).
    pub fn with_sender(
        session_id: impl Into<SessionId>,
        cards: AcpCards,
        send: impl Fn(SessionNotification) + Send + Sync + 'static,
    ) -> Self {
        Self {
            session_id: session_id.into(),
            cards,
            send: Arc::new(send),
            running: Arc::default(),
        }
    }

    /// How this bridge maps cards.
    pub fn cards(&self) -> &AcpCards {
        &self.cards
    }

    fn send(&self, update: SessionUpdate) {
        (self.send)(SessionNotification::new(self.session_id.clone(), update));
    }
}

impl fmt::Debug for AcpToolCalls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AcpToolCalls")
            .field("session_id", &self.session_id)
            .field("cards", &self.cards)
            .finish_non_exhaustive()
    }
}

impl CallObserver for AcpToolCalls {
    fn on_start(&self, call: &ObservedCall<'_>) {
        let execution = call.execution();
        let card = call.present_call();
        let mut tool_call = self.cards.tool_call(
            execution.call_id(),
            execution.name(),
            execution.arguments(),
            &card,
        );
        {
            let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(parent) = execution.parent().and_then(|parent| running.get(&parent)) {
                let mut meta = serde_json::Map::new();
                meta.insert(
                    PARENT_TOOL_CALL_META_KEY.to_owned(),
                    serde_json::Value::String(parent.clone()),
                );
                tool_call = tool_call.meta(meta);
            }
            running.insert(execution.token(), execution.call_id().to_owned());
        }
        self.send(SessionUpdate::ToolCall(tool_call));
    }

    fn on_progress(&self, call: &ObservedCall<'_>, progress: &ToolProgress) {
        let execution = call.execution();
        let pending = call.present_call();
        let card = call.present_progress(&pending, progress);
        self.send(SessionUpdate::ToolCallUpdate(self.cards.progress_update(
            execution.call_id(),
            execution.arguments(),
            &card,
            progress,
        )));
    }

    fn on_result(&self, call: &ObservedCall<'_>, result: &ToolExecutionResult) {
        self.running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&call.execution().token());
        let pending: ToolCallView = call.present_call();
        let card = call.present_result(&pending, result);
        self.send(SessionUpdate::ToolCallUpdate(self.cards.completion_update(
            call.execution().call_id(),
            &pending,
            &card,
            result,
        )));
    }
}
