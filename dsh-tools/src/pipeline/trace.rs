//! Observability: one `tracing` span per call, carrying the tool, the call id, the outcome and the
//! duration. With no subscriber interested the span is disabled and the clock is never read.

use std::time::Instant;

use tracing::Span;
use tracing::field::Empty;

use crate::execution::ToolExecution;
use crate::result::ToolExecutionResult;

/// The span of one call, and when it started (only measured when the span is recorded).
pub(crate) struct CallSpan {
    pub(crate) span: Span,
    started: Option<Instant>,
}

impl CallSpan {
    #[inline]
    pub(crate) fn start(execution: &ToolExecution) -> Self {
        let span = tracing::info_span!(
            "tool_call",
            tool = execution.name(),
            call_id = execution.call_id(),
            outcome = Empty,
            duration_us = Empty,
        );
        let started = (!span.is_disabled()).then(Instant::now);
        Self { span, started }
    }

    /// Whether no subscriber is interested in the span (then nothing is recorded).
    #[inline]
    pub(crate) fn is_disabled(&self) -> bool {
        self.started.is_none()
    }

    /// Records how the call ended: `ok`, the error code, or `error` for failures without one.
    pub(crate) fn finish(&self, result: &ToolExecutionResult) {
        let Some(started) = self.started else {
            return;
        };
        let outcome = match result.error() {
            None => "ok",
            Some(error) => error.code().unwrap_or("error"),
        };
        let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.span.record("outcome", outcome);
        self.span.record("duration_us", micros);
    }
}
