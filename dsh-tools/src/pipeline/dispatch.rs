//! The steps of dispatch (phase 9, in the order of `phases::dispatch_steps`).
//!
//! The steps: resolve the tool again (it may have been disposed since the call started) and
//! refuse malformed raw arguments ([`runnable_definition`]), start the body under a panic catcher
//! — under its deadline (`deadline.rs`) when it has a time budget (its definition's, or the
//! registry's default), else to completion ([`start`]) — and turn its outcome into a result
//! through the output contract ([`body_result`]).

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use serde_json::Value;

use crate::call::context::CallContext;
use crate::call::definition::ToolDefinition;
use crate::call::execution::ToolExecution;
use crate::call::run::ToolRun;
use crate::errors::tool_error::ToolError;
use crate::future::{BoxFuture, CatchUnwind};
use crate::pipeline::body::{BodyOutcome, start_body};
use crate::pipeline::deadline;
use crate::pipeline::failure::{failed, tool_failed};
use crate::pipeline::output::rendered_success;
use crate::result::ToolExecutionResult;

/// The definition the call dispatches to, or the result that refuses it: the tool is gone, or
/// the raw arguments could not be parsed.
#[inline]
pub(crate) fn runnable_definition(
    call: &CallContext,
) -> Result<Cow<'_, Arc<dyn ToolDefinition>>, ToolExecutionResult> {
    let execution = call.execution();
    let Some(definition) = call.resolve_now() else {
        return Err(failed(execution, unknown_tool(execution)));
    };
    if let Some(reason) = execution.malformed_arguments() {
        return Err(failed(execution, ToolError::invalid_arguments_text(reason)));
    }
    Ok(definition)
}

/// `UNKNOWN_TOOL` for a call whose definition is gone.
#[cold]
pub(crate) fn unknown_tool_result(call: &CallContext) -> ToolExecutionResult {
    let execution = call.execution();
    failed(execution, unknown_tool(execution))
}

#[cold]
fn unknown_tool(execution: &ToolExecution) -> ToolError {
    ToolError::unknown_tool(execution.name())
}

/// The time budget the registry enforces on `definition`'s body, if any: its declared one, else
/// the registry's default, unless the registry's timeouts are off.
#[inline]
pub(crate) fn enforced_budget(
    definition: &dyn ToolDefinition,
    execution: &ToolExecution,
) -> Option<u64> {
    execution
        .host()
        .limits()
        .enforced_budget(definition.options().timeout_ms)
}

/// A started body: polled as it is, or under its deadline (boxed, with its timer, so that calls
/// without a budget do not carry one).
pub(crate) enum Started<'a> {
    Plain(CatchUnwind<BoxFuture<'a, Result<Value, ToolError>>>),
    Timed(BoxFuture<'a, BodyOutcome>),
}

impl Future for Started<'_> {
    type Output = BodyOutcome;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<BodyOutcome> {
        match self.get_mut() {
            Self::Plain(body) => Pin::new(body).poll(cx),
            Self::Timed(body) => body.as_mut().poll(cx),
        }
    }
}

/// Starts `definition`'s body with `run`: under its deadline when the registry enforces a
/// budget for it. `arguments` are the call's, taken out of its execution for a definition that
/// [takes them by value](ToolDefinition::takes_arguments_by_value), and taken from here only by
/// such a body; `None` runs the body on the execution's own. They are lent rather than moved in:
/// an `Option<Value>` moved into every start is a copy of it a call. `Err` is a panic before the
/// body's future was even returned.
#[inline]
pub(crate) fn start<'a>(
    definition: &'a dyn ToolDefinition,
    run: &'a ToolRun,
    arguments: &mut Option<Value>,
) -> Result<Started<'a>, String> {
    match enforced_budget(definition, run.execution()) {
        None => start_body(definition, run, arguments)
            .map(|body| Started::Plain(CatchUnwind::new(body))),
        Some(budget_ms) => Ok(Started::Timed(deadline::run_within(
            definition,
            run,
            budget_ms,
            arguments.take(),
        ))),
    }
}

/// What the body's outcome (or its panic) becomes: a failure, `ABORTED` when the body's token was
/// cancelled meanwhile, or a success through the output contract (with the content the body
/// provided, if it did).
///
/// Always inlined: the body's outcome is then read where the body's future left it, rather than
/// copied into an argument slot on every call.
#[inline(always)]
pub(crate) fn body_result(
    definition: &dyn ToolDefinition,
    run: &ToolRun,
    outcome: BodyOutcome,
) -> ToolExecutionResult {
    let execution = run.execution();
    let provided = execution.take_provided_content();
    match outcome {
        Ok(Ok(value)) if !run.is_cancelled() => {
            rendered_success(definition, execution, value, provided)
        }
        Ok(Ok(_)) => failed(execution, ToolError::aborted()),
        Ok(Err(error)) => failed(execution, tool_failed(error)),
        Err(message) => body_panicked(execution, &message),
    }
}

#[cold]
fn body_panicked(execution: &ToolExecution, message: &str) -> ToolExecutionResult {
    tracing::error!(
        tool = execution.name(),
        call_id = execution.call_id(),
        "tool body panicked: {message}"
    );
    failed(execution, ToolError::panicked(execution.name(), message))
}
