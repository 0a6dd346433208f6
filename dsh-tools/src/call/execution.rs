//! One tool call's identity: what the caller hands in ([`ToolExecutionInput`]) and the frozen view
//! every phase of the pipeline sees ([`ToolExecution`]).
//!
//! Also here, since the execution carries them: where the body's progress reports go (the caller's
//! [`ProgressSink`]) and [`CallHost`], the one narrow handle through which a call reaches the
//! registry it runs in.
//!
//! Nothing here runs a call; the pipeline does. The execution is immutable once minted: hooks can
//! decide about a call but cannot rewrite its arguments or identity, so history, audit, UI and what
//! actually ran always agree.

use std::borrow::Cow;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::content::ContentBlock;
use crate::errors::tool_error::ToolError;
use crate::future::{BoxFuture, catch_panic};
use crate::ids::{AgentId, ToolExecutionToken};
use crate::limits::LimitsCell;
use crate::progress::ToolProgress;
use crate::result::ToolExecutionResult;
use crate::search::{ToolSearchAnswer, ToolSearchQuery};
use crate::state::SharedState;

/// What a call needs of the registry it runs in: the one narrow handle every execution carries,
/// handed down from where the call was captured. It is all this layer knows of a registry — the
/// shared state bodies read, the limits dispatch enforces, and how to start a nested call (a tool
/// calling tools, [`ToolRun::call_tool`](crate::ToolRun::call_tool)) through the same pipeline.
/// The registry implements it in the pipeline layer, which can run calls.
/// The view a call was admitted in, captured when the call starts: the global layer, or one
/// instance of an agent's scope (a later scope of the same agent is another view).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum CallView {
    /// Not captured (a call that never went through the registry's pipeline).
    #[default]
    Unknown,
    /// The global layer.
    Global,
    /// The scope instance.
    Scope(u64),
}

impl CallView {
    /// As one word: 0 unknown, 1 the global layer, 2 + the instance for a scope.
    fn to_bits(self) -> u64 {
        match self {
            Self::Unknown => 0,
            Self::Global => 1,
            // Kept within the bits the call's marks leave for it.
            Self::Scope(instance) => instance.saturating_add(2).min(u64::MAX >> VIEW_SHIFT),
        }
    }

    fn from_bits(bits: u64) -> Self {
        match bits {
            0 => Self::Unknown,
            1 => Self::Global,
            instance => Self::Scope(instance - 2),
        }
    }
}

pub(crate) trait CallHost: Send + Sync + 'static {
    /// The shared state the call's bodies reach.
    fn state(&self) -> &SharedState;

    /// The bounds the call runs under (timeouts, result budget).
    fn limits(&self) -> &LimitsCell;

    /// Runs `input` as a call of this registry, through the whole pipeline.
    fn execute(
        self: Arc<Self>,
        input: ToolExecutionInput,
    ) -> BoxFuture<'static, ToolExecutionResult>;

    /// Searches the deferred tools of the view a call was admitted in and loads the best matches
    /// into that view's tool list (`tool_search`'s body). `view` is the [`CallView`] the
    /// pipeline captured: a search still running when its scope is disposed loads nothing,
    /// rather than into a new scope of the same agent.
    fn search_tools(
        &self,
        agent: Option<&AgentId>,
        view: CallView,
        query: &ToolSearchQuery,
    ) -> Result<ToolSearchAnswer, ToolError>;

    /// What a `run_code` program needs of this host: its tools, bounds, engines and journal.
    /// `None`, the default, for a host outside a registry, whose programs run with the default
    /// bounds on an engine of their own and resolve nothing.
    #[cfg(feature = "code-mode")]
    fn programs(&self) -> Option<&dyn crate::call::run_code::host::ProgramHost> {
        None
    }
}

