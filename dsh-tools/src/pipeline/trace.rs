//! Observability: one `tracing` span per call, carrying the tool, the call id, the outcome and the
//! duration, and the events of its policy. With no subscriber interested the span is disabled and
//! the clock is never read.
//!
//! With feature `otel` the span also carries the OpenTelemetry GenAI conventions' fields
//! (`tracing-opentelemetry` exports it as `execute_tool {name}`, kind internal), continues a
//! remote parent the call's input names, records the registry's opt-in arguments and results,
//! and feeds its metrics (`telemetry.rs`); policy decisions become events on it.

use std::time::Instant;

use tracing::Span;
use tracing::field::Empty;

use crate::call::definition::ToolDefinition;
use crate::call::execution::ToolExecution;
use crate::result::ToolExecutionResult;
use crate::store::core::Core;
#[cfg(feature = "otel")]
use crate::telemetry::Telemetry;

/// The span of one call that a subscriber records (or the metrics a registry records for it), and
/// when it started.
pub(crate) struct CallSpan {
    pub(crate) span: Span,
    started: Instant,
    #[cfg(feature = "otel")]
    telemetry: Option<std::sync::Arc<Telemetry>>,
    #[cfg(feature = "otel")]
    served_over_mcp: bool,
}

impl CallSpan {
    /// The span of the call, or `None` when no subscriber is interested in it (and, with feature
    /// `otel`, the registry records no metrics): then nothing is built, moved or dropped on the
    /// call's path (the level is checked before the span is made).
    #[cfg(not(feature = "otel"))]
    #[inline]
    pub(crate) fn start(execution: &ToolExecution, _core: &Core) -> Option<Self> {
        if !tracing::level_enabled!(tracing::Level::INFO) || !thread_has_subscriber() {
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

    /// The span of the call, or `None` when no subscriber is interested in it and the registry
    /// records no metrics: then nothing is built, moved or dropped on the call's path (the level
    /// and the metrics switch are checked before the span is made).
    #[cfg(feature = "otel")]
    #[inline]
    pub(crate) fn start(execution: &ToolExecution, core: &Core) -> Option<Self> {
        let spanned = tracing::level_enabled!(tracing::Level::INFO) && thread_has_subscriber();
        if !spanned && !core.records_metrics() {
            return None;
        }
        Self::start_recorded(execution, core, spanned)
    }

    #[cfg(feature = "otel")]
    #[inline(never)]
    fn start_recorded(execution: &ToolExecution, core: &Core, spanned: bool) -> Option<Self> {
        let name = execution.name();
        let span = if spanned {
            tracing::info_span!(
                "tool_call",
                tool = name,
                call_id = execution.call_id(),
                outcome = Empty,
                duration_us = Empty,
                otel.name = format!("execute_tool {name}").as_str(),
                otel.kind = "internal",
                otel.status_code = Empty,
                gen_ai.operation.name = "execute_tool",
                gen_ai.tool.name = name,
                gen_ai.tool.call.id = execution.call_id(),
                gen_ai.tool.description = Empty,
                gen_ai.tool.type = Empty,
                gen_ai.tool.call.arguments = Empty,
                gen_ai.tool.call.result = Empty,
                error.type = Empty,
                dsh_tools.error.code = Empty,
                mcp.method.name = Empty,
                mcp.session.id = Empty,
            )
        } else {
            Span::none()
        };
        if span.is_disabled() && !core.records_metrics() {
            return None;
        }
        let telemetry = core.telemetry();
        let remote = execution.call_telemetry();
        if !span.is_disabled() {
            if let Some(text) = telemetry
                .as_ref()
                .and_then(|telemetry| telemetry.arguments_text(name, execution.arguments()))
            {
                span.record("gen_ai.tool.call.arguments", text.as_str());
            }
            if let Some(remote) = remote {
                if let Some(parent) = remote.parent().and_then(|parent| parent.to_context()) {
                    use tracing_opentelemetry::OpenTelemetrySpanExt;
                    let _ = span.set_parent(parent);
                }
                if remote.is_served_over_mcp() {
                    span.record("mcp.method.name", "tools/call");
                    if let Some(session) = remote.mcp_session_id() {
                        span.record("mcp.session.id", session);
                    }
                }
            }
        }
        Some(Self {
            span,
            started: Instant::now(),
            telemetry,
            served_over_mcp: remote.is_some_and(|remote| remote.is_served_over_mcp()),
        })
    }

    /// Records what the call resolved to: its description and whether it is local or imported.
    #[cfg(feature = "otel")]
    pub(crate) fn describe(&self, definition: Option<&dyn ToolDefinition>) {
        let Some(definition) = definition else {
            return;
        };
        if self.span.is_disabled() {
            return;
        }
        self.span
            .record("gen_ai.tool.description", definition.description());
        self.span.record(
            "gen_ai.tool.type",
            definition.options().origin.gen_ai_tool_type(),
        );
    }

    /// Records what the call resolved to (with feature `otel`; nothing without).
    #[cfg(not(feature = "otel"))]
    #[inline(always)]
    pub(crate) fn describe(&self, _definition: Option<&dyn ToolDefinition>) {}

    /// Records how the call ended: `ok`, the error code, or `error` for failures without one.
    pub(crate) fn finish(&self, execution: &ToolExecution, result: &ToolExecutionResult) {
        let code = result.error().map(|error| error.code().unwrap_or("error"));
        let outcome = code.unwrap_or("ok");
        let elapsed = self.started.elapsed();
        let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
        self.span.record("outcome", outcome);
        self.span.record("duration_us", micros);
        #[cfg(feature = "otel")]
        self.finish_telemetry(execution.name(), result, code, elapsed);
        #[cfg(not(feature = "otel"))]
        let _ = execution;
    }

    #[cfg(feature = "otel")]
    fn finish_telemetry(
        &self,
        tool: &str,
        result: &ToolExecutionResult,
        code: Option<&str>,
        elapsed: std::time::Duration,
    ) {
        let telemetry = self.telemetry.as_deref();
        if !self.span.is_disabled() {
            if let Some(code) = code {
                // MCP's convention names a tool result with `isError` `tool_error`; the code
                // stays beside it.
                let error_type = if self.served_over_mcp {
                    "tool_error"
                } else {
                    code
                };
                self.span.record("error.type", error_type);
                self.span.record("dsh_tools.error.code", code);
                self.span.record("otel.status_code", "error");
            }
            if let (Some(telemetry), Some(value)) = (telemetry, result.value())
                && let Some(text) = telemetry.result_text(tool, value)
            {
                self.span.record("gen_ai.tool.call.result", text.as_str());
            }
        }
        if let Some(metrics) = telemetry.and_then(Telemetry::tool_metrics) {
            metrics.record(tool, elapsed.as_secs_f64(), code);
        }
    }
}

/// Whether this thread's calls reach a subscriber: without one a span made here would go to
/// nobody yet not be disabled, sending the call down the full path for nothing.
fn thread_has_subscriber() -> bool {
    crate::future::thread_subscriber().is_some()
}
