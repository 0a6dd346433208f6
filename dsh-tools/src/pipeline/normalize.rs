//! Adopting results the registry did not build, and letting cancellation supersede a success.
//!
//! A result stamped for this execution passes as it is. Anything else (a layer's own result, or
//! one cached from another execution) is authored: a failure keeps its error (given `TOOL_ERROR`
//! when it has no code), content, meta and contexts; a success is rebuilt from its value through
//! the output contract, its content ignored.

use crate::call::context::CallContext;
use crate::errors::tool_error::ToolError;
use crate::pipeline::failure::tool_failed;
use crate::pipeline::output::rendered_success_now;
use crate::result::{ToolExecutionResult, ToolOutcome};

/// The registry's version of a result a layer returned.
pub(crate) fn adopt(call: &CallContext, result: ToolExecutionResult) -> ToolExecutionResult {
    let token = call.execution().token();
    if result.origin() == Some(token) {
        return result;
    }
    if result.is_error() {
        return with_tool_code(result).stamped(token);
    }
    let parts = result.into_parts();
    let ToolOutcome::Success(value) = parts.outcome else {
        return ToolExecutionResult::from_parts(parts).stamped(token);
    };
    let mut rebuilt = rendered_success_now(call, value);
    if !rebuilt.is_error()
        && let Some(meta) = parts.meta
    {
        rebuilt = rebuilt.with_meta(meta).stamped(token);
    }
    rebuilt.extend_additional_contexts(parts.additional_contexts);
    rebuilt
}

/// An authored failure with an uncoded error gets `TOOL_ERROR`: the layer stood in for the body.
fn with_tool_code(result: ToolExecutionResult) -> ToolExecutionResult {
    if result.error_code().is_some() {
        return result;
    }
    let mut parts = result.into_parts();
    if let ToolOutcome::Failure(error) = parts.outcome {
        parts.outcome = ToolOutcome::Failure(tool_failed(error));
    }
    ToolExecutionResult::from_parts(parts)
}

/// A success becomes `ABORTED` (a body ran) or `ABORTED_BEFORE_DISPATCH` (none did) when the caller
/// has cancelled; failures stay. Additional contexts survive either way. The test is inlined
/// into every call; the rare change is not.
#[inline(always)]
pub(crate) fn supersede_if_cancelled(call: &CallContext, result: &mut ToolExecutionResult) {
    if !result.is_error() && call.execution().is_cancelled() {
        supersede(call, result);
    }
}

/// [`supersede_if_cancelled`] once the caller has cancelled a success.
#[cold]
fn supersede(call: &CallContext, result: &mut ToolExecutionResult) {
    let execution = call.execution();
    let error = if execution.body_invoked() {
        ToolError::aborted()
    } else {
        ToolError::aborted_before_dispatch()
    };
    let contexts = result.take_additional_contexts();
    let mut aborted = ToolExecutionResult::failure(error).stamped(execution.token());
    aborted.extend_additional_contexts(contexts);
    *result = aborted;
}