/// What a caller hands to [`ToolScope::execute`](crate::ToolScope::execute): one tool call as
/// the model made it.
///
/// What most calls carry is in its fields; what few calls set (the agent, the caller's
/// cancellation, a progress sink) is given with the `with_*` methods and read, once the call
/// runs, from its [`ToolExecution`].
#[derive(Clone, Debug)]
pub struct ToolExecutionInput {
    /// The provider's id for this call (echoed back to the model with the result). Borrowed when
    /// given as a `&'static str`, so a call made with literal names allocates nothing for them.
    pub call_id: Cow<'static, str>,
    /// The tool name the model asked for (unknown names are allowed and fail at dispatch).
    pub name: Cow<'static, str>,
    /// The arguments, already parsed (see [`from_raw`](Self::from_raw) for raw strings).
    pub arguments: Value,
    /// Everything else, behind one thin pointer that most calls leave empty: an input is then
    /// 128 bytes, which a move copies inline, where a call function per move was needed when
    /// these sat beside the fields above.
    rare: Option<Arc<Rare>>,
}

/// What few calls of a [`ToolExecutionInput`] carry.
#[derive(Clone, Debug, Default)]
struct Rare {
    /// The agent on whose behalf the call runs; `None` uses the global layer only.
    agent: Option<AgentId>,
    /// The token of the enclosing execution, for nested calls.
    parent: Option<ToolExecutionToken>,
    /// The caller's cancellation; `None` means the call cannot be cancelled by the caller.
    signal: Option<CancellationToken>,
    /// Where the body's progress reports go (see [`ToolExecutionInput::with_progress`]).
    progress: Option<SharedSink>,
    /// Why the raw argument string could not be parsed (see [`ToolExecutionInput::from_raw`]).
    malformed: Option<String>,
    /// Who answers this call's `ask` before the registry's approver (see
    /// [`ToolExecutionInput::with_approver`]). Opaque here: the approval seam is a hook contract,
    /// a layer above, which sets and reads it.
    approver: Option<ApproverSlot>,
    /// What the call's span continues and carries (see [`ToolExecutionInput::with_telemetry`]).
    #[cfg(feature = "otel")]
    telemetry: Option<crate::telemetry::CallTelemetry>,
    /// The idempotency key its caller gave it instead of the digest: a Code Mode run keys each
    /// nested call by the run's key and the call's position, so a re-run of the program finds
    /// what each position recorded whatever the program asks there now.
    key: Option<String>,
    /// The id of the provider's program that made this call (see
    /// [`ToolExecutionInput::with_program_caller`]).
    program: Option<Arc<str>>,
    /// What an earlier attempt of a Code Mode run completed at this call's position, read before
    /// the call started: the journal replays it without reading the store again.
    #[cfg(feature = "durable")]
    recorded: Option<Box<crate::durable::record::JournalEntry>>,
}

/// A call's own approver, as the call layer keeps it without knowing what it is.
pub(crate) type ApproverSlot = Arc<dyn std::any::Any + Send + Sync>;

impl ToolExecutionInput {
    /// A top-level call with no agent and no cancellation.
    pub fn new(
        call_id: impl Into<Cow<'static, str>>,
        name: impl Into<Cow<'static, str>>,
        arguments: Value,
    ) -> Self {
        Self {
            call_id: call_id.into(),
            name: name.into(),
            arguments,
            rare: None,
        }
    }

    /// A call whose arguments are the model's raw JSON string. Empty or whitespace means `{}`.
    /// Malformed JSON, or an object that gives a key twice (`{"path":"a","path":"b"}`, of which
    /// parsing would keep one value), does not fail here: the call still travels the pipeline
    /// (hooks and observers see it, with the raw string as its arguments) and ends at dispatch
    /// as an `INVALID_ARGS` result quoting the parse error or naming every repeated key
    /// (`duplicate property "path"`).
    pub fn from_raw(
        call_id: impl Into<Cow<'static, str>>,
        name: impl Into<Cow<'static, str>>,
        raw: &str,
    ) -> Self {
        match crate::arguments::parse_raw(raw) {
            Ok(arguments) => Self::new(call_id, name, arguments),
            Err(reason) => {
                let mut input = Self::new(call_id, name, Value::String(raw.to_owned()));
                input.rare = Some(Arc::new(Rare {
                    malformed: Some(reason),
                    ..Rare::default()
                }));
                input
            }
        }
    }

