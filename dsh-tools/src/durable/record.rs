//! The records a [`CallStore`](crate::durable::CallStore) keeps: journal entries (one per
//! idempotency key), approvals that wait and served MCP tasks. Plain serializable values; the rules that move them
//! from state to state are `journal.rs` and `approval.rs`, written once for every backend.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::content::{ContentBlock, render_value_as_text};
use crate::errors::tool_error::{ErrorInfo, ToolError};
use crate::result::{ToolExecutionResult, ToolOutcome};

/// Where a journaled call stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum JournalState {
    /// The body was started and no outcome was recorded after: running now, or in doubt when
    /// the process that started it is gone.
    Started,
    /// An outcome was recorded (by the body, or by hand): a retry replays it.
    Completed,
    /// The body reported a failure of its own: a retry runs it again.
    Failed,
    /// Someone decided an in-doubt call may run again: the next attempt runs the body.
    RunAgain,
}

impl JournalState {
    /// The name stored beside the record (`started`, `completed`, `failed`, `run_again`).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Started => "started",
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::RunAgain => "run_again",
        }
    }
}

/// The name stored beside the record, as serde writes it too.
impl fmt::Display for JournalState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One journaled call: what its latest attempt began with and what it ended with.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct JournalEntry {
    /// The call's idempotency key (the same for every attempt).
    pub key: String,
    /// The tool called.
    pub tool: String,
    /// The agent the call ran for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// Where the arguments' digest is kept: the key of a read-only answer within a time to live.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments_digest: Option<String>,
    /// For a nested call of a Code Mode run (keyed `<run key>/<n>`): the SHA-256 of its
    /// canonical arguments, in hex, so a re-run of the program that asks this position for other
    /// arguments is told apart (`CODE_RUN_DIVERGED`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_digest: Option<String>,
    /// Where it stands.
    pub state: JournalState,
    /// How many attempts began (1 for the first).
    pub attempt: u64,
    /// When the latest attempt began, in milliseconds since the Unix epoch.
    pub started_at_ms: u64,
    /// The process that began it (`<host> pid <pid>`, or what the journal was told).
    pub place: String,
    /// When its outcome was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_at_ms: Option<u64>,
    /// The outcome, once recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<RecordedOutcome>,
}

impl Clone for JournalEntry {
    fn clone(&self) -> Self {
        Self {
            key: self.key.clone(),
            tool: self.tool.clone(),
            agent: self.agent.clone(),
            arguments_digest: self.arguments_digest.clone(),
            call_digest: self.call_digest.clone(),
            state: self.state,
            attempt: self.attempt,
            started_at_ms: self.started_at_ms,
            place: self.place.clone(),
            finished_at_ms: self.finished_at_ms,
            outcome: self.outcome.clone(),
        }
    }

    /// Field by field, so that a store moving an entry on (the same key, tool and place)
    /// reuses the strings it already holds.
    fn clone_from(&mut self, source: &Self) {
        self.key.clone_from(&source.key);
        self.tool.clone_from(&source.tool);
        self.agent.clone_from(&source.agent);
        self.arguments_digest.clone_from(&source.arguments_digest);
        self.call_digest.clone_from(&source.call_digest);
        self.state = source.state;
        self.attempt = source.attempt;
        self.started_at_ms = source.started_at_ms;
        self.place.clone_from(&source.place);
        self.finished_at_ms = source.finished_at_ms;
        self.outcome.clone_from(&source.outcome);
    }
}

/// A call's outcome as the journal keeps it: enough to give the same result again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RecordedOutcome {
    /// The value of a success.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// The message of a failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The failure's `{name, code}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub info: Option<ErrorInfo>,
    /// The model-facing content.
    #[serde(default)]
    pub content: Vec<ContentBlock>,
}

impl RecordedOutcome {
    /// A success with `value`, shown as `content`.
    pub fn success(value: Value, content: Vec<ContentBlock>) -> Self {
        Self {
            value: Some(value),
            error: None,
            info: None,
            content,
        }
    }

    /// A failure.
    pub fn failure(error: &ToolError) -> Self {
        Self {
            value: None,
            error: Some(error.message().to_owned()),
            info: error.info().cloned(),
            content: Vec::new(),
        }
    }

    /// What `result` records.
    pub(crate) fn of(result: &ToolExecutionResult) -> Self {
        match result.outcome() {
            ToolOutcome::Success(value) => Self::success(value.clone(), result.content().to_vec()),
            ToolOutcome::Failure(error) => {
                let mut outcome = Self::failure(error);
                outcome.content = result.content().to_vec();
                outcome
            }
        }
    }

