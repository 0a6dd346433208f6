//! Observability: one `tracing` span per call, carrying the tool, the call id, the outcome and the
//! duration. With no subscriber interested the span is disabled and the clock is never read.

use std::time::Instant;

use tracing::Span;
use tracing::field::Empty;

use crate::call::execution::ToolExecution;
use crate::result::ToolExecutionResult;

/// The span of one call that a subscriber records, and when it started.
pub(crate) struct CallSpan {
    pub(crate) span: Span,
    started: Instant,
}

impl CallSpan {
    /// The span of the call, or `None` when no subscriber is interested in it: then nothing is
    /// built, moved or dropped on the call's path (the level is checked before the span is made).
    #[inline]
    pub(crate) fn start(execution: &ToolExecution) -> Option<Self> {
        if !tracing::level_enabled!(tracing::Level::INFO) {
            return None;
        }
        let span = tracing::info_span!(
            "tool_call",
            tool = execution.name(),
            call_id = execution.call_id(),
            outcome = Empty,
            duration_us = Empty,
        );
        if span.is_disabled() {
            return None;
        }
        Some(Self {
            span,
            started: Instant::now(),
        })
    }

    /// Records how the call ended: `ok`, the error code, or `error` for failures without one.
    pub(crate) fn finish(&self, result: &ToolExecutionResult) {
        let outcome = match result.error() {
            None => "ok",
            Some(error) => error.code().unwrap_or("error"),
        };
        let micros = u64::try_from(self.started.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.span.record("outcome", outcome);
        self.span.record("duration_us", micros);
    }
}
