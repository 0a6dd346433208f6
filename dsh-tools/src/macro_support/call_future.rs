//! The future a `#[tool]`'s `Tool::call` returns for a function without `#[state]` parameters:
//! the user's function's future, and what it returns turned into the call's result when it is
//! ready.
//!
//! The generated `call` destructures the arguments and calls the function itself, then wraps the
//! function's future in this: a plain struct with a short `poll`, rather than an `async` block in
//! the generated code, whose state machine and drop glue a debug build compiled again for every
//! tool. The conversion is a function pointer (the runtime's `tool_value` for a plain value,
//! shared by the tools of one value type).
//!
//! A function with `#[state]` parameters keeps an `async` block: a state type that is not
//! `Sync` is reported at its check, which leaves the block's type an error, so the block is not
//! reported again as not `Send`; the user's future, whose parameters hold the state, would be.

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

        let into_error: fn(Result<u8, &str>) -> Result<u8, ToolError> =
            |returned| returned.map_err(ToolError::new);
        let call = CallFuture::new(ready(Err("no")), into_error);
        let mut call = std::pin::pin!(call);
        match poll(call.as_mut()) {
            Poll::Ready(Err(error)) => assert_eq!(error.message(), "no"),
            other => panic!("the body's error, not {other:?}"),
        }
    }
}
