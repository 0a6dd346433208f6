//! Starting a tool body: what a body ends with ([`BodyOutcome`]) and how it is started
//! ([`start_body`]), shared by dispatch and by the deadline a timed body runs under.

use serde_json::Value;

use crate::call::definition::ToolDefinition;
use crate::call::run::ToolRun;
use crate::errors::tool_error::ToolError;
use crate::future::{BoxFuture, catch_panic};

/// What a body ends with: its value or error, or the message of its panic.
pub(crate) type BodyOutcome = Result<Result<Value, ToolError>, String>;

/// Marks the body as started and calls the definition's `execute` (`execute_owned` with the
/// `arguments` taken out of the execution, when they were), catching a panic before the future
/// is even returned.
#[inline]
pub(crate) fn start_body<'a>(
    definition: &'a dyn ToolDefinition,
    run: &'a ToolRun,
    arguments: &mut Option<Value>,
) -> Result<BoxFuture<'a, Result<Value, ToolError>>, String> {
    let execution = run.execution();
    execution.mark_body_invoked();
    catch_panic(|| match arguments.take() {
        Some(arguments) => definition.execute_owned(arguments, run),
        None => definition.execute(execution.arguments(), run),
    })
}
