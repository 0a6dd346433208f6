//! Applying the `post-execute` chain's one decision to a call's result: content or value
//! replaced (a new value is checked and rendered again), or the call blocked with feedback.

use crate::call::context::CallContext;
use crate::content::joined_text;
use crate::errors::tool_error::ToolError;
use crate::hooks::post_execute::PostToolDecision;
use crate::pipeline::failure::{
    BLOCKED_BY_POLICY, blocked, post_replaces_both, post_replaces_failed_value,
};
use crate::pipeline::output::rendered_success_now;
use crate::pipeline::policy_events;
use crate::result::ToolExecutionResult;

/// Applies the chain's decision to `result`; an error is a misuse that ends the call.
pub(crate) fn apply(
    call: &CallContext,
    mut result: ToolExecutionResult,
    decision: PostToolDecision,
) -> Result<ToolExecutionResult, ToolError> {
    let token = call.execution().token();
    match decision {
        PostToolDecision::Accept {
            content: Some(_),
            value: Some(_),
            ..
        } => Err(post_replaces_both()),
        PostToolDecision::Accept {
            content,
            value: None,
            additional_contexts,
        } => {
            if let Some(content) = content {
                result.set_content(content);
            }
            result.extend_additional_contexts(additional_contexts);
            Ok(result)
        }
        PostToolDecision::Accept {
            content: None,
            value: Some(value),
            additional_contexts,
        } => {
            if result.is_error() {
                return Err(post_replaces_failed_value());
            }
            let earlier = result.take_additional_contexts();
            let meta = result.meta().cloned();
            let mut replaced = rendered_success_now(call, value);
            if !replaced.is_error()
                && let Some(meta) = meta
            {
                replaced = replaced.with_meta(meta).stamped(token);
            }
            replaced.extend_additional_contexts(earlier);
            replaced.extend_additional_contexts(additional_contexts);
            Ok(replaced)
        }
        PostToolDecision::Block {
            feedback,
            additional_contexts,
        } => {
            let text = joined_text(&feedback);
            policy_events::hook_decided("post_execute", "block", Some(&text));
            let message = if text.is_empty() {
                BLOCKED_BY_POLICY.to_owned()
            } else {
                text
            };
            let mut result = ToolExecutionResult::failure(blocked(message)).stamped(token);
            result.set_content(feedback);
            result.extend_additional_contexts(additional_contexts);
            Ok(result)
        }
    }
}