    /// What is left where an input was taken from: empty names and `null`, owning nothing.
    #[inline(always)]
    fn taken() -> Self {
        Self::new("", "", Value::Null)
    }

    /// What few calls carry, made on first need: shared with the input's clones until one of
    /// them changes it.
    fn rare_mut(&mut self) -> &mut Rare {
        Arc::make_mut(self.rare.get_or_insert_with(Arc::default))
    }

    /// Refuses the call as `INVALID_ARGS` for `reason` when it reaches dispatch, as a
    /// raw string that repeats a key is (a provider adapter's `{key, value}` pairs that give a
    /// key twice).
    pub(crate) fn refuse_arguments(&mut self, reason: String) {
        self.rare_mut().malformed = Some(reason);
    }

    /// The same call under the idempotency key `key` rather than the digest of its identity
    /// (a Code Mode run's nested call, keyed by its position in the run), with what an earlier
    /// attempt of the run completed there, if it was read.
    #[cfg(all(feature = "code-mode", feature = "durable"))]
    #[must_use]
    pub(crate) fn at_position(
        mut self,
        key: String,
        recorded: Option<Box<crate::durable::record::JournalEntry>>,
    ) -> Self {
        let rare = self.rare_mut();
        rare.key = Some(key);
        rare.recorded = recorded;
        self
    }

    /// The same call under the idempotency key `key` rather than the digest of its identity: a
    /// served MCP call, whose JSON-RPC id names no call beyond its request (see
    /// `mcp/serving/call_key.rs`).
    #[cfg(all(feature = "mcp", feature = "durable"))]
    #[must_use]
    pub(crate) fn with_idempotency_key(mut self, key: String) -> Self {
        self.rare_mut().key = Some(key);
        self
    }

    /// Makes this a nested call of the execution whose token is `parent`: it runs for `agent`
    /// and under `signal()` unless it names its own, and its `ask`s go to `approver` unless it
    /// has its own approver.
    pub(crate) fn nest_under(
        &mut self,
        parent: ToolExecutionToken,
        agent: Option<&AgentId>,
        signal: impl FnOnce() -> CancellationToken,
        approver: Option<&ApproverSlot>,
    ) {
        let rare = self.rare_mut();
        rare.parent = Some(parent);
        if rare.agent.is_none() {
            rare.agent = agent.cloned();
        }
        if rare.signal.is_none() {
            rare.signal = Some(signal());
        }
        // Whoever answers this call's `ask`s answers its nested calls' too (a served client).
        if rare.approver.is_none() {
            rare.approver = approver.cloned();
        }
    }

    /// Whether [`from_raw`](Self::from_raw) could not parse the raw arguments.
    pub fn is_malformed(&self) -> bool {
        self.rare
            .as_ref()
            .is_some_and(|rare| rare.malformed.is_some())
    }

    /// The agent the call runs for (see [`with_agent`](Self::with_agent)).
    #[inline]
    pub(crate) fn agent(&self) -> Option<&AgentId> {
        self.rare.as_ref()?.agent.as_ref()
    }

    /// The token of the enclosing execution, for a nested call.
    #[inline]
    pub(crate) fn parent(&self) -> Option<ToolExecutionToken> {
        self.rare.as_ref()?.parent
    }

    /// The caller's cancellation, if it gave one (see [`with_signal`](Self::with_signal)).
    #[inline]
    fn signal(&self) -> Option<&CancellationToken> {
        self.rare.as_ref()?.signal.as_ref()
    }

    /// Where the body's progress reports go, if anywhere.
    #[inline]
    fn progress(&self) -> Option<&SharedSink> {
        self.rare.as_ref()?.progress.as_ref()
    }

    /// The call's own approver (opaque at this layer).
    pub(crate) fn approver_slot(&self) -> Option<&ApproverSlot> {
        self.rare.as_ref()?.approver.as_ref()
    }

    /// Sets the call's own approver.
    pub(crate) fn set_approver_slot(&mut self, approver: ApproverSlot) {
        self.rare_mut().approver = Some(approver);
    }

