//! The opt-in metrics: every call records the GenAI conventions' operation duration and one
//! count by outcome, with or without a subscriber.

use dsh_tools::telemetry::{Telemetry, ToolMetrics};
use dsh_tools::{FnTool, ToolError, ToolExecutionInput, ToolRegistry, Value, json};
use dsh_tools_tests::otel::{MetricsCapture, attribute};

fn registry() -> ToolRegistry {
    let registry = ToolRegistry::new();
    let _ = registry
        .register(FnTool::builder("ok", "Works.").handler(|_, _| async { Ok(Value::Null) }))
        .expect("registers");
    let _ = registry
        .register(
            FnTool::builder("fail", "Fails.")
                .handler(|_, _| async { Err::<Value, _>(ToolError::new("no")) }),
        )
        .expect("registers");
    registry
}

/// `(metric, tool, error.type, outcome, count or sum)` of one data point.
type Point = (String, String, Option<String>, Option<String>, u64);

#[tokio::test]
async fn calls_record_their_duration_and_outcome_without_a_subscriber() {
    let metrics = MetricsCapture::new();
    let registry = registry();
    registry.set_telemetry(Telemetry {
        metrics: Some(ToolMetrics::new(&metrics.meter())),
        ..Telemetry::default()
    });
    for (id, name) in [("1", "ok"), ("2", "ok"), ("3", "fail")] {
        let _ = registry
            .execute(ToolExecutionInput::new(id, name, json!({})))
            .await;
    }

    let mut points: Vec<Point> = metrics
        .collect()
        .into_iter()
        .map(|(metric, attributes, count)| {
            (
                metric,
                attribute(&attributes, "gen_ai.tool.name").expect("the tool"),
                attribute(&attributes, "error.type"),
                attribute(&attributes, "outcome"),
                count,
            )
        })
        .collect();
    points.sort();
    let point =
        |metric: &str, tool: &str, error: Option<&str>, outcome: Option<&str>, n| -> Point {
            (
                metric.to_owned(),
                tool.to_owned(),
                error.map(str::to_owned),
                outcome.map(str::to_owned),
                n,
            )
        };
    assert_eq!(
        points,
        [
            point("dsh_tools.tool.calls", "fail", None, Some("TOOL_ERROR"), 1),
            point("dsh_tools.tool.calls", "ok", None, Some("ok"), 2),
            point(
                "gen_ai.client.operation.duration",
                "fail",
                Some("TOOL_ERROR"),
                None,
                1
            ),
            point("gen_ai.client.operation.duration", "ok", None, None, 2),
        ]
    );
}
