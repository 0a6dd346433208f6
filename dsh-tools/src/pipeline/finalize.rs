//! The content finalizer: the definition captured when the call started rewrites the content of
//! every outcome, exactly once. A failing or panicking finalizer turns the call into a bare
//! `Error: <message>` result (`FINALIZER_FAILED` unless its error has a code; nothing else kept,
//! and the finalizer is not run again).

use std::sync::Arc;

use crate::call::definition::ToolDefinition;
use crate::call::execution::ToolExecution;
use crate::future::catch_panic;
use crate::pipeline::failure::{failed, finalizer_failed, finalizer_panicked};
use crate::result::ToolExecutionResult;

#[inline]
pub(crate) fn finalize(
    definition: Option<&Arc<dyn ToolDefinition>>,
    execution: &ToolExecution,
    result: &mut ToolExecutionResult,
) {
    let Some(definition) = definition else {
        return;
    };
    match catch_panic(|| definition.finalize_content(execution, result)) {
        Ok(Ok(None)) => {}
        Ok(Ok(Some(content))) => result.set_content(content),
        Ok(Err(error)) => *result = failed(execution, finalizer_failed(error)),
        Err(message) => *result = failed(execution, finalizer_panicked(execution.name(), &message)),
    }
}
