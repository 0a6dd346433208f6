//! The built-in `tool_search`: the tool a model calls to find and load deferred tools.
//!
//! It is present in every view that has deferred tools (and absent elsewhere), runs through the
//! pipeline like any tool (hooks, guards and approvals apply to it), and reaches the registry
//! only through the call's [`CallHost`](crate::call::execution::CallHost): it searches the
//! deferred tools the caller's scope can call and loads the best matches into that scope's tool
//! list, answering with their names and one-line descriptions.

use std::sync::Arc;

use serde_json::Value;

use crate::call::definition::ToolDefinition;
use crate::call::fn_tool::FnTool;
use crate::call::options::ToolAnnotations;
use crate::call::options::ToolOptions;
use crate::content::ContentBlock;
use crate::errors::tool_error::ToolError;
use crate::present::ToolCallKind;
use crate::search::{ToolSearchAnswer, ToolSearchMode, ToolSearchQuery};
use dsh_tools_schema::Schema;

/// The name of the built-in search tool; registering a tool of this name is refused.
pub const TOOL_SEARCH: &str = "tool_search";

const DESCRIPTION: &str = "Search the tools that are not in your tool list yet, and add the best \
matches to it so that you can call them. Describe what you need in a few keywords (mode \
\"keywords\", the default), or give a regular expression matched against tool names, \
descriptions and parameters (mode \"regex\"), or exact tool names separated by commas (mode \
\"exact\"). The tools found are listed with a one-line description; call them by name.";

fn arguments() -> Schema {
    Schema::object()
        .required(
            "query",
            Schema::string()
                .length(1..=crate::search::MAX_QUERY_CHARS as u64)
                .description(
                    "Keywords for what the tool should do; a regular expression in mode \
                     \"regex\"; tool names in mode \"exact\".",
                ),
        )
        .optional(
            "mode",
            Schema::enumeration(["keywords", "regex", "exact"])
                .description("How the query is read.")
                .default_value("keywords"),
        )
        .optional(
            "max_results",
            Schema::integer()
                .range(1..=ToolSearchQuery::MAX_RESULTS as u64)
                .description("How many tools to return at most.")
                .default_value(ToolSearchQuery::DEFAULT_MAX_RESULTS as u64),
        )
        .build()
}

/// The query a valid call asks for.
fn query_of(arguments: &Value) -> ToolSearchQuery {
    let text = arguments["query"].as_str().unwrap_or_default();
    let mode = match arguments["mode"].as_str() {
        Some("regex") => ToolSearchMode::Regex,
        Some("exact") => ToolSearchMode::Exact,
        _ => ToolSearchMode::Keywords,
    };
    let max_results = arguments["max_results"]
        .as_u64()
        .map_or(ToolSearchQuery::DEFAULT_MAX_RESULTS, |count| {
            usize::try_from(count).unwrap_or(ToolSearchQuery::MAX_RESULTS)
        });
    ToolSearchQuery {
        text: text.to_owned(),
        mode,
        max_results,
    }
}

/// The answer as the model reads it.
fn render(arguments: &Value, value: &Value) -> Result<Vec<ContentBlock>, ToolError> {
    let answer: ToolSearchAnswer = serde_json::from_value(value.clone())
        .map_err(|error| ToolError::invalid_output(TOOL_SEARCH, error))?;
    Ok(vec![ContentBlock::text(answer_text(
        arguments["query"].as_str().unwrap_or_default(),
        &answer,
    ))])
}

/// `Found 2 tools; added to your tool list: a, b.` and one line per tool, or why nothing was
/// found.
pub(crate) fn answer_text(query: &str, answer: &ToolSearchAnswer) -> String {
    use std::fmt::Write as _;
    if answer.tools.is_empty() {
        return format!(
            "No tool matches {query:?}. Try other or fewer keywords, or mode \"regex\"."
        );
    }
    let count = answer.tools.len();
    let noun = if count == 1 { "tool" } else { "tools" };
    let mut text = if answer.loaded.is_empty() {
        format!("Found {count} {noun}, already in your tool list:")
    } else {
        format!(
            "Found {count} {noun}; added to your tool list: {}.",
            answer.loaded.join(", ")
        )
    };
    for hit in &answer.tools {
        let _ = write!(text, "\n- {}", hit.name);
        if !hit.description.is_empty() {
            let _ = write!(text, ": {}", hit.description);
        }
    }
    text
}

/// The built-in search tool's definition.
pub(crate) fn definition() -> Arc<dyn ToolDefinition> {
    let tool = FnTool::builder(TOOL_SEARCH, DESCRIPTION)
        .arguments(arguments())
        .concurrency_classifier(|_| true)
        .options(ToolOptions {
            annotations: ToolAnnotations {
                title: Some("Tool search".to_owned()),
                kind: Some(ToolCallKind::Search),
                read_only: Some(true),
                idempotent: Some(true),
                ..ToolAnnotations::default()
            },
            ..ToolOptions::default()
        })
        .render(render)
        .handler(|arguments, run| async move {
            let query = query_of(&arguments);
            let execution = run.execution();
            let answer =
                execution
                    .host()
                    .search_tools(execution.agent(), execution.view(), &query)?;
            serde_json::to_value(answer)
                .map_err(|error| ToolError::invalid_output(TOOL_SEARCH, error))
        });
    Arc::new(tool)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::ToolSearchHit;

    #[test]
    fn the_answer_names_what_was_loaded() {
        let hit = |name: &str, description: &str| ToolSearchHit {
            name: name.to_owned(),
            description: description.to_owned(),
        };
        let answer = ToolSearchAnswer {
            tools: vec![hit("send_email", "Send an email."), hit("list_emails", "")],
            loaded: vec!["send_email".to_owned()],
        };
        assert_eq!(
            answer_text("email", &answer),
            "Found 2 tools; added to your tool list: send_email.\n- send_email: Send an \
             email.\n- list_emails"
        );
        assert_eq!(
            answer_text("kubernetes", &ToolSearchAnswer::default()),
            "No tool matches \"kubernetes\". Try other or fewer keywords, or mode \"regex\"."
        );
    }
}
