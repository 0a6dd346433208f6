//! DeepSeek: OpenAI-compatible Chat Completions. Tool lists, calls and results have OpenAI's
//! Chat shapes (see `openai.rs`); strict mode (a beta, served from DeepSeek's `/beta` base URL)
//! has its own lowering rules (see `dialect.rs`). DeepSeek's chat models take no image input,
//! so an image a tool returned becomes a text note.

use serde_json::Value;

use super::calls::ToolCall;
use super::openai::{ChatFlavor, format_chat};
use crate::content::ContentBlock;
use crate::result::ToolExecutionResult;

pub(crate) fn format(
    calls: &[ToolCall],
    results: &[ToolExecutionResult],
    contexts: &[ContentBlock],
) -> Vec<Value> {
    format_chat(calls, results, contexts, ChatFlavor::DeepSeek)
}
