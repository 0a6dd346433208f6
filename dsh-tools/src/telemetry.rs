//! OpenTelemetry for tool calls (feature `otel`): what a registry records about its calls beyond
//! the span every call has, and the trace context a call carries across a protocol.
//!
//! Every call has one `tracing` span, `tool_call`. With this feature its fields follow the
//! OpenTelemetry GenAI conventions, so that `tracing-opentelemetry` exports it as an
//! `execute_tool {gen_ai.tool.name}` span of kind internal with `gen_ai.operation.name`,
//! `gen_ai.tool.name`, `gen_ai.tool.call.id`, `gen_ai.tool.description`, `gen_ai.tool.type`
//! (`function` for local tools, `extension` for imported MCP tools) and, on failure,
//! `error.type` (the error code). A call made inside another call's body (Code Mode's programs,
//! [`ToolRun::call_tool`](crate::ToolRun::call_tool), a batch awaited by a body) is a child of
//! that call's span. Policy shows as events on the span (see `docs/observability.md`).
//!
//! What this module adds, per registry ([`ToolRegistry::set_telemetry`](crate::ToolRegistry::set_telemetry)):
//!
//! - [`Telemetry`]: the opt-in parts — the arguments and the result on the span
//!   (`gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`; off by default, bounded, through a
//!   redaction hook), and metrics ([`ToolMetrics`]);
//! - [`TraceContext`]: the W3C trace context (`traceparent`, `tracestate`, `baggage`) a call is
//!   parented to when it arrives over a protocol, and which an outgoing call carries;
//! - [`CallTelemetry`]: what a bridge attaches to a call's input (its remote parent, the
//!   protocol's attributes), read by the pipeline when it opens the call's span.
//!
//! With nothing listening (no subscriber interested in the span, no metrics) a call pays for
//! none of this: the span is checked before anything is built.

mod call;
mod metrics;
mod trace_context;

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

pub use call::CallTelemetry;
pub use trace_context::TraceContext;

pub use metrics::ToolMetrics;

/// Which part of a call a redaction hook is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Captured {
    /// The call's arguments (`gen_ai.tool.call.arguments`).
    Arguments,
    /// The value of a successful call (`gen_ai.tool.call.result`).
    Result,
}

/// A redaction hook (see [`Telemetry::redact`]).
type Redactor = dyn Fn(&str, Captured, &mut Value) + Send + Sync;

/// What a registry records about its calls beyond the span's own fields: by default
/// (`Telemetry::default()`) nothing. Set the parts you want, the rest from the default:
///
/// ```
/// # use std::sync::Arc;
/// # use dsh_tools::telemetry::{Captured, Telemetry};
/// # use dsh_tools::{ToolRegistry, Value};
/// let registry = ToolRegistry::new();
/// registry.set_telemetry(Telemetry {
///     record_arguments: Some(2_000),
///     record_results: Some(2_000),
///     redact: Some(Arc::new(|_tool: &str, _part: Captured, value: &mut Value| {
///         if let Some(token) = value.get_mut("token") {
///             *token = "[redacted]".into();
///         }
///     })),
///     ..Telemetry::default()
/// });
/// ```
#[derive(Clone, Default)]
pub struct Telemetry {
    /// Puts each call's arguments on its span (`gen_ai.tool.call.arguments`) as JSON text of at
    /// most this many characters (longer text is cut and says how much was left out), after the
    /// [redaction hook](Self::redact). `None` (the default): not recorded.
    pub record_arguments: Option<usize>,
    /// Puts each successful call's value on its span (`gen_ai.tool.call.result`) as JSON text of
    /// at most this many characters, after the [redaction hook](Self::redact). `None` (the
    /// default): not recorded.
    pub record_results: Option<usize>,
    /// Rewrites arguments and results before they are recorded (secrets, personal data): called
    /// with the tool's name, which part it is, and a copy of the value to change in place. A panic
    /// in it records `[redaction failed]` instead of the value. `None` (the default): recorded
    /// as they are.
    pub redact: Option<Arc<Redactor>>,
    /// The instruments calls record into (see [`ToolMetrics`]). `None` (the default): no metrics.
    pub metrics: Option<ToolMetrics>,
}

impl Telemetry {
    /// Whether anything is recorded when no subscriber wants the span.
    pub(crate) fn tool_metrics(&self) -> Option<&ToolMetrics> {
        self.metrics.as_ref()
    }

    /// The arguments' text for the span, when they are recorded.
    pub(crate) fn arguments_text(&self, tool: &str, arguments: &Value) -> Option<String> {
        let max_chars = self.record_arguments?;
        Some(self.captured_text(tool, Captured::Arguments, arguments, max_chars))
    }

    /// A successful value's text for the span, when results are recorded.
    pub(crate) fn result_text(&self, tool: &str, value: &Value) -> Option<String> {
        let max_chars = self.record_results?;
        Some(self.captured_text(tool, Captured::Result, value, max_chars))
    }

    fn captured_text(&self, tool: &str, part: Captured, value: &Value, max_chars: usize) -> String {
        let text = match &self.redact {
            None => value.to_string(),
            Some(redact) => {
                let mut copy = value.clone();
                // A redaction hook that panics must not leak what it was meant to hide.
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    redact(tool, part, &mut copy);
                })) {
                    Ok(()) => copy.to_string(),
                    Err(_) => return "[redaction failed]".to_owned(),
                }
            }
        };
        bounded(text, max_chars)
    }
}

impl fmt::Debug for Telemetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Telemetry")
            .field("record_arguments", &self.record_arguments)
            .field("record_results", &self.record_results)
            .field("redact", &self.redact.is_some())
            .field("metrics", &self.metrics.is_some())
            .finish()
    }
}

/// `text` cut to `max_chars` characters, saying how many were left out.
fn bounded(mut text: String, max_chars: usize) -> String {
    let Some((cut, _)) = text.char_indices().nth(max_chars) else {
        return text;
    };
    let omitted = text[cut..].chars().count();
    text.truncate(cut);
    text.push_str(&format!("…[{omitted} more characters]"));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_text_says_how_much_was_cut() {
        assert_eq!(bounded("abcdef".to_owned(), 10), "abcdef");
        assert_eq!(bounded("abcdef".to_owned(), 6), "abcdef");
        assert_eq!(bounded("abcdéf".to_owned(), 4), "abcd…[2 more characters]");
    }

    #[test]
    fn redaction_sees_a_copy_and_a_panic_hides_the_value() {
        let telemetry = Telemetry {
            record_arguments: Some(100),
            redact: Some(Arc::new(|tool: &str, part: Captured, value: &mut Value| {
                assert_eq!((tool, part), ("t", Captured::Arguments));
                value["secret"] = "x".into();
            })),
            ..Telemetry::default()
        };
        let arguments = serde_json::json!({"secret": "hunter2", "n": 1});
        let text = telemetry.arguments_text("t", &arguments);
        assert_eq!(text.as_deref(), Some(r#"{"secret":"x","n":1}"#));
        assert_eq!(arguments["secret"], "hunter2");
        assert_eq!(telemetry.result_text("t", &arguments), None);

        let panicking = Telemetry {
            record_results: Some(100),
            redact: Some(Arc::new(|_: &str, _: Captured, _: &mut Value| panic!("no"))),
            ..Telemetry::default()
        };
        let text = panicking.result_text("t", &arguments);
        assert_eq!(text.as_deref(), Some("[redaction failed]"));
    }
}
