//! `#[tool]` presenters through the registry: `present_call`, `present_progress` and
//! `present_result` fn paths get the typed arguments; arguments that do not parse fall back to
//! the generic card of the tool's kind.

use dsh_tools::{
    ContentBlock, ToolError, ToolExecutionInput, ToolRegistry, ToolRun,
    call::ToolProgress,
    json,
    present::{FileLocation, ResultSummary, ToolCallKind, ToolCallView, ToolResultView},
    tool,
};

fn index_card(args: &IndexToolArgs) -> Option<ToolCallView> {
    Some(ToolCallView::Generic {
        title: format!("Index {}", args.root),
        kind: ToolCallKind::Search,
        raw_input: None,
        content: vec![],
        locations: vec![FileLocation {
            path: args.root.clone(),
            line: None,
        }],
    })
}

fn index_progress(args: &IndexToolArgs, progress: &ToolProgress) -> Option<ToolCallView> {
    Some(ToolCallView::Generic {
        title: format!("Indexing {}: {} files", args.root, progress.progress),
        kind: ToolCallKind::Search,
        raw_input: None,
        content: vec![],
        locations: vec![],
    })
}

fn index_result(args: &IndexToolArgs, result: &ResultSummary<'_>) -> Option<ToolResultView> {
    Some(ToolResultView::Generic {
        title: Some(format!("Indexed {}", args.root)),
        content: vec![ContentBlock::text(format!(
            "{} ({})",
            result.text(),
            args.root
        ))],
    })
}

/// Index the files under a directory.
#[tool(kind = "search", present_call = index_card, present_progress = index_progress,
       present_result = index_result)]
async fn index(
    /// The directory to index.
    root: String,
    run: &ToolRun,
) -> Result<u32, ToolError> {
    run.report_progress(ToolProgress {
        message: Some(format!("indexed {root}")),
        ..ToolProgress::from(3.0)
    });
    Ok(3)
}

#[tokio::test]
async fn macro_presenters_get_the_typed_arguments() {
    let registry = ToolRegistry::new();
    let _ = registry.register(IndexTool).unwrap();
    let call = ToolExecutionInput::new("c1", "index", json!({"root": "src"}));
    assert_eq!(registry.present_call(&call).title(), "Index src");
    assert_eq!(
        registry
            .present_progress(&call, &ToolProgress::from(7.0))
            .title(),
        "Indexing src: 7 files"
    );
    let result = registry.execute(call.clone()).await;
    assert_eq!(
        registry.present_result(&call, &result),
        ToolResultView::Generic {
            title: Some("Indexed src".into()),
            content: vec![ContentBlock::text("3 (src)")],
        }
    );
}

#[tokio::test]
async fn arguments_that_do_not_parse_get_the_generic_card_of_the_tool_kind() {
    let registry = ToolRegistry::new();
    let _ = registry.register(IndexTool).unwrap();
    let call = ToolExecutionInput::new("c1", "index", json!({"root": 5}));
    let pending = registry.present_call(&call);
    assert_eq!(
        pending,
        ToolCallView::Generic {
            title: "index".into(),
            kind: ToolCallKind::Search,
            raw_input: Some(json!({"root": 5})),
            content: vec![],
            locations: vec![],
        }
    );
    assert_eq!(
        registry.present_progress(&call, &ToolProgress::from(1.0)),
        pending
    );
    let result = registry.execute(call.clone()).await;
    assert_eq!(
        registry.present_result(&call, &result),
        ToolResultView::Generic {
            title: None,
            content: vec![ContentBlock::text(
                "Error: invalid arguments: \"root\" must be a string"
            )],
        }
    );
}
