//! One tool call's identity: what the caller hands in ([`ToolExecutionInput`]) and the frozen view
//! every phase of the pipeline sees ([`ToolExecution`]).
//!
//! Nothing here runs a call; the pipeline does. The execution is immutable once minted: hooks can
//! decide about a call but cannot rewrite its arguments or identity, so history, audit, UI and what
//! actually ran always agree.

use std::cell::Cell;
use std::fmt;
use std::num::NonZeroU64;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::content::ContentBlock;
use crate::definition::ToolDefinition;
use crate::pipeline::call_observer::{CallObserver, ObservedProgress};
use crate::pipeline::chain::HookList;
use crate::progress::{ProgressSink, SharedSink, ToolProgress};
use crate::registry::core::Core;
use crate::run::SharedState;

/// The opaque identity the registry assigns to one execution.
///
/// Only comparable: a nested call carries its enclosing call's token as `parent`, so observers can
/// relate the two without holding the live execution.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ToolExecutionToken(NonZeroU64);

impl ToolExecutionToken {
    /// Mints a token no other execution in this process has.
    #[inline]
    pub(crate) fn mint() -> Self {
        // Each thread reserves a block of ids at a time, so minting is a thread-local increment
        // rather than a contended atomic on every call.
        const BLOCK: u64 = 1024;
        static NEXT_BLOCK: AtomicU64 = AtomicU64::new(1);
        thread_local! {
            static RANGE: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
        }
        let raw = RANGE.with(|range| {
            let (mut next, mut end) = range.get();
            if next == end {
                next = NEXT_BLOCK.fetch_add(BLOCK, Ordering::Relaxed);
                end = next + BLOCK;
            }
            range.set((next + 1, end));
            next
        });
        Self(NonZeroU64::new(raw).unwrap_or(NonZeroU64::MIN))
    }
}

impl fmt::Debug for ToolExecutionToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ToolExecutionToken(#{})", self.0)
    }
}

/// The name of an agent scope. Calls made on an agent's behalf carry it, and the registry resolves
/// tools, hooks, guards and restrictions through that scope's chain.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AgentId(Arc<str>);

impl AgentId {
    /// An agent id.
    pub fn new(id: impl AsRef<str>) -> Self {
        Self(Arc::from(id.as_ref()))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for AgentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AgentId({:?})", &*self.0)
    }
}

impl fmt::Display for AgentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for AgentId {
    fn from(id: &str) -> Self {
        Self::new(id)
    }
}

impl From<String> for AgentId {
    fn from(id: String) -> Self {
        Self(Arc::from(id))
    }
}

/// What a caller hands to [`ToolRegistry::execute`](crate::ToolRegistry::execute): one tool call as
/// the model made it.
#[derive(Clone, Debug)]
pub struct ToolExecutionInput {
    /// The provider's id for this call (echoed back to the model with the result).
    pub call_id: String,
    /// The tool name the model asked for (unknown names are allowed and fail at dispatch).
    pub name: String,
    /// The arguments, already parsed (see [`parse_arguments`](crate::parse_arguments) for raw strings).
    pub arguments: Value,
    /// The agent on whose behalf the call runs; `None` uses the global layer only.
    pub agent: Option<AgentId>,
    /// The token of the enclosing execution, for nested calls.
    pub parent: Option<ToolExecutionToken>,
    /// The caller's cancellation; `None` means the call cannot be cancelled by the caller.
    pub signal: Option<CancellationToken>,
    /// Why the raw argument string could not be parsed (see [`ToolExecutionInput::from_raw`]).
    malformed: Option<Arc<str>>,
    /// Where the body's progress reports go (see [`ToolExecutionInput::with_progress`]).
    progress: Option<SharedSink>,
}

impl ToolExecutionInput {
    /// A top-level call with no agent and no cancellation.
    pub fn new(call_id: impl Into<String>, name: impl Into<String>, arguments: Value) -> Self {
        Self {
            call_id: call_id.into(),
            name: name.into(),
            arguments,
            agent: None,
            parent: None,
            signal: None,
            malformed: None,
            progress: None,
        }
    }

