//! Call observers (`observe`): they hear each call start before anything else of it runs (even
//! one that ends before dispatch), each progress report after the caller's own sink, and the
//! final result after the result observers, each kind in registration order; they see the definition the
//! call resolved to when it started; a panicking observer is contained; a scope's observer hears
//! only that scope's calls; a call with no observer gets no progress sink.

use std::sync::{Arc, Mutex};

use dsh_tools::{
    FnTool, PreToolDecision, ToolExecutionInput, ToolExecutionResult, ToolRegistry,
    call::{CancellationToken, ToolExecution, ToolProgress},
    hooks::{CallObserver, ObservedCall},
    json,
    present::ToolCallView,
};

type Log = Arc<Mutex<Vec<String>>>;

/// Writes every event to a shared log.
struct Recorder {
    name: &'static str,
    log: Log,
}

impl CallObserver for Recorder {
    fn on_start(&self, call: &ObservedCall<'_>) {
        let card = call.present_call();
        self.log.lock().unwrap().push(format!(
            "{} start {} [{}]",
            self.name,
            call.execution.call_id(),
            card.title()
        ));
    }

    fn on_progress(&self, call: &ObservedCall<'_>, progress: &ToolProgress) {
        self.log.lock().unwrap().push(format!(
            "{} progress {} {}",
            self.name,
            call.execution.call_id(),
            progress.progress
        ));
    }

    fn on_result(&self, call: &ObservedCall<'_>, result: &ToolExecutionResult) {
        self.log.lock().unwrap().push(format!(
            "{} result {} {}",
            self.name,
            call.execution.call_id(),
            if result.is_error() { "failed" } else { "ok" }
        ));
    }
}

fn counting_tool(name: &str) -> FnTool {
    FnTool::builder(name, "Counts to two.")
        .present_call(|_| {
            Some(ToolCallView::Generic {
                title: "Counting".into(),
                kind: Default::default(),
                raw_input: None,
                content: vec![],
                locations: vec![],
            })
        })
        .handler(|_, run| async move {
            let listened = run.wants_progress();
            run.report_progress(1.0);
            run.report_progress(ToolProgress {
                total: Some(2.0),
                ..ToolProgress::from(2.0)
            });
            Ok(json!({"listened": listened}))
        })
}

fn recorder(name: &'static str, log: &Log) -> Recorder {
    Recorder {
        name,
        log: Arc::clone(log),
    }
}

#[tokio::test]
async fn observers_follow_a_call_from_start_to_result_in_order() {
    let registry = ToolRegistry::new();
    let _ = registry.register(counting_tool("count")).unwrap();
    let log: Log = Arc::default();
    let _ = registry.observe(recorder("a", &log));
    {
        let log = Arc::clone(&log);
        let _ = registry.on_pre_execute(move |call, next| {
            log.lock()
                .unwrap()
                .push(format!("pre-execute {}", call.call_id()));
            async move { next.run().await }
        });
    }
    {
        let log = Arc::clone(&log);
        let _ = registry.on_result(move |call: &ToolExecution, _: &ToolExecutionResult| {
            log.lock()
                .unwrap()
                .push(format!("result observer {}", call.call_id()));
        });
    }
    let _ = registry.observe(recorder("b", &log));
    let caller: Log = Arc::default();
    let sink = {
        let caller = Arc::clone(&caller);
        move |_: &ToolExecution, progress: ToolProgress| {
            caller
                .lock()
                .unwrap()
                .push(format!("caller {}", progress.progress));
        }
    };

    let result = registry
        .execute(ToolExecutionInput::new("c1", "count", json!({})).with_progress(sink))
        .await;
    assert_eq!(result.value(), Some(&json!({"listened": true})));
    assert_eq!(
        *log.lock().unwrap(),
        [
            "a start c1 [Counting]",
            "b start c1 [Counting]",
            "pre-execute c1",
            "a progress c1 1",
            "b progress c1 1",
            "a progress c1 2",
            "b progress c1 2",
            "result observer c1",
            "a result c1 ok",
            "b result c1 ok",
        ]
    );
    assert_eq!(*caller.lock().unwrap(), ["caller 1", "caller 2"]);
}

