//! The `pre-execute` waterfall: listeners that allow, deny or ask about a call before anything
//! runs, each able to delegate to the rest of the chain through [`PreExecuteNext`].
//!
//! Listeners see the frozen [`ToolExecution`]; nothing here can rewrite arguments or identity.
//! What happens to `ask` (the approval seam) and to a denial is the pipeline's business.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::call::execution::ToolExecution;
use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::hooks::chain::{Chain, HookList};

/// What a `pre-execute` listener decides about a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PreToolDecision {
    /// Let the call go on (guards still apply).
    Allow,
    /// Refuse the call; the model sees `Error: <reason>`.
    Deny {
        /// Why, for the model.
        reason: String,
    },
    /// Ask the installed approver; without one the call is denied with `reason`.
    Ask {
        /// Why approval is needed, shown to whoever approves.
        reason: Option<String>,
    },
}

/// A registered `pre-execute` listener (closures implement it; `guard.rs` adapts guards).
pub(crate) trait PreExecuteHook: Send + Sync + 'static {
    fn call(
        &self,
        execution: ToolExecution,
        next: PreExecuteNext,
    ) -> BoxFuture<'static, Result<PreToolDecision, ToolError>>;
}

impl<F, Fut> PreExecuteHook for F
where
    F: Fn(ToolExecution, PreExecuteNext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<PreToolDecision, ToolError>> + Send + 'static,
{
    fn call(
        &self,
        execution: ToolExecution,
        next: PreExecuteNext,
    ) -> BoxFuture<'static, Result<PreToolDecision, ToolError>> {
        Box::pin(self(execution, next))
    }
}

/// The rest of the `pre-execute` chain. [`run`](Self::run) asks the listeners after this one
/// (the default at the end is [`PreToolDecision::Allow`]).
pub struct PreExecuteNext {
    chain: Chain<dyn PreExecuteHook>,
    /// The call being decided about.
    pub execution: ToolExecution,
}

impl PreExecuteNext {
    pub(crate) fn new(hooks: HookList<dyn PreExecuteHook>, execution: ToolExecution) -> Self {
        Self {
            chain: Chain::new(hooks),
            execution,
        }
    }

    /// Runs the rest of the chain and returns its decision.
    pub fn run(self) -> BoxFuture<'static, Result<PreToolDecision, ToolError>> {
        let Self { chain, execution } = self;
        match chain.split() {
            // A zero-sized future: boxing it does not allocate.
            None => Box::pin(AllowedAtEnd),
            // Called directly: the pipeline polls the whole chain inside one panic catcher that
            // also covers the first call (see `pipeline::decide_and_dispatch`).
            Some((hook, rest)) => {
                let next = Self {
                    chain: rest,
                    execution: execution.clone(),
                };
                hook.call(execution, next)
            }
        }
    }
}

/// The decision at the end of a chain, ready at once. A unit struct rather than an `async`
/// block, which keeps a state byte and so would allocate when boxed.
struct AllowedAtEnd;

impl Future for AllowedAtEnd {
    type Output = Result<PreToolDecision, ToolError>;

    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Self::Output> {
        Poll::Ready(Ok(PreToolDecision::Allow))
    }
}

impl std::fmt::Debug for PreExecuteNext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreExecuteNext")
            .field("execution", &self.execution)
            .finish_non_exhaustive()
    }
}