    /// Attaches telemetry to the call (feature `otel`): the remote span its span continues, the
    /// protocol it was served over. Bridges set it; see [`CallTelemetry`](crate::telemetry::CallTelemetry).
    #[cfg(feature = "otel")]
    #[must_use]
    pub fn with_telemetry(mut self, telemetry: crate::telemetry::CallTelemetry) -> Self {
        self.rare_mut().telemetry = Some(telemetry);
        self
    }

    /// Runs the call on behalf of `agent`; without one it uses the global layer only.
    #[must_use]
    pub fn with_agent(mut self, agent: impl Into<AgentId>) -> Self {
        self.rare_mut().agent = Some(agent.into());
        self
    }

    /// Marks the call as made by a program the provider ran on its side (OpenAI's programmatic
    /// tool calling, Anthropic's code execution), `program` being the provider's id of it (the
    /// `caller_id` / `tool_id` of the call's `caller`). Such a call is a nested call, as a call
    /// of a `run_code` program is, though its parent is no execution of this registry: a tool
    /// only the model calls ([`ToolCallers::Model`](crate::call::ToolCallers)) is refused
    /// before any policy as `UNKNOWN_TOOL`, exactly as a `run_code` program's call of it is.
    /// The provider adapters set it when they read such a call.
    #[must_use]
    pub fn with_program_caller(mut self, program: impl Into<Arc<str>>) -> Self {
        self.rare_mut().program = Some(program.into());
        self
    }

    /// The id of the provider's program that made this call, if a program on the provider's
    /// side made it (see [`with_program_caller`](Self::with_program_caller)).
    pub fn program_caller(&self) -> Option<&str> {
        self.rare.as_ref()?.program.as_deref()
    }

    /// Whether the call is made from a program: nested in an execution of this registry, or
    /// made by a program the provider ran.
    pub(crate) fn is_program_call(&self) -> bool {
        self.rare
            .as_ref()
            .is_some_and(|rare| rare.parent.is_some() || rare.program.is_some())
    }

    /// Lets the caller cancel the call through `signal`; without it the call cannot be
    /// cancelled by the caller.
    #[must_use]
    pub fn with_signal(mut self, signal: CancellationToken) -> Self {
        self.rare_mut().signal = Some(signal);
        self
    }

    /// Sends the progress the body reports ([`ToolRun::report_progress`](crate::ToolRun::report_progress))
    /// to `sink`. Without a sink, reports are dropped at no cost. A sink several calls share is
    /// given as a closure that forwards to it:
    /// `move |call: &ToolExecution, progress: ToolProgress| shared.report(call, progress)`.
    #[must_use]
    pub fn with_progress(mut self, sink: impl ProgressSink) -> Self {
        self.rare_mut().progress = Some(SharedSink(Arc::new(sink)));
        self
    }
}

/// The frozen view of one call that every hook, guard, wrapper, body and observer sees.
///
/// Cheap to clone (one reference count). Its fields cannot change after the registry mints it.
#[derive(Clone)]
pub struct ToolExecution {
    inner: Arc<ExecutionInner>,
}

struct ExecutionInner {
    token: ToolExecutionToken,
    /// The input as the caller handed it, kept whole: moving it in one piece is cheaper than
    /// taking it apart.
    input: ToolExecutionInput,
    /// The token of a caller that gave none; made on first use, so an uncancellable call that
    /// nobody watches costs no token.
    own_signal: OnceLock<CancellationToken>,
    /// What the pipeline and the bodies of this call share; kept here so that one allocation
    /// carries a whole call.
    shared: CallShared,
}

/// Per-call state shared by the pipeline and every dispatch of the call.
struct CallShared {
    /// What bodies hand the pipeline besides their value; made on first use, so a call whose
    /// bodies hand over nothing allocates nothing for it, and the call's one allocation stays
    /// small enough to be copied in a few instructions.
    handed: Mutex<Option<Box<Handed>>>,
    /// The attempt the call store in memory admitted, while the body runs on the short path:
    /// kept here rather than in the call's future, which every call moves, or in `handed`,
    /// whose box would be an allocation and a free per journaled call; the call's one
    /// allocation still stays within a cheap copy with it.
    #[cfg(feature = "durable")]
    attempt: Mutex<Option<crate::durable::attempt::KeptAttempt>>,
    /// The call's flags (`DEFERRED`, `BODY_INVOKED`, `PROVIDED`, `FIRST_ATTEMPT`) in the low
    /// bits and the view it was admitted in (`CallView::to_bits`) above them: one word rather
    /// than four flags and a view, so the call's one allocation stays within a cheap copy.
    marks: AtomicU64,
    /// The registry the call runs in: its shared state, its limits, and where dispatch resolves
    /// the tool.
    host: Arc<dyn CallHost>,
}