#[tokio::test]
async fn an_observer_gives_the_body_a_progress_sink_and_without_one_there_is_none() {
    let registry = ToolRegistry::new();
    let _ = registry.register(counting_tool("count")).unwrap();
    let unobserved = registry
        .execute(ToolExecutionInput::new("c1", "count", json!({})))
        .await;
    assert_eq!(unobserved.value(), Some(&json!({"listened": false})));

    let log: Log = Arc::default();
    let _ = registry.observe(recorder("a", &log));
    let observed = registry
        .execute(ToolExecutionInput::new("c2", "count", json!({})))
        .await;
    assert_eq!(observed.value(), Some(&json!({"listened": true})));
    assert_eq!(
        *log.lock().unwrap(),
        [
            "a start c2 [Counting]",
            "a progress c2 1",
            "a progress c2 2",
            "a result c2 ok"
        ]
    );
}

#[tokio::test]
async fn calls_that_end_before_dispatch_are_still_started_and_finished() {
    let registry = ToolRegistry::new();
    let _ = registry.register(counting_tool("count")).unwrap();
    let log: Log = Arc::default();
    let _ = registry.observe(recorder("a", &log));
    let _ = registry.on_pre_execute(|call, next| async move {
        if call.call_id() == "denied" {
            return Ok(PreToolDecision::Deny {
                reason: "not now".to_owned(),
            });
        }
        next.run().await
    });

    let cancelled = CancellationToken::new();
    cancelled.cancel();
    registry
        .execute(ToolExecutionInput::new("aborted", "count", json!({})).with_signal(cancelled))
        .await;
    registry
        .execute(ToolExecutionInput::new("denied", "count", json!({})))
        .await;
    registry
        .execute(ToolExecutionInput::new("unknown", "nope", json!({"x": 1})))
        .await;
    assert_eq!(
        *log.lock().unwrap(),
        [
            "a start aborted [Counting]",
            "a result aborted failed",
            "a start denied [Counting]",
            "a result denied failed",
            "a start unknown [nope]",
            "a result unknown failed",
        ]
    );
}

/// Panics in every method.
struct Broken;

impl CallObserver for Broken {
    fn on_start(&self, _: &ObservedCall<'_>) {
        panic!("start bug");
    }

    fn on_progress(&self, _: &ObservedCall<'_>, _: &ToolProgress) {
        panic!("progress bug");
    }

    fn on_result(&self, _: &ObservedCall<'_>, _: &ToolExecutionResult) {
        panic!("result bug");
    }
}

#[tokio::test]
async fn a_panicking_observer_is_contained_and_the_others_still_hear_everything() {
    let registry = ToolRegistry::new();
    let _ = registry.register(counting_tool("count")).unwrap();
    let log: Log = Arc::default();
    let _ = registry.observe(Broken);
    let _ = registry.observe(recorder("a", &log));
    let result = registry
        .execute(ToolExecutionInput::new("c1", "count", json!({})))
        .await;
    assert_eq!(result.value(), Some(&json!({"listened": true})));
    assert_eq!(log.lock().unwrap().len(), 4);
}

#[tokio::test]
async fn a_scope_observer_hears_only_its_scope_and_sees_the_definition_its_calls_resolved_to() {
    let registry = ToolRegistry::new();
    let _ = registry.register(counting_tool("count")).unwrap();
    let scope = registry.create_child("agent").unwrap();
    let log: Log = Arc::default();
    let registration = scope.observe(recorder("scoped", &log)).unwrap();

    registry
        .execute(ToolExecutionInput::new("global", "count", json!({})))
        .await;
    scope
        .execute(ToolExecutionInput::new("mine", "count", json!({})))
        .await;
    assert_eq!(
        *log.lock().unwrap(),
        [
            "scoped start mine [Counting]",
            "scoped progress mine 1",
            "scoped progress mine 2",
            "scoped result mine ok"
        ]
    );

    // The definition is the one captured when the call started, even if it is disposed before
    // the call ends.
    let titles: Log = Arc::default();
    struct Titles(Log);
    impl CallObserver for Titles {
        fn on_result(&self, call: &ObservedCall<'_>, _: &ToolExecutionResult) {
            let resolved = call
                .definition
                .map(|definition| definition.name().to_owned());
            self.0
                .lock()
                .unwrap()
                .push(format!("{:?} {}", resolved, call.present_call().title()));
        }
    }
    registration.dispose();
    let tool = scope.register(counting_tool("short_lived")).unwrap();
    let _ = scope.observe(Titles(Arc::clone(&titles))).unwrap();
    let call = scope.execute(ToolExecutionInput::new("gone", "short_lived", json!({})));
    tool.dispose();
    call.await;
    assert_eq!(*titles.lock().unwrap(), ["Some(\"short_lived\") Counting"]);
}
