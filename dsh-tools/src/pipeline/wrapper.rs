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

use crate::definition::ToolDefinition;
use crate::error::ToolError;
use crate::execution::ToolExecution;
use crate::future::BoxFuture;
use crate::pipeline::call::CallContext;
use crate::pipeline::chain::{Chain, HookList};
use crate::pipeline::{dispatch, normalize};
use crate::result::ToolExecutionResult;

/// What a layer returns: a result, or an error that ends the call (skipping post-execute).
pub type LayerResult = Result<ToolExecutionResult, ToolError>;

/// An `execute` wrapper: a layer around dispatch (timeouts, retries, metrics, caches).
pub trait ExecuteLayer: Send + Sync + 'static {
    /// Handles one call: usually does something around `next.run(request)`.
    fn call(&self, request: DispatchRequest, next: Next) -> BoxFuture<'static, LayerResult>;
}

/// An [`ExecuteLayer`] made from a closure; see [`layer_fn`].
#[derive(Clone, Copy, Debug)]
pub struct LayerFn<F>(F);

/// Makes an [`ExecuteLayer`] from `f(request, next)`.
pub fn layer_fn<F, Fut>(f: F) -> LayerFn<F>
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
    pub fn set_signal(&mut self, signal: CancellationToken) {
        self.signal = Some(signal);
    }

    /// [`set_signal`](Self::set_signal), by value.
    #[must_use]
    pub fn with_signal(mut self, signal: CancellationToken) -> Self {
        self.set_signal(signal);
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

/// The layers inside this one, ending in dispatch. Clone it to call it more than once (retries).
#[derive(Clone)]
pub struct Next {
    chain: Chain<dyn ExecuteLayer>,
}

impl Next {
    pub(crate) fn new(layers: HookList<dyn ExecuteLayer>) -> Self {
        Self {
            chain: Chain::new(layers),
        }
    }

    /// Runs the inner layers and the dispatch; the result is already adopted by the registry.
    pub fn run(self, request: DispatchRequest) -> BoxFuture<'static, LayerResult> {
        match self.chain.split() {
            // Two futures rather than one that can do both: the common one stays small.
            None => match request.signal {
                None => Box::pin(async move { Ok(dispatch::dispatch(&request.call).await) }),
                Some(replacement) => Box::pin(async move {
                    Ok(dispatch::dispatch_replaced(&request.call, replacement).await)
                }),
            },
            Some((layer, rest)) => Box::pin(async move {
                let call = request.call.clone();
                let result = layer.call(request, Self { chain: rest }).await?;
                Ok(normalize::adopt(&call, result))
            }),
        }
    }
}

impl std::fmt::Debug for Next {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Next").finish_non_exhaustive()
    }
}
