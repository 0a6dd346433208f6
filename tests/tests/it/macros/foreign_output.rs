//! `#[tool(schemars_output)]`: a tool returns a type of another crate (`Vec<Uuid>`, a `chrono`
//! date) with no wrapper struct; its schema comes from `schemars` and is the output schema.

use dsh_tools::{ToolDefinition, ToolError, ToolRegistry, json, tool};
use dsh_tools_tests::{call, only_text};

const FIRST: &str = "67e55044-10b1-426f-9247-bb680e5fe0c8";

/// List the ids of the notes.
#[tool(schemars_output)]
async fn note_ids() -> Result<Vec<uuid::Uuid>, ToolError> {
    Ok(vec![FIRST.parse().expect("a uuid")])
}

fn long_date(date: &chrono::NaiveDate) -> String {
    date.format("%A %-d %B %Y").to_string()
}

/// The day notes are next reviewed.
#[tool(schemars_output, render = long_date)]
async fn review_day() -> chrono::NaiveDate {
    chrono::NaiveDate::from_ymd_opt(2026, 12, 7).expect("a date")
}

#[tokio::test]
async fn a_foreign_value_is_returned_with_its_schemars_schema() {
    let registry = ToolRegistry::new();
    let _ = registry.register(NoteIdsTool).unwrap();
    let _ = registry.register(ReviewDayTool).unwrap();
    let output = NoteIdsTool
        .output_schema()
        .expect("an output schema")
        .schema()
        .to_json_schema();
    assert_eq!(output["type"], json!("array"));
    assert_eq!(output["items"]["format"], json!("uuid"));

    let result = registry.execute(call("note_ids")).await;
    assert_eq!(result.value(), Some(&json!([FIRST])));
    assert_eq!(only_text(&result), format!("[\"{FIRST}\"]"));

    let result = registry.execute(call("review_day")).await;
    assert_eq!(result.value(), Some(&json!("2026-12-07")));
    assert_eq!(only_text(&result), "Monday 7 December 2026");
}