/// Set once something was deferred, so a call that deferred nothing never takes the lock.
const DEFERRED: u64 = 1;
/// Whether a body was started (decides between `ABORTED` and `ABORTED_BEFORE_DISPATCH`).
const BODY_INVOKED: u64 = 1 << 1;
/// Set while content is provided, so a call whose body provided none never locks.
const PROVIDED: u64 = 1 << 2;
/// Set when the journal admitted the call as its first attempt (see `mark_first_attempt`).
#[cfg(feature = "durable")]
const FIRST_ATTEMPT: u64 = 1 << 3;
/// How far the view sits above the flags.
const VIEW_SHIFT: u32 = 4;

/// What the bodies of a call hand the pipeline besides their value.
#[derive(Default)]
struct Handed {
    /// Contexts bodies deferred, in order.
    deferred: Vec<ContentBlock>,
    /// Content a body provided for the value it returns (see [`ToolRun::provide_content`]).
    ///
    /// [`ToolRun::provide_content`]: crate::ToolRun::provide_content
    provided: Option<Vec<ContentBlock>>,
}

impl ToolExecution {
    /// Freezes `input` under a freshly minted token, as a call of `host`. A caller without a
    /// signal gets one that nobody else holds, so the body always has a token to watch.
    ///
    /// The state is written where `Arc::new_cyclic` allocated it, the input swapped out of the
    /// caller's slot rather than moved in with the closure: the input (larger than a move done
    /// in registers) is then copied once, straight into the allocation, where building the
    /// state first and moving it into an `Arc` copied it twice.
    pub(crate) fn from_input(mut input: ToolExecutionInput, host: Arc<dyn CallHost>) -> Self {
        let inner = Arc::new_cyclic(|_| ExecutionInner {
            token: ToolExecutionToken::mint(),
            input: std::mem::replace(&mut input, ToolExecutionInput::taken()),
            own_signal: OnceLock::new(),
            shared: CallShared {
                handed: Mutex::new(None),
                #[cfg(feature = "durable")]
                attempt: Mutex::new(None),
                marks: AtomicU64::new(0),
                host,
            },
        });
        // What is left in the caller's slot owns nothing.
        std::mem::forget(input);
        Self { inner }
    }

    /// The registry-assigned identity of this call.
    #[inline]
    pub fn token(&self) -> ToolExecutionToken {
        self.inner.token
    }

    /// The provider's call id.
    #[inline]
    pub fn call_id(&self) -> &str {
        &self.inner.input.call_id
    }

    /// The tool name the model asked for.
    #[inline]
    pub fn name(&self) -> &str {
        &self.inner.input.name
    }

    /// The arguments, exactly as the model sent them.
    #[inline]
    pub fn arguments(&self) -> &Value {
        &self.inner.input.arguments
    }

    /// The agent scope the call runs in.
    #[inline]
    pub fn agent(&self) -> Option<&AgentId> {
        self.inner.input.agent()
    }

    /// The call's idempotency key: `idem-` and 32 hex digits, a digest of the call id, the tool
    /// name, the agent and the arguments (object keys in any order). Every attempt of this call
    /// — each try of a retry layer, the same call id re-sent with the same arguments — has the
    /// same key; any other call has another. Sent to imported MCP servers in the request's
    /// `_meta` (`io.dsh-tools/idempotency-key`), so a server can drop a repeated side effect.
    ///
    /// A nested call of a Code Mode run with a call store is keyed by the run's key and its
    /// position in the program instead: `<run key>/<n>`.
    pub fn idempotency_key(&self) -> String {
        if let Some(key) = self.given_idempotency_key() {
            return key.to_owned();
        }
        crate::idempotency::idempotency_key(
            self.call_id(),
            self.name(),
            self.agent().map(AgentId::as_str),
            self.arguments(),
        )
    }

