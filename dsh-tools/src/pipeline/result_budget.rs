//! The result budget: the last step before observers, so that neither the model nor anything
//! watching on its behalf sees more text than the budget.
//!
//! The budget is the tool's own ([`ToolOptions::max_result_chars`](crate::call::ToolOptions::max_result_chars), from the definition visible
//! when the call started, like the finalizer), else the registry's
//! ([`CallLimits::max_result_chars`](crate::policy::CallLimits::max_result_chars)). It applies to the
//! content of every outcome; text blocks count by characters, non-text blocks are left whole (see
//! `text_bounds::truncate_content`). The canonical value and the error are never touched: code
//! still gets the whole of both.

use crate::call::definition::ToolDefinition;
use crate::call::execution::ToolExecution;
use crate::result::ToolExecutionResult;
use crate::text_bounds::truncate_content;

/// Cuts `result`'s content to its budget.
#[inline]
pub(crate) fn apply(
    definition: Option<&dyn ToolDefinition>,
    execution: &ToolExecution,
    result: &mut ToolExecutionResult,
) {
    let declared = definition.and_then(|definition| definition.options().max_result_chars);
    let budget = execution.host().limits().result_budget(declared);
    if budget == usize::MAX {
        return;
    }
    if let Some(truncation) = truncate_content(result.content_mut(), budget) {
        cut_logged(execution, truncation.omitted, truncation.total, budget);
    }
}

#[cold]
fn cut_logged(execution: &ToolExecution, omitted: usize, total: usize, budget: usize) {
    tracing::debug!(
        tool = execution.name(),
        call_id = execution.call_id(),
        omitted,
        total,
        budget,
        "result content cut to its budget"
    );
}
