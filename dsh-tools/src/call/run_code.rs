//! The built-in `run_code`: the tool through which a model runs a program of tool calls (Code
//! Mode).
//!
//! It is present in the views of scopes whose [`CodeMode`](crate::code_mode::CodeMode) is
//! `Code` or `Both`, with the TypeScript declaration of what programs can call in its
//! description (the view writes it). Its body runs the program on its engine
//! ([`Engine`](crate::code_mode::engine::Engine)) and turns every `tools.<name>(args)` into a
//! nested call through the call's [`ToolRun::call_tool`]: the whole pipeline applies to each,
//! with this call as the parent, this call's agent, and a cancellation that follows this call's.
//!
//! Nested calls start in the program's order: concurrency-safe ones up to the limit in flight
//! at once, an exclusive one alone once everything before it has finished. They are polled on
//! the engine's thread (no thread hop per call) with the caller's tokio runtime entered and its
//! `tracing` context carried over: a call that may start when the program makes it is polled
//! there and then, and one that returns a value at that first poll answers the program before
//! `tools.<name>` returns; the others are polled between turns of the program. The caller's
//! task-locals are not seen by nested calls. The run's result is what the program returned and
//! printed; a program that fails ends with `CODE_RUN_FAILED` (the wall time with
//! `TOOL_TIMEOUT`, a cancellation with `ABORTED`), and the calls it made stay made. The wall
//! time bounds the nested calls too: any end of a program cancels its calls in flight, which are
//! dropped after the registry's timeout grace, as any timed-out call is.
//!
//! On a registry with a call store (feature `durable`), a run can resume (`resume.rs`): its
//! nested calls are keyed by the run's key and their positions, a call whose approval waits
//! pauses the run (`APPROVAL_PENDING`: the program stops before it sees that call end, its calls
//! in flight end and are recorded, those not started never start), and the run's retry re-runs
//! the program with every call it already made answered from the journal; a program that asks a
//! position for another call than it recorded ends `CODE_RUN_DIVERGED`.

pub(crate) mod host;
#[cfg(feature = "durable")]
mod resume;

use std::collections::VecDeque;
use std::future::poll_fn;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use tracing::{Dispatch, Span};

use crate::call::definition::ToolDefinition;
use crate::call::execution::ToolExecutionInput;
use crate::call::fn_tool::FnTool;
use crate::call::options::ToolAnnotations;
use crate::call::options::ToolOptions;
use crate::call::run::ToolRun;
use crate::call::run_code::host::{ConcurrencyCheck, ProgramHost};
use crate::code_mode::CodeLimits;
use crate::code_mode::engine::Engine;
use crate::code_mode::failure::{ProgramFailure, StopKind};
use crate::code_mode::program_calls::{CallOutcome, ProgramCalls, Surroundings};
use crate::content::{ContentBlock, fenced_block};
use crate::decimal::Decimal;
use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::present::{ToolCallKind, ToolCallView};
use crate::result::{ToolExecutionResult, ToolOutcome};
use dsh_tools_schema::Schema;

/// The name of the built-in Code Mode tool; registering or restricting it is refused.
pub const RUN_CODE: &str = "run_code";

/// What `run_code`'s description says before the declaration of the tools.
pub(crate) const DESCRIPTION: &str = "Run a JavaScript program that calls tools. Use it to make \
several tool calls in one step — loops, conditions, joining results — and return only what you \
need. The program is the body of an async function: `await` the calls and `return` the result \
(JSON). Call a tool as `await tools.<name>(args)`; a failed call throws a ToolCallError with \
`code` and `message`, which you can catch. `console.log` output is shown with the result. There \
is no file system, network, timer or module access other than through the tools. Independent \
calls can run together with `Promise.all`.";

fn arguments() -> Schema {
    Schema::object()
        .required(
            "code",
            Schema::string()
                .length(1..)
                .description("The JavaScript program: the body of an async function."),
        )
        .build()
}