    /// A call whose arguments are the model's raw JSON string. Empty or whitespace means `{}`.
    /// Malformed JSON, or an object that gives a key twice (`{"path":"a","path":"b"}`, of which
    /// parsing would keep one value), does not fail here: the call still travels the pipeline
    /// (hooks and observers see it, with the raw string as its arguments) and ends at dispatch
    /// as an `INVALID_ARGS` result quoting the parse error or naming every repeated key
    /// (`duplicate property "path"`).
    pub fn from_raw(call_id: impl Into<String>, name: impl Into<String>, raw: &str) -> Self {
        match crate::arguments::parse_raw(raw) {
            Ok(arguments) => Self::new(call_id, name, arguments),
            Err(reason) => {
                let mut input = Self::new(call_id, name, Value::String(raw.to_owned()));
                input.malformed = Some(Arc::from(reason));
                input
            }
        }
    }

    /// Whether [`from_raw`](Self::from_raw) could not parse the raw arguments.
    pub fn is_malformed(&self) -> bool {
        self.malformed.is_some()
    }

    /// Runs the call on behalf of `agent`.
    #[must_use]
    pub fn with_agent(mut self, agent: impl Into<AgentId>) -> Self {
        self.agent = Some(agent.into());
        self
    }

    /// Marks the call as nested inside the execution `parent`.
    #[must_use]
    pub fn with_parent(mut self, parent: ToolExecutionToken) -> Self {
        self.parent = Some(parent);
        self
    }

    /// Lets the caller cancel the call through `signal`.
    #[must_use]
    pub fn with_signal(mut self, signal: CancellationToken) -> Self {
        self.signal = Some(signal);
        self
    }

    /// Sends the progress the body reports ([`ToolRun::report_progress`](crate::ToolRun::report_progress))
    /// to `sink`. Without a sink, reports are dropped at no cost.
    #[must_use]
    pub fn with_progress(mut self, sink: impl ProgressSink) -> Self {
        self.progress = Some(SharedSink(Arc::new(sink)));
        self
    }

    /// Like [`with_progress`](Self::with_progress), with a sink already shared by several calls.
    #[must_use]
    pub fn with_shared_progress(mut self, sink: Arc<dyn ProgressSink>) -> Self {
        self.progress = Some(SharedSink(sink));
        self
    }

    /// Whether a progress sink is set.
    pub fn has_progress_sink(&self) -> bool {
        self.progress.is_some()
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
    /// Set once something was deferred, so a call that deferred nothing never takes the lock.
    has_deferred: AtomicBool,
    /// Whether a body was started (decides between `ABORTED` and `ABORTED_BEFORE_DISPATCH`).
    body_invoked: AtomicBool,
    /// Set while content is provided, so a call whose body provided none never locks.
    has_provided: AtomicBool,
    /// The registry the call runs in: its shared state, and where dispatch resolves the tool.
    registry: Arc<Core>,
}

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
    /// Freezes `input` under a freshly minted token, as a call of `registry`. A caller without
    /// a signal gets one that nobody else holds, so the body always has a token to watch.
    pub(crate) fn from_input(input: ToolExecutionInput, registry: Arc<Core>) -> Self {
        Self {
            inner: Arc::new(ExecutionInner {
                token: ToolExecutionToken::mint(),
                input,
                own_signal: OnceLock::new(),
                shared: CallShared {
                    handed: Mutex::new(None),
                    has_deferred: AtomicBool::new(false),
                    body_invoked: AtomicBool::new(false),
                    has_provided: AtomicBool::new(false),
                    registry,
                },
            }),
        }
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
        self.inner.input.agent.as_ref()
    }

    /// The enclosing execution, for nested calls.
    #[inline]
    pub fn parent(&self) -> Option<ToolExecutionToken> {
        self.inner.input.parent
    }

    /// The caller's cancellation token.
    #[inline]
    pub fn signal(&self) -> &CancellationToken {
        match &self.inner.input.signal {
            Some(signal) => signal,
            None => self.inner.own_signal.get_or_init(CancellationToken::new),
        }
    }

    /// Why the raw arguments could not be parsed, when the call was made with
    /// [`ToolExecutionInput::from_raw`] and they could not (`arguments are not valid JSON: …`,
    /// `duplicate property "path"`).
    /// Dispatch turns this into an `INVALID_ARGS` result instead of running the body.
    #[inline]
    pub fn malformed_arguments(&self) -> Option<&str> {
        self.inner.input.malformed.as_deref()
    }

