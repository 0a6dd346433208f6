//! Registering hooks on a layer ([`ToolScope`], the registry's global layer included): one method
//! per hook kind, each turning what the user hands over into the stored [`Hook`] — guards and
//! result observers through their adapters (`hooks/guard.rs`, `hooks/observer.rs`).
//!
//! A hook registered in the global layer applies to every call; one registered in a scope, to the
//! calls of that scope and its descendants. Hooks of each kind run in this order: the global
//! layer's, then each scope's from the farthest ancestor to the call's own scope; within one
//! layer, in registration order; for `execute` layers, first means outermost.
//!
//! Registration returns `Result<Registration, RegistryError>` in every layer: through a disposed
//! scope it fails (`ScopeDisposed`); in the global layer, which always exists, it never does.

use std::future::Future;
use std::sync::Arc;

use crate::call::execution::ToolExecution;
use crate::errors::tool_error::ToolError;
use crate::hooks::Hook;
use crate::hooks::call_observer::CallObserver;
use crate::hooks::guard::Guard;
use crate::hooks::name_guard::NameGuard;
use crate::hooks::observer::{ObserverReturn, OnResult};
use crate::hooks::post_execute::{PostExecuteNext, PostToolDecision};
use crate::hooks::pre_execute::{PreExecuteNext, PreToolDecision};
use crate::hooks::wrapper::{DispatchRequest, ExecuteLayer, Next, layer_fn};
use crate::registry::scope::ToolScope;
use crate::result::ToolExecutionResult;
use crate::store::error::RegistryError;
use crate::store::registration::Registration;

impl ToolScope {
    fn add_hook(&self, hook: Hook) -> Result<Registration, RegistryError> {
        self.core().add_hook(self.place().clone(), hook)
    }

    /// Adds a `pre-execute` listener: it sees each call this layer's hooks apply to (see the
    /// [module docs](crate::registry#hook-order) for the order) and allows, denies or asks about
    /// it, or hands it on to the next listener.
    pub fn on_pre_execute<F, Fut>(&self, hook: F) -> Result<Registration, RegistryError>
    where
        F: Fn(ToolExecution, PreExecuteNext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<PreToolDecision, ToolError>> + Send + 'static,
    {
        self.add_hook(Hook::PreExecute(Arc::new(hook)))
    }

    /// Adds a guard: `Some(reason)` denies the call. Guards decide synchronously, after the whole
    /// `pre-execute` waterfall (and approval) allowed the call, and can only deny.
    pub fn guard<F>(&self, guard: F) -> Result<Registration, RegistryError>
    where
        F: Fn(&ToolExecution) -> Option<String> + Send + Sync + 'static,
    {
        self.add_hook(Hook::Guard(Arc::new(Guard(guard))))
    }

    /// Adds a name guard: a guard that decides on the tool's name alone (`Some(reason)` denies
    /// every call of that tool through this layer's calls).
    ///
    /// At call time it runs with the other guards, in the same place and order (global layer
    /// first, then each scope from the farthest ancestor; registration order within a layer),
    /// and denies with its reason. Because it needs no call, the registry also asks it when it
    /// shows tools: the views this layer's hooks apply to leave a denied tool out of their
    /// schemas (and of what providers are given), `tool_search` never finds it there and
    /// [`load_tools`](ToolScope::load_tools) treats it as a name the view does not have. A
    /// general [`guard`](ToolScope::guard) cannot be asked without a call, so it never hides a
    /// tool. Registering or disposing it takes effect at once on listings and searches.
    ///
    /// The guard should be cheap and pure: it is asked for each tool whenever a listing is
    /// rebuilt and for each hit of a search. One that panics hides the tool from listings and
    /// searches, and its call fails as any panicking guard's does.
    ///
    /// ```
    /// # use dsh_tools::ToolRegistry;
    /// let registry = ToolRegistry::new();
    /// let _registration = registry
    ///     .guard_tools(|name: &str| name.starts_with("admin_").then(|| "admins only".to_owned()));
    /// ```
    pub fn guard_tools<F>(&self, guard: F) -> Result<Registration, RegistryError>
    where
        F: Fn(&str) -> Option<String> + Send + Sync + 'static,
    {
        self.add_hook(Hook::NameGuard(Arc::new(NameGuard(Arc::new(guard)))))
    }

    /// Adds an `execute` layer, around dispatch.
    pub fn wrap(&self, layer: impl ExecuteLayer) -> Result<Registration, RegistryError> {
        self.add_hook(Hook::Execute(Arc::new(layer)))
    }

    /// Adds an `execute` layer made from a closure `f(request, next)`: the same as
    /// [`wrap`](Self::wrap) with an [`ExecuteLayer`] whose `call` runs it.
    pub fn on_execute<F, Fut>(&self, layer: F) -> Result<Registration, RegistryError>
    where
        F: Fn(DispatchRequest, Next) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<ToolExecutionResult, ToolError>> + Send + 'static,
    {
        self.wrap(layer_fn(layer))
    }

    /// Adds a `post-execute` listener: it accepts, replaces or blocks each result, or hands it
    /// on to the next listener.
    pub fn on_post_execute<F, Fut>(&self, hook: F) -> Result<Registration, RegistryError>
    where
        F: Fn(ToolExecution, Arc<ToolExecutionResult>, PostExecuteNext) -> Fut
            + Send
            + Sync
            + 'static,
        Fut: Future<Output = Result<PostToolDecision, ToolError>> + Send + 'static,
    {
        self.add_hook(Hook::PostExecute(Arc::new(hook)))
    }

    /// Adds a result observer: it sees each call's final result once, as the model will, before
    /// the call observers; it cannot change it, and its failures are logged.
    pub fn on_result<F, R>(&self, observer: F) -> Result<Registration, RegistryError>
    where
        F: Fn(&ToolExecution, &ToolExecutionResult) -> R + Send + Sync + 'static,
        R: ObserverReturn,
    {
        self.add_hook(Hook::ResultObserver(Arc::new(OnResult(observer))))
    }

    /// Adds a call observer: it follows each call from its start through its progress reports to
    /// its result (see [`CallObserver`]), e.g. a UI or the ACP bridge.
    pub fn observe(&self, observer: impl CallObserver) -> Result<Registration, RegistryError> {
        self.add_hook(Hook::CallObserver(Arc::new(observer)))
    }
}