/// The built-in Code Mode tool's definition.
pub(crate) fn definition() -> Arc<dyn ToolDefinition> {
    let tool = FnTool::builder(RUN_CODE, DESCRIPTION)
        .arguments(arguments())
        .options(ToolOptions {
            annotations: ToolAnnotations {
                title: Some("Run code".to_owned()),
                kind: Some(ToolCallKind::Execute),
                ..ToolAnnotations::default()
            },
            ..ToolOptions::default()
        })
        .render(render)
        .present_call(program_card)
        .present_partial_call(program_card)
        .handler(|arguments, run| async move { run_program(&arguments, &run).await });
    Arc::new(tool)
}

/// The card of a run: the program itself, as a JavaScript block under the tool's title, so an
/// editor shows what will run (the nested calls' cards follow under it, naming it as their
/// parent). While the model is still writing, the program so far.
fn program_card(arguments: &Value) -> Option<ToolCallView> {
    let program = arguments.get("code")?.as_str()?;
    Some(ToolCallView::Generic {
        title: "Run code".to_owned(),
        kind: ToolCallKind::Execute,
        raw_input: Some(arguments.clone()),
        content: vec![ContentBlock::text(fenced_block("javascript", program))],
        locations: Vec::new(),
    })
}

/// The run as the model reads it: what the program printed, then what it returned.
fn render(_arguments: &Value, value: &Value) -> Result<Vec<ContentBlock>, ToolError> {
    let output = value["output"].as_str().unwrap_or_default();
    let result = &value["result"];
    let mut text = String::new();
    if !output.is_empty() {
        text.push_str("Output:\n");
        text.push_str(output.trim_end_matches('\n'));
    }
    if !result.is_null() {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str("Result: ");
        text.push_str(&result.to_string());
    }
    if text.is_empty() {
        text.push_str("The program finished without output or result.");
    }
    Ok(vec![ContentBlock::text(text)])
}

/// Runs the program of `arguments` for `run`.
async fn run_program(arguments: &Value, run: &ToolRun) -> Result<Value, ToolError> {
    let program = arguments["code"].as_str().unwrap_or_default();
    let execution = run.execution();
    let host = execution.host().programs();
    let limits = host.map_or_else(CodeLimits::new, ProgramHost::code_limits);
    if program.len() > limits.max_source_bytes() {
        let failure = ProgramFailure::limit(format!(
            "the program is {} bytes long, more than its limit of {} bytes",
            program.len(),
            limits.max_source_bytes()
        ));
        return Err(ToolError::code_run_failed(failure.message("")));
    }
    let calls = NestedCalls::new(run, limits.max_in_flight());
    #[cfg(feature = "durable")]
    let halt = calls.resume.as_ref().map(resume::Resume::halt_slot);
    let mut engine = Engine::start(
        program.to_owned(),
        limits,
        host.map(ProgramHost::code_engines),
        Box::new(calls),
    )
    .map_err(|error| {
        ToolError::code_run_failed(format!("the program could not be started: {error}"))
    })?;
    // The run's cancellation stops the program; the nested calls' signals follow the run's on
    // their own.
    let mut cancelled = pin!(run.signal().cancelled());
    let mut cancel_seen = false;
    let (outcome, output) = poll_fn(|context| {
        if !cancel_seen && cancelled.as_mut().poll(context).is_ready() {
            cancel_seen = true;
            engine.cancel();
        }
        engine.poll_finished(context)
    })
    .await;
    match outcome {
        Ok(result) => Ok(json!({
            "result": result.unwrap_or(Value::Null),
            "output": output,
        })),
        Err(failure) => {
            #[cfg(feature = "durable")]
            if let Some(error) = halt.as_ref().and_then(|halt| halt.get()) {
                if !output.is_empty() {
                    run.defer_context(ContentBlock::text(format!(
                        "Output of the run_code program before it stopped:\n{}",
                        output.trim_end_matches('\n')
                    )));
                }
                return Err(error.clone());
            }
            Err(failure_error(run, &failure, &output, limits.wall_time_ms()))
        }
    }
}

