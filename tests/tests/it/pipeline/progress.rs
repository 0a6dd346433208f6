//! Progress reports: a body reports through its `ToolRun`, the caller's sink on the input hears
//! them in order, tagged with the call; without a sink nothing happens; a panicking sink never
//! fails the call.

use std::sync::{Arc, Mutex};

use dsh_tools::{
    FnTool, ToolExecutionInput, ToolRegistry,
    call::{ToolExecution, ToolProgress},
    json,
};
use dsh_tools_tests::Capture;

fn counting_tool() -> FnTool {
    FnTool::builder("count", "Counts to three, reporting progress.").handler(|_, run| async move {
        let listening = run.wants_progress();
        for step in 1..=3 {
            run.report_progress(ToolProgress {
                total: Some(3.0),
                message: Some(format!("step {step}")),
                ..ToolProgress::from(f64::from(step))
            });
        }
        run.report_progress(4.0);
        Ok(json!({ "listening": listening }))
    })
}

fn registry() -> ToolRegistry {
    let registry = ToolRegistry::new();
    let _ = registry.register(counting_tool()).unwrap();
    registry
}

#[tokio::test]
async fn the_sink_hears_every_report_in_order_with_its_call() {
    let heard: Arc<Mutex<Vec<(String, ToolProgress)>>> = Arc::default();
    let sink = {
        let heard = Arc::clone(&heard);
        move |execution: &ToolExecution, progress: ToolProgress| {
            heard
                .lock()
                .unwrap()
                .push((execution.call_id().to_owned(), progress));
        }
    };
    let input = ToolExecutionInput::new("call_7", "count", json!({})).with_progress(sink);
    let result = registry().execute(input).await;
    assert_eq!(result.value(), Some(&json!({"listening": true})));

    let heard = heard.lock().unwrap().clone();
    let expected: Vec<(String, ToolProgress)> = vec![
        (
            "call_7".into(),
            ToolProgress {
                total: Some(3.0),
                message: Some("step 1".into()),
                ..ToolProgress::from(1.0)
            },
        ),
        (
            "call_7".into(),
            ToolProgress {
                total: Some(3.0),
                message: Some("step 2".into()),
                ..ToolProgress::from(2.0)
            },
        ),
        (
            "call_7".into(),
            ToolProgress {
                total: Some(3.0),
                message: Some("step 3".into()),
                ..ToolProgress::from(3.0)
            },
        ),
        ("call_7".into(), ToolProgress::from(4.0)),
    ];
    assert_eq!(heard, expected);
}

#[tokio::test]
async fn without_a_sink_reports_are_dropped_and_the_body_knows() {
    let result = registry()
        .execute(ToolExecutionInput::new("call_1", "count", json!({})))
        .await;
    assert_eq!(result.value(), Some(&json!({"listening": false})));
}

#[tokio::test]
async fn a_panicking_sink_is_logged_and_the_call_still_succeeds() {
    let capture = Capture::new();
    let _guard = capture.install();
    let input = ToolExecutionInput::new("call_2", "count", json!({}))
        .with_progress(|_: &ToolExecution, _: ToolProgress| panic!("sink broke"));
    let result = registry().execute(input).await;
    assert!(!result.is_error(), "{}", result.text());
    let events = capture.events();
    assert_eq!(
        events
            .iter()
            .filter(|event| event.contains("progress sink panicked: sink broke"))
            .count(),
        4,
        "{events:#?}"
    );
}

#[test]
fn progress_serializes_in_the_shape_bridges_forward() {
    let progress = ToolProgress {
        total: Some(5.0),
        message: Some("half way".into()),
        ..ToolProgress::from(2.0)
    };
    assert_eq!(
        serde_json::to_value(&progress).unwrap(),
        json!({"progress": 2.0, "total": 5.0, "message": "half way"})
    );
    assert_eq!(
        serde_json::to_value(ToolProgress::from(1.0)).unwrap(),
        json!({"progress": 1.0})
    );
}
