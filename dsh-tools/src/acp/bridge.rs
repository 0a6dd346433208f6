//! [`AcpToolCalls`]: a call observer that shows one ACP session every call of a registry (or of a
//! scope) as it runs: `tool_call` when it starts, `tool_call_update` for each progress report
//! and when it finishes.
//!
//! Wiring is one registration: `scope.observe(AcpToolCalls::new(connection, session_id, cards))`.
//! The cards come from the definition each call resolved to when it started
//! ([`ObservedCall::present_call`] and its kin, with every fallback); [`AcpCards`] maps them.
//! Notifications are queued on the connection synchronously, in the order of the call's events,
//! so a client sees a call's `tool_call` before its updates.
//!
//! A nested call (a `run_code` program's `tools.x(..)`, a tool calling tools) names the call it
//! runs inside in its `tool_call`'s `_meta` (`"parentToolCallId"`), so a client can show the
//! nested cards under the program's.
//!
//! A call can be shown before it runs, while the model is still writing it
//! ([`AcpToolCalls::show_partial`]): its `tool_call` goes out as soon as its name is known and
//! its raw input is updated as it grows.

use std::collections::{HashMap, HashSet};
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

/// Shows calls to one ACP session. Register it with [`observe`](crate::ToolScope::observe) on the
/// registry (every call) or on a scope (the calls of one agent, e.g. the session's own scope). A
/// call made inside another (a `run_code` program's) names its parent's call id in its
/// `tool_call`'s `_meta`, under `"parentToolCallId"`.
///
/// ```no_run
/// # use dsh_tools::ToolRegistry;
/// # use dsh_tools::acp::{AcpCards, AcpToolCalls};
/// # use dsh_tools::acp::protocol::{Client, v1::ConnectionTo, v1::schema::ClientCapabilities};
/// # fn wire(registry: &ToolRegistry, connection: ConnectionTo<Client>, caps: &ClientCapabilities) {
/// let scope = registry.create_child("session-1").unwrap();
/// let cards = AcpCards::new("/home/ada/project", caps.terminal);
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
    /// The call ids shown while the model was still writing them and not started yet: their
    /// `tool_call` was sent, so their start is an update.
    streamed: Arc<Mutex<HashSet<String>>>,
}

/// The `_meta` key naming the call a nested call runs inside.
const PARENT_TOOL_CALL_META_KEY: &str = "parentToolCallId";

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
            streamed: Arc::default(),
        }
    }

    /// Shows call `call_id` of `tool_name` while the model is still writing it: the first time a
    /// `tool_call` (status `pending`), after that a `tool_call_update` with the card and the raw
    /// input so far. `arguments` are the call's arguments so far (a stream's
    /// [`arguments_so_far`](crate::providers::stream::ToolCallStream::arguments_so_far)), `card`
    /// the layer's [`present_partial_call`](crate::ToolScope::present_partial_call) of them. When the call then runs (under the same id), its start updates this card rather
    /// than announcing a second one.
    ///
    /// ```no_run
    /// # use dsh_tools::ToolRegistry;
    /// # use dsh_tools::acp::AcpToolCalls;
    /// # use dsh_tools::providers::stream::{StreamEvent, ToolCallStream};
    /// # fn show(registry: &ToolRegistry, acp: &AcpToolCalls, stream: &ToolCallStream<'_>, events: &[StreamEvent]) {
    /// for event in events {
    ///     if let StreamEvent::CallStarted { index, .. } | StreamEvent::ArgumentsDelta { index, .. } = event {
    ///         let call = &stream.calls()[*index].call;
    ///         let so_far = stream.arguments_so_far(*index).unwrap_or_default();
    ///         let card = registry.present_partial_call(&call.name, &so_far);
    ///         acp.show_partial(&call.id, &call.name, &so_far, &card);
    ///     }
    /// }
    /// # }
    /// ```
    pub fn show_partial(
        &self,
        call_id: &str,
        tool_name: &str,
        arguments: &serde_json::Value,
        card: &ToolCallView,
    ) {
        let first = self
            .streamed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(call_id.to_owned());
        if first {
            let call = self
                .cards
                .partial_tool_call(call_id, tool_name, arguments, card);
            self.send(SessionUpdate::ToolCall(call));
        } else {
            let update = self
                .cards
                .pending_update(call_id, tool_name, arguments, card);
            self.send(SessionUpdate::ToolCallUpdate(update));
        }
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
        let execution = call.execution;
        let card = call.present_call();
        let parent = {
            let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
            let parent = execution
                .parent()
                .and_then(|parent| running.get(&parent))
                .cloned();
            running.insert(execution.token(), execution.call_id().to_owned());
            parent
        };
        let streamed = self
            .streamed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(execution.call_id());
        if streamed {
            // Announced while the model wrote it: now shown running, with its final arguments.
            let update = self.cards.started_update(
                execution.call_id(),
                execution.name(),
                execution.arguments(),
                &card,
            );
            self.send(SessionUpdate::ToolCallUpdate(update));
            return;
        }
        let mut tool_call = self.cards.tool_call(
            execution.call_id(),
            execution.name(),
            execution.arguments(),
            &card,
        );
        if let Some(parent) = parent {
            let mut meta = serde_json::Map::new();
            meta.insert(
                PARENT_TOOL_CALL_META_KEY.to_owned(),
                serde_json::Value::String(parent),
            );
            tool_call = tool_call.meta(meta);
        }
        self.send(SessionUpdate::ToolCall(tool_call));
    }

    fn on_progress(&self, call: &ObservedCall<'_>, progress: &ToolProgress) {
        let execution = call.execution;
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
            .remove(&call.execution.token());
        let pending: ToolCallView = call.present_call();
        let card = call.present_result(&pending, result);
        self.send(SessionUpdate::ToolCallUpdate(self.cards.completion_update(
            call.execution.call_id(),
            &pending,
            &card,
            result,
        )));
    }
}
