//! [`ToolRun`]: what a tool body gets besides its arguments — the execution, the cancellation
//! token to watch, a way to defer context for the model's next request, and typed shared state.

use std::any::type_name;
use std::borrow::Cow;
use std::fmt;
use std::future::Future;
use std::sync::Arc;

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::call::execution::CallHost;
use crate::call::execution::{ToolExecution, ToolExecutionInput};
use crate::content::ContentBlock;
use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::limits::{CallLimits, LimitsCell};
use crate::progress::ToolProgress;
use crate::result::ToolExecutionResult;
use crate::state::SharedState;

/// The run context of one tool body. Cheap to clone; clones share the deferred contexts.
#[derive(Clone)]
pub struct ToolRun {
    execution: ToolExecution,
    /// The body's token when a wrapper replaced it; `None` means the caller's token.
    signal: Option<CancellationToken>,
}

impl ToolRun {
    /// The run context the pipeline hands a body; `signal` is a wrapper's replacement token
    /// (already fused with the caller's), `None` for the caller's own.
    #[inline]
    pub(crate) fn new(execution: ToolExecution, signal: Option<CancellationToken>) -> Self {
        Self { execution, signal }
    }

    /// A run context outside any registry, for calling a tool function directly (unit tests,
    /// scripts): `state` is what [`state`](Self::state) finds (`SharedState::default()` for
    /// none), and its token is fresh and uncancelled.
    pub fn detached(
        call_id: impl Into<Cow<'static, str>>,
        name: impl Into<Cow<'static, str>>,
        arguments: Value,
        state: SharedState,
    ) -> Self {
        let input = ToolExecutionInput::new(call_id, name, arguments);
        Self::new(
            ToolExecution::from_input(input, Arc::new(DetachedHost::new(state))),
            None,
        )
    }

    /// The execution this body runs for.
    #[inline]
    pub fn execution(&self) -> &ToolExecution {
        &self.execution
    }

    /// The execution, mutably: only the pipeline, before the body starts, takes anything out of it.
    #[inline]
    pub(crate) fn execution_mut(&mut self) -> &mut ToolExecution {
        &mut self.execution
    }

    /// The token to watch: cancelled when the caller cancels or a wrapper (a timeout) does. A
    /// body polls `run.signal().is_cancelled()` or awaits `run.signal().cancelled()`.
    pub fn signal(&self) -> &CancellationToken {
        match &self.signal {
            Some(signal) => signal,
            None => self.execution.signal(),
        }
    }

