//! The opt-in metrics of tool calls: the GenAI conventions' operation-duration histogram and a
//! counter of calls by outcome, made once from the user's `Meter`.

use opentelemetry::KeyValue;
use opentelemetry::metrics::{Counter, Histogram, Meter};

/// The GenAI conventions' bucket boundaries for `gen_ai.client.operation.duration`, in seconds.
const DURATION_BUCKETS: [f64; 14] = [
    0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];

/// The instruments every call of a registry records into ([`Telemetry::metrics`]): the GenAI
/// conventions' `gen_ai.client.operation.duration` histogram (seconds,
/// `gen_ai.operation.name = execute_tool`, `gen_ai.tool.name`, `error.type` on failure) and a
/// `dsh_tools.tool.calls` counter of calls by `outcome` (`ok` or the error code).
///
/// [`Telemetry::metrics`]: crate::telemetry::Telemetry::metrics
#[derive(Clone)]
pub struct ToolMetrics {
    duration: Histogram<f64>,
    calls: Counter<u64>,
}

impl std::fmt::Debug for ToolMetrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolMetrics").finish_non_exhaustive()
    }
}

impl ToolMetrics {
    /// The instruments, made with `meter` (once: hand the same value to every registry that
    /// shares them).
    pub fn new(meter: &Meter) -> Self {
        Self {
            duration: meter
                .f64_histogram("gen_ai.client.operation.duration")
                .with_unit("s")
                .with_description("GenAI operation duration")
                .with_boundaries(DURATION_BUCKETS.to_vec())
                .build(),
            calls: meter
                .u64_counter("dsh_tools.tool.calls")
                .with_unit("{call}")
                .with_description("Tool calls by outcome")
                .build(),
        }
    }

    /// Records one call of `tool` that took `seconds` and ended with `error_code` (`None`: ok).
    pub(crate) fn record(&self, tool: &str, seconds: f64, error_code: Option<&str>) {
        let mut attributes = vec![
            KeyValue::new("gen_ai.operation.name", "execute_tool"),
            KeyValue::new("gen_ai.tool.name", tool.to_owned()),
        ];
        if let Some(code) = error_code {
            attributes.push(KeyValue::new("error.type", code.to_owned()));
        }
        self.duration.record(seconds, &attributes);
        attributes.truncate(2);
        attributes.push(KeyValue::new(
            "outcome",
            error_code.unwrap_or("ok").to_owned(),
        ));
        self.calls.add(1, &attributes);
    }
}
