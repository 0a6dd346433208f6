//! The registration, hook and presentation API of a registry layer, written once for the global
//! layer ([`ToolRegistry`](crate::ToolRegistry)) and for every agent scope
//! ([`ToolScope`](crate::ToolScope)).
//!
//! Each of the two types supplies three private methods — `place()` (where its registrations
//! go), `add_hook(AnyHook)` (how a hook is added, returning `hook_result`) and
//! `resolve_call(name, agent)` (how a call's definition is resolved for its cards) — and
//! [`layer_api!`] gives it the same public methods with the same bounds and docs. The two differ
//! only where they must: a scope's hook registration can fail (the scope may be gone), the
//! global layer's cannot, and the docs say which calls a hook applies to. A new hook kind is
//! added here, once.

/// Implements the shared layer API on `$ty` (see the module docs).
macro_rules! layer_api {
    (
        $ty:ident,
        hook_result: $ret:ty,
        applies_to: $applies:literal,
        register_doc: $register_doc:literal
    ) => {
        impl $ty {
            #[doc = $register_doc]
            pub fn register(
                &self,
                tool: impl $crate::registry::into_definition::IntoToolDefinition,
            ) -> ::std::result::Result<
                $crate::store::registration::Registration,
                $crate::store::error::RegistryError,
            > {
                self.core
                    .register_tool(self.place(), tool.into_definition())
            }

            /// Registers several tools in one change, all or none: if any is refused (for the
            /// reasons [`register`](Self::register) gives, or a name given twice), nothing is
            /// registered. No call and no [`schemas`](Self::schemas) sees some of them without the
            /// others; listeners hear one event per tool, in the order given. The handles come
            /// back in the same order.
            ///
            /// `tools` is an array, a `Vec` or an iterator of tools of one type, or a tuple of
            /// tools of different types (`register_all((GreetTool, ping))`, no boxing or casts);
            /// see [`IntoToolDefinitions`](crate::registry::IntoToolDefinitions).
            pub fn register_all<M>(
                &self,
                tools: impl $crate::registry::into_definition::IntoToolDefinitions<M>,
            ) -> ::std::result::Result<
                ::std::vec::Vec<$crate::store::registration::Registration>,
                $crate::store::error::RegistryError,
            > {
                self.core
                    .register_tools(self.place(), tools.into_definitions())
            }

            #[doc = concat!("Adds a `pre-execute` listener for ", $applies, " (see the [`registry`](crate::registry) module docs for the order).")]
            pub fn on_pre_execute<F, Fut>(&self, hook: F) -> $ret
            where
                F: Fn($crate::call::execution::ToolExecution, $crate::hooks::PreExecuteNext) -> Fut
                    + Send
                    + Sync
                    + 'static,
                Fut: ::std::future::Future<
                        Output = ::std::result::Result<
                            $crate::hooks::PreToolDecision,
                            $crate::error::ToolError,
                        >,
                    > + Send
                    + 'static,
            {
                self.add_hook($crate::store::state::AnyHook::PreExecute(
                    ::std::sync::Arc::new(hook),
                ))
            }

            #[doc = concat!("Adds a guard for ", $applies, ": `Some(reason)` denies the call.")]
            pub fn guard<F>(&self, guard: F) -> $ret
            where
                F: Fn(&$crate::call::execution::ToolExecution) -> ::std::option::Option<String>
                    + Send
                    + Sync
                    + 'static,
            {
                self.add_hook($crate::store::state::AnyHook::Guard(::std::sync::Arc::new(
                    guard,
                )))
            }

            #[doc = concat!("Adds an `execute` layer for ", $applies, ".")]
            pub fn wrap(&self, layer: impl $crate::hooks::ExecuteLayer) -> $ret {
                self.add_hook($crate::store::state::AnyHook::Wrapper(::std::sync::Arc::new(
                    layer,
                )))
            }

            #[doc = concat!("Adds an `execute` layer made from a closure (see [`layer_fn`](crate::hooks::layer_fn)) for ", $applies, ".")]
            pub fn on_execute<F, Fut>(&self, layer: F) -> $ret
            where
                F: Fn($crate::hooks::DispatchRequest, $crate::hooks::Next) -> Fut
                    + Send
                    + Sync
                    + 'static,
                Fut: ::std::future::Future<Output = $crate::hooks::LayerResult> + Send + 'static,
            {
                self.wrap($crate::hooks::layer_fn(layer))
            }

            #[doc = concat!("Adds a `post-execute` listener for ", $applies, ".")]
            pub fn on_post_execute<F, Fut>(&self, hook: F) -> $ret
            where
                F: Fn(
                        $crate::call::execution::ToolExecution,
                        ::std::sync::Arc<$crate::result::ToolExecutionResult>,
                        $crate::hooks::PostExecuteNext,
                    ) -> Fut
                    + Send
                    + Sync
                    + 'static,
                Fut: ::std::future::Future<
                        Output = ::std::result::Result<
                            $crate::hooks::PostToolDecision,
                            $crate::error::ToolError,
                        >,
                    > + Send
                    + 'static,
            {
                self.add_hook($crate::store::state::AnyHook::PostExecute(
                    ::std::sync::Arc::new(hook),
                ))
            }

            #[doc = concat!("Adds a result observer for ", $applies, ".")]
            pub fn on_result<F, R>(&self, observer: F) -> $ret
            where
                F: Fn(
                        &$crate::call::execution::ToolExecution,
                        &$crate::result::ToolExecutionResult,
                    ) -> R
                    + Send
                    + Sync
                    + 'static,
                R: $crate::hooks::ObserverReturn,
            {
                self.add_hook($crate::store::state::AnyHook::Observer(::std::sync::Arc::new(
                    observer,
                )))
            }

            #[doc = concat!("Adds a call observer for ", $applies, ": it follows each call from its start through its progress reports to its result (see [`CallObserver`](crate::hooks::CallObserver)), e.g. a UI or the ACP bridge.")]
            pub fn observe(&self, observer: impl $crate::hooks::CallObserver) -> $ret {
                self.add_hook($crate::store::state::AnyHook::CallObserver(
                    ::std::sync::Arc::new(observer),
                ))
            }

            /// The pending card of `call` (a [`ToolExecutionInput`](crate::ToolExecutionInput)
            /// or the [`ToolExecution`](crate::call::ToolExecution) hooks see), resolved as this
            /// layer resolves it. Never fails: an unknown tool, a presenter that returns nothing or
            /// panics all give the generic card.
            pub fn present_call(
                &self,
                call: &(impl $crate::present::ToolCallRef + ?Sized),
            ) -> $crate::present::ToolCallView {
                let definition = self.resolve_call(call.tool_name(), call.tool_agent());
                $crate::registry::present::pending_card(definition.as_deref(), call)
            }

            /// The card of a call of `name` the model is still writing, from its `arguments` so
            /// far in the tool's own form (a stream's
            /// [`arguments_so_far`](crate::providers::stream::ToolCallStream::arguments_so_far)),
            /// resolved as this layer resolves it: the tool's partial presenter's card
            /// ([`ToolDefinition::present_partial_call`](crate::ToolDefinition::present_partial_call)),
            /// else the generic card with the raw input so far. Never fails. Once the call has
            /// finished, show [`present_call`](Self::present_call) of its input.
            pub fn present_partial_call(
                &self,
                name: &str,
                arguments: &$crate::Value,
            ) -> $crate::present::ToolCallView {
                let definition = self.resolve_call(name, None);
                $crate::present::ToolCallView::present_partial(definition.as_deref(), name, arguments)
            }

            /// The card of `call` while it runs, after it reported `progress`: its progress
            /// presenter's card, else its pending card.
            pub fn present_progress(
                &self,
                call: &(impl $crate::present::ToolCallRef + ?Sized),
                progress: &$crate::progress::ToolProgress,
            ) -> $crate::present::ToolCallView {
                let definition = self.resolve_call(call.tool_name(), call.tool_agent());
                $crate::registry::present::progress_card(definition.as_deref(), call, progress)
            }

            /// The card of `call`'s `result`. Never fails and never blank; a failure always shows
            /// its error text (see [`ToolResultView::present`](crate::present::ToolResultView::present)).
            pub fn present_result(
                &self,
                call: &(impl $crate::present::ToolCallRef + ?Sized),
                result: &$crate::result::ToolExecutionResult,
            ) -> $crate::present::ToolResultView {
                let definition = self.resolve_call(call.tool_name(), call.tool_agent());
                $crate::registry::present::result_card(definition.as_deref(), call, result)
            }
        }
    };
}

pub(crate) use layer_api;
