//! The result budget's log: a result cut to its budget is logged at debug level with the tool,
//! the call id and the figures of the cut; a result within its budget logs nothing.
//!
//! The capture is this thread's: other tests' calls, on other threads, neither add to it nor keep
//! the callsite from reporting to it (see `Capture::install`).

use std::collections::BTreeMap;

use dsh_tools::{FnTool, json};
use dsh_tools_tests::{Capture, CapturedEvent, call, registry_with};

/// A tool returning `chars` times `a`, with a result budget of 200 characters.
fn text_tool(name: &str, chars: usize) -> FnTool {
    FnTool::builder(name, "")
        .options(dsh_tools::call::ToolOptions {
            max_result_chars: Some(200),
            ..dsh_tools::call::ToolOptions::default()
        })
        .handler(move |_, _| async move { Ok(json!("a".repeat(chars))) })
}

#[tokio::test]
async fn a_cut_is_logged_with_its_figures_and_an_untouched_result_is_not() {
    let capture = Capture::new();
    let _guard = capture.install();
    let registry = registry_with([text_tool("long", 1_000), text_tool("short", 10)]);
    let cut = "result content cut to its budget";
    let cuts = |events: Vec<CapturedEvent>| {
        events
            .into_iter()
            .filter(|event| event.message == cut)
            .collect::<Vec<_>>()
    };

    let _ = registry.execute(call("short")).await;
    assert_eq!(cuts(capture.events_with_fields()), []);

    let text = registry.execute(call("long")).await.text();
    assert!(
        text.contains("[truncated: 906 of 1,000 characters omitted;"),
        "{text}"
    );
    let fields = [
        ("budget", "200"),
        ("call_id", "call-1"),
        ("omitted", "906"),
        ("tool", "long"),
        ("total", "1000"),
    ];
    assert_eq!(
        cuts(capture.events_with_fields()),
        [CapturedEvent {
            message: cut.to_owned(),
            fields: BTreeMap::from(fields.map(|(name, value)| (name.to_owned(), value.to_owned()))),
        }]
    );
}