/// The error a failed program ends its call with.
fn failure_error(run: &ToolRun, failure: &ProgramFailure, output: &str, wall_ms: u64) -> ToolError {
    // A run its caller cancelled ends `ABORTED`, however the program ended after: its nested
    // calls see the cancellation on the engine's thread and may fail it (an uncaught
    // `ABORTED` rejection) before the run itself stops the engine.
    let kind = match failure.kind {
        StopKind::Program | StopKind::Limit | StopKind::Halted if run.signal().is_cancelled() => {
            StopKind::Cancelled
        }
        kind => kind,
    };
    match kind {
        StopKind::Program | StopKind::Limit | StopKind::Halted => {
            ToolError::code_run_failed(failure.message(output))
        }
        StopKind::TimedOut | StopKind::Cancelled => {
            // The pipeline's own error says what happened; what the program printed still
            // reaches the model.
            if !output.is_empty() {
                run.defer_context(ContentBlock::text(format!(
                    "Output of the run_code program before it stopped:\n{}",
                    output.trim_end_matches('\n')
                )));
            }
            if kind == StopKind::TimedOut {
                ToolError::timed_out(wall_ms)
            } else {
                ToolError::aborted()
            }
        }
    }
}

/// The tool a name resolved to, in the registry's generation it was resolved in.
struct LastTool {
    name: String,
    generation: u64,
    tool: Option<Arc<dyn ConcurrencyCheck>>,
}

/// A nested call the program asked for and that has not started yet.
struct Queued {
    id: u64,
    input: ToolExecutionInput,
    concurrency_safe: bool,
}

