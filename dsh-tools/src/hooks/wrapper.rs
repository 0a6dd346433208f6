//! `execute` wrappers: tower-like layers around dispatch.
//!
//! A layer gets the [`DispatchRequest`] and the [`Next`] layer; it may replace the body's
//! cancellation token, call `next` (once, several times, or not at all) and return any result.
//! Whatever a layer returns is adopted by the registry before the layer outside it sees it: a
//! result the registry built for this very call passes unchanged, an authored failure keeps its
//! content, and an authored success is rebuilt from its value through the tool's output contract
//! (so no layer can smuggle content past the output schema). Layers registered first are outermost.

use std::future::Future;
use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::call::context::CallContext;
use crate::call::definition::ToolDefinition;
use crate::call::execution::ToolExecution;
use crate::errors::tool_error::ToolError;
use crate::future::BoxFuture;
use crate::hooks::chain::{Chain, HookList};
use crate::result::ToolExecutionResult;

/// What a layer returns, spelled out in the public signatures: a result, or an error that ends
/// the call (skipping post-execute).
pub(crate) type LayerResult = Result<ToolExecutionResult, ToolError>;

/// An `execute` wrapper: a layer around dispatch (timeouts, retries, metrics, caches).
pub trait ExecuteLayer: Send + Sync + 'static {
    /// Handles one call: usually does something around `next.run(request)`. It returns a result,
    /// or an error that ends the call (skipping post-execute).
    fn call(
        &self,
        request: DispatchRequest,
        next: Next,
    ) -> BoxFuture<'static, Result<ToolExecutionResult, ToolError>>;
}

/// An [`ExecuteLayer`] made from a closure: what
/// [`ToolScope::on_execute`](crate::ToolScope::on_execute) adds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LayerFn<F>(F);

/// Makes an [`ExecuteLayer`] from `f(request, next)`.
pub(crate) fn layer_fn<F, Fut>(f: F) -> LayerFn<F>
where
    F: Fn(DispatchRequest, Next) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = LayerResult> + Send + 'static,
{
    LayerFn(f)
}

impl<F, Fut> ExecuteLayer for LayerFn<F>
where
    F: Fn(DispatchRequest, Next) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = LayerResult> + Send + 'static,
{
    fn call(&self, request: DispatchRequest, next: Next) -> BoxFuture<'static, LayerResult> {
        Box::pin((self.0)(request, next))
    }
}

/// One dispatch as the layers see it: the frozen execution and the cancellation token the body
/// will get. Cheap to clone.
#[derive(Clone)]
pub struct DispatchRequest {
    pub(crate) call: CallContext,
    /// A layer's replacement for the body's token; `None` keeps the caller's.
    pub(crate) signal: Option<CancellationToken>,
}

impl DispatchRequest {
    pub(crate) fn new(call: CallContext) -> Self {
        Self { call, signal: None }
    }

    /// The call.
    pub fn execution(&self) -> &ToolExecution {
        self.call.execution()
    }

    /// The definition visible to the caller when the call started (`None` for an unknown tool).
    pub fn definition(&self) -> Option<&Arc<dyn ToolDefinition>> {
        self.call.definition.as_ref()
    }

    /// The token the body will watch: the last replacement, or the caller's.
    pub fn signal(&self) -> &CancellationToken {
        match &self.signal {
            Some(signal) => signal,
            None => self.call.execution().signal(),
        }
    }

    /// Replaces the body's token. Derive the new one from [`signal`](Self::signal) (a
    /// `child_token`) so outer layers still reach the body; the caller's own token always does.
    #[must_use]
    pub fn with_signal(mut self, signal: CancellationToken) -> Self {
        self.signal = Some(signal);
        self
    }
}

impl std::fmt::Debug for DispatchRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DispatchRequest")
            .field("execution", self.execution())
            .field("signal_replaced", &self.signal.is_some())
            .finish()
    }
}

/// What lies inside the innermost layer, supplied by the pipeline (this contract only calls it):
/// dispatch itself, and how a layer's result is adopted before the layer outside it sees it.
pub(crate) struct Innermost {
    /// Runs the body for `request` (with the request's token, replaced or not).
    pub(crate) dispatch: fn(DispatchRequest) -> BoxFuture<'static, LayerResult>,
    /// Makes what a layer returned a result of this call (re-checked against the output contract).
    pub(crate) adopt: fn(&CallContext, ToolExecutionResult) -> ToolExecutionResult,
}

/// The layers inside this one, ending in dispatch. Clone it to call it more than once (retries).
#[derive(Clone)]
pub struct Next {
    chain: Chain<dyn ExecuteLayer>,
    innermost: &'static Innermost,
}

impl Next {
    pub(crate) fn new(layers: HookList<dyn ExecuteLayer>, innermost: &'static Innermost) -> Self {
        Self {
            chain: Chain::new(layers),
            innermost,
        }
    }

    /// Runs the inner layers and the dispatch; the result is already adopted by the registry.
    pub fn run(
        self,
        request: DispatchRequest,
    ) -> BoxFuture<'static, Result<ToolExecutionResult, ToolError>> {
        let innermost = self.innermost;
        match self.chain.split() {
            None => (innermost.dispatch)(request),
            Some((layer, rest)) => Box::pin(async move {
                let call = request.call.clone();
                let next = Self {
                    chain: rest,
                    innermost,
                };
                let result = layer.call(request, next).await?;
                Ok((innermost.adopt)(&call, result))
            }),
        }
    }
}

impl std::fmt::Debug for Next {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Next").finish_non_exhaustive()
    }
}