    /// The idempotency key the call's caller gave it, if any (see
    /// [`idempotency_key`](Self::idempotency_key)).
    #[inline]
    pub(crate) fn given_idempotency_key(&self) -> Option<&str> {
        self.inner.input.rare.as_ref()?.key.as_deref()
    }

    /// What an earlier attempt of the Code Mode run this call belongs to completed at its
    /// position, when the run read it before the call started.
    #[cfg(feature = "durable")]
    pub(crate) fn recorded_at_position(&self) -> Option<&crate::durable::record::JournalEntry> {
        self.inner.input.rare.as_ref()?.recorded.as_deref()
    }

    /// The enclosing execution, for nested calls.
    #[inline]
    pub fn parent(&self) -> Option<ToolExecutionToken> {
        self.inner.input.parent()
    }

    /// The id of the provider's program that made this call (see
    /// [`ToolExecutionInput::with_program_caller`]); `None` for a call the model made directly
    /// or a nested call of this registry's own.
    #[inline]
    pub fn program_caller(&self) -> Option<&str> {
        self.inner.input.program_caller()
    }

    /// Whether a program made the call (a nested call, or a provider's program's call).
    #[inline]
    pub(crate) fn is_program_call(&self) -> bool {
        self.inner.input.is_program_call()
    }

    /// The caller's cancellation token.
    #[inline]
    pub fn signal(&self) -> &CancellationToken {
        match self.inner.input.signal() {
            Some(signal) => signal,
            None => self.inner.own_signal.get_or_init(CancellationToken::new),
        }
    }

    /// Why the raw arguments could not be parsed, when the call was made with
    /// [`ToolExecutionInput::from_raw`] and they could not (`arguments are not valid JSON: …`,
    /// `duplicate property "path"`).
    /// Dispatch turns this into an `INVALID_ARGS` result instead of running the body.
    #[inline]
    pub(crate) fn malformed_arguments(&self) -> Option<&str> {
        self.inner.input.rare.as_ref()?.malformed.as_deref()
    }

    /// The telemetry attached to the call's input, if any.
    #[cfg(feature = "otel")]
    #[inline]
    pub(crate) fn call_telemetry(&self) -> Option<&crate::telemetry::CallTelemetry> {
        self.inner.input.rare.as_ref()?.telemetry.as_ref()
    }

    /// Whether the caller set a progress sink on the call (a body asks
    /// [`ToolRun::wants_progress`](crate::ToolRun::wants_progress)).
    #[inline]
    pub(crate) fn has_progress_sink(&self) -> bool {
        self.inner.input.progress().is_some()
    }

    /// The call's own approver, as set on its input (opaque at this layer).
    #[inline]
    pub(crate) fn approver_slot(&self) -> Option<&ApproverSlot> {
        self.inner.input.approver_slot()
    }

    /// Hands a progress report to the call's sink, if it has one.
    #[inline]
    pub(crate) fn report_progress(&self, progress: impl FnOnce() -> ToolProgress) {
        if let Some(sink) = self.inner.input.progress() {
            sink.deliver(self, progress());
        }
    }

    /// Takes the arguments out of an execution that nothing else holds, leaving `null` behind:
    /// for a call whose definition converts them by value
    /// ([`ToolDefinition::takes_arguments_by_value`](crate::ToolDefinition::takes_arguments_by_value)) and that no hook, observer or span can see.
    /// `None` when another handle to the execution exists.
    pub(crate) fn take_arguments(&mut self) -> Option<Value> {
        let inner = Arc::get_mut(&mut self.inner)?;
        Some(std::mem::take(&mut inner.input.arguments))
    }