/// A nested call in flight: the program's id for it, whether it is concurrency-safe, the call.
type InFlight = (u64, bool, BoxFuture<'static, ToolExecutionResult>);

/// The calls of one run, polled on the engine's thread: takes the program's calls, starts them
/// in order within the bounds, and hands back their outcomes — at once for a call that ends at
/// its first poll. What the calls expect around them travels with it from the caller: the tokio
/// runtime (their timers, `spawn`), the `tracing` dispatcher and the run's span, so a nested
/// call's span is a child of the run's.
/// The caller's task-locals do not: a task-local is set for a future on the caller's executor,
/// and the nested calls are no longer polled inside it.
struct NestedCalls {
    run: ToolRun,
    /// Cancelled when the run's program ends (or the run is): the signal of every nested call.
    /// One token for all of them, as a caller's one token for its calls: a child token each
    /// would cost linking into the run's token tree per call, and nothing cancels one nested
    /// call's signal alone (a call's timeout cancels a token of its own).
    calls_signal: CancellationToken,
    queue: VecDeque<Queued>,
    in_flight: Vec<InFlight>,
    max_in_flight: usize,
    /// The tool the program's last call resolved to: a program calling one tool again and
    /// again resolves it once, while the registry does not change.
    last_tool: Option<LastTool>,
    runtime: Option<tokio::runtime::Handle>,
    dispatch: Option<Dispatch>,
    span: Span,
    /// With a call store: the run's journal, which keys, checks and may halt its calls.
    #[cfg(feature = "durable")]
    resume: Option<resume::Resume>,
}

impl NestedCalls {
    fn new(run: &ToolRun, max_in_flight: usize) -> Self {
        // Without a subscriber of the caller's own there is nothing to carry: the engine's
        // thread sees the global one.
        let dispatch = crate::future::thread_subscriber();
        Self {
            run: run.clone(),
            calls_signal: run.signal().child_token(),
            queue: VecDeque::new(),
            in_flight: Vec::new(),
            max_in_flight,
            last_tool: None,
            runtime: tokio::runtime::Handle::try_current().ok(),
            dispatch,
            span: Span::current(),
            #[cfg(feature = "durable")]
            resume: resume::Resume::of(run),
        }
    }

    /// Starts what the order and the bounds allow (and, for a run that can resume, what the
    /// journal's check of its position let through); whether anything started.
    fn start_ready(&mut self, context: &mut Context<'_>) -> bool {
        // A halted program starts nothing more, whatever it asked for before it was stopped.
        if self.halted() {
            return false;
        }
        let mut started = false;
        while let Some(next) = self.queue.front() {
            let exclusive_running = self.in_flight.iter().any(|(_, safe, _)| !safe);
            let may_start = if next.concurrency_safe {
                !exclusive_running && self.in_flight.len() < self.max_in_flight
            } else {
                self.in_flight.is_empty()
            };
            if !may_start {
                break;
            }
            #[cfg(feature = "durable")]
            let recorded = match &mut self.resume {
                Some(resume) => match resume.check(next.id + 1, &next.input, context) {
                    Poll::Pending => break,
                    Poll::Ready(Ok(recorded)) => recorded,
                    Poll::Ready(Err(diverged)) => {
                        resume.halt(diverged);
                        self.queue.clear();
                        break;
                    }
                },
                None => None,
            };
            #[cfg(not(feature = "durable"))]
            let _ = &context;
            let Some(next) = self.queue.pop_front() else {
                break;
            };
            #[cfg(feature = "durable")]
            let next = match &self.resume {
                Some(resume) => Queued {
                    input: resume.keyed(next.id + 1, next.input, recorded),
                    ..next
                },
                None => next,
            };
            let call = self.run.call_tool_boxed(next.input);
            self.in_flight.push((next.id, next.concurrency_safe, call));
            started = true;
        }
        started
    }

    /// Whether the call of `name` with `arguments` is concurrency-safe; `true` for a name that
    /// resolves to nothing, whose call fails at once.
    fn is_concurrency_safe(&mut self, name: &str, arguments: &Value) -> bool {
        let execution = self.run.execution();
        // Outside a registry nothing resolves, ever: generation 0, no tool.
        let host = execution.host().programs();
        let known = self.last_tool.as_ref().is_some_and(|last| {
            last.name == name && last.generation == host.map_or(0, ProgramHost::generation)
        });
        if !known {
            let (generation, tool) =
                host.map_or((0, None), |host| host.program_tool(execution.agent(), name));
            self.last_tool = Some(LastTool {
                name: name.to_owned(),
                generation,
                tool,
            });
        }
        self.last_tool
            .as_ref()
            .and_then(|last| last.tool.as_ref())
            .is_none_or(|tool| tool.is_concurrency_safe(arguments))
    }

    /// What the program sees of the nested call `id`, which ended with `result`: its outcome, or
    /// nothing when the call stops the run for good (a resumed run's call that waits for an
    /// approval or took another path), which then starts no queued call and ends at its turn's
    /// end without seeing this call end.
    fn settle(&mut self, id: u64, result: ToolExecutionResult) -> Option<CallOutcome> {
        #[cfg(feature = "durable")]
        if let Some(resume) = &mut self.resume
            && let Some(paused) = resume.halts(id + 1, &result)
        {
            resume.halt(paused);
            self.queue.clear();
            return None;
        }
        #[cfg(not(feature = "durable"))]
        let _ = id;
        Some(self.outcome(result))
    }

    /// A nested call's outcome for the program; its contexts go to the model with the run's
    /// result.
    fn outcome(&self, result: ToolExecutionResult) -> CallOutcome {
        // Taken apart rather than read: the value moves to the program uncopied.
        let parts = result.into_parts();
        for context in parts.additional_contexts {
            self.run.defer_context(context);
        }
        match parts.outcome {
            ToolOutcome::Success(value) => Ok(value),
            ToolOutcome::Failure(error) => Err((
                error
                    .code()
                    .unwrap_or(crate::errors::code::ErrorCode::ToolError.as_str())
                    .to_owned(),
                error.message().to_owned(),
            )),
        }
    }
}

impl ProgramCalls for NestedCalls {
    fn surroundings(&mut self) -> Surroundings {
        let runtime = self.runtime.take();
        let dispatch = self.dispatch.take();
        Box::new(move |work| {
            let _runtime = runtime.as_ref().map(tokio::runtime::Handle::enter);
            match dispatch {
                Some(dispatch) => tracing::dispatcher::with_default(&dispatch, work),
                None => work(),
            }
        })
    }

    fn call(
        &mut self,
        id: u64,
        name: String,
        arguments: Value,
        waker: &Waker,
    ) -> Option<CallOutcome> {
        let concurrency_safe = self.is_concurrency_safe(&name, &arguments);
        let execution = self.run.execution();
        let call_id = nested_call_id(execution.call_id(), id + 1);
        let input = ToolExecutionInput::new(call_id, name, arguments)
            .with_signal(self.calls_signal.clone());
        self.queue.push_back(Queued {
            id,
            input,
            concurrency_safe,
        });
        // Started now only if it is next in the program's order and the bounds let it, as a
        // poll would start it; polled once, and answered at once if it ended.
        let span = self.span.clone();
        let _span = span.enter();
        let mut context = Context::from_waker(waker);
        self.start_ready(&mut context);
        let (last, _, call) = self.in_flight.last_mut()?;
        if *last != id {
            return None;
        }
        let Poll::Ready(result) = call.as_mut().poll(&mut context) else {
            return None;
        };
        self.in_flight.pop();
        self.settle(id, result)
    }

    fn poll(&mut self, waker: &Waker, settled: &mut dyn FnMut(u64, CallOutcome)) {
        // Entered per poll rather than for the whole program: the run's span must close when
        // the run ends, which a guard held until the engine's work returns would delay past the
        // caller's result (see `drop_calls`).
        let span = self.span.clone();
        let _span = span.enter();
        let mut context = Context::from_waker(waker);
        loop {
            let mut progressed = self.start_ready(&mut context);
            let mut index = 0;
            while index < self.in_flight.len() {
                if let Poll::Ready(result) = self.in_flight[index].2.as_mut().poll(&mut context) {
                    let (id, _, _) = self.in_flight.swap_remove(index);
                    if let Some(outcome) = self.settle(id, result) {
                        settled(id, outcome);
                    }
                    progressed = true;
                } else {
                    index += 1;
                }
            }
            if !progressed {
                break;
            }
        }
    }

    fn is_idle(&self) -> bool {
        self.in_flight.is_empty() && self.queue.is_empty()
    }

    fn end(&mut self) -> Duration {
        // Calls the program never waited for do not start now.
        self.queue.clear();
        #[cfg(feature = "durable")]
        if let Some(resume) = &mut self.resume {
            resume.stop();
        }
        self.calls_signal.cancel();
        self.run.execution().host().limits().timeout_grace()
    }

    #[cfg(feature = "durable")]
    fn halted(&self) -> bool {
        self.resume.as_ref().is_some_and(resume::Resume::is_halted)
    }

    fn drop_calls(&mut self) {
        self.in_flight.clear();
        // The last hold on the run's span outside its call: released before the caller hears
        // the outcome, so the span closes (and is exported) when the run's call ends.
        self.span = Span::none();
    }
}

/// `<run's call id>.<n>`, the id of the program's `n`th nested call. Written by hand: `format!`
/// costs several times as much, once per nested call.
fn nested_call_id(run_id: &str, n: u64) -> String {
    let digits = Decimal::new(n);
    let digits = digits.as_bytes();
    let mut id = String::with_capacity(run_id.len() + 1 + digits.len());
    id.push_str(run_id);
    id.push('.');
    for &digit in digits {
        id.push(char::from(digit));
    }
    id
}

#[cfg(test)]
mod tests {
    use super::nested_call_id;

    #[test]
    fn nested_call_ids_are_the_runs_id_and_the_calls_number() {
        assert_eq!(nested_call_id("run", 1), "run.1");
        assert_eq!(nested_call_id("run", 10), "run.10");
        assert_eq!(nested_call_id("", 1_234_567), ".1234567");
        assert_eq!(nested_call_id("r", u64::MAX), format!("r.{}", u64::MAX));
    }
}