    /// Calls another tool of the registry this call runs in, as a nested call: through the whole
    /// pipeline (hooks, approval, guards, layers, timeouts, observers) exactly as a direct call,
    /// with this call as its [`parent`](ToolExecution::parent), on behalf of this call's
    /// agent unless `input` names one, cancelled with this run unless `input` has a signal
    /// of its own, and approved by this call's own approver
    /// ([`with_approver`](ToolExecutionInput::with_approver)) unless `input` has one. Outside a
    /// registry (a [`detached`](Self::detached) run) every tool is unknown.
    pub fn call_tool(
        &self,
        input: ToolExecutionInput,
    ) -> impl Future<Output = ToolExecutionResult> + Send + 'static + use<> {
        self.call_tool_boxed(input)
    }

    /// [`call_tool`](Self::call_tool), its future as the registry boxed it, for a caller that
    /// keeps it boxed (a program's calls) and would otherwise box the box.
    pub(crate) fn call_tool_boxed(
        &self,
        mut input: ToolExecutionInput,
    ) -> BoxFuture<'static, ToolExecutionResult> {
        let execution = &self.execution;
        input.nest_under(
            execution.token(),
            execution.agent(),
            || self.signal().child_token(),
            execution.approver_slot(),
        );
        Arc::clone(execution.host()).execute(input)
    }

    /// Whether the body should stop, without making the token of a caller that gave none (a
    /// body reads [`signal`](Self::signal)).
    #[inline]
    pub(crate) fn is_cancelled(&self) -> bool {
        match &self.signal {
            Some(signal) => signal.is_cancelled(),
            None => self.execution.is_cancelled(),
        }
    }

    /// Resolves when the body should stop (the bodies of imported MCP tools, which select on it).
    #[cfg(feature = "mcp")]
    pub(crate) async fn cancelled(&self) {
        self.signal().cancelled().await;
    }

    /// Reports how far the body has come to the caller's progress sink (an MCP client's
    /// `notifications/progress`, a UI's pending card). Does nothing, at no cost, when the caller
    /// set no sink; accepts a bare `f64` or a [`ToolProgress`] with a total and a message.
    ///
    /// ```
    /// # use dsh_tools::{ToolRun, json, call::ToolProgress};
    /// # let run = ToolRun::detached("call_1", "index", json!({}), Default::default());
    /// run.report_progress(ToolProgress {
    ///     total: Some(10.0),
    ///     message: Some("indexing".into()),
    ///     ..ToolProgress::from(3.0)
    /// });
    /// run.report_progress(4.0);
    /// ```
    #[inline]
    pub fn report_progress(&self, progress: impl Into<ToolProgress>) {
        self.execution.report_progress(|| progress.into());
    }

    /// Whether the caller listens to progress reports; lets a body skip building costly messages.
    #[inline]
    pub fn wants_progress(&self) -> bool {
        self.execution.has_progress_sink()
    }

    /// Hands over the content of the value this body is about to return, when the body has it
    /// already — a bridge relaying another server's result, whose content blocks must reach the
    /// model as they are. The registry then uses it instead of the definition's
    /// [`render`](crate::ToolDefinition::render) for that value (the value is still checked
    /// against the output schema). It applies to this dispatch's successful value only: an error,
    /// a cancelled call, or a layer or post-execute hook that replaces the value ignores it.
    pub fn provide_content(&self, content: Vec<ContentBlock>) {
        self.execution.provide_content(content);
    }

    /// Queues context for the model's next request; it is delivered with the result, before any
    /// context a post-execute hook adds.
    pub fn defer_context(&self, context: ContentBlock) {
        self.execution.defer_context(context);
    }

    /// Shared state of type `T` provided to the registry, or an error naming the missing type:
    /// `run.state::<Db>()?` in a body that needs it (declared with
    /// [`ToolDefinition::required_state`](crate::ToolDefinition::required_state), so a
    /// registered tool always finds it), `run.state::<Cache>().ok()` where it is optional.
    pub fn state<T: Send + Sync + 'static>(&self) -> Result<&T, ToolError> {
        self.execution
            .state()
            .get::<T>()
            .ok_or_else(|| missing_state(type_name::<T>()))
    }
}

/// The error of a shared state lookup that found nothing; out of line, so a lookup that finds its
/// state is a map read.
#[cold]
#[inline(never)]
fn missing_state(type_name: &str) -> ToolError {
    ToolError::new(format!(
        "no shared state of type `{type_name}` was provided to the registry"
    ))
}

impl fmt::Debug for ToolRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolRun")
            .field("execution", &self.execution)
            .field("cancelled", &self.is_cancelled())
            .finish_non_exhaustive()
    }
}

/// The host of a run outside any registry (a tool function called directly): shared state and
/// default limits, no tools.
struct DetachedHost {
    state: SharedState,
    limits: LimitsCell,
}

impl DetachedHost {
    fn new(state: SharedState) -> Self {
        Self {
            state,
            limits: LimitsCell::new(CallLimits::new()),
        }
    }
}

impl CallHost for DetachedHost {
    fn state(&self) -> &SharedState {
        &self.state
    }

    fn limits(&self) -> &LimitsCell {
        &self.limits
    }

    fn execute(
        self: Arc<Self>,
        input: ToolExecutionInput,
    ) -> BoxFuture<'static, ToolExecutionResult> {
        // Nothing is registered outside a registry: the call fails as an unknown tool would at
        // dispatch.
        let error = ToolError::unknown_tool(&input.name);
        Box::pin(std::future::ready(ToolExecutionResult::failure(error)))
    }

    fn search_tools(
        &self,
        _agent: Option<&crate::ids::AgentId>,
        _view: crate::call::execution::CallView,
        _query: &crate::search::ToolSearchQuery,
    ) -> Result<crate::search::ToolSearchAnswer, ToolError> {
        // Outside a registry there are no deferred tools to find.
        Ok(crate::search::ToolSearchAnswer::default())
    }
}