    /// Routes the body's progress reports through `route`, which receives the caller's own sink
    /// (if any) and returns the sink to use instead. Done while the call is being captured, when
    /// nothing else holds the execution yet; otherwise nothing changes.
    pub(crate) fn reroute_progress(
        &mut self,
        route: impl FnOnce(Option<SharedSink>) -> SharedSink,
    ) {
        if let Some(inner) = Arc::get_mut(&mut self.inner) {
            let rare = inner.input.rare_mut();
            let caller = rare.progress.take();
            rare.progress = Some(route(caller));
        }
    }

    /// Whether the caller has cancelled the call, without making the token of a caller that gave
    /// none (users read [`signal`](Self::signal)).
    #[inline]
    pub(crate) fn is_cancelled(&self) -> bool {
        match self.inner.input.signal() {
            Some(signal) => signal.is_cancelled(),
            // Cancelling needs the token, so one never made was never cancelled.
            None => self
                .inner
                .own_signal
                .get()
                .is_some_and(CancellationToken::is_cancelled),
        }
    }
}

impl ToolExecution {
    /// Records that a body was started.
    #[inline]
    pub(crate) fn mark_body_invoked(&self) {
        self.mark(BODY_INVOKED);
    }

    /// Whether a body was started.
    #[inline]
    pub(crate) fn body_invoked(&self) -> bool {
        self.marked(BODY_INVOKED)
    }

    /// Records that the journal admitted this call as its first attempt: nothing was recorded
    /// under its key before.
    #[cfg(feature = "durable")]
    pub(crate) fn mark_first_attempt(&self) {
        self.mark(FIRST_ATTEMPT);
    }

    /// Whether the journal admitted this call as its first attempt, once: a second body of the
    /// same attempt (a wrapper's retry) may find what the first recorded.
    #[cfg(all(feature = "code-mode", feature = "durable"))]
    pub(crate) fn take_first_attempt(&self) -> bool {
        self.inner
            .shared
            .marks
            .fetch_and(!FIRST_ATTEMPT, Ordering::AcqRel)
            & FIRST_ATTEMPT
            != 0
    }

    /// Keeps the attempt the call store in memory admitted for this call until its body ended
    /// (see `pipeline/journal.rs`).
    #[cfg(feature = "durable")]
    pub(crate) fn keep_attempt(&self, attempt: crate::durable::attempt::KeptAttempt) {
        *self.kept_attempt() = Some(attempt);
    }

    /// Takes the attempt kept by [`keep_attempt`](Self::keep_attempt), if any.
    #[cfg(feature = "durable")]
    pub(crate) fn take_attempt(&self) -> Option<crate::durable::attempt::KeptAttempt> {
        self.kept_attempt().take()
    }

    #[cfg(feature = "durable")]
    fn kept_attempt(&self) -> MutexGuard<'_, Option<crate::durable::attempt::KeptAttempt>> {
        self.inner
            .shared
            .attempt
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues context a body deferred.
    pub(crate) fn defer_context(&self, context: ContentBlock) {
        self.handed().get_or_insert_default().deferred.push(context);
        self.mark(DEFERRED);
    }

    /// Whether a body deferred context (taken or not since).
    #[inline]
    pub(crate) fn has_deferred(&self) -> bool {
        self.marked(DEFERRED)
    }

    /// Takes the contexts the bodies deferred, in the order they were deferred.
    #[inline]
    pub(crate) fn take_deferred(&self) -> Vec<ContentBlock> {
        if !self.has_deferred() {
            return Vec::new();
        }
        self.handed()
            .as_mut()
            .map(|handed| std::mem::take(&mut handed.deferred))
            .unwrap_or_default()
    }

    /// Keeps the content a body provided for the value it is about to return.
    pub(crate) fn provide_content(&self, content: Vec<ContentBlock>) {
        self.handed().get_or_insert_default().provided = Some(content);
        self.mark(PROVIDED);
    }

    /// Takes the content a body provided, if any.
    #[inline]
    pub(crate) fn take_provided_content(&self) -> Option<Vec<ContentBlock>> {
        if !self.marked(PROVIDED) {
            return None;
        }
        self.inner
            .shared
            .marks
            .fetch_and(!PROVIDED, Ordering::AcqRel);
        self.handed()
            .as_mut()
            .and_then(|handed| handed.provided.take())
    }

