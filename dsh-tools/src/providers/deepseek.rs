//! DeepSeek: OpenAI-compatible Chat Completions. Tool lists, calls and results have OpenAI's
//! Chat shapes (see `openai.rs`); strict mode (a beta, served from DeepSeek's `/beta` base URL)
//! has its own lowering rules (see `dialect.rs`) and request-wide ones, reported here.
//! DeepSeek's chat models take no image input, so an image a tool returned becomes a text note.

use serde_json::Value;

use super::LoweredTool;
use super::calls::ToolCall;
use super::openai::{ChatFlavor, format_chat};
use super::report::{Change, LoweringReport};
use crate::content::ContentBlock;
use crate::result::ToolExecutionResult;

/// Reports what a list with strict tools asks of a DeepSeek request ("Tool Calls — strict mode
/// (Beta)", api-docs.deepseek.com/guides/tool_calls): the `/beta` base URL, and every function
/// strict — a tool sent non-strict beside strict ones (its schema could not be made strict, or
/// its own setting says not) is named.
pub(crate) fn report_strict(tools: &[LoweredTool], report: &mut LoweringReport) {
    if !tools.iter().any(|tool| tool.strict) {
        return;
    }
    report.push(
        "",
        "",
        Change::Warning,
        "strict tools: DeepSeek's strict mode is a beta, served only from its /beta base URL",
    );
    let loose: Vec<&str> = tools
        .iter()
        .filter(|tool| !tool.strict)
        .map(|tool| tool.name.as_str())
        .collect();
    if !loose.is_empty() {
        report.push(
            "",
            "",
            Change::Warning,
            format!(
                "DeepSeek's strict mode wants every function strict; sent non-strict: {}",
                loose.join(", ")
            ),
        );
    }
}

pub(crate) fn format(
    calls: &[ToolCall],
    results: &[ToolExecutionResult],
    contexts: &[ContentBlock],
) -> Vec<Value> {
    format_chat(calls, results, contexts, ChatFlavor::DeepSeek)
}