    /// The result it records (content included; no meta). A success recorded without content
    /// (by hand) shows its value as text, as the default render does.
    pub(crate) fn to_result(&self) -> ToolExecutionResult {
        if let (Some(value), None, true) = (&self.value, &self.error, self.content.is_empty()) {
            return ToolExecutionResult::success(value.clone())
                .with_content(vec![render_value_as_text(value)]);
        }
        let result = match (&self.value, &self.error) {
            (Some(value), None) => ToolExecutionResult::success(value.clone()),
            (_, error) => {
                let message = error.clone().unwrap_or_default();
                let error = match &self.info {
                    Some(info) => ToolError::new(message).with_info(info.clone()),
                    None => ToolError::new(message),
                };
                ToolExecutionResult::failure(error)
            }
        };
        if self.content.is_empty() {
            result
        } else {
            result.with_content(self.content.clone())
        }
    }
}

/// A decision about a call in doubt, taken from any process (see
/// [`ToolRegistry::decide_call`](crate::ToolRegistry::decide_call)).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum CallDecision {
    /// Let the next attempt run the body again.
    RunAgain,
    /// Never run it: every retry ends `CALL_IN_DOUBT` with this reason.
    GiveUp {
        /// Why, for the model.
        reason: String,
    },
    /// Record this outcome by hand: every retry replays it.
    Record(RecordedOutcome),
}

/// Where an approval stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ApprovalState {
    /// Nobody decided yet.
    Pending,
    /// Approved; not yet used.
    Approved,
    /// Rejected.
    Rejected,
    /// Approved and used by one attempt of the call.
    Used,
}

impl ApprovalState {
    /// The name stored beside the record.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Approved => "approved",
            Self::Rejected => "rejected",
            Self::Used => "used",
        }
    }
}

/// The name stored beside the record, as serde writes it too.
impl fmt::Display for ApprovalState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An approval that waits for someone to decide it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ApprovalRecord {
    /// Its stable id (`appr-` and 32 hex digits, from the call's idempotency key).
    pub id: String,
    /// The tool the call names.
    pub tool: String,
    /// The agent the call runs for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// The SHA-256 of the canonical arguments, in hex: a decision binds to exactly these.
    pub arguments_digest: String,
    /// Why the call asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// When it was asked, in milliseconds since the Unix epoch.
    pub created_at_ms: u64,
    /// After this it can no longer approve.
    pub expires_at_ms: u64,
    /// Where it stands.
    pub state: ApprovalState,
    /// Who decided, when someone did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<String>,
    /// HMAC-SHA-256 under the registry's key of the fields above but the state and who decided,
    /// in hex.
    pub request_signature: String,
    /// HMAC-SHA-256 under the key of the request signature and the decision, in hex, once
    /// decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision_signature: Option<String>,
}

/// Where a served MCP task stands, as the call store keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum TaskState {
    /// Its call runs (or its owner stopped and nobody recorded anything after).
    Working,
    /// Its call waits for its client's answers to the record's input requests.
    InputRequired,
    /// Its call ended; the result (an error outcome too) is recorded.
    Completed,
    /// It failed without a call result (it expired, say).
    Failed,
    /// Its call was cancelled.
    Cancelled,
}

impl TaskState {
    /// The name stored beside the record (`working`, `input_required`, `completed`, `failed`,
    /// `cancelled`).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Working => "working",
            Self::InputRequired => "input_required",
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }

    /// Whether nothing changes it any more (every state but `working` and `input_required`).
    pub(crate) fn is_final(self) -> bool {
        !matches!(self, Self::Working | Self::InputRequired)
    }
}

/// The name stored beside the record, as serde writes it too.
impl fmt::Display for TaskState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A served MCP task as the call store keeps it, so that any replica sharing the store can
/// answer for it and its result outlives the process that ran it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TaskRecord {
    /// The task's id (the one its client polls with).
    pub id: String,
    /// Where it stands.
    pub state: TaskState,
    /// Counts the writes of the record (1 for the first): a replace names the revision it
    /// read, so two processes never overwrite each other's change.
    pub revision: u64,
    /// What the task says about itself (`statusMessage`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// The `tools/call` result of a completed task, as JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// The JSON-RPC error object of a failed task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<Value>,
    /// When it was created, in milliseconds since the Unix epoch.
    pub created_at_ms: u64,
    /// When it was last written.
    pub updated_at_ms: u64,
    /// How long it lives from its creation (`None`: no limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// How often its client is asked to poll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_interval_ms: Option<u64>,
    /// The server instance running it (`<place> server <random id>`).
    pub owner: String,
    /// When its owner last said it still runs it.
    pub heartbeat_at_ms: u64,
    /// Whether a client asked to cancel it through a replica that does not run it; its owner
    /// cancels the call when it sees this.
    #[serde(default)]
    pub cancel_requested: bool,
    /// What the task waits for its client to answer (`inputRequests`, by key), written by its
    /// owner while the state is `input_required`, so that every replica shows the questions.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub input_requests: Map<String, Value>,
    /// Answers (`inputResponses`, by key) a client gave through a replica that does not run the
    /// task; its owner hands them to the waiting call and clears them.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub input_responses: Map<String, Value>,
}