    /// Whether the caller set a progress sink on the call.
    #[inline]
    pub fn has_progress_sink(&self) -> bool {
        self.inner.input.progress.is_some()
    }

    /// Hands a progress report to the call's sink, if it has one.
    #[inline]
    pub(crate) fn report_progress(&self, progress: impl FnOnce() -> ToolProgress) {
        if let Some(sink) = &self.inner.input.progress {
            sink.deliver(self, progress());
        }
    }

    /// Takes the arguments out of an execution that nothing else holds, leaving `null` behind:
    /// for a call whose definition converts them by value
    /// ([`ToolDefinition::takes_arguments_by_value`]) and that no hook, observer or span can see.
    /// `None` when another handle to the execution exists.
    pub(crate) fn take_arguments(&mut self) -> Option<Value> {
        let inner = Arc::get_mut(&mut self.inner)?;
        Some(std::mem::take(&mut inner.input.arguments))
    }

    /// Sends the body's progress reports to the call `observers` too, after the caller's own
    /// sink. Done while the call is being captured, when nothing else holds the execution yet.
    pub(crate) fn follow_progress(
        &mut self,
        observers: &HookList<dyn CallObserver>,
        definition: Option<&Arc<dyn ToolDefinition>>,
    ) {
        if let Some(inner) = Arc::get_mut(&mut self.inner) {
            let caller = inner.input.progress.take();
            inner.input.progress = Some(ObservedProgress::sink(caller, observers, definition));
        }
    }

    /// Whether the caller has cancelled the call.
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        match &self.inner.input.signal {
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
        self.inner
            .shared
            .body_invoked
            .store(true, Ordering::Release);
    }

    /// Whether a body was started.
    #[inline]
    pub(crate) fn body_invoked(&self) -> bool {
        self.inner.shared.body_invoked.load(Ordering::Acquire)
    }

    /// Queues context a body deferred.
    pub(crate) fn defer_context(&self, context: ContentBlock) {
        self.handed().get_or_insert_default().deferred.push(context);
        self.inner
            .shared
            .has_deferred
            .store(true, Ordering::Release);
    }

    /// Whether a body deferred context (taken or not since).
    #[inline]
    pub(crate) fn has_deferred(&self) -> bool {
        self.inner.shared.has_deferred.load(Ordering::Acquire)
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
        self.inner
            .shared
            .has_provided
            .store(true, Ordering::Release);
    }

    /// Takes the content a body provided, if any.
    #[inline]
    pub(crate) fn take_provided_content(&self) -> Option<Vec<ContentBlock>> {
        let shared = &self.inner.shared;
        if !shared.has_provided.load(Ordering::Acquire) {
            return None;
        }
        shared.has_provided.store(false, Ordering::Release);
        self.handed()
            .as_mut()
            .and_then(|handed| handed.provided.take())
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
        self.inner.shared.registry.state()
    }

    /// The registry the call runs in.
    #[inline]
    pub(crate) fn registry(&self) -> &Core {
        &self.inner.shared.registry
    }
}

impl fmt::Debug for ToolExecution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolExecution")
            .field("token", &self.inner.token)
            .field("call_id", &self.inner.input.call_id)
            .field("name", &self.inner.input.name)
            .field("agent", &self.inner.input.agent)
            .field("parent", &self.inner.input.parent)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::{ExecutionInner, ToolExecutionToken};

    #[test]
    fn a_call_fits_the_allocation_it_is_copied_into_cheaply() {
        // Every call builds its state and copies it into one `Arc`; up to 256 bytes (the counts
        // included) that copy is a fixed run of vector moves, past it a loop.
        let size = std::mem::size_of::<ExecutionInner>() + 2 * std::mem::size_of::<usize>();
        assert!(size <= 256, "the state of a call takes {size} bytes");
    }

    #[test]
    fn tokens_minted_on_many_threads_are_all_distinct() {
        let per_thread = 3_000;
        let threads: Vec<_> = (0..4)
            .map(|_| {
                std::thread::spawn(move || {
                    (0..per_thread)
                        .map(|_| ToolExecutionToken::mint())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut seen = HashSet::new();
        for thread in threads {
            for token in thread.join().expect("minting does not panic") {
                assert!(seen.insert(token), "{token:?} minted twice");
            }
        }
        assert_eq!(seen.len(), 4 * per_thread);
    }
}
