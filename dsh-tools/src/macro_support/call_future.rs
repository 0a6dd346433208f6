//! The future a `#[tool]`'s `Tool::call` returns: the user's function's future, and what it
//! returns turned into the call's result when it is ready ([`CallFuture`]); for a function with
//! `#[state]` parameters, that or the error of a lookup that failed before the function was
//! called ([`StateCall`]).
//!
//! The generated `call` destructures the arguments, looks the state up and calls the function
//! itself, then wraps the function's future in these. They are a plain struct and enum with a
//! short `poll`, rather than an `async` block in the generated code, whose state machine and
//! drop glue a debug build compiled again for every tool. The conversion is a function pointer
//! (the runtime's `tool_value` for a plain value, shared by the tools of one value type). A
//! function without `#[state]` parameters, the most common, gets the struct alone: it cannot
//! fail before it is called, and the enum's larger projection and drop would be compiled for
//! nothing.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::errors::tool_error::ToolError;

pin_project_lite::pin_project! {
    /// The call of a `#[tool]` function whose future is `F`, returning `T`, which `convert`
    /// turns into the tool's output `O` or its error.
    pub struct CallFuture<F, T, O> {
        #[pin]
        body: F,
        convert: fn(T) -> Result<O, ToolError>,
    }
}

impl<F, T, O> CallFuture<F, T, O>
where
    F: Future<Output = T>,
{
    /// The call whose function returned the future `body`. Always inlined: a separate function
    /// would be compiled for every tool, only to move two fields. (The bound lets the generated
    /// conversion of a `Result` name its value by the function's return type.)
    #[inline(always)]
    pub fn new(body: F, convert: fn(T) -> Result<O, ToolError>) -> Self {
        Self { body, convert }
    }
}

impl<F, T, O> Future for CallFuture<F, T, O>
where
    F: Future<Output = T>,
{
    type Output = Result<O, ToolError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        match this.body.poll(cx) {
            Poll::Ready(returned) => Poll::Ready((this.convert)(returned)),
            Poll::Pending => Poll::Pending,
        }
    }
}

pin_project_lite::pin_project! {
    /// The call of a `#[tool]` function with `#[state]` parameters: the function's
    /// [`CallFuture`], or the error of a lookup that failed, so the function was not called.
    #[project = StateCallProjection]
    pub enum StateCall<F, T, O> {
        /// Every lookup succeeded and the function was called.
        Called {
            #[pin]
            call: CallFuture<F, T, O>,
        },
        /// A lookup failed; the first poll takes its error.
        Failed { error: Option<ToolError> },
    }
}

impl<F, T, O> StateCall<F, T, O>
where
    F: Future<Output = T>,
{
    /// The call whose function returned the future `body`. Always inlined, as
    /// [`CallFuture::new`].
    #[inline(always)]
    pub fn new(body: F, convert: fn(T) -> Result<O, ToolError>) -> Self {
        Self::Called {
            call: CallFuture::new(body, convert),
        }
    }

    /// The call that fails with `error` before the function is called.
    #[inline(always)]
    pub fn failed(error: ToolError) -> Self {
        Self::Failed { error: Some(error) }
    }
}

impl<F, T, O> Future for StateCall<F, T, O>
where
    F: Future<Output = T>,
{
    type Output = Result<O, ToolError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project() {
            StateCallProjection::Called { call } => call.poll(cx),
            // Polled again after it finished (which a caller must not do), it never finishes
            // rather than panic.
            StateCallProjection::Failed { error } => match error.take() {
                Some(error) => Poll::Ready(Err(error)),
                None => Poll::Pending,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use std::future::ready;
    use std::task::Waker;

    use super::*;
    use crate::__private::tool_value;

    fn poll<F: Future>(future: Pin<&mut F>) -> Poll<F::Output> {
        future.poll(&mut Context::from_waker(Waker::noop()))
    }

    #[test]
    fn converts_what_the_body_returns() {
        let call = CallFuture::new(ready(7_u8), tool_value);
        let mut call = std::pin::pin!(call);
        assert!(matches!(poll(call.as_mut()), Poll::Ready(Ok(7))));

        let failing: fn(Result<u8, ToolError>) -> Result<u8, ToolError> = |returned| returned;
        let call = StateCall::new(ready(Err(ToolError::new("no"))), failing);
        let mut call = std::pin::pin!(call);
        match poll(call.as_mut()) {
            Poll::Ready(Err(error)) => assert_eq!(error.message(), "no"),
            other => panic!("the body's error, not {other:?}"),
        }
    }

    #[test]
    fn a_failed_lookup_ends_the_call_once() {
        let call: StateCall<std::future::Ready<u8>, u8, u8> =
            StateCall::failed(ToolError::new("no state"));
        let mut call = std::pin::pin!(call);
        match poll(call.as_mut()) {
            Poll::Ready(Err(error)) => assert_eq!(error.message(), "no state"),
            other => panic!("the lookup's error, not {other:?}"),
        }
        assert!(poll(call.as_mut()).is_pending());
    }
}