    #[inline]
    fn mark(&self, flag: u64) {
        self.inner.shared.marks.fetch_or(flag, Ordering::AcqRel);
    }

    #[inline]
    fn marked(&self, flag: u64) -> bool {
        self.inner.shared.marks.load(Ordering::Acquire) & flag != 0
    }

    fn handed(&self) -> MutexGuard<'_, Option<Box<Handed>>> {
        self.inner
            .shared
            .handed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The shared state the call's bodies reach.
    #[inline]
    pub(crate) fn state(&self) -> &SharedState {
        self.inner.shared.host.state()
    }

    /// The registry the call runs in, as the call sees it.
    #[inline]
    pub(crate) fn host(&self) -> &Arc<dyn CallHost> {
        &self.inner.shared.host
    }

    /// Records the view the call was admitted in. Written once, when the call is captured, onto
    /// the view's bits as they were minted (zero): an `or` keeps the flags another thread may be
    /// setting, without a compare-and-swap loop.
    pub(crate) fn set_view(&self, view: CallView) {
        let view = view.to_bits() << VIEW_SHIFT;
        self.inner.shared.marks.fetch_or(view, Ordering::AcqRel);
    }

    /// The view the call was admitted in; [`CallView::Unknown`] before the pipeline captured it.
    pub(crate) fn view(&self) -> CallView {
        CallView::from_bits(self.inner.shared.marks.load(Ordering::Acquire) >> VIEW_SHIFT)
    }
}

impl fmt::Debug for ToolExecution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolExecution")
            .field("token", &self.inner.token)
            .field("call_id", &self.inner.input.call_id)
            .field("name", &self.inner.input.name)
            .field("agent", &self.agent())
            .field("parent", &self.parent())
            .field("program_caller", &self.program_caller())
            .finish_non_exhaustive()
    }
}

/// Receives the progress reports of the calls it is set on
/// ([`ToolExecutionInput::with_progress`](crate::ToolExecutionInput::with_progress)).
///
/// Called synchronously on the body's task, so it should only hand the report on (send it on a
/// channel, write a notification), not wait. Any `Fn(&ToolExecution, ToolProgress)` closure is a
/// sink.
pub trait ProgressSink: Send + Sync + 'static {
    /// One report of the call `execution`.
    fn report(&self, execution: &ToolExecution, progress: ToolProgress);
}

impl<F> ProgressSink for F
where
    F: Fn(&ToolExecution, ToolProgress) + Send + Sync + 'static,
{
    fn report(&self, execution: &ToolExecution, progress: ToolProgress) {
        self(execution, progress);
    }
}

/// A shared sink, as a call's input carries it.
#[derive(Clone)]
pub(crate) struct SharedSink(pub(crate) Arc<dyn ProgressSink>);

impl SharedSink {
    /// Hands `progress` to the sink; a panic is logged, never propagated.
    pub(crate) fn deliver(&self, execution: &ToolExecution, progress: ToolProgress) {
        if let Err(message) = catch_panic(|| self.0.report(execution, progress)) {
            tracing::warn!(
                tool = execution.name(),
                call_id = execution.call_id(),
                "progress sink panicked: {message}"
            );
        }
    }
}

impl fmt::Debug for SharedSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProgressSink")
    }
}

#[cfg(test)]
mod tests {
    use super::{ExecutionInner, ToolExecutionInput};

    #[test]
    fn an_input_is_moved_inline() {
        // Up to 128 bytes a move is a few vector loads and stores; past it, a call to `memcpy`
        // for every move of every input, in the caller's code and the pipeline's.
        let size = std::mem::size_of::<ToolExecutionInput>();
        assert!(size <= 128, "an input takes {size} bytes");
    }

    #[test]
    fn a_call_fits_the_allocation_it_is_copied_into_cheaply() {
        // Every call builds its state and copies it into one `Arc`; up to 256 bytes (the counts
        // included) that copy is a fixed run of vector moves, past it a loop.
        let size = std::mem::size_of::<ExecutionInner>() + 2 * std::mem::size_of::<usize>();
        assert!(size <= 256, "the state of a call takes {size} bytes");
    }
}
