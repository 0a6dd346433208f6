//! The output contract: how a tool's value becomes a successful result. The value must match the
//! definition's output schema and render into content; otherwise the call fails with
//! `INVALID_TOOL_OUTPUT`. Dispatch, a wrapper-authored success and a post-execute value
//! replacement all go through here, so the three can never disagree.

use std::borrow::Cow;

use serde_json::Value;

use crate::call::definition::ToolDefinition;
use crate::call::execution::ToolExecution;
use crate::content::ContentBlock;
use crate::errors::tool_error::ToolError;
use crate::future::catch_panic;
use crate::result::ToolExecutionResult;

/// A stamped success built from `value` by `definition`, or the `INVALID_TOOL_OUTPUT` failure that
/// explains why it cannot be one. `provided` is content the body already made for `value`
/// ([`ToolRun::provide_content`](crate::ToolRun::provide_content)); it replaces the rendering.
///
/// Always inlined: the value is then moved into the result from where the body's outcome
/// left it, rather than first copied into an argument slot, and the call's frame is saved.
#[inline(always)]
pub(crate) fn rendered_success(
    definition: &dyn ToolDefinition,
    execution: &ToolExecution,
    value: Value,
    provided: Option<Vec<ContentBlock>>,
) -> ToolExecutionResult {
    let checked = catch_panic(|| checked_content(definition, execution, &value, provided));
    let outcome = checked.unwrap_or_else(|message| Err(check_panicked(execution, &message)));
    let token = execution.token();
    match outcome {
        Ok(content) => ToolExecutionResult::rendered(value, content, token),
        Err(error) => ToolExecutionResult::failure(error).stamped(token),
    }
}

/// The content of a success with `value`: checked against the output schema, then the content
/// the body provided or the definition's rendering. Inlined into the catcher, which then keeps
/// only these four (the tool's name is read again on the failures that quote it).
#[inline(always)]
fn checked_content(
    definition: &dyn ToolDefinition,
    execution: &ToolExecution,
    value: &Value,
    provided: Option<Vec<ContentBlock>>,
) -> Result<Cow<'static, [ContentBlock]>, ToolError> {
    if let Some(schema) = definition.output_schema()
        && let Err(violations) = schema.validate_output(value)
    {
        return Err(ToolError::invalid_output_violations(
            execution.name(),
            &violations,
        ));
    }
    if let Some(content) = provided {
        return Ok(Cow::Owned(content));
    }
    definition
        .render(execution.arguments(), value)
        .map_err(|error| {
            ToolError::invalid_output(execution.name(), format_args!("render failed: {error}"))
        })
}

#[cold]
fn check_panicked(execution: &ToolExecution, message: &str) -> ToolError {
    ToolError::invalid_output(
        execution.name(),
        format_args!("output check panicked: {message}"),
    )
}

/// [`rendered_success`] with the definition the call resolves to now; `UNKNOWN_TOOL` when the
/// tool is gone.
pub(crate) fn rendered_success_now(
    call: &crate::call::context::CallContext,
    value: Value,
) -> ToolExecutionResult {
    let execution = call.execution();
    match call.resolve_now() {
        Some(definition) => rendered_success(&**definition, execution, value, None),
        None => ToolExecutionResult::failure(ToolError::unknown_tool(execution.name()))
            .stamped(execution.token()),
    }
}
