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
//! at once, an exclusive one alone once everything before it has finished. The run's result is
//! what the program returned and printed; a program that fails ends with `CODE_RUN_FAILED`
//! (the wall time with `TOOL_TIMEOUT`, a cancellation with `ABORTED`), and the calls it made
//! stay made.

use std::collections::VecDeque;
use std::future::poll_fn;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use serde_json::{Value, json};
use tokio_util::sync::{CancellationToken, WaitForCancellationFutureOwned};

use crate::call::definition::{ToolAnnotations, ToolDefinition};
use crate::call::execution::ToolExecutionInput;
use crate::call::fn_tool::FnTool;
use crate::call::run::ToolRun;
use crate::code_mode::engine::{Engine, EngineEvent, Reply};
use crate::code_mode::failure::{ProgramFailure, StopKind};
use crate::content::{ContentBlock, fenced_block};
use crate::error::ToolError;
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
                .min_length(1)
                .description("The JavaScript program: the body of an async function."),
        )
        .build()
}

/// The built-in Code Mode tool's definition.
pub(crate) fn definition() -> Arc<dyn ToolDefinition> {
    let tool = FnTool::builder(RUN_CODE, DESCRIPTION)
        .arguments(arguments())
        .annotations(ToolAnnotations {
            title: Some("Run code".to_owned()),
            kind: Some(ToolCallKind::Execute),
            ..ToolAnnotations::default()
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
    let limits = execution.host().code_limits();
    if program.len() > limits.max_source_bytes() {
        let failure = ProgramFailure::limit(format!(
            "the program is {} bytes long, more than its limit of {} bytes",
            program.len(),
            limits.max_source_bytes()
        ));
        return Err(ToolError::code_run_failed(failure.message("")));
    }
    let engine = Engine::start(program.to_owned(), limits, execution.host().code_engines())
        .map_err(|error| {
            ToolError::code_run_failed(format!("the program could not be started: {error}"))
        })?;
    let mut host = ProgramHost::new(engine, run, limits.max_in_flight());
    let (outcome, output) = poll_fn(|context| host.poll(context)).await;
    match outcome {
        Ok(result) => Ok(json!({
            "result": result.unwrap_or(Value::Null),
            "output": output,
        })),
        Err(failure) => Err(failure_error(run, &failure, &output, limits.wall_time_ms())),
    }
}

/// The error a failed program ends its call with.
fn failure_error(run: &ToolRun, failure: &ProgramFailure, output: &str, wall_ms: u64) -> ToolError {
    match failure.kind {
        StopKind::Program | StopKind::Limit => ToolError::code_run_failed(failure.message(output)),
        StopKind::TimedOut | StopKind::Cancelled => {
            // The pipeline's own error says what happened; what the program printed still
            // reaches the model.
            if !output.is_empty() {
                run.defer_context(ContentBlock::text(format!(
                    "Output of the run_code program before it stopped:\n{}",
                    output.trim_end_matches('\n')
                )));
            }
            if failure.kind == StopKind::TimedOut {
                ToolError::timed_out(wall_ms)
            } else {
                ToolError::aborted()
            }
        }
    }
}

/// A nested call the program asked for and that has not started yet.
struct Queued {
    id: u64,
    input: ToolExecutionInput,
    concurrency_safe: bool,
}

/// The host side of one run: takes the program's calls, starts them in order within the
/// bounds, settles their promises, and passes a cancellation on to the program and its calls.
struct ProgramHost<'r> {
    engine: Engine,
    run: &'r ToolRun,
    /// Cancelled when the run stops: every nested call's signal is a child of it.
    calls_signal: CancellationToken,
    cancelled: Pin<Box<WaitForCancellationFutureOwned>>,
    cancel_seen: bool,
    queue: VecDeque<Queued>,
    in_flight: Vec<(u64, bool, BoxFuture<'static, ToolExecutionResult>)>,
    max_in_flight: usize,
    finished: Option<(Result<Option<Value>, ProgramFailure>, String)>,
}

impl<'r> ProgramHost<'r> {
    fn new(engine: Engine, run: &'r ToolRun, max_in_flight: usize) -> Self {
        let calls_signal = run.signal().child_token();
        Self {
            engine,
            cancelled: Box::pin(run.signal().clone().cancelled_owned()),
            run,
            calls_signal,
            cancel_seen: false,
            queue: VecDeque::new(),
            in_flight: Vec::new(),
            max_in_flight,
            finished: None,
        }
    }

    fn poll(
        &mut self,
        context: &mut Context<'_>,
    ) -> Poll<(Result<Option<Value>, ProgramFailure>, String)> {
        if !self.cancel_seen && self.cancelled.as_mut().poll(context).is_ready() {
            self.cancel_seen = true;
            self.engine.cancel();
            self.calls_signal.cancel();
        }
        loop {
            let mut progressed = false;
            while self.finished.is_none() {
                match self.engine.poll_event(context) {
                    Poll::Ready(Some(EngineEvent::Call {
                        id,
                        name,
                        arguments,
                    })) => {
                        self.enqueue(id, name, arguments);
                        progressed = true;
                    }
                    Poll::Ready(Some(EngineEvent::Finished { outcome, output })) => {
                        // Calls the program never waited for do not start now.
                        self.queue.clear();
                        self.finished = Some((outcome, output));
                        progressed = true;
                    }
                    Poll::Ready(None) => {
                        let failure = ProgramFailure::limit("the JavaScript engine stopped");
                        self.finished = Some((Err(failure), String::new()));
                    }
                    Poll::Pending => break,
                }
            }
            progressed |= self.start_ready();
            let mut index = 0;
            while index < self.in_flight.len() {
                if let Poll::Ready(result) = self.in_flight[index].2.as_mut().poll(context) {
                    let (id, _, _) = self.in_flight.swap_remove(index);
                    self.settle(id, result);
                    progressed = true;
                } else {
                    index += 1;
                }
            }
            if !progressed {
                break;
            }
        }
        if self.in_flight.is_empty()
            && let Some(finished) = self.finished.take()
        {
            return Poll::Ready(finished);
        }
        Poll::Pending
    }

    fn enqueue(&mut self, id: u64, name: String, arguments: Value) {
        let execution = self.run.execution();
        let concurrency_safe =
            execution
                .host()
                .is_concurrency_safe(execution.agent(), &name, &arguments);
        let call_id = nested_call_id(execution.call_id(), id + 1);
        let input = ToolExecutionInput::new(call_id, name, arguments)
            .with_signal(self.calls_signal.child_token());
        self.queue.push_back(Queued {
            id,
            input,
            concurrency_safe,
        });
    }

    /// Starts what the order and the bounds allow; whether anything started.
    fn start_ready(&mut self) -> bool {
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
            let Some(next) = self.queue.pop_front() else {
                break;
            };
            let call = Box::pin(self.run.call_tool(next.input));
            self.in_flight.push((next.id, next.concurrency_safe, call));
            started = true;
        }
        started
    }

    /// Hands a nested call's result to the program; its contexts go to the model with the
    /// run's result.
    fn settle(&self, id: u64, result: ToolExecutionResult) {
        // Taken apart rather than read: the value moves to the engine thread uncopied.
        let parts = result.into_parts();
        for context in parts.additional_contexts {
            self.run.defer_context(context);
        }
        let outcome = match parts.outcome {
            ToolOutcome::Success(value) => Ok(value),
            ToolOutcome::Failure(error) => Err((
                error
                    .code()
                    .unwrap_or(crate::error::codes::TOOL_ERROR)
                    .to_owned(),
                error.message().to_owned(),
            )),
        };
        self.engine.reply(Reply::Settled { id, outcome });
    }
}

/// `<run's call id>.<n>`, the id of the program's `n`th nested call. Written by hand: `format!`
/// costs several times as much, once per nested call.
fn nested_call_id(run_id: &str, n: u64) -> String {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        // `rest % 10` is a digit: the cast loses nothing.
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let mut id = String::with_capacity(run_id.len() + 1 + digits.len() - at);
    id.push_str(run_id);
    id.push('.');
    for &digit in &digits[at..] {
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
