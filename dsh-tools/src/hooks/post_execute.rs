//! The `post-execute` waterfall: listeners that inspect a call's result and accept it (as it is,
//! with new content, or with a new value) or block it with feedback, each able to attach context
//! for the model's next request.
//!
//! This file owns the decision type and the chain; applying the chain's one decision to a result
//! is the pipeline's (`pipeline/post_execute.rs`).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use serde_json::Value;

use crate::call::execution::ToolExecution;
use crate::content::ContentBlock;
use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::hooks::chain::{Chain, HookList};
use crate::result::ToolExecutionResult;

/// What a `post-execute` listener decides about a result.
#[derive(Clone, Debug, PartialEq)]
pub enum PostToolDecision {
    /// Keep the result, optionally replacing its content or (for a success) its value.
    Accept {
        /// New model-facing content; the value or error stays.
        content: Option<Vec<ContentBlock>>,
        /// New value for a success, re-validated and re-rendered. Setting both `content` and
        /// `value` is an error.
        value: Option<Value>,
        /// Context for the model's next request, appended after what is already attached.
        additional_contexts: Vec<ContentBlock>,
    },
    /// Turn the call into a failure (`BLOCKED`) whose content is `feedback`, verbatim; its message
    /// is the feedback's text (or `tool result blocked by post-execute policy` when it has none).
    Block {
        /// What the model sees instead of the result.
        feedback: Vec<ContentBlock>,
        /// Context for the model's next request; replaces everything attached before.
        additional_contexts: Vec<ContentBlock>,
    },
}

impl PostToolDecision {
    /// Keep the result unchanged.
    pub fn accept() -> Self {
        Self::Accept {
            content: None,
            value: None,
            additional_contexts: Vec::new(),
        }
    }

    /// Keep the result with new content.
    pub fn replace_content(content: Vec<ContentBlock>) -> Self {
        Self::Accept {
            content: Some(content),
            value: None,
            additional_contexts: Vec::new(),
        }
    }

    /// Keep the success with a new value (checked and rendered like the body's).
    pub fn replace_value(value: Value) -> Self {
        Self::Accept {
            content: None,
            value: Some(value),
            additional_contexts: Vec::new(),
        }
    }

    /// Block the result; the model sees `feedback`.
    pub fn block(feedback: Vec<ContentBlock>) -> Self {
        Self::Block {
            feedback,
            additional_contexts: Vec::new(),
        }
    }

    /// Attaches context for the model's next request.
    #[must_use]
    pub fn with_additional_context(mut self, context: ContentBlock) -> Self {
        match &mut self {
            Self::Accept {
                additional_contexts,
                ..
            }
            | Self::Block {
                additional_contexts,
                ..
            } => additional_contexts.push(context),
        }
        self
    }
}

/// A registered `post-execute` listener (closures implement it).
pub(crate) trait PostExecuteHook: Send + Sync + 'static {
    fn call(
        &self,
        execution: ToolExecution,
        result: Arc<ToolExecutionResult>,
        next: PostExecuteNext,
    ) -> BoxFuture<'static, Result<PostToolDecision, ToolError>>;
}

impl<F, Fut> PostExecuteHook for F
where
    F: Fn(ToolExecution, Arc<ToolExecutionResult>, PostExecuteNext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<PostToolDecision, ToolError>> + Send + 'static,
{
    fn call(
        &self,
        execution: ToolExecution,
        result: Arc<ToolExecutionResult>,
        next: PostExecuteNext,
    ) -> BoxFuture<'static, Result<PostToolDecision, ToolError>> {
        Box::pin(self(execution, result, next))
    }
}

/// The rest of the `post-execute` chain; [`run`](Self::run) returns the decision of the listeners
/// after this one (the default at the end is [`PostToolDecision::accept`]).
pub struct PostExecuteNext {
    chain: Chain<dyn PostExecuteHook>,
    execution: ToolExecution,
    /// The result being decided about (shared with the listeners before this one).
    pub result: Arc<ToolExecutionResult>,
}

impl PostExecuteNext {
    pub(crate) fn new(
        hooks: HookList<dyn PostExecuteHook>,
        execution: ToolExecution,
        result: Arc<ToolExecutionResult>,
    ) -> Self {
        Self {
            chain: Chain::new(hooks),
            execution,
            result,
        }
    }

    /// Runs the rest of the chain and returns its decision.
    pub fn run(self) -> BoxFuture<'static, Result<PostToolDecision, ToolError>> {
        let Self {
            chain,
            execution,
            result,
        } = self;
        match chain.split() {
            // A zero-sized future: boxing it does not allocate.
            None => Box::pin(AcceptedAtEnd),
            // Called directly: the pipeline polls the whole chain inside one panic catcher that
            // also covers the first call (see `pipeline::post_execute`).
            Some((hook, rest)) => {
                let next = Self {
                    chain: rest,
                    execution: execution.clone(),
                    result: Arc::clone(&result),
                };
                hook.call(execution, result, next)
            }
        }
    }
}

/// The decision at the end of a chain, ready at once. A unit struct rather than an `async`
/// block, which keeps a state byte and so would allocate when boxed.
struct AcceptedAtEnd;

impl Future for AcceptedAtEnd {
    type Output = Result<PostToolDecision, ToolError>;

    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Self::Output> {
        Poll::Ready(Ok(PostToolDecision::accept()))
    }
}

impl std::fmt::Debug for PostExecuteNext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostExecuteNext")
            .field("execution", &self.execution)
            .finish_non_exhaustive()
    }
}
